import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix --types-from DIR`: the run is part of a tree, and the declarations its edits need
/// (the protocol that gives a stored property's type, the container's members) are in files
/// outside it, read and never edited. The tree is the `swiftmemberwise` engine fixture with its
/// protocol and its container moved to another folder.
final class FixTypesFromCLITests: XCTestCase {
    static let fixture = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix/swiftmemberwise")

    private func text(_ file: String) throws -> String {
        try String(contentsOf: Self.fixture.appendingPathComponent(file), encoding: .utf8)
    }

    /// The fixture's first declaration (the protocol), up to its blank line, and the rest.
    private func split(_ source: String) throws -> (protocol: String, rest: String) {
        let parts = source.components(separatedBy: "}\n\n")
        XCTAssertTrue(parts[0].hasPrefix("protocol OmniState {"), parts[0])
        return (parts[0] + "}\n", parts.dropFirst().joined(separator: "}\n\n"))
    }

    private func project() throws -> (Project, [String: String]) {
        let states = try split(try text("States.swift.in"))
        let files = [
            "Omnibar/States.swift": states.rest,
            "Model/OmniState.swift": states.protocol,
            "Model/Support.swift": try text("Support.swift.in"),
            ".di-lint.yml": try text("fix.yml"),
        ]
        let project = try Project(self, files: files)
        try project.commitEverything()
        return (project, files)
    }

    func testWithoutTheProjectsTypesTheReadsStayManual() throws {
        let (project, files) = try project()
        let run = try project.run("fix", "--phase", "inject", "--apply", "--unsafe", "Omnibar")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try project.read("Omnibar/States.swift"), files["Omnibar/States.swift"])
    }

    /// Byte for byte the fixture's result (its protocol elsewhere); the files read for types are
    /// untouched; the diff applies with `git apply --check`; a second run plans nothing; lint
    /// finds no direct access left but the read moved to the global caller (exit 1 says so, as
    /// without `--types-from` on the whole tree); the tree type-checks.
    func testTypesFromTheProjectMoveTheReadsAndEditOnlyTheRun() throws {
        let (project, files) = try project()
        let dry = try project.run("fix", "--phase", "inject", "--unsafe", "--types-from", ".", "Omnibar")
        XCTAssertEqual(dry.status, 1, dry.stderr)
        XCTAssertTrue(dry.stderr.contains("3 accesses rewritten"), dry.stderr)
        XCTAssertFalse(dry.stdout.contains("Model/"), dry.stdout)
        let patch = project.root.appendingPathComponent("../types-from.patch").standardizedFileURL
        try dry.stdout.write(to: patch, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: patch) }
        let check = try runProcess("/usr/bin/env", ["git", "apply", "--check", patch.path], in: project.root)
        XCTAssertEqual(check.status, 0, check.stderr)

        let apply = try project.run("fix", "--phase", "inject", "--apply", "--unsafe", "--types-from", ".", "Omnibar")
        XCTAssertEqual(apply.status, 1, apply.stderr)
        XCTAssertEqual(try project.read("Omnibar/States.swift"), try split(try text("States.swift.inject")).rest)
        for file in ["Model/OmniState.swift", "Model/Support.swift"] {
            XCTAssertEqual(try project.read(file), files[file], file)
        }
        let again = try project.run("fix", "--phase", "inject", "--unsafe", "--types-from", ".", "Omnibar")
        XCTAssertEqual(again.stdout, "")
        XCTAssertTrue(again.stderr.contains("0 accesses rewritten"), again.stderr)
        let lint = try project.run("lint", "--format", "json", "Omnibar")
        let direct = lint.findings.filter { $0["rule"] as? String == "container-access" }
        XCTAssertEqual(direct.count, 1, lint.stdout)
        let line = (direct.first?["line"] as? Int) ?? 0
        XCTAssertTrue(
            try project.read("Omnibar/States.swift").split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
                .hasPrefix("func makeStartState()"), lint.stdout)
        let typecheck = try runProcess(
            "/usr/bin/env",
            ["swiftc", "-typecheck", "Omnibar/States.swift", "Model/OmniState.swift", "Model/Support.swift"],
            in: project.root)
        XCTAssertEqual(typecheck.status, 0, typecheck.stderr)
    }

    func testAMissingDirectoryIsAUsageError() throws {
        let (project, _) = try project()
        let run = try project.run("fix", "--phase", "inject", "--types-from", "nowhere", "Omnibar")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("--types-from nowhere: no such directory"), run.stderr)
    }
}
