import Foundation
import XCTest
@testable import DILintEngine

/// One per-file analysis for lint and fix: the same front-end entry and guards, the same rules'
/// typed findings, and fix's re-parse verdict over the edited contents.
final class PipelineTests: XCTestCase {
    func write(_ name: String, _ text: String) throws -> String {
        let url = try temporaryDirectory(self).appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return FixWorkspace.realPath(url.path)
    }

    func testLintAndFixRefuseADeepFileWithOneMessage() throws {
        let path = try write(
            "Deep.m",
            "void f(void) { " + String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001) + " }\n")
        let configuration = Configuration()
        let lint = ClangFrontEnd(configuration: configuration, compileArguments: [:])
            .model(
                path: path, displayPath: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))),
                language: .objectiveC)
        guard case let .failure(lintFailure) = lint else { return XCTFail("lint parsed a file nested 1001 deep") }
        let workspace = FixWorkspace(configuration: configuration, compileArguments: [:])
        XCTAssertThrowsError(try workspace.parse(path)) { error in
            XCTAssertEqual((error as? ParseFailure)?.reason, lintFailure.reason)
        }
        XCTAssertTrue(lintFailure.reason.hasPrefix("square brackets nest 1001 deep"), lintFailure.reason)
    }

    func testFixSeesTheFindingsLintSees() throws {
        // a lazy var reading the container: a finding of a rule fix compares
        let source = """
            #import "Container.h"
            @implementation A
            - (id)bridge { static id shared; shared = [Container sharedInstance].bridge; return shared; }
            - (id)f { return [Container sharedInstance].crashReporter; }
            @end

            """
        let path = try write("A.m", source)
        var configuration = Configuration()
        configuration.containers = [.member(type: "Container", accessor: "sharedInstance")]
        let linter = Linter(configuration: configuration)
        linter.jobs = 1
        let linted = linter.lint(files: [path]).findings
        let workspace = FixWorkspace(configuration: configuration, compileArguments: [:])
        let rules = FileRules(configuration: configuration)
        let analysis = FixFileAnalysis(
            path: path, file: try workspace.parse(path), frontEnd: workspace.frontEnd, rules: rules)
        XCTAssertFalse(linted.isEmpty)
        XCTAssertEqual(
            analysis.findings.map { "\($0.rule) \($0.line):\($0.column) \($0.message)" }.sorted(),
            linted.map { "\($0.rule) \($0.line):\($0.column) \($0.message)" }.sorted())
    }

    // MARK: The baseline, applied by the engine

    func testTheEngineGatesALintOnABaseline() throws {
        let root = try temporaryDirectory(self)
        let file = root.appendingPathComponent("A.m")
        try "- (id)f { return [Container sharedInstance].crashReporter; }\n".write(
            to: file, atomically: true, encoding: .utf8)
        var configuration = Configuration()
        configuration.containers = [.member(type: "Container", accessor: "sharedInstance")]
        let linter = Linter(configuration: configuration)
        let baselinePath = root.appendingPathComponent("baseline.json").path

        var first = linter.lint(files: [file.path])
        XCTAssertEqual(first.findings.count, 1)
        var writer = BaselineGate(writePath: baselinePath)
        let written = try writer.apply(to: &first, lintedFiles: [file.path], root: root.path)
        XCTAssertEqual(written, ["di-lint: wrote 1 entry to baseline \(baselinePath)"])

        // the same finding is accepted: nothing new
        var second = linter.lint(files: [file.path])
        var gate = BaselineGate(accepted: try Baseline.load(path: baselinePath), path: baselinePath)
        XCTAssertEqual(try gate.apply(to: &second, lintedFiles: [file.path], root: root.path), [])
        XCTAssertEqual(second.baselinedCount, 1)
        XCTAssertEqual(second.newErrorCount, 0)
        XCTAssertNotNil(second.findings.first?.fingerprint)

        // fixed: the entry is stale, and --update-baseline's gate drops it from the file
        try "- (id)f { return self.crashReporter; }\n".write(to: file, atomically: true, encoding: .utf8)
        var third = linter.lint(files: [file.path])
        var update = BaselineGate(accepted: try Baseline.load(path: baselinePath), path: baselinePath, update: true)
        XCTAssertEqual(
            try update.apply(to: &third, lintedFiles: [file.path], root: root.path),
            ["di-lint: removed 1 stale entry from \(baselinePath)"])
        XCTAssertEqual(third.staleBaselineEntries.count, 1)
        XCTAssertEqual(try Baseline.load(path: baselinePath).entries, [])
    }

    // MARK: The re-parse verdict

    func buffer(_ text: String) -> SourceBuffer { SourceBuffer(bytes: Array(text.utf8)) }

    func testAnErrorThatOnlyMovedIsNotNewAndASecondCopyIs() {
        let before = "int a = X;\nint b = 1;\n"
        let edit = TextEdit(path: "f.m", range: 0..<0, replacement: "// moved\n")
        let after = "// moved\nint a = X;\nint b = 1;\n"
        let known = ParseDiagnostic(message: "use of undeclared identifier 'X'", offset: 8)
        let moved = ParseDiagnostic(message: "use of undeclared identifier 'X'", offset: 17)
        XCTAssertEqual(
            ParseVerdict.newErrors(
                before: [known], beforeBuffer: buffer(before), after: [moved], afterBuffer: buffer(after),
                edits: [edit], bridgeType: "Bridge", names: { [] }), [])
        // the same message twice after the edit, once before: the second copy is new (the name X
        // is not one the file used, so no known shape lets it through)
        let twice = "// moved\nint a = X;\nint b = X;\n"
        let copy = ParseDiagnostic(message: "use of undeclared identifier 'X'", offset: 28)
        let new = ParseVerdict.newErrors(
            before: [known], beforeBuffer: buffer(before), after: [moved, copy], afterBuffer: buffer(twice),
            edits: [edit], bridgeType: "Bridge", names: { [] })
        XCTAssertEqual(new.map(\.message), ["use of undeclared identifier 'X'"])
        XCTAssertEqual(new.first?.line, 3)
    }

    func testANewErrorNamesTheEditWhoseTextHoldsIt() {
        let before = "#import \"A.h\"\nint a;\n"
        let edit = TextEdit(path: "f.m", range: 14..<14, replacement: "#import \"Bridge.h\"\n")
        let after = "#import \"A.h\"\n#import \"Bridge.h\"\nint a;\n"
        let missing = ParseDiagnostic(message: "'Bridge.h' file not found", offset: 22)
        let new = ParseVerdict.newErrors(
            before: [], beforeBuffer: buffer(before), after: [missing], afterBuffer: buffer(after),
            edits: [edit], bridgeType: "Bridge", names: { [] })
        XCTAssertEqual(
            new.map(\.description),
            ["'Bridge.h' file not found at line 2 (edit at line 2: inserted #import \"Bridge.h\")"])
    }

    func testAHeadersErrorInAnotherShapeIsNotNew() {
        // the headerless parse cannot find NSObject for the file's class; the bridge's header an
        // edit imports has the same failing for its class
        let before = [
            ParseDiagnostic(message: "cannot find interface declaration for 'NSObject', superclass of 'V'", offset: nil)
        ]
        let after =
            before + [
                ParseDiagnostic(
                    message: "cannot find interface declaration for 'NSObject', superclass of 'CrashBridge'",
                    offset: nil)
            ]
        XCTAssertEqual(
            ParseVerdict.newErrors(
                before: before, beforeBuffer: buffer(""), after: after, afterBuffer: buffer(""),
                edits: [], bridgeType: "Bridge", names: { [] }), [])
        // in the file itself the same shape is new: a name the edit wrote that does not resolve
        let inFile = [
            ParseDiagnostic(
                message: "cannot find interface declaration for 'NSObject', superclass of 'CrashBridge'", offset: 0)
        ]
        XCTAssertEqual(
            ParseVerdict.newErrors(
                before: before, beforeBuffer: buffer("x"), after: inFile, afterBuffer: buffer("x"),
                edits: [], bridgeType: "Bridge", names: { [] }
            ).count, 1)
    }
}
