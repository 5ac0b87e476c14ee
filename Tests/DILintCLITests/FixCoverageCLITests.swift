import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix` through the binary on the forms that widened its reach on the replay corpus:
/// headerless Objective-C whose re-parse meets errors the edit only exposed, and Swift structs
/// with only a memberwise initializer. The trees are the engine fixtures
/// (`Tests/DILintEngineTests/Fixtures/fix/objcheaderless`, `swiftmemberwise`).
final class FixCoverageCLITests: XCTestCase {
    static let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix")

    /// The fixture's `.in` files at their paths (subfolders kept), with its config.
    private func project(_ name: String) throws -> Project {
        let source = Self.fixtures.appendingPathComponent(name)
        var files: [String: String] = [:]
        for path in FileManager.default.enumerator(atPath: source.path)?.allObjects as? [String] ?? []
        where path.hasSuffix(".in") {
            files[String(path.dropLast(3))] = try String(
                contentsOf: source.appendingPathComponent(path), encoding: .utf8)
        }
        files[".di-lint.yml"] = try String(contentsOf: source.appendingPathComponent("fix.yml"), encoding: .utf8)
        let project = try Project(self, files: files)
        try project.commitEverything()
        return project
    }

    private func expected(_ name: String, _ file: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent("\(name)/\(file)"), encoding: .utf8)
    }

    /// Ten runs give the same plan, no group refused; the applied tree is the fixture's, and a
    /// second run plans nothing.
    func testHeaderlessObjectiveCVerdictIsStableAndAccepts() throws {
        let project = try project("objcheaderless")
        var outputs = Set<String>()
        for _ in 0..<10 {
            let run = try project.run("fix", "--phase", "inject", "--format", "json", ".")
            XCTAssertEqual(run.status, 0, run.stderr)
            outputs.insert(run.stdout)
        }
        XCTAssertEqual(outputs.count, 1, outputs.sorted().joined(separator: "\n----\n"))
        XCTAssertFalse(outputs.first!.contains("\"refused\""), outputs.first!)
        let apply = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertEqual(apply.status, 0, apply.stderr)
        for file in [
            "Location/RegionHelper.h", "Location/RegionHelper.m", "Search/MapController.h", "Search/MapController.m",
        ] {
            XCTAssertEqual(try project.read(file), try expected("objcheaderless", file + ".inject"), file)
        }
        let again = try project.run("fix", "--phase", "inject", ".")
        XCTAssertEqual(again.stdout, "")
        XCTAssertTrue(again.stderr.contains("0 accesses rewritten"), again.stderr)
    }

    /// The memberwise group is unsafe: withheld by `--apply`, written by `--apply --unsafe`.
    func testMemberwiseStructsNeedUnsafe() throws {
        let project = try project("swiftmemberwise")
        let safe = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertEqual(safe.status, 1, safe.stderr)
        XCTAssertTrue(safe.stderr.contains("3 accesses in 1 unsafe group withheld"), safe.stderr)
        XCTAssertEqual(try project.read("States.swift"), try expected("swiftmemberwise", "States.swift.in"))
        let unsafe = try project.run("fix", "--phase", "inject", "--apply", "--unsafe", ".")
        XCTAssertTrue(
            unsafe.stderr.contains(
                "note: 'showLoupe' is now computed: it reads 'voiceSearchHelper' at each use, not once at construction"),
            unsafe.stderr)
        XCTAssertEqual(try project.read("States.swift"), try expected("swiftmemberwise", "States.swift.inject"))
    }
}
