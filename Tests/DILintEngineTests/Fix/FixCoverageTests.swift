import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// What widened fix's reach on the replay corpus: a headerless re-parse's own errors, exposed by
/// an edit, are not counted as the edit's; structs with only a memberwise initializer take a
/// service together. Fixture trees run with real libclang and swift-syntax through inject and
/// finish, checked byte for byte, by re-lint, by an empty second run and by `git apply --check`
/// (Swift trees by `swiftc -typecheck` too); the verdict's rules are checked on both sides: an
/// error the edit introduces stays new.
final class FixCoverageTests: XCTestCase {
    /// A send whose receiver the headerless parse could not resolve now resolves (`self.svc`), so
    /// the block it takes is checked: `NSUInteger` is unknown; `@weakify` is no directive; a
    /// header whose `@class` a macro swallowed gets a property of a type this parse cannot see,
    /// read as `int *`. None is the edit's: every group is accepted (the starting binary
    /// refused all three).
    func testHeaderlessCascadesAreNotTheEdits() throws {
        let plan = try FixObjCServiceStyleTests.runCase("objcheaderless", expectedManual: [], getters: 3, self)
        XCTAssertEqual(
            plan.accepted.map(\.title).sorted(),
            [
                "Objective-C class MapController service modelDao", "Objective-C class RegionHelper service modelDao",
                "Objective-C class RegionHelper service modelService",
            ])
    }

    /// Structs with only a memberwise initializer take the service together: a last stored
    /// `let`, each call in the run passing it (the struct's own in reach, else the container
    /// read at a global function), and stored `let`s that read it made computed with the type
    /// their protocol gives. Unsafe: a value read once is now read at each use.
    func testMemberwiseStructsTakeTheServiceTogether() throws {
        try FixFixtureTests.runCase("swiftmemberwise", self)
        let (root, configuration) = try FixFixtureTests.tree("swiftmemberwise", self)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(
            plan.accepted.map(\.title),
            ["Swift memberwise OmniStates.HomeState, OmniStates.EditingState: service voiceSearchHelper"])
        XCTAssertEqual(plan.accepted.map(\.safety), [.unsafe])
        XCTAssertEqual(
            plan.acceptedCallers.map(\.argument).sorted(),
            [
                "AppDependencyProvider.shared.voiceSearchHelper", "voiceSearchHelper", "voiceSearchHelper",
            ])
    }

    /// An implicit `.init(text:)` whose labels are a struct's stored properties may build it:
    /// that struct keeps its read (listed), the others still take the service.
    func testAnImplicitInitLeavesItsStructManual() throws {
        let (root, configuration) = try FixFixtureTests.tree("swiftmemberwise", self)
        let states = root.appendingPathComponent("States.swift")
        try
            (try String(contentsOf: states, encoding: .utf8)
            + "func other() -> OmniStates.EditingState { .init(text: \"x\") }\n").write(
                to: states, atomically: true, encoding: .utf8)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(plan.accepted.map(\.title), ["Swift memberwise OmniStates.HomeState: service voiceSearchHelper"])
        XCTAssertEqual(plan.manual.map(\.line), [18])
        XCTAssertTrue(
            plan.manual.first?.detail?.hasSuffix("States.swift:25:44: an implicit '.init(…)' may build it") == true,
            "\(plan.manual)")
    }

    // MARK: The verdict's rules, both ways

    private func verdict(before: String, after: String, edits: [TextEdit], errors: [ParseDiagnostic]) -> [String] {
        ParseVerdict.newErrors(
            before: [], beforeBuffer: SourceBuffer(bytes: Array(before.utf8)), after: errors,
            afterBuffer: SourceBuffer(bytes: Array(after.utf8)), edits: edits, bridgeType: "CrashBridge",
            names: {
                Set(
                    before.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
            }
        ).map(\.message)
    }

    func testAnUnknownTypeInUnchangedTextTheFileUsedIsTheParses() {
        let before = "[[C shared].svc load:^(NSUInteger n) {}];\n"
        let after = "[self.svc load:^(NSUInteger n) {}];\n"
        let edit = TextEdit(path: "a.m", range: 1..<13, replacement: "self.svc")
        let at = after.utf8.count - "NSUInteger n) {}];\n".utf8.count
        XCTAssertEqual(
            verdict(
                before: before, after: after, edits: [edit],
                errors: [ParseDiagnostic(message: "unknown type name 'NSUInteger'", offset: at)]), [])
    }

    func testAnUnknownTypeTheEditWritesStaysNew() {
        // the type is in the edit's own text, and the file never used it
        let before = "int f(void) { return [C shared].svc; }\n"
        let after = "int f(void) { Widget *w = 0; return 0; }\n"
        let edit = TextEdit(path: "a.m", range: 14..<37, replacement: "Widget *w = 0; return 0;")
        XCTAssertEqual(
            verdict(
                before: before, after: after, edits: [edit],
                errors: [ParseDiagnostic(message: "unknown type name 'Widget'", offset: 14)]),
            ["unknown type name 'Widget'"])
    }

    func testAnUnknownTypeWhoseDeclarationAnEditRemovedStaysNew() {
        let before = "typedef int Count;\nCount n;\n"
        let after = "\nCount n;\n"
        let edit = TextEdit(path: "a.m", range: 0..<18, replacement: "")
        XCTAssertEqual(
            verdict(
                before: before, after: after, edits: [edit],
                errors: [ParseDiagnostic(message: "unknown type name 'Count'", offset: 1)]),
            ["unknown type name 'Count'"])
    }

    func testAnUnexpectedDirectiveStaysNewAndAnUnexpandedMacroWordDoesNot() {
        let before = "- (void)f { @weakify(self); }\n@end\n"
        let after = before
        let weakify = Array(before.utf8).firstIndex(of: UInt8(ascii: "@"))!
        let end = before.utf8.count - "@end\n".utf8.count
        XCTAssertEqual(
            verdict(
                before: before, after: after, edits: [],
                errors: [
                    ParseDiagnostic(message: "unexpected '@' in program", offset: weakify),
                    ParseDiagnostic(message: "unexpected '@' in program", offset: end),
                ]),
            ["unexpected '@' in program"])
    }

    func testCascadesNeedTheirCause() {
        let edit = TextEdit(path: "/r/a.m", range: 0..<20, replacement: "self.dao")
        // an error in a header no edit touches is not deferred to that header's own check
        let inHeader = ParseVerdict.NewError(
            message: "expected ';'", line: nil, elsewhere: "B.h:3", edit: nil, editLine: nil,
            elsewherePath: "/r/B.h")
        XCTAssertFalse(
            HeaderlessCascade.explains(
                inHeader, path: "/r/a.m", edits: ["/r/a.m": [edit]], afterErrors: [], before: [], beforeBytes: [],
                afterBytes: []))
        XCTAssertTrue(
            HeaderlessCascade.explains(
                inHeader, path: "/r/a.m",
                edits: [
                    "/r/a.m": [edit], "/r/B.h": [TextEdit(path: "/r/B.h", range: 0..<0, replacement: "@class X;")],
                ],
                afterErrors: [], before: [], beforeBytes: [], afterBytes: []))
        // `int *` at the read the edit wrote: only when the edits declare that property with a type
        // this parse reports unknown
        let member = ParseVerdict.NewError(
            message: "member reference base type 'int *' is not a structure or union", line: 1, elsewhere: nil,
            edit: edit, editLine: 1, offset: 8)
        let property = TextEdit(path: "/r/a.h", range: 0..<0, replacement: "@property (nonatomic, strong) DAO *dao;")
        XCTAssertFalse(
            HeaderlessCascade.explains(
                member, path: "/r/a.m", edits: ["/r/a.m": [edit], "/r/a.h": [property]], afterErrors: [], before: [],
                beforeBytes: [], afterBytes: []))
        XCTAssertTrue(
            HeaderlessCascade.explains(
                member, path: "/r/a.m", edits: ["/r/a.m": [edit], "/r/a.h": [property]],
                afterErrors: [ParseDiagnostic(message: "unknown type name 'DAO'", offset: nil)], before: [],
                beforeBytes: [], afterBytes: []))
    }
}
