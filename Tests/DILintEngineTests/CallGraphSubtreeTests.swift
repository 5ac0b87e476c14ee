import Foundation
import XCTest
@testable import DILintEngine

/// The call-graph extractor reads each definition's subtree from libclang once (`CursorTree`):
/// its facts are the facts of asking libclang per node, as it did before.
final class CallGraphSubtreeTests: XCTestCase {
    private func facts(_ path: String, _ bytes: [UInt8], readsSubtrees: Bool, flags: [String] = []) throws
        -> CallGraphFacts
    {
        let language = bytes.withUnsafeBytes { SourceLanguage.detect(path: path, contents: $0) }
        let parsed = try ClangParser().parse(
            path: path, buffer: SourceBuffer(bytes: bytes), language: language,
            arguments: language.clangArguments(isHeader: false) + flags)
        return CallGraphExtractor(file: parsed, accesses: [], bridgeNames: ["bridge"], readsSubtrees: readsSubtrees)
            .extract()
    }

    private func assertSameBothWays(
        _ path: String, flags: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) throws
        -> CallGraphFacts
    {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let subtree = try facts(path, bytes, readsSubtrees: true, flags: flags)
        let direct = try facts(path, bytes, readsSubtrees: false, flags: flags)
        XCTAssertEqual(subtree, direct, path, file: file, line: line)
        XCTAssertEqual(subtree.encoded, direct.encoded, path, file: file, line: line)
        return subtree
    }

    /// Every signal fixture and the crash library's C runtime.
    func testFactsAreTheSameReadEitherWay() throws {
        let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/signal")
        let runtime = packageRoot.appendingPathComponent("Sources/CrashRuntime")
        var functions = 0
        for (directory, flags) in [(fixtures, []), (runtime, ["-I" + runtime.appendingPathComponent("include").path])] {
            let files = try FileCollector(excludes: [], baseDirectory: directory.path).collect([directory.path])
                .filter { path in [".c", ".cpp", ".m", ".mm"].contains { path.hasSuffix($0) } }
            XCTAssertGreaterThan(files.count, 3, directory.path)
            for path in files { functions += try assertSameBothWays(path, flags: flags).functions.count }
        }
        XCTAssertGreaterThan(functions, 40)
    }

    /// libclang hands out a `case` label's `ConstantExpr` as the cursor of the expression inside,
    /// then that expression again as its child: the subtree must answer a visit of that cursor
    /// with the inner node's children (none for a name), or the walk goes round forever.
    func testCaseLabelsReadTheSameEitherWay() throws {
        let dir = try temporaryDirectory(self)
        let path = dir.appendingPathComponent("cases.c").path
        try """
        enum state { IDLE, BUSY };
        #define SIGNAL_TEN 10
        void note(const char *s);
        static enum state current;
        void on_signal(int sig) {
            switch (sig) {
            case IDLE:
                note("idle");
                break;
            case SIGNAL_TEN:
                note("ten");
                break;
            case BUSY + 2: { int n = sig; (void)n; note("busy"); break; }
            default:
                break;
            }
            switch (current) { case BUSY: note("current"); default: break; }
        }

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let facts = try assertSameBothWays(path)
        let handler = try XCTUnwrap(facts.functions.first { $0.symbol.name == "on_signal" })
        XCTAssertEqual(
            handler.sites.filter { $0.kind == .call && $0.target?.name == "note" }.map(\.position.line),
            [8, 11, 13, 17])
    }
}
