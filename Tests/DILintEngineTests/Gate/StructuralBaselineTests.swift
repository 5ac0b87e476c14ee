import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// Baseline entries are identified by rule, path, enclosing declaration, the access and its
/// ordinal there — not by the line's text — so edits that leave the access where it was keep it
/// baselined, and only an access that is new (or new to its declaration) fails the gate.
final class StructuralBaselineTests: XCTestCase {
    private func legacy(
        install: String = "    id c = [[Container sharedInstance] crashReporter];\n    [c start];\n",
        other: String = "    NSLog(@\"other\");\n", otherFirst: Bool = false, padding: Int = 0
    ) -> String {
        let installMethod = "- (void)install {\n\(install)}\n"
        let otherMethod = "- (void)other {\n\(other)}\n"
        return String(repeating: "// padding\n", count: padding) + "@implementation Legacy\n"
            + (otherFirst ? otherMethod + installMethod : installMethod + otherMethod) + "@end\n"
    }

    /// Lints `source` against a baseline written for `legacy()`: (new findings, stale entries).
    private func gate(_ source: String, file: String = "Legacy.m", original: String? = nil) throws -> (
        new: Int, stale: Int
    ) {
        let project = try GateProject(self, files: [file: original ?? legacy()])
        let baseline = Baseline(findings: try project.lint().findings, root: project.root.path)
        XCTAssertFalse(baseline.entries.isEmpty)
        try project.write(file, source)
        var result = try project.lint()
        baseline.apply(to: &result, lintedFiles: try project.files(), root: project.root.path)
        return (result.findings.filter { !$0.baselined }.count, result.staleBaselineEntries.count)
    }

    func testTheEnclosingDeclarationIsOnTheFinding() throws {
        let project = try GateProject(self, files: ["Legacy.m": legacy()])
        XCTAssertEqual(try project.lint().findings.map(\.scope), ["Legacy.install"])
    }

    func testEditsThatKeepTheAccessInItsMethodAddNothing() throws {
        let edits: [(String, String)] = [
            (
                "rename the local on the line",
                legacy(
                    install: "    id reporter = [[Container sharedInstance] crashReporter];\n    [reporter start];\n")
            ),
            (
                "reformat the line",
                legacy(install: "\tid   c=[ [Container sharedInstance]\n\t\tcrashReporter ];\n    [c start];\n")
            ),
            (
                "add a statement to the line",
                legacy(install: "    NSLog(@\"go\"); id c = [[Container sharedInstance] crashReporter]; [c start];\n")
            ),
            ("move the method within the file", legacy(otherFirst: true)),
            ("move the code down 500 lines", legacy(padding: 500)),
        ]
        for (edit, source) in edits {
            let (new, stale) = try gate(source)
            XCTAssertEqual(new, 0, "\(edit): nothing new")
            XCTAssertEqual(stale, 0, "\(edit): nothing stale")
        }
    }

    func testAnAccessCopiedIntoAnotherMethodIsNewAndADeletedOneStale() throws {
        let copied = try gate(legacy(other: "    id d = [[Container sharedInstance] crashReporter];\n"))
        XCTAssertEqual(copied.new, 1)
        XCTAssertEqual(copied.stale, 0)
        let deleted = try gate(legacy(install: "    NSLog(@\"nothing\");\n"))
        XCTAssertEqual(deleted.new, 0)
        XCTAssertEqual(deleted.stale, 1)
    }

    func testSwiftAccessesAreScopedByTypeAndFunction() throws {
        func swift(_ body: String) -> String { "final class Wiring {\n    func install() {\n\(body)    }\n}\n" }
        let original = swift("        let c = Container.sharedInstance.crashReporter\n        c.start()\n")
        let project = try GateProject(self, files: ["Wiring.swift": original])
        XCTAssertEqual(try project.lint().findings.map(\.scope), ["Wiring.install()"])
        let renamed = try gate(
            swift("        let reporter = Container.sharedInstance.crashReporter\n        reporter.start()\n"),
            file: "Wiring.swift", original: original)
        XCTAssertEqual(renamed.new, 0)
        XCTAssertEqual(renamed.stale, 0)
    }

    func testAFormatOneBaselineIsMatchedAndRewrittenStructurally() throws {
        let project = try GateProject(self, files: ["Legacy.m": legacy()])
        let findings = try project.lint().findings
        let legacyPrints = Fingerprints.legacy(findings, root: project.root.path)
        let entries = zip(findings, legacyPrints).map { f, fp in
            ["fingerprint": fp, "rule": f.rule, "path": "Legacy.m", "line": f.line, "snippet": f.snippet ?? ""]
                as [String: Any]
        }
        let path = project.root.appendingPathComponent("old-baseline.json").path
        try JSONSerialization.data(withJSONObject: ["version": 1, "entries": entries]).write(
            to: URL(fileURLWithPath: path))

        let old = try Baseline.load(path: path)
        XCTAssertTrue(old.hasLegacyEntries)
        var result = try project.lint()
        old.apply(to: &result, lintedFiles: try project.files(), root: project.root.path)
        XCTAssertEqual(result.findings.map(\.baselined), [true])
        XCTAssertEqual(result.staleBaselineEntries.count, 0)

        let rewritten = old.updated(with: result, root: project.root.path)
        XCTAssertFalse(rewritten.hasLegacyEntries)
        XCTAssertEqual(rewritten.entries.map(\.fingerprint), result.findings.map(\.fingerprint))
        try rewritten.write(to: path)
        let reread = try Baseline.load(path: path)
        XCTAssertEqual(reread, rewritten)

        // Now a rename no longer makes it new.
        try project.write(
            "Legacy.m", legacy(install: "    id reporter = [[Container sharedInstance] crashReporter];\n"))
        var renamed = try project.lint()
        reread.apply(to: &renamed, lintedFiles: try project.files(), root: project.root.path)
        XCTAssertEqual(renamed.findings.map(\.baselined), [true])
    }
}
