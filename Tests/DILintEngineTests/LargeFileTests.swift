import CLibClang
import Foundation
import XCTest
@testable import DILintEngine

/// What makes a large file fast must not change what is found in it.
final class LargeFileTests: XCTestCase {
    /// The snippet of a long line before it had a byte-level path: trimmed text, `…` where cut.
    private func generalSnippet(_ buffer: SourceBuffer, line: Int, at offset: Int) -> String {
        let bytes = buffer.bytes
        let start = buffer.lineStarts[line - 1]
        let end = line < buffer.lineStarts.count ? buffer.lineStarts[line] - 1 : bytes.count
        var from = max(start, min(offset, end) - SourceBuffer.maxSnippetBytes / 3)
        var to = min(end, from + SourceBuffer.maxSnippetBytes)
        while from > start, bytes[from] & 0xC0 == 0x80 { from -= 1 }
        while to < end, bytes[to] & 0xC0 == 0x80 { to += 1 }
        let text = SourceBuffer.trimmed(String(decoding: bytes[from..<to], as: UTF8.self))
        return (from > start ? "…" : "") + text + (to < end ? "…" : "")
    }

    func testLongLineSnippetsAreTheGeneralOnes() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [
            Array("id x = [C s];".utf8), [0x20], [0x20, 0x20, 0x09], Array("é".utf8), Array("\u{3000}".utf8),
            Array("…".utf8), [0xFF], [0xE2, 0x80], Array("abc".utf8), [0x09],
        ]
        for _ in 0..<40 {
            var line: [UInt8] = []
            while line.count < 1200 { line += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            let buffer = SourceBuffer(bytes: Array("first\n".utf8) + line + Array("\nlast\n".utf8))
            for offset in stride(from: 6, to: 6 + line.count, by: 7) {
                XCTAssertEqual(
                    Array(buffer.snippet(line: 2, at: offset).utf8),
                    Array(generalSnippet(buffer, line: 2, at: offset).utf8),
                    "offset \(offset)")
            }
        }
    }

    /// Every token's range read from the token equals libclang's, on a file with what could set
    /// them apart: line continuations inside tokens, macros, skipped blocks, literals, comments,
    /// non-ASCII text.
    func testTokenRangesReadFromTheTokensAreLibclangs() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("t.m").path
        let source = """
            #define TWICE(x) ((x) + (x))
            #if 0
            int skipped = 1;
            #endif
            /* é comment */ static const char *s = "a\\
            b ü";
            @interface C + (C *)shared; @end
            int lo\\
            ng_name = TWICE(2); // trailing
            void f(void) { id x = [C shared]; (void)x; const char *t = @"ça" ? "r" : "q"; (void)t; }

            """
        try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        let parsed = try ClangParser().parse(
            path: path, buffer: SourceBuffer(bytes: Array(source.utf8)), language: .objectiveC,
            arguments: SourceLanguage.objectiveC.clangArguments(isHeader: false))
        var raw: UnsafeMutablePointer<CXToken>?
        var count: UInt32 = 0
        clang_tokenize(parsed.unit, clang_getCursorExtent(clang_getTranslationUnitCursor(parsed.unit)), &raw, &count)
        let tokens = try XCTUnwrap(raw)
        defer { clang_disposeTokens(parsed.unit, tokens, count) }
        XCTAssertGreaterThan(count, 50)
        let base = try XCTUnwrap(
            ParsedFile.directTokenOffsets(parsed.unit, tokens, Int(count)), "the sampled tokens disagree")
        for i in 0..<Int(count) {
            let direct = ParsedFile.directRange(tokens[i], base: base),
                libclang = ParsedFile.tokenRange(parsed.unit, tokens[i])
            XCTAssertTrue(direct == libclang, "token \(i): \(direct) vs \(libclang)")
        }
    }

    /// A large file's facts, collected beside the file rules on a second thread, are the facts
    /// collected after them on one, and so are its findings.
    func testFactsBesideTheRulesAreTheFactsAfterThem() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("big.m").path
        var source = """
            #include <signal.h>
            @interface Reporter - (void)start; @end
            @interface Container + (Container *)sharedInstance; - (Reporter *)crashReporter; @end
            @interface Holder - (instancetype)init; @end
            @implementation Holder - (instancetype)init { [[[Container sharedInstance] crashReporter] start]; return self; } @end
            static void onSignal(int s) { [[[Container sharedInstance] crashReporter] start]; }
            void install(void) { signal(SIGSEGV, onSignal); }

            """
        var i = 0
        while source.utf8.count < (1 << 20) + 4096 {
            source +=
                "static int f\(i)(void) { Reporter *x = [[Container sharedInstance] crashReporter]; [x start]; return \(i); }\n"
            i += 1
        }
        try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.sharedInstance]\n", baseDirectory: directory.path)
        func lint(besideFrom size: Int) -> LintResult {
            let linter = Linter(configuration: configuration)
            linter.factsBesideRulesSize = size
            return linter.lint(files: [path])
        }
        let one = lint(besideFrom: Int.max), two = lint(besideFrom: 0)
        XCTAssertGreaterThan(one.findings.count, i)
        XCTAssertTrue(one.findings.contains { $0.rule == "signal-handler-safety" }, "\(Set(one.findings.map(\.rule)))")
        XCTAssertEqual(two.findings, one.findings)
        XCTAssertEqual(two.accesses, one.accesses)
    }

    /// The macro an access is found through: the index answers as a scan of every expansion in
    /// visiting (source) order would, with nested and overlapping expansions.
    func testMacroExpansionIndexAnswersAsTheScan() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var expansions: [(range: Range<Int>, name: String)] = []
            for k in 0..<Int.random(in: 0..<30, using: &generator) {
                let lo = Int.random(in: 0..<200, using: &generator)
                expansions.append((lo..<lo + Int.random(in: 1..<60, using: &generator), "M\(k)"))
            }
            expansions.sort { $0.range.lowerBound < $1.range.lowerBound }
            let index = MacroExpansionIndex(expansions)
            for offset in -1..<270 {
                XCTAssertEqual(
                    index.first(containing: offset), expansions.first { $0.range.contains(offset) }?.name,
                    "offset \(offset)")
            }
        }
    }
}
