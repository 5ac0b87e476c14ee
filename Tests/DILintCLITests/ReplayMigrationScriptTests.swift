import Foundation
import SeamTestSupport
import XCTest

/// `scripts/replay-migration` on a small git repository whose last commit is a dependency-injection
/// migration the way teams do it: the humans inject `tabs` through the initializer and a
/// parameter, keep another service, and update the caller. The harness must classify each access
/// by what the humans did and what the real `di-lint fix` did, and say the same every run.
final class ReplayMigrationScriptTests: XCTestCase {
    private let parent = """
        final class Coordinator {
            let name: String
            init(name: String) {
                self.name = name
            }
            func start() {
                Container.shared.tabs.open(name)
                Container.shared.profile.load()
            }
        }

        func resetTabs() {
            Container.shared.tabs.closeAll()
        }

        func flushLog() {
            Container.shared.logger.flush()
        }

        func makeCoordinator() -> Coordinator { Coordinator(name: "main") }

        """

    private let migrated = """
        final class Coordinator {
            let name: String
            private let tabs: TabStore
            init(name: String, tabs: TabStore) {
                self.name = name
                self.tabs = tabs
            }
            func start() {
                tabs.open(name)
                Container.shared.profile.load()
            }
        }

        func resetTabs(_ tabs: TabStore) {
            tabs.closeAll()
        }

        func flushLog() {
            Container.shared.logger.flush()
        }

        func makeCoordinator() -> Coordinator { Coordinator(name: "main", tabs: Container.shared.tabs) }

        """

    private func makeRepository() throws -> TemporaryProject {
        let project = try TemporaryProject(
            self,
            files: [
                "Sources/Coordinator.swift": parent,
                "Sources/Legacy.swift": "func legacy() {\n    Container.shared.tabs.legacy()\n}\n",
            ])
        try FileManager.default.removeItem(at: project.root.appendingPathComponent(".di-lint.yml"))
        try project.commitEverything()
        try project.write("Sources/Coordinator.swift", migrated)
        try project.git("rm", "-q", "Sources/Legacy.swift")
        try project.git("commit", "-qam", "Inject tabs")
        return project
    }

    private func replay(_ repository: URL, json: URL, extra: [String] = []) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(
            "/usr/bin/env",
            [
                "python3", "scripts/replay-migration", repository.path, "HEAD",
                "--container", "Container.shared", "--di-lint", diLintBinary,
                "--json", json.path,
            ] + extra, in: packageRoot)
    }

    private func accesses(_ json: URL) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
        let results = object?["results"] as? [[String: Any]] ?? []
        XCTAssertEqual(results.count, 1)
        return results.first?["accesses"] as? [[String: Any]] ?? []
    }

    func testEachAccessIsClassifiedByWhatTheHumansAndFixDidAndTheOutputIsTheSameEveryRun() throws {
        let project = try makeRepository()
        let first = project.root.appendingPathComponent("first.json"),
            second = project.root.appendingPathComponent("second.json")
        // the bridge style needs its type named: fix declares no type the project does not have
        // untracked: not part of the commits
        try project.write("fix.yml", "containers: [Container.shared]\nbridge-type: Bridge\n")
        let config = project.root.appendingPathComponent("fix.yml")
        let run = try replay(project.root, json: first, extra: ["--config", config.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let again = try replay(project.root, json: second, extra: ["--config", config.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(run.stdout, again.stdout, "the table differs between two runs")
        XCTAssertEqual(try Data(contentsOf: first), try Data(contentsOf: second), "the JSON differs between two runs")

        let all = try accesses(first)
        func access(_ scope: String, _ service: String) -> [String: Any]? {
            all.first { $0["scope"] as? String == scope && $0["service"] as? String == service }
        }
        func side(_ record: [String: Any]?, _ name: String) -> [String: Any] { record?[name] as? [String: Any] ?? [:] }

        // Moved by the humans (tabs.open) and by fix: the fixed file no longer reads the container there.
        let open = access("Coordinator.start()", "tabs")
        XCTAssertEqual(open?["class"] as? String, "both", "\(all)")
        XCTAssertEqual(side(open, "humans")["line"] as? String, "        tabs.open(name)")
        let fixLine = try XCTUnwrap(side(open, "fix")["line"] as? String)
        XCTAssertFalse(fixLine.contains("Container.shared"), fixLine)
        XCTAssertEqual(open?["same"] as? Bool, fixLine.trimmingCharacters(in: .whitespaces) == "tabs.open(name)")

        // Kept by the humans, moved by fix (no --service): an edit the humans did not make.
        XCTAssertEqual(access("Coordinator.start()", "profile")?["class"] as? String, "fix-only", "\(all)")
        XCTAssertEqual(side(access("Coordinator.start()", "profile"), "humans")["moved"] as? Bool, false)

        // Moved by the humans into a parameter; whatever fix did, the humans' side is recorded, and
        // an access fix did not move carries fix's verdict and reason.
        let reset = access("resetTabs()", "tabs")
        XCTAssertEqual(side(reset, "humans")["moved"] as? Bool, true)
        XCTAssertEqual(side(reset, "humans")["line"] as? String, "    tabs.closeAll()")
        if side(reset, "fix")["moved"] as? Bool == false {
            XCTAssertTrue(
                ["manual", "refused", "human-only"].contains(reset?["class"] as? String ?? ""),
                "\(String(describing: reset))")
            if reset?["class"] as? String != "human-only" {
                XCTAssertFalse((side(reset, "fix")["reason"] as? String ?? "").isEmpty)
            }
        }

        // The humans kept the logger read: never counted as theirs.
        XCTAssertEqual(side(access("flushLog()", "logger"), "humans")["moved"] as? Bool, false)
        // A file the commit deletes is not a migration.
        XCTAssertEqual(access("legacy()", "tabs")?["class"] as? String, "deleted", "\(all)")

        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: first)) as? [String: Any]
        let result = try XCTUnwrap((object?["results"] as? [[String: Any]])?.first)
        // The caller the humans updated reads the container now: listed as added by the humans.
        let added = result["addedByHumans"] as? [[String: Any]] ?? []
        XCTAssertEqual(added.map { $0["scope"] as? String }, ["makeCoordinator()"], "\(added)")
        // Fix edited the Swift file; swiftc -parse ran on it, before and after.
        let parses = result["swiftcParse"] as? [[String: Any]] ?? []
        XCTAssertEqual(parses.map { $0["path"] as? String }, ["Sources/Coordinator.swift"])
        XCTAssertEqual(parses.first?["fixedParses"] as? Bool, true, "\(parses)")

        let totals = try XCTUnwrap(result["totals"] as? [String: Int])
        XCTAssertEqual(totals["humansMoved"], 2)
        XCTAssertEqual(
            totals["humansMoved"],
            (totals["fixMovedToo"] ?? 0) + (totals["humanOnly"] ?? 0)
                + (totals["manual"] ?? 0) + (totals["refused"] ?? 0))
        XCTAssertEqual(totals["deletedWithFile"], 1)
        let row = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.contains(" | 2 | all | 2 | ") })
        XCTAssertTrue(row.hasPrefix("| "), String(row))
    }

    func testOneServiceLeavesTheOtherServicesOutOfTheComparison() throws {
        let project = try makeRepository()
        let json = project.root.appendingPathComponent("tabs.json")
        let run = try replay(project.root, json: json, extra: ["--service", "tabs"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let all = try accesses(json)
        XCTAssertEqual(Set(all.compactMap { $0["service"] as? String }), ["tabs"], "\(all)")
        XCTAssertTrue(run.stdout.contains(" | tabs | 2 | "), run.stdout)
    }

    func testAMissingCommitOrRepositoryIsAClearErrorNotATraceback() throws {
        let project = try makeRepository()
        let json = project.root.appendingPathComponent("none.json")
        let missing = try runProcess(
            "/usr/bin/env",
            [
                "python3", "scripts/replay-migration", project.root.path, "0123456789abcdef",
                "--container", "Container.shared", "--di-lint", diLintBinary, "--json", json.path,
            ],
            in: packageRoot)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stdout.contains("0123456789abcdef: no such commit"), missing.stdout)
        XCTAssertFalse(missing.stderr.contains("Traceback"), missing.stderr)
        let usage = try runProcess(
            "/usr/bin/env", ["python3", "scripts/replay-migration", "--di-lint", diLintBinary], in: packageRoot)
        XCTAssertEqual(usage.status, 2)
    }
}
