import Foundation
import XCTest
@testable import DILintEngine

/// A macro defined by another file of the run (one the caller's parse never saw) is expanded at
/// each call read from the tokens with that call's arguments: a callee passed as an argument or
/// pasted from one is the call made (issue 29, cause 1b). Fixture:
/// Fixtures/signal-causes/macro-args-in-run (also run by `FixtureTests`).
final class RunMacroArgumentTests: XCTestCase {
    private let folder = packageRoot.appendingPathComponent(
        "Tests/DILintEngineTests/Fixtures/signal-causes/macro-args-in-run")

    func testARunDefinedMacroIsExpandedWithItsArguments() throws {
        let files = ["sigcause_args_handler.c", "sigcause_args_impl.c", "sigcause_args_macros.h"].map {
            folder.appendingPathComponent($0).path
        }
        let found = try lint(files, configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }
        let chains = found.map { $0.message }
        // ARGS_LOG_AT(error, …) → args_log_error (not args_log_level, the parameter's name pasted)
        XCTAssertTrue(chains.contains { $0.contains("on_hup → args_log_error → malloc") }, "\(chains)")
        // ARGS_CALL(args_cleanup, s) → args_cleanup
        XCTAssertTrue(chains.contains { $0.contains("on_hup → args_cleanup → free") }, "\(chains)")
        XCTAssertFalse(chains.contains { $0.contains("args_log_level") || $0.contains("calloc") }, "\(chains)")
        XCTAssertEqual(found.count, 2, "\(chains)")
    }

    /// The call graph expands a site's kept invocation; a site without one (an invocation longer
    /// than the reader keeps) still gets the expansion without arguments.
    func testTheGraphExpandsTheSitesInvocation() {
        let here = SitePosition(line: 1, column: 1, offset: 0)
        let handler = Symbol(usr: "c:h.c@F@h", name: "h")
        func site(_ invocation: [String]?) -> CallSite {
            CallSite(
                kind: .call, target: Symbol(usr: "name:CALL", name: "CALL"), detail: LostStatementReader.detail,
                position: here, invocation: invocation)
        }
        var facts = CallGraphFacts()
        facts.macroDefinitions = [
            MacroDefinition(
                name: "CALL", parameters: ["fn", "x"], variadic: false,
                body: ["fn", "(", "x", ")", ";", "fixed", "(", ")"])
        ]
        facts.functions = [
            FunctionFact(
                symbol: handler, position: here, sites: [site(["(", "do_exit", ",", "free", "(", "p", ")", ")"])])
        ]
        let graph = CallGraph(facts: [(path: "h.c", facts: facts)])
        let names = graph.resolve(facts.functions[0].sites[0]).compactMap { resolution -> String? in
            if case let .external(symbol) = resolution { return symbol.name }
            return nil
        }
        // `free(p)` is spelled in the arguments: the reader reads it where it is, not here
        XCTAssertEqual(names, ["do_exit", "fixed"])
        let bare = graph.resolve(site(nil)).compactMap { resolution -> String? in
            if case let .external(symbol) = resolution { return symbol.name }
            return nil
        }
        XCTAssertEqual(bare, ["fixed"])
    }
}
