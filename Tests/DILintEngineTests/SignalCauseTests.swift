import Foundation
import XCTest
@testable import DILintEngine

/// `signal-handler-safety` where the front end must read code as the compiler would (issue 29):
/// the header map's headers as project code, error paths, macros expanded or reported. The
/// reproducers with inline expectations are under Fixtures/signal-causes (`FixtureTests`).
final class SignalCauseTests: XCTestCase {
    private func signalFindings(_ result: LintResult) -> [Finding] {
        result.findings.filter { $0.rule == "signal-handler-safety" }
    }

    /// A `static inline` helper of a header found through the header map (a system-header search
    /// directory) is followed as the header's own definition, as with `-I`.
    func testAHeaderMapHeadersInlineHelperIsFollowed() throws {
        let dir = try temporaryDirectory(self)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("include"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("src"), withIntermediateDirectories: true)
        let header = dir.appendingPathComponent("include/debug.h").path
        let source = dir.appendingPathComponent("src/h.c").path
        try """
        #include <stdarg.h>
        #include <stdio.h>
        static inline void dbg_log(const char *m, ...) { va_list ap; va_start(ap, m); vfprintf(stderr, m, ap); va_end(ap); }
        """.write(toFile: header, atomically: true, encoding: .utf8)
        try """
        #include <signal.h>
        #include "debug.h"
        static void on_int(int s) { dbg_log("x"); }
        void setup(void) { signal(SIGINT, on_int); }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        var configuration = try Configuration.parse(yaml: "", baseDirectory: dir.path)
        configuration.headerMapFile = try XCTUnwrap(HeaderMap.write(files: [header, source]))
        let linter = Linter(configuration: configuration)
        linter.parseEveryFile = true
        let found = signalFindings(linter.lint(files: [source, header]))
        XCTAssertEqual(found.map(\.path), [header], "\(found)")
        XCTAssertTrue(found.first?.message.contains("on_int → dbg_log → vfprintf") == true, "\(found)")
    }

    /// A call reached only when `sigaction` failed is a warning on an error path; `strict` makes it an error.
    func testACallOnAnErrorPathOnlyIsAWarningUnlessStrict() throws {
        let file = packageRoot.appendingPathComponent(
            "Tests/DILintEngineTests/Fixtures/signal-causes/error-path/sigcause_error_path.c"
        ).path
        let relaxed = signalFindings(try lint([file], configYAML: ""))
        XCTAssertEqual(relaxed.map(\.severity), [.warning], "\(relaxed)")
        XCTAssertTrue(relaxed.first?.message.contains("On an error path only") == true, "\(relaxed)")
        let strict = signalFindings(
            try lint([file], configYAML: "rules:\n  signal-handler-safety:\n    strict: true\n"))
        XCTAssertEqual(strict.map(\.severity), [.error], "\(strict)")
    }

    /// The same call outside the failure branch (or under a branch of an unsafe call) stays an error.
    func testACallOnTheNormalPathStaysAnError() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("normal.c").path
        try """
        #include <signal.h>
        #include <stdio.h>
        #include <syslog.h>
        static void on_alarm(int sig) {
            if (sigaction(sig, 0, 0) == 0) { syslog(LOG_ERR, "ok"); }
            if (fflush(stdout) == -1) { syslog(LOG_ERR, "flush"); }
        }
        void install(void) { signal(SIGALRM, on_alarm); }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let found = signalFindings(try lint([file], configYAML: ""))
        XCTAssertEqual(found.map(\.line), [5, 6, 6], "\(found)")
        XCTAssertEqual(Set(found.map(\.severity)), [.error], "\(found)")
    }

    /// A macro nested deeper than the expander follows is reported as an unknown call, not skipped.
    func testAMacroThatCannotBeExpandedIsReported() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("deep.c").path
        var defines = "#define M0(x) write(2, x, 1)\n"
        for k in 1...(MacroExpander.maxDepth + 2) { defines += "#define M\(k)(x) M\(k - 1)(x)\n" }
        try """
        #include <signal.h>
        #include <unistd.h>
        \(defines)static void on_hup(int sig) { M\(MacroExpander.maxDepth + 2)(UNKNOWN_BUFFER); M2(UNKNOWN_BUFFER); }
        void install(void) { signal(SIGHUP, on_hup); }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let found = signalFindings(try lint([file], configYAML: ""))
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(
            found.first?.message.contains("is a macro whose expansion di-lint could not read") == true, "\(found)")
    }

    func testTheExpanderSubstitutesPastesAndStringifies() {
        let definitions: [String: MacroDefinition] = [
            "LOG": MacroDefinition(
                name: "LOG", parameters: ["fmt", "__VA_ARGS__"], variadic: true,
                body: ["log_write", "(", "fmt", ",", "##", "__VA_ARGS__", ")"]),
            "CALL": MacroDefinition(
                name: "CALL", parameters: ["fn", "arg"], variadic: false, body: ["fn", "(", "#", "arg", ")"]),
            "PASTE": MacroDefinition(
                name: "PASTE", parameters: ["a", "b"], variadic: false, body: ["a", "##", "b", "(", ")"]),
            "ALIAS": MacroDefinition(name: "ALIAS", parameters: nil, variadic: false, body: ["LOG"]),
            "malloc": MacroDefinition(
                name: "malloc", parameters: ["n"], variadic: false, body: ["malloc", "(", "n", ")"]),
            "OPT": MacroDefinition(
                name: "OPT", parameters: ["__VA_ARGS__"], variadic: true,
                body: ["__VA_OPT__", "(", "opt_call", "(", "__VA_ARGS__", ")", ")"]),
        ]
        let expander = MacroExpander { definitions[$0] }
        XCTAssertEqual(expander.calls(of: ["LOG", "(", "\"x\"", ")"]).calls, ["log_write"])
        XCTAssertEqual(expander.calls(of: ["CALL", "(", "free", ")"]).calls, ["free"])
        XCTAssertEqual(expander.calls(of: ["CALL", "(", "abort", ",", "p", ")"]).calls, ["abort"])
        XCTAssertEqual(expander.calls(of: ["PASTE", "(", "do_", ",", "exit", ")"]).calls, ["do_exit"])
        XCTAssertEqual(expander.calls(of: ["ALIAS", "(", "\"x\"", ")"]).calls, ["log_write"])
        XCTAssertEqual(expander.calls(of: ["malloc", "(", "8", ")"]).calls, ["malloc"])
        XCTAssertEqual(expander.calls(of: ["OPT", "(", ")"]).calls, [])
        XCTAssertEqual(expander.calls(of: ["OPT", "(", "1", ")"]).calls, ["opt_call"])
        XCTAssertEqual(expander.calls(of: ["LOG", "(", "\"x\"", ")"]).unexpanded, [])
        XCTAssertEqual(expander.calls(of: ["CALL", "(", "free"]).unexpanded, ["CALL"])
    }
}
