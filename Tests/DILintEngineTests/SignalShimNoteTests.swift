import Foundation
import XCTest
@testable import DILintEngine

/// A libc/POSIX name the project also defines where the call cannot see it bound (issue 29,
/// cause 2): the finding keeps libc's meaning and names the project's definition, with the `#if`
/// it is compiled under or the file the caller does not include. The fixtures are under
/// Fixtures/signal-causes (their positions are checked by `FixtureTests`).
final class SignalShimNoteTests: XCTestCase {
    private func findings(_ folder: String) throws -> [Finding] {
        let dir = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/signal-causes/\(folder)")
        let files = try XCTUnwrap(FileManager.default.subpaths(atPath: dir.path))
            .filter { $0.hasSuffix(".c") || $0.hasSuffix(".h") }.sorted().map { dir.appendingPathComponent($0).path }
        return try lint(files, configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }
    }

    func testAShimUnderAnUndecidedIfIsNamedBesideLibcsMeaning() throws {
        let found = try findings("compat-shim")
        XCTAssertEqual(found.map(\.line), [5], "\(found)")
        let message = try XCTUnwrap(found.first?.message)
        XCTAssertTrue(message.hasPrefix("'snprintf' is not async-signal-safe"), message)
        XCTAssertTrue(
            message.contains(
                "Note: a project definition of 'snprintf' under `#if !defined(HAVE_SNPRINTF)` (sigcause_compat.c:8) may replace it"
            ), message)
    }

    func testAShimInTheElseBranchNamesTheConditionItIsTheOtherBranchOf() throws {
        let found = try findings("shim-else")
        XCTAssertEqual(found.map(\.line), [19], "\(found)")
        XCTAssertTrue(
            found.first?.message.contains("under `#else of #ifdef HAVE_SNPRINTF` (sigcause_shim_else.c:11)") == true,
            "\(found)")
    }

    func testAStaticStubInAHeaderTheFileDoesNotIncludeIsNamedAsNotReplacingIt() throws {
        let found = try findings("static-stub").filter { $0.message.hasPrefix("'exit'") }
        XCTAssertEqual(found.map(\.line), [4], "\(found)")
        XCTAssertTrue(
            found.first?.message.contains(
                "Note: the project's static 'exit' (sflib.h:2) is in a file this one does not include") == true,
            "\(found)")
    }

    /// Under an `#ifdef` on a macro defined above it, the parse decided as the build does: the call
    /// runs the project's definition, whose calls are the findings, and no note is needed.
    func testAShimUnderADecidedIfIsTheProjectsDefinition() throws {
        let found = try findings("shim-decided")
        XCTAssertEqual(found.map(\.line), [13, 15], "\(found)")
        XCTAssertTrue(found.allSatisfy { $0.message.contains("on_term → say → vsnprintf → ") }, "\(found)")
        XCTAssertFalse(found.contains { $0.message.contains("may replace it") }, "\(found)")
    }

    func testTheMacrosAConditionTestsAreItsNames() {
        XCTAssertEqual(
            CallGraphExtractor.testedMacros("#if !defined(HAVE_SNPRINTF) || FORCE_COMPAT >= 0x10"),
            ["HAVE_SNPRINTF", "FORCE_COMPAT"])
        XCTAssertEqual(CallGraphExtractor.testedMacros("#else of #ifndef HAVE_X"), ["HAVE_X"])
        XCTAssertEqual(CallGraphExtractor.testedMacros("#elif VERSION > 2UL"), ["VERSION"])
    }
}
