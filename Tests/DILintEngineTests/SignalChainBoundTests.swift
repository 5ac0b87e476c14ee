import Foundation
import XCTest
@testable import DILintEngine

/// `signal-handler-safety` messages show a long call chain as its first and last hops and the
/// count between them, so that a run's output grows with its input, not with the input squared
/// (a 959 KB chain of 16,000 functions made 1.3 GB of messages and aborted the run).
final class SignalChainBoundTests: XCTestCase {
    /// `void h(int){ f0(); }` installed with `signal`, and `f<i>` calling `malloc` then `f<i+1>`.
    private func chainFile(_ n: Int, in dir: URL, partlyEvery: Int? = nil) throws -> URL {
        var lines = ["#include <signal.h>", "#include <stdlib.h>", "#include \"missing/state.h\""]
        lines += (0..<n).map { "void f\($0)(void);" }
        lines += ["void h(int s){ f0(); }", "void install(void){ signal(SIGSEGV, h); }"]
        lines += (0..<n).map { i in
            // a statement naming a type from the missing header: read only partly, from the tokens
            let partly = partlyEvery.map { i % $0 == 0 } == true ? " State_t *st = 0; (void)st;" : ""
            return "void f\(i)(void){\(partly) malloc(1); \(i + 1 < n ? "f\(i + 1)();" : "") }"
        }
        let url = dir.appendingPathComponent("chain.c")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testLongChainShowsItsEndsAndTheCountBetween() throws {
        let n = 1500
        let file = try chainFile(n, in: try temporaryDirectory(self))
        let result = try lint([file.path], configYAML: "containers: [C.shared]")
        let findings = result.findings.filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(findings.count, n, "one malloc per function of the chain")
        // h → f0 … f1499: 1,501 functions; the deepest finding shows h, f0, f1, then the last three
        let deepest = try XCTUnwrap(findings.first { $0.message.contains("f1499 → malloc") })
        XCTAssertTrue(
            deepest.message.hasSuffix(": h → f0 → f1 → … (1,495 more) … → f1497 → f1498 → f1499 → malloc"),
            deepest.message)
        // a short chain is shown whole
        let short = try XCTUnwrap(findings.first { $0.message.contains("→ f3 → malloc") })
        XCTAssertTrue(short.message.hasSuffix(": h → f0 → f1 → f2 → f3 → malloc"), short.message)
        // every message is bounded, whatever its depth
        let longest = findings.map(\.message.utf8.count).max() ?? 0
        XCTAssertLessThan(
            longest, 400,
            "the longest message: \(findings.max { $0.message.count < $1.message.count }!.message.prefix(500))")
        // and the JSON grows with the input: a few bytes of output per byte of source
        let input = try Data(contentsOf: file).count
        let json = JSONReporter().render(result).utf8.count
        XCTAssertLessThan(json, 12 * input, "JSON of \(json) bytes for \(input) bytes of source")
    }

    func testPartlyReadFunctionsOnALongChainAreCountedNotListed() throws {
        let file = try chainFile(400, in: try temporaryDirectory(self), partlyEvery: 10)
        let result = try lint([file.path], configYAML: "containers: [C.shared]")
        let deepest = try XCTUnwrap(result.findings.first { $0.message.contains("f399 → malloc") })
        // f0, f10, …, f390: 40 functions read partly; the first three named, the others counted
        XCTAssertTrue(
            deepest.message.hasSuffix(
                "read only partly, from the tokens (names from headers the parse cannot see, or code under #if on an unknown macro): 'f0' (2 statements), 'f10' (2 statements), 'f20' (2 statements) and 37 more on the chain"
            ),
            String(deepest.message.suffix(400)))
        XCTAssertEqual(result.handlerFunctionsReadPartly, 40)
    }

    func testLongNamesAreCutInMessages() throws {
        let dir = try temporaryDirectory(self)
        let long = "handler_" + String(repeating: "x", count: 5000)
        try """
        #include <signal.h>
        #include <stdlib.h>
        void \(long)(int s) { malloc(1); }
        void install(void) { signal(SIGSEGV, \(long)); }
        """.write(to: dir.appendingPathComponent("long.c"), atomically: true, encoding: .utf8)
        let result = try lint([dir.appendingPathComponent("long.c").path], configYAML: "containers: [C.shared]")
        XCTAssertEqual(result.findings.count, 1)
        for f in result.findings {
            XCTAssertLessThan(f.message.utf8.count, 1000, String(f.message.prefix(300)))
            XCTAssertTrue(f.message.contains("'handler_xxxx"), f.message)
            XCTAssertTrue(f.message.contains("x…' (signal at long.c:4)"), String(f.message.prefix(700)))
        }
    }

    /// Wrappers that pass their parameter on to the next, written outermost first: each is found
    /// installing (a worklist; the fixed point before took one pass over every forward per wrapper).
    func testWrappersWrittenOutermostFirstAreAllInstallers() throws {
        let n = 300
        var lines = ["#include <signal.h>", "#include <stdlib.h>", "typedef void (*handler_t)(int);"]
        lines += (0..<n).map { "void w\($0)(handler_t fn);" }
        lines += (0..<n).reversed().map { i in
            "void w\(i)(handler_t fn){ \(i == 0 ? "signal(SIGSEGV, fn);" : "w\(i - 1)(fn);") }"
        }
        lines += [
            "void outer(int s){ malloc(1); }", "void middle(int s){ free(0); }",
            "void install(void){ w\(n - 1)(outer); w\(n / 2)(middle); }",
        ]
        let file = try temporaryDirectory(self).appendingPathComponent("wrappers.c")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let messages = try lint([file.path], configYAML: "containers: [C.shared]").findings.map(\.message)
        XCTAssertEqual(messages.count, 2, "\(messages)")
        XCTAssertTrue(
            messages.contains {
                $0.hasPrefix(
                    "'malloc' is not async-signal-safe (allocates); reached from signal handler 'outer' (signal through 'w299' at wrappers.c:"
                )
            }, "\(messages)")
        XCTAssertTrue(
            messages.contains {
                $0.hasPrefix(
                    "'free' is not async-signal-safe (allocates); reached from signal handler 'middle' (signal through 'w150' at wrappers.c:"
                )
            }, "\(messages)")
    }
}
