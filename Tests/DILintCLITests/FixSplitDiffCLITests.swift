import Foundation
import SeamTestSupport
import XCTest

/// The scratch directories, copies, git runs and summary of the `fix --split` tests.
extension XCTestCase {
    /// A directory under the temporary directory, removed after the test.
    func splitScratch(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "di-lint-split-\(name)-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A copy of the project (its git directory too).
    func splitCopy(_ project: Project) throws -> URL {
        let url = try splitScratch("copy")
        let cp = try runProcess("/bin/cp", ["-a", project.root.path, url.path])
        XCTAssertEqual(cp.status, 0, cp.stderr)
        return url
    }

    func splitGit(_ arguments: [String], in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["git"] + arguments, in: directory)
    }

    /// The patches of a split's summary.json.
    func splitSummary(_ dir: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: dir.appendingPathComponent("summary.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["patches"] as? [[String: Any]] ?? []
    }

    /// The tree's change from its commit as git writes it, byte for byte: `git add -A`, then
    /// `git diff --cached --binary --full-index` (new files included).
    func splitDiff(_ tree: URL) throws -> String {
        XCTAssertEqual(try splitGit(["add", "-A"], in: tree).status, 0)
        let diff = try splitGit(["diff", "--cached", "--binary", "--full-index"], in: tree)
        XCTAssertEqual(diff.status, 0, diff.stderr)
        return diff.stdout
    }
}

/// `fix --split`: the patches together are the one-run diff byte for byte, also when a file is
/// edited by several patches (each hunk then against the tree the patches before leave).
final class FixSplitDiffCLITests: XCTestCase {
    /// Swift, service style: `Ticker` reads the clock and the store, `Builder` the store. By
    /// service, Ticker.swift is in both patches (its `let`s, initializer parameters and reads of
    /// one service per patch).
    private func tree() throws -> Project {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [ServiceLocator.*]\ninject: service\n",
                "ServiceLocator.swift": """
                final class Clock { func now() -> Int { 0 } }
                final class Store { func save() {} }
                enum ServiceLocator {
                    static var clock: Clock = Clock()
                    static var store: Store = Store()
                }

                """,
                "Ticker.swift": """
                final class Ticker {
                    private var start = 0

                    init(start: Int) {
                        self.start = start
                    }

                    func tick() -> Int {
                        ServiceLocator.store.save()
                        return ServiceLocator.clock.now() - start
                    }
                }

                """,
                "Builder.swift": """
                final class Builder {
                    func build() -> Ticker {
                        ServiceLocator.store.save()
                        return Ticker(start: 1)
                    }
                }

                """,
            ])
        try project.commitEverything()
        return project
    }

    func testPatchesTogetherEqualTheOneRunDiffByteForByte() throws {
        let project = try tree()
        let dir = try splitScratch("patches")
        let run = try project.run("fix", "--phase", "inject", "--split", "service", "--patch-dir", dir.path)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(
            run.stdout.contains("together, the patches equal the one-run diff byte for byte ("), run.stdout)
        XCTAssertTrue(run.stdout.hasSuffix("): yes\n"), run.stdout)
        let patches = try splitSummary(dir)
        XCTAssertEqual(patches.map { $0["unit"] as? String }, ["clock", "store"])
        XCTAssertEqual(
            patches.map { $0["files"] as? [String] }, [["Ticker.swift"], ["Builder.swift", "Ticker.swift"]])

        // every patch in order onto a copy, with git
        let replay = try splitCopy(project)
        for patch in patches {
            let path = dir.appendingPathComponent(patch["file"] as? String ?? "").path
            let check = try splitGit(["apply", "--check", path], in: replay)
            XCTAssertEqual(check.status, 0, "\(path): \(check.stderr)")
            XCTAssertEqual(try splitGit(["apply", path], in: replay).status, 0)
        }
        // one run onto another copy
        let oneRun = try splitCopy(project)
        let applied = try CLIRunner.run(["fix", "--phase", "inject", "--apply"], in: oneRun)
        XCTAssertEqual(applied.status, 0, applied.stderr)

        let together = try splitDiff(replay), one = try splitDiff(oneRun)
        XCTAssertTrue(one.contains("diff --git a/Ticker.swift b/Ticker.swift\nindex "), one)
        XCTAssertEqual(together, one, "the patches together are not the one-run diff byte for byte")
        // and that is not the concatenation of the patches: Ticker.swift's second hunk is against
        // the tree the first patch leaves
        let second = try String(
            contentsOf: dir.appendingPathComponent(patches[1]["file"] as? String ?? ""), encoding: .utf8)
        XCTAssertTrue(second.contains("     let clock: Clock\n"), second)
    }
}
