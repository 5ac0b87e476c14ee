import Foundation
import SeamTestSupport
import XCTest

/// `di-lint report --history`: the totals at each commit of a range, a chart, and the cache.
final class ReportHistoryCLITests: XCTestCase {
    func testCountsEachCommitAndReusesTheCache() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": Project.config,
                "A.m":
                    "@implementation A\n- (id)x { return Container.sharedInstance.clock; }\n- (id)y { return Container.sharedInstance.store; }\n@end\n",
            ])
        try project.commitEverything()
        func edit(_ path: String, _ change: (String) -> String, _ message: String) throws {
            let url = project.root.appendingPathComponent(path)
            let old = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            try change(old).write(to: url, atomically: true, encoding: .utf8)
            try project.git("add", "-A")
            try project.git("commit", "-qm", message)
        }
        try edit(
            "A.m", { $0.replacingOccurrences(of: "Container.sharedInstance.clock", with: "self.bridge.clock") },
            "inject the clock")
        try edit("B.m", { _ in "- (id)z { return Container.sharedInstance.net; }\n" }, "add B")
        try edit(
            "A.m", { $0.replacingOccurrences(of: "Container.sharedInstance.store", with: "self.bridge.store") },
            "inject the store")
        let home = project.root.appendingPathComponent("home").path
        let arguments = [
            "report", "--history", "HEAD", "--cache", project.root.appendingPathComponent("cache").path,
            "--chart", "burn-down.svg", "A.m", "B.m",
        ]
        let first = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertEqual(first.status, 0, first.stderr)
        let rows = first.stdout.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(
            rows.map { Array($0[2...4]) }, [["2", "0", "0"], ["1", "0", "1"], ["2", "0", "1"], ["1", "0", "2"]],
            first.stdout)
        XCTAssertEqual(rows.map(\.last), ["start", "inject the clock", "add B", "inject the store"])
        let svg = try String(contentsOf: project.root.appendingPathComponent("burn-down.svg"), encoding: .utf8)
        XCTAssertTrue(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"), svg)
        XCTAssertTrue(svg.contains("injected: 2") && svg.contains("direct: 1"), svg)
        // a second run finds every file in the cache: nothing is parsed again
        let second = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stderr.components(separatedBy: "(0 parsed,").count - 1, 4, second.stderr)
        // the work tree the runs used is not the repository's: its files are as committed
        XCTAssertTrue(
            try String(contentsOf: project.root.appendingPathComponent("A.m"), encoding: .utf8).contains(
                "self.bridge.store"))
    }

    func testBadRangesAndOptionsSayWhatIsWrong() throws {
        let project = try Project(self, files: [".di-lint.yml": Project.config, "A.m": "int x;\n"])
        try project.commitEverything()
        let bad = try project.run("report", "--history", "no-such-ref..HEAD")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--history: 'no-such-ref..HEAD' is not a revision range"), bad.stderr)
        let chartAlone = try project.run("report", "--chart", "x.svg")
        XCTAssertEqual(chartAlone.status, 2)
        XCTAssertTrue(chartAlone.stderr.contains("--chart needs --history"), chartAlone.stderr)
        let combined = try project.run("report", "--history", "HEAD", "--shard", "1/2")
        XCTAssertEqual(combined.status, 2)
        XCTAssertTrue(combined.stderr.contains("cannot be combined"), combined.stderr)
    }
}
