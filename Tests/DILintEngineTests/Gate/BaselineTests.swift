import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class BaselineTests: XCTestCase {
    func testSHA256MatchesKnownDigests() {
        XCTAssertEqual(SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex(String(repeating: "a", count: 1000)),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // Fed in uneven pieces across block boundaries.
        let bytes = (0..<3).flatMap { _ in (0..<256).map { UInt8($0) } }
        var hasher = SHA256()
        for chunk in stride(from: 0, to: bytes.count, by: 37) {
            hasher.update(bytes[chunk..<min(chunk + 37, bytes.count)])
        }
        XCTAssertEqual(
            SHA256.hexString(hasher.finalize()), "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363")
    }

    func testFingerprintsSurviveLineShiftsAndReindentingButNotAnEditedLine() throws {
        let accesses = ["[Container sharedInstance]", "[[Container sharedInstance] crashReporter]"]
        let project = try GateProject(self, files: ["a.m": objcSource(accesses: accesses)])
        let before = try project.lint().findings.map(\.fingerprint)
        XCTAssertEqual(before.count, 2)
        XCTAssertEqual(Set(before).count, 2)

        try project.write(
            "a.m", objcSource(accesses: accesses, padding: 7).replacingOccurrences(of: "    id x", with: "\t\tid   x"))
        XCTAssertEqual(try project.lint().findings.map(\.fingerprint), before)

        try project.write(
            "a.m", objcSource(accesses: ["[Container sharedInstance]", "[[Container sharedInstance] dateProvider]"]))
        let edited = try project.lint().findings.map(\.fingerprint)
        XCTAssertEqual(edited[0], before[0])
        XCTAssertNotEqual(edited[1], before[1])
    }

    func testIdenticalLinesAreToldApartByOccurrence() throws {
        let same = Array(repeating: "[Container sharedInstance]", count: 3)
        let project = try GateProject(self, files: ["a.m": objcSource(accesses: same)])
        let prints = try project.lint().findings.compactMap(\.fingerprint)
        XCTAssertEqual(prints.count, 3)
        XCTAssertEqual(Set(prints.map { $0.split(separator: ":")[0] }).count, 1)
        XCTAssertEqual(prints.map { $0.split(separator: ":")[1] }, ["0", "1", "2"])
    }

    func testBaselineAcceptsOldFindingsReportsNewOnesAndStaleEntriesInScopeOnly() throws {
        let project = try GateProject(
            self,
            files: [
                "a.m": objcSource(accesses: [
                    "[Container sharedInstance]", "[[Container sharedInstance] crashReporter]",
                ]),
                "b.m": objcSource(accesses: ["[[Container sharedInstance] dateProvider]"]),
            ])
        let baseline = Baseline(findings: try project.lint().findings, root: project.root.path)
        XCTAssertEqual(baseline.entries.map(\.path), ["a.m", "a.m", "b.m"])

        // a.m: first access fixed, a new one added; b.m not linted this time.
        try project.write(
            "a.m",
            objcSource(
                accesses: ["[[Container sharedInstance] crashReporter]", "[[Container sharedInstance] fileManager]"],
                padding: 3))
        let a = project.root.appendingPathComponent("a.m").path
        var result = try project.lint(files: [a])
        baseline.apply(to: &result, lintedFiles: [a], root: project.root.path)
        XCTAssertEqual(result.findings.map(\.baselined), [true, false])
        XCTAssertEqual(result.newErrorCount, 1)
        XCTAssertEqual(result.staleBaselineEntries.map(\.snippet), ["id x = [Container sharedInstance];"])

        // A deleted file's entries are stale even though it was not linted.
        try FileManager.default.removeItem(at: project.root.appendingPathComponent("b.m"))
        baseline.apply(to: &result, lintedFiles: [a], root: project.root.path)
        XCTAssertEqual(result.staleBaselineEntries.map(\.path), ["a.m", "b.m"])
        XCTAssertEqual(baseline.removing(result.staleBaselineEntries).entries.count, 1)
    }

    func testBaselineRoundTripsThroughItsFile() throws {
        let project = try GateProject(self, files: ["a.m": objcSource(accesses: ["[Container sharedInstance]"])])
        let baseline = Baseline(findings: try project.lint().findings, root: project.root.path)
        let path = project.root.appendingPathComponent("baseline.json").path
        try baseline.write(to: path)
        XCTAssertEqual(try Baseline.load(path: path), baseline)
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        XCTAssertEqual(object?["version"] as? Int, Baseline.formatVersion)
    }

    func testCorruptBaselinesFailWithTheFileAndTheProblem() throws {
        let project = try GateProject(self)
        let cases: [(String, String)] = [
            ("{\"version\": 1, \"entries\": [", "not valid JSON"),
            ("[1, 2]", "expected a JSON object"),
            ("{\"version\": 1}", "missing 'entries'"),
            ("{\"version\": 7, \"entries\": []}", "format version 7 is not supported"),
            (
                "{\"version\": 1, \"entries\": [{\"rule\": \"r\", \"path\": \"p\", \"line\": 1}]}",
                "missing 'fingerprint' in entries[0]"
            ),
            (
                "{\"version\": 1, \"entries\": [{\"fingerprint\": 5, \"rule\": \"r\", \"path\": \"p\", \"line\": 1}]}",
                "entries[0].fingerprint should be a string"
            ),
            (
                "{\"version\": 1, \"entries\": [{\"fingerprint\": \"x\", \"rule\": \"r\", \"path\": \"p\", \"line\": 1}]}",
                "'x' is not a fingerprint"
            ),
        ]
        for (text, problem) in cases {
            let path = project.root.appendingPathComponent("broken.json").path
            try project.write("broken.json", text)
            XCTAssertThrowsError(try Baseline.load(path: path), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix(path + ": "), message)
                XCTAssertTrue(message.contains(problem), "\(message) should say \(problem)")
            }
        }
        XCTAssertThrowsError(try Baseline.load(path: project.root.appendingPathComponent("absent.json").path)) {
            error in
            XCTAssertTrue("\(error)".contains("no such baseline file"), "\(error)")
        }
    }

    /// `BaselineScanner` reads what di-lint writes and every other text of the baseline's shape
    /// to exactly what `JSONDecoder` reads, and refuses what `JSONDecoder` refuses (and a key
    /// given twice, which `JSONDecoder` reads as its first value), saying what is wrong.
    func testTheBaselineScannerReadsWhatJSONDecoderReads() throws {
        struct File: Decodable {
            var version: Int; var tool: String?; var toolVersion: String?; var entries: [BaselineEntry]
        }
        func decoded(_ text: String) -> (version: Int, entries: [BaselineEntry])? {
            (try? JSONDecoder().decode(File.self, from: Data(text.utf8))).map { ($0.version, $0.entries) }
        }
        let entry = #""fingerprint": "ab:0", "rule": "r", "path": "p.m", "line": 3"#
        let accepted = [
            #"{"version": 2, "entries": []}"#,
            " \n\t{\r\n\"entries\" : [ ] , \"version\":1 }\n ",
            #"{"version": 2, "tool": "di-lint", "toolVersion": null, "entries": [{\#(entry)}]}"#,
            #"{"entries": [{\#(entry), "snippet": null, "expression": "C.s", "scope": "A.b", "scheme": 1}], "version": 1}"#,
            #"{"version": 2, "entries": [{\#(entry), "snippet": "a\"b\\c\/d\b\f\n\r\t\u00e9\u20AC\ud83d\ude00 é€😀 \u0000"}]}"#,
            #"{"version": 2, "entries": [{"line": -12, "path": "Sources/Very/Long/Path/Of/A/File.m", "rule": "container-access", "fingerprint": "x:1"}, {\#(entry)}, {\#(entry)}]}"#,
            #"{"version": 2, "entries": [{"fingerprint": "", "rule": "", "path": "", "line": 0, "scheme": 7}]}"#,
            #"{"version": 2, "entries": [], "extra": [1, {"a": [true, false, null, -1.5e-3, "s"]}]}"#,
            #"{"vers\u0069on": 2, "entries": [{\#(entry), "unknown": {"x": 1e400}}]}"#,
            #"{"version": 2.0, "entries": []}"#, #"{"version": 2e0, "entries": []}"#,
            #"{"version": 200E-2, "entries": []}"#,
            #"{"version": -0, "entries": []}"#, #"{"version": 1234567890123456789, "entries": []}"#,
            #"{"version": 9223372036854775807, "entries": [{"fingerprint": "a:0", "rule": "r", "path": "p", "line": -9223372036854775808}]}"#,
            #"{"version": 2, "entries": [{"fingerprint": "a:0", "rule": "r", "path": "p", "line": 0.000000000000000000000e99999}]}"#,
            "\u{FEFF}{\"version\": 2, \"entries\": []}",
            #"{"version": 2, "entries": [{\#(entry)},]}"#, #"{"version": 2, "entries": [{\#(entry),}], }"#,
        ]
        for text in accepted {
            let slow = decoded(text)
            XCTAssertNotNil(slow, text)
            XCTAssertNoThrow(try BaselineScanner.read(Array(text.utf8)), text)
            let fast = try? BaselineScanner.read(Array(text.utf8))
            XCTAssertEqual(fast?.version, slow?.version, text)
            XCTAssertEqual(fast?.entries, slow?.entries, text)
        }
        // Refused by both readers; the scanner says what and where.
        let refused: [(String, String)] = [
            ("", "the file is empty"), ("[]", "expected a JSON object with 'version' and 'entries'"),
            ("{", "the file ends at line 1, column 2"),
            (#"{"version": 2}"#, "missing 'entries'"), (#"{"entries": []}"#, "missing 'version'"),
            (#"{"version": 2.5, "entries": []}"#, "version: 2.5 is not a whole number, at line 1, column 13"),
            (#"{"version": 02, "entries": []}"#, "a number may not start with 0"),
            (#"{"version": 9223372036854775808, "entries": []}"#, "version: 9223372036854775808 is out of range"),
            (#"{"version": -9223372036854775809, "entries": []}"#, "version: -9223372036854775809 is out of range"),
            (#"{"version": 1e19, "entries": []}"#, "version: 1e19 is out of range"),
            (#"{"version": 1e400, "entries": []}"#, "version: 1e400 is out of range"),
            (#"{"version": 2, "entries": []} x"#, "more after the document's value"),
            (#"{"version": 2, "entries": [{\#(entry), "snippet": "\ud83d"}]}"#, "a lone UTF-16 surrogate escape"),
            (#"{"version": 2, "entries": [{\#(entry), "snippet": "\ude00"}]}"#, "a lone UTF-16 surrogate escape"),
            (#"{"version": 2, "entries": [{\#(entry), "snippet": "\x"}]}"#, #"'\x' is not a JSON escape"#),
            (
                "{\"version\": 2, \"entries\": [{\(entry), \"snippet\": \"a\nb\"}]}",
                "a control character (byte 10) in a string"
            ),
            (
                #"{"version": 2, "entries": [{"rule": "r", "path": "p", "line": 1}]}"#,
                "missing 'fingerprint' in entries[0]"
            ),
            (
                #"{"version": 2, "entries": [{"fingerprint": 5, "rule": "r", "path": "p", "line": 1}]}"#,
                "entries[0].fingerprint should be a string, not a number"
            ),
            (
                #"{"version": 2, "entries": [{"fingerprint": null, "rule": "r", "path": "p", "line": 1}]}"#,
                "entries[0].fingerprint is null"
            ),
            (#"{"version": 2, "entries": [{\#(entry)},,]}"#, "expected a JSON value (in entries[1])"),
            (#"{"version": 2, "entries": [{\#(entry),,}]}"#, "expected a key in quotes (in entries[0])"),
            (
                #"{"version": 2, "entries": [{\#(entry), "scheme": true}]}"#,
                "entries[0].scheme should be a number, not true or false"
            ),
            (#"{"version": 2, "entries": {}}"#, "entries should be an array, not an object"),
        ]
        for (text, problem) in refused {
            XCTAssertNil(decoded(text), text)
            XCTAssertThrowsError(try BaselineScanner.read(Array(text.utf8)), text) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(error) should say \(problem)")
            }
        }
        // Stricter than JSONDecoder, which checks only the numbers it decodes, nests to 512 levels
        // and takes the first value of a key given twice.
        for (text, problem) in [
            (#"{"version": 2, "entries": [], "x": 1e2.5}"#, "line 1, column 39: expected ',' or '}' after a member"),
            (
                #"{"version": 2, "entries": [], "x": "# + String(repeating: "[", count: 100)
                    + String(repeating: "]", count: 100) + "}",
                "nested deeper than 64 levels"
            ),
        ] {
            XCTAssertNotNil(decoded(text), text)
            XCTAssertThrowsError(try BaselineScanner.read(Array(text.utf8)), text) {
                XCTAssertTrue("\($0)".contains(problem), "\($0) should say \(problem)")
            }
        }
        XCTAssertThrowsError(try BaselineScanner.read(Array(#"{"version": 2, "version": 2, "entries": []}"#.utf8))) {
            XCTAssertTrue("\($0)".contains("'version' is given twice"), "\($0)")
        }
        XCTAssertThrowsError(
            try BaselineScanner.read(Array(#"{"version": 2, "entries": [{\#(entry), "line": 4}]}"#.utf8))
        ) {
            XCTAssertTrue("\($0)".contains("entries[0].line is given twice"), "\($0)")
        }
        // Invalid UTF-8 inside a string.
        XCTAssertThrowsError(
            try BaselineScanner.read(
                Array(#"{"version": 2, "entries": [{\#(entry), "scope": ""#.utf8) + [0xC3, 0x28] + Array(#""}]}"#.utf8))
        ) {
            XCTAssertTrue("\($0)".contains("entries[0].scope is not UTF-8 text"), "\($0)")
        }

        // Baselines di-lint writes, with strings of every kind: the same entries both ways.
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 :./\\\"\n\t\u{0}\u{1F}\u{7F}é€😀\u{10FFFF}")
        func text() -> String {
            String(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        let entries = (0..<300).map { i in
            BaselineEntry(
                fingerprint: text() + ":\(i)", rule: ["container-access", text()].randomElement()!,
                path: ["Sources/Long/Path/File.m", text()].randomElement()!,
                line: Int.random(in: -5...100_000), snippet: Bool.random() ? text() : nil,
                expression: Bool.random() ? text() : nil,
                scope: Bool.random() ? text() : nil, scheme: Bool.random() ? 1 : nil)
        }
        let project = try GateProject(self)
        let path = project.root.appendingPathComponent("written.json").path
        try Baseline(entries: entries).write(to: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let fast = try BaselineScanner.read(bytes)
        let slow = try XCTUnwrap(decoded(String(decoding: bytes, as: UTF8.self)))
        XCTAssertEqual(fast.version, slow.version)
        XCTAssertEqual(fast.entries, slow.entries)
        XCTAssertEqual(fast.entries.count, 300)
    }

    /// The sweep finds for each offset what looking through every range finds: the shortest
    /// range holding it, of equal ones the first (nested, overlapping, repeated and empty ranges).
    func testInnermostRangesAreThoseAScanOfEveryRangeFinds() {
        for round in 0..<200 {
            let ranges = (0..<Int.random(in: 0...30)).map { _ -> Range<Int> in
                let lo = Int.random(in: 0...100)
                return lo..<(lo + Int.random(in: 0...(round % 2 == 0 ? 10 : 60)))
            }
            let offsets = (0..<Int.random(in: 0...40)).map { _ in Int.random(in: -2...120) }
            let scanned = offsets.map { offset in
                ranges.indices.filter { ranges[$0].contains(offset) }.min { ranges[$0].count < ranges[$1].count }
            }
            XCTAssertEqual(DeclarationScopes.innermost(ranges, holding: offsets), scanned, "\(ranges) \(offsets)")
        }
    }

    /// Snippets (fingerprinted for findings other than accesses) are trimmed as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` trims, whatever is at their ends.
    func testSnippetTrimmingIsFoundationsWhitespaceTrimming() {
        let alphabet: [String] = [
            " ", "\t", "\u{0B}", "\u{0C}", "\r", "\n", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}",
            "\u{301}", "a", "é", "😀", "\u{FFFD}", ";",
        ]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...8)).map { _ in alphabet.randomElement()! }.joined()
            XCTAssertEqual(
                SourceBuffer.trimmed(text), text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }
}
