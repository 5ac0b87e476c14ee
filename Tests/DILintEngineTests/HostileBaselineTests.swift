import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// The readers of baselines, shards and compile databases against real oracles: `JSONDecoder`
/// for numbers and streamed files, libclang for how commands and response files are split, the
/// SARIF 2.1.0 schema for what `merge` writes.
final class HostileBaselineTests: XCTestCase {
    /// A file read in 1 MB pieces gives what its bytes give whole and what `JSONDecoder` gives:
    /// strings across piece boundaries, one longer than a piece, escapes and multi-byte
    /// characters at the seams; and a problem past the first piece is placed at its line.
    func testAStreamedBaselineReadsAsItsBytesAcrossPieces() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab c:/\"\\\n\té€😀\u{0}")
        let pool = (0..<20_000).map { _ in alphabet.randomElement(using: &generator)! }
        func text(_ count: Int) -> String {
            let start = Int.random(in: 0...(pool.count - count % pool.count), using: &generator)
            return String(repeating: String(pool[start..<(start + count % pool.count)]), count: 1)
                + String(repeating: String(pool[..<1000]), count: count / pool.count * 20)
        }
        var entries = (0..<4000).map { i in
            BaselineEntry(
                fingerprint: "\(i):0", rule: "container-access", path: "Sources/F\(i % 37).m", line: i + 1,
                snippet: text(Int.random(in: 0...600, using: &generator)), expression: nil,
                scope: i % 3 == 0 ? text(20) : nil,
                scheme: nil)
        }
        entries[1234].snippet = text(3 << 19) // longer than a piece: the buffer grows
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("big.json").path
        try Baseline(entries: entries).write(to: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertGreaterThan(bytes.count, 2 << 20)

        let streamed = try Baseline.load(path: path)
        XCTAssertEqual(streamed.entries, Baseline(entries: entries).entries)
        XCTAssertEqual(try BaselineScanner.read(bytes).entries, streamed.entries)
        struct File: Decodable { var version: Int; var entries: [BaselineEntry] }
        XCTAssertEqual(try JSONDecoder().decode(File.self, from: Data(bytes)).entries, streamed.entries)

        // A number out of range past the first pieces: the message says its line and column.
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let target = try XCTUnwrap(lines.indices.last { lines[$0].contains("\"line\" : 3999,") })
        let column = try XCTUnwrap(lines[target].range(of: "3999")).lowerBound.utf16Offset(in: lines[target]) + 1
        try Data(text.replacingOccurrences(of: "\"line\" : 3999,", with: "\"line\" : 39990000000000000000,").utf8)
            .write(to: URL(fileURLWithPath: path))
        let index = try XCTUnwrap(streamed.entries.firstIndex { $0.line == 3999 })
        XCTAssertThrowsError(try Baseline.load(path: path)) { error in
            XCTAssertEqual(
                "\(error)",
                "\(path): not a valid baseline: entries[\(index)].line: 39990000000000000000 is out of range (integers here are from -9223372036854775808 to 9223372036854775807), at line \(target + 1), column \(column)"
            )
        }
        // Cut short in the middle of a piece.
        try Data(bytes[..<(bytes.count * 2 / 3)]).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Baseline.load(path: path)) { XCTAssertTrue("\($0)".contains("(truncated?)"), "\($0)") }
    }

    /// Baselines and the stale entries of JSON and SARIF reports, written by hand, are the bytes
    /// `JSONEncoder` writes: every optional field present or not, strings of every byte class.
    func testBaselinesAndStaleEntriesWrittenByHandAreWhatTheEncoderWrites() throws {
        let texts = ["", "a\"b\\c/d", "\u{0}\u{1F}\u{7F}", "é€😀", "\u{2028}\u{2029}", "line\nbreak\ttab", "%SRCROOT%"]
        var entries: [BaselineEntry] = []
        for (i, text) in texts.enumerated() {
            entries.append(
                BaselineEntry(
                    fingerprint: "\(text):\(i)", rule: "r\(text)", path: "p\(text).m", line: i + 1,
                    snippet: i % 2 == 0 ? text : nil, expression: i % 3 == 0 ? text : nil,
                    scope: i % 4 == 0 ? text : nil,
                    scheme: i % 5 == 0 ? 1 : nil))
        }
        struct File: Encodable {
            var version: Int; var tool: String?; var toolVersion: String?; var entries: [BaselineEntry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for list in [entries, [entries[1]], []] {
            let baseline = Baseline(entries: list)
            let file = File(
                version: Baseline.formatVersion, tool: "di-lint", toolVersion: DILintVersion.current,
                entries: baseline.entries)
            XCTAssertEqual(baseline.text(), String(decoding: try encoder.encode(file), as: UTF8.self) + "\n")

            var result = LintResult(
                findings: [
                    Finding(
                        rule: "container-access", path: "/abs/a.m", line: 2, column: 3, severity: .error, message: "m")
                ],
                filesChecked: 1, filesParsed: 1, filesFailed: 0, seconds: 0.5)
            result.staleBaselineEntries = list
            let document = JSONReporter().document(result)
            XCTAssertEqual(document.text(), document.rendered())
            let log = SARIFReporter(root: "/abs").log(result)
            XCTAssertEqual(log.text(), log.rendered())
        }
    }

    /// Integers are read exactly, whatever their digits, fraction and exponent: as `Decimal`
    /// reads them (exact to 38 digits), and as `JSONDecoder` reads them into an `Int` whenever it
    /// reads them (it goes through a double: 9.223372036854775807e18 is past `Int.max` to it).
    /// What is not a whole number in range is called out of range or not whole.
    func testIntegersAreReadExactly() throws {
        struct Holder: Decodable { var version: Int }
        var generator = SystemRandomNumberGenerator()
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in "0123456789".randomElement(using: &generator)! })
        }
        var numbers = [
            "0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809",
            "1e18", "1e19", "9.223372036854775807e18", "92233720368547758070e-1", "1.5", "15e-1", "0.0", "100e-2",
            "1E+2",
            "12345678901234567890123456789e-10", "0.000000000000000000000000001e27", "-1e40",
        ]
        for _ in 0..<3000 {
            var n =
                (Bool.random(using: &generator) ? "-" : "") + String(Int.random(in: 1...9, using: &generator))
                + digits(Int.random(in: 0...22, using: &generator))
            if Bool.random(using: &generator) { n += "." + digits(Int.random(in: 1...6, using: &generator)) }
            if Bool.random(using: &generator) {
                n +=
                    "e" + ["", "+", "-"].randomElement(using: &generator)!
                    + String(Int.random(in: 0...25, using: &generator))
            }
            numbers.append(n)
        }
        func read(_ n: String) -> Result<Int, Error> {
            Result { try BaselineScanner.read(Array(#"{"version": \#(n), "entries": []}"#.utf8)).version }
        }
        for n in numbers {
            let decimal = try XCTUnwrap(Decimal(string: n), n)
            var rounded = Decimal(), copy = decimal
            NSDecimalRound(&rounded, &copy, 0, .plain)
            let exact =
                rounded == decimal && decimal >= Decimal(Int.min) && decimal <= Decimal(Int.max)
                ? Int("\(decimal)") : nil
            switch read(n) {
            case .success(let value):
                XCTAssertEqual(value, exact, n)
                if let decoded = try? JSONDecoder().decode(Holder.self, from: Data(#"{"version": \#(n)}"#.utf8)).version
                {
                    XCTAssertEqual(value, decoded, n)
                }
            case .failure(let error):
                XCTAssertNil(exact, "\(n): \(error)")
                XCTAssertTrue(
                    "\(error)".contains(rounded == decimal ? "is out of range" : "is not a whole number"),
                    "\(n): \(error)")
            }
        }
        // Past what Decimal holds.
        XCTAssertEqual(try read("0e99999999999999999999").get(), 0)
        XCTAssertEqual(try read("-0.0000e-99999999999999999999").get(), 0)
        XCTAssertTrue("\(read("1e99999999999999999999"))".contains("1e99999999999999999999 is out of range"))
        XCTAssertTrue("\(read("1e-99999999999999999999"))".contains("is not a whole number"))
        let zeros = String(repeating: "0", count: 100_000)
        XCTAssertTrue(
            "\(read("1" + zeros))".contains("1000000000000000000000000000000000000000… is out of range"),
            "\(read("1" + zeros))")
        XCTAssertEqual(try read("1" + zeros + "e-100000").get(), 1)
        XCTAssertEqual(try read("1" + zeros + "e-99982").get(), 1_000_000_000_000_000_000)
    }

    /// `command` strings and response files are split as libclang splits them: the same
    /// arguments come out of a real compile database.
    func testCommandsAndResponseFilesAreSplitAsLibclangSplitsThem() throws {
        var generator = SystemRandomNumberGenerator()
        let directory = try temporaryDirectory(self)
        let source = directory.appendingPathComponent("a.c").path
        func loaded(_ entry: String) throws -> [String] {
            try Data(#"[{"directory": "\#(directory.path)", "file": "\#(source)", \#(entry)}]"#.utf8)
                .write(to: directory.appendingPathComponent("compile_commands.json"))
            return try XCTUnwrap(try CompilationDatabase.load(directory: directory.path)[source])
        }
        func expected(_ tokens: [String]) -> [String] {
            CompilationDatabase.parseArguments(tokens, file: source, absolute: source) + [
                "-working-directory=\(directory.path)"
            ]
        }
        let pieces = ["-DA", "b", " ", "  ", "\\\"", "\"", "'", "\\ ", "\\\\", "\t", "x\\'y", "\"q r\"", "'s t'", "é"]
        for _ in 0..<150 {
            let command =
                "clang "
                + (0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
            let json = String(decoding: try JSONEncoder().encode(command), as: UTF8.self)
            XCTAssertEqual(
                try loaded("\"command\": \(json)"), expected(Array(ResponseFiles.commandTokens(command).dropFirst())),
                command)

            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                (pieces + ["\n", "\r\n"]).randomElement(using: &generator)!
            }.joined()
            try Data(text.utf8).write(to: directory.appendingPathComponent("r.rsp"))
            XCTAssertEqual(
                try loaded(#""arguments": ["clang", "@r.rsp"]"#),
                expected(ResponseFiles.gnuTokens(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }), text)
        }
    }

    /// Whatever a shard's fields say, `merge` either refuses it naming the field or writes SARIF
    /// that the 2.1.0 schema accepts (the fields a shard carries into the merged log, mutated).
    func testMergedSARIFIsRefusedOrValidAgainstTheSchema() throws {
        let project = try GateProject(
            self,
            files: [
                "a.m": objcSource(accesses: [
                    "[Container sharedInstance]", "[[Container sharedInstance] crashReporter]",
                ]),
                "b.m": objcSource(accesses: ["[[Container sharedInstance] dateProvider]"]),
            ])
        var result = try project.lint()
        Baseline(findings: [result.findings[0]], root: project.root.path).apply(
            to: &result, lintedFiles: try project.files(), root: project.root.path)
        result.staleBaselineEntries = [
            BaselineEntry(fingerprint: "ab:0", rule: "container-access", path: "gone.m", line: 3)
        ]
        let sarif = SARIFReporter(root: project.root.path).render(result)
        let directory = try temporaryDirectory(self)
        let mutations: [(String, String, String?)] = [
            (#""startLine" : \d+"#, #""startLine" : -7"#, "startLine is -7"),
            (#""startLine" : \d+"#, #""startLine" : 0"#, "startLine is 0"),
            (#""startColumn" : "#, #""startColumn" : -"#, "startColumn is -"),
            (#""level" : "error""#, #""level" : "fatal""#, "level 'fatal' is not"),
            (#""baselineState" : "new""#, #""baselineState" : "old""#, "baselineState 'old' is not"),
            (#""kind" : "external""#, #""kind" : "elsewhere""#, "suppressions[0].kind 'elsewhere'"),
            (#""status" : "accepted""#, #""status" : "maybe""#, "suppressions[0].status 'maybe'"),
            (#""level" : "warning""#, #""level" : "loud""#, "defaultConfiguration.level 'loud'"),
            (#""columnKind" : "utf16CodeUnits""#, #""columnKind" : "bytes""#, "columnKind 'bytes'"),
            (#""version" : "2.1.0""#, #""version" : "2.0.0""#, "version is '2.0.0', not SARIF 2.1.0"),
            (#""name" : "di-lint""#, #""name" : "other-lint""#, "tool.driver.name is 'other-lint'"),
            (#""files" : 2"#, #""files" : -2"#, "properties.diLint.files is -2"),
            (#""line" : 3"#, #""line" : -3"#, "stale[0]: line -3 is not a line number"),
            (#""ruleIndex" : \d+"#, #""ruleIndex" : -5"#, nil), // recomputed from the rule list
            (#""justification" : "accepted in the di-lint baseline""#, #""justification" : """#, nil),
            (#""uriBaseId" : "%SRCROOT%""#, #""uriBaseId" : "ELSEWHERE""#, nil),
        ]
        for (i, (old, new, problem)) in mutations.enumerated() {
            XCTAssertNotNil(sarif.range(of: old, options: .regularExpression), old)
            let path = directory.appendingPathComponent("s\(i).sarif").path
            try Data(sarif.replacingOccurrences(of: old, with: new, options: .regularExpression).utf8).write(
                to: URL(fileURLWithPath: path))
            do {
                let merged = try ReportMerge.merge(files: [path])
                XCTAssertNil(problem, "\(new) was merged")
                XCTAssertNil(try sarifSchemaViolation(merged.text, in: directory), new)
            } catch {
                let expected = try XCTUnwrap(problem, "\(new): \(error)")
                XCTAssertTrue("\(error)".hasPrefix(path + ": "), "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error) should say \(expected)")
            }
        }
    }
}
