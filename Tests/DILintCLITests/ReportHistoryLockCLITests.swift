import Foundation
import SeamTestSupport
import XCTest

/// `report --history` over one repository and cache: a run holds the shared work tree's lock
/// (`flock` on `lock` in it) while it moves the tree from commit to commit; a run that finds it
/// held uses a private work tree, so two runs at once each count their own commits.
final class ReportHistoryLockCLITests: XCTestCase {
    /// A repository of five commits, each moving one access, and the expected direct/injected pairs.
    private func history() throws -> (Project, [[String]]) {
        let services = ["clock", "store", "net", "tabs"]
        let methods = services.enumerated().map {
            "- (id)m\($0.offset) { return Container.sharedInstance.\($0.element); }\n"
        }
        let project = try Project(
            self,
            files: [".di-lint.yml": Project.config, "A.m": "@implementation A\n" + methods.joined() + "@end\n"])
        try project.commitEverything()
        let url = project.root.appendingPathComponent("A.m")
        for service in services {
            let old = try String(contentsOf: url, encoding: .utf8)
            try old.replacingOccurrences(of: "Container.sharedInstance.\(service)", with: "self.bridge.\(service)")
                .write(to: url, atomically: true, encoding: .utf8)
            try project.git("add", "-A")
            try project.git("commit", "-qm", "inject \(service)")
        }
        return (project, (0...4).map { ["\(4 - $0)", "0", "\($0)"] })
    }

    private func rows(_ stdout: String) -> [[String]] {
        stdout.split(separator: "\n").dropFirst(2).map {
            Array($0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[2...4])
        }
    }

    func testARunThatFindsTheWorkTreeInUseTakesAPrivateOne() throws {
        let (project, expected) = try history()
        let home = project.root.appendingPathComponent("home").path
        let arguments = [
            "report", "--history", "HEAD", "--cache", project.root.appendingPathComponent("cache").path, "A.m",
        ]
        let first = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(rows(first.stdout), expected, first.stdout)
        // the shared work tree of this repository and cache, and its lock, held here as a running report would
        let historyDirectory = home + "/di-lint/history"
        let trees = try FileManager.default.contentsOfDirectory(atPath: historyDirectory)
        XCTAssertEqual(trees.count, 1, "\(trees)")
        let lockPath = historyDirectory + "/" + trees[0] + "/lock"
        XCTAssertTrue(FileManager.default.fileExists(atPath: lockPath), "the run did not lock \(lockPath)")
        let fd = open(lockPath, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        let blocked = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertEqual(blocked.status, 0, blocked.stderr)
        XCTAssertEqual(rows(blocked.stdout), expected, blocked.stdout)
        XCTAssertTrue(
            blocked.stderr.contains("another report --history is using the work tree"), blocked.stderr)
        // its private work tree is gone, the shared one untouched
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: historyDirectory), trees)
        flock(fd, LOCK_UN)
        // released: the next run uses the shared tree again, and finds every file in the cache
        let again = try CLIRunner.run(arguments, in: project.root, environment: ["XDG_CACHE_HOME": home])
        XCTAssertFalse(again.stderr.contains("another report --history"), again.stderr)
        XCTAssertEqual(again.stderr.components(separatedBy: "(0 parsed,").count - 1, 5, again.stderr)
    }

    func testTwoRunsAtOnceEachCountTheirCommits() throws {
        let (project, expected) = try history()
        let home = project.root.appendingPathComponent("home").path
        let cache = project.root.appendingPathComponent("cache").path
        // the same repository and cache, two ranges: a shared work tree moved by both would mix them
        let ranges = ["HEAD", "HEAD~2"]
        var results = [CLIRunner.Run?](repeating: nil, count: 2)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let run = try? CLIRunner.run(
                ["report", "--history", ranges[i], "--cache", cache, "A.m"], in: project.root,
                environment: ["XDG_CACHE_HOME": home])
            lock.lock()
            results[i] = run
            lock.unlock()
        }
        let all = try XCTUnwrap(results[0]), older = try XCTUnwrap(results[1])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertEqual(rows(all.stdout), expected, all.stdout)
        XCTAssertEqual(rows(older.stdout), Array(expected.prefix(3)), older.stdout)
    }
}
