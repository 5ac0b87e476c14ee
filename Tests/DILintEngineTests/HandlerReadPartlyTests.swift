import Foundation
import XCTest
@testable import DILintEngine

/// The run's summary counts the functions reached from crash-time handlers that were read only
/// partly: a handler with no finding may still hide an unsafe call in what was not read.
final class HandlerReadPartlyTests: XCTestCase {
    func testSummaryCountsPartlyReadHandlerFunctions() throws {
        let dir = try temporaryDirectory(self)
        let partly = dir.appendingPathComponent("partly.c"), whole = dir.appendingPathComponent("whole.c")
        // a statement using a type from a header the parse cannot see: dropped from the AST, read from its tokens
        try """
        #include <signal.h>
        #include "missing/state.h"
        static void on_usr1(int sig) { State_t *st = 0; (void)st; }
        void install_usr1(void) { signal(SIGUSR1, on_usr1); }
        """.write(to: partly, atomically: true, encoding: .utf8)
        try """
        #include <signal.h>
        static volatile sig_atomic_t seen;
        static void on_usr2(int sig) { seen = sig; }
        void install_usr2(void) { signal(SIGUSR2, on_usr2); }
        """.write(to: whole, atomically: true, encoding: .utf8)
        let yaml = "containers: [Container.sharedInstance]"

        let both = try lint([partly.path, whole.path], configYAML: yaml)
        XCTAssertEqual(both.findings.map(\.message), [], "no unsafe call among what was read")
        XCTAssertEqual(both.handlerFunctionsReadPartly, 1)
        XCTAssertTrue(
            TextReporter.summary(both).hasSuffix(
                "; 1 function reached from crash-time handlers read only partly (signal-handler-safety cannot vouch for what it did not read)"
            ),
            TextReporter.summary(both))
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReporter().render(both).utf8)) as? [String: Any])
        XCTAssertEqual((json["summary"] as? [String: Any])?["handlerFunctionsReadPartly"] as? Int, 1)
        let sarif = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(SARIFReporter(root: dir.path).render(both).utf8)) as? [String: Any])
        let run = try XCTUnwrap((sarif["runs"] as? [[String: Any]])?.first)
        XCTAssertEqual(
            ((run["properties"] as? [String: Any])?["diLint"] as? [String: Any])?["handlerFunctionsReadPartly"] as? Int,
            1)

        let clean = try lint([whole.path], configYAML: yaml)
        XCTAssertEqual(clean.handlerFunctionsReadPartly, 0)
        XCTAssertFalse(TextReporter.summary(clean).contains("read only partly"))

        // the rule off: no count at all
        let off = try lint([partly.path], configYAML: yaml + "\nrules:\n  signal-handler-safety: off")
        XCTAssertNil(off.handlerFunctionsReadPartly)
        let offJSON = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReporter().render(off).utf8)) as? [String: Any])
        XCTAssertNil((offJSON["summary"] as? [String: Any])?["handlerFunctionsReadPartly"])
    }

    /// `merge` keeps the largest count of the shards (each walks the whole graph), not their sum.
    func testMergeKeepsTheLargestCount() throws {
        func document(_ n: Int?) -> JSONReporter.Document {
            JSONReporter.Document(
                summary: JSONReporter.Document.summary(
                    findings: [], stale: 0, files: 1, parsed: 1, notLinted: 0, cached: 0,
                    seconds: 0, handlerFunctionsReadPartly: n),
                findings: [], stale: [])
        }
        let merged = try ReportMerge.mergeJSON([document(2), document(3), document(nil)])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(merged.text.utf8)) as? [String: Any])
        XCTAssertEqual((json["summary"] as? [String: Any])?["handlerFunctionsReadPartly"] as? Int, 3)
    }
}
