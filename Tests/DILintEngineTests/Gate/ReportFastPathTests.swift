import Foundation
import XCTest
@testable import DILintEngine

/// The report paths written for speed on large runs give what the plain ones gave, byte for byte.
final class ReportFastPathTests: XCTestCase {
    /// Findings whose strings need every kind of JSON care: quotes, backslashes, slashes,
    /// non-ASCII, control characters, the line separators; with and without access, service,
    /// macro, fingerprint, baselined.
    private func awkwardFindings() -> [Finding] {
        var findings: [Finding] = []
        let texts = [
            "plain", "say \"hi\" \\ back/slash", "ünï…code 😀", "tab\there", "nl\nand\r", "bell\u{7}del\u{7F}",
            "sep\u{2028}par\u{2029}", "", "\\", "\"", "/%SRCROOT%/x y.m",
        ]
        for (i, text) in texts.enumerated() {
            var f = Finding(
                rule: i % 2 == 0 ? "container-access" : "suppression-without-reason",
                path: i % 3 == 0 ? "a/b \(text).m" : "/abs/c.m",
                line: i + 1, column: i * 7 + 1, severity: [.error, .warning, .note][i % 3], message: "m \(text)",
                access: i % 2 == 0
                    ? ContainerAccess(
                        container: "C\(text)", accessor: "s\(text)", service: i % 4 == 0 ? nil : "svc\(text)",
                        viaMacro: i % 3 == 1 ? "M\(text)" : nil, kind: .direct) : nil,
                snippet: i % 5 == 4 ? nil : "snip \(text)")
            f.fingerprint = i % 4 == 3 ? nil : "\(i)abc:\(i)"
            f.baselined = i % 3 == 2
            findings.append(f)
        }
        return findings
    }

    private func result(_ findings: [Finding]) -> LintResult {
        LintResult(
            findings: findings, filesChecked: 3, filesParsed: 2, filesFailed: 1, seconds: 1.25,
            handlerFunctionsReadPartly: 2)
    }

    func testJSONFindingsWrittenByHandAreWhatTheEncoderWrites() {
        let r = result(awkwardFindings())
        let reporter = JSONReporter()
        XCTAssertEqual(reporter.render(r), reporter.document(r).rendered())
        XCTAssertTrue(reporter.render(r).contains("\\\"hi\\\" \\\\ back/slash"))
        let one = result([awkwardFindings()[1]])
        XCTAssertEqual(reporter.render(one), reporter.document(one).rendered())
        let none = result([])
        XCTAssertEqual(reporter.render(none), reporter.document(none).rendered())
    }

    func testSARIFResultsWrittenByHandAreWhatTheEncoderWrites() {
        let r = result(awkwardFindings())
        let reporter = SARIFReporter(root: "/abs")
        XCTAssertEqual(reporter.render(r), reporter.log(r).rendered())
        let none = result([])
        XCTAssertEqual(reporter.render(none), reporter.log(none).rendered())
    }

    func testPrettyJSONStringsAreTheEncodersForEveryByteClass() {
        var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["é", "\u{2028}", "\u{2029}", "\u{FEFF}", "a\"b\\c/d", "日本語", "😀"]
        for s in samples {
            var w = PrettyJSON(arrayAt: 0)
            w.element()
            w.string(s)
            XCTAssertEqual(
                String(decoding: w.bytes.dropFirst(3), as: UTF8.self),
                String(decoding: PrettyJSON.encoded(s), as: UTF8.self),
                "string \(Array(s.unicodeScalars.map(\.value)))")
        }
    }

    func testOnePassDigestIsTheStreamingOnes() {
        var bytes: [UInt8] = []
        var seed: UInt64 = 0x9E3779B97F4A7C15
        for n in 0..<300 {
            XCTAssertEqual(
                bytes.withUnsafeBytes { SHA256.hexPrefix32($0) }, String(SHA256.hex(bytes).prefix(32)), "length \(n)")
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
        }
        // FIPS 180-4's "abc"
        XCTAssertEqual(Array("abc".utf8).withUnsafeBytes { SHA256.hexPrefix32($0) }, "ba7816bf8f01cfea414140de5dae2223")
    }

    /// The old reading: the file decoded whole, split on "\n" characters ("\r\n" is one character).
    private func oldLine(_ number: Int, of path: String) -> String {
        let text = (try? InputFile.read(path, limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return "" }
        return String(lines[number - 1])
    }

    func testSourceLinesReadLinesAndColumnsAsBefore() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fastpath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("x.m")
        var bytes = Array("int a;\r\nint b; // é\nbad \u{FF}".utf8)
        bytes += [0xC3, 0x0A, 0xE2, 0x82, 0x0A, 0x0A]
        bytes += Array("ascii only line\n\r\n😀x = 1;\n".utf8)
        try Data(bytes).write(to: file)
        var lines = SourceLines()
        for number in 0...12 {
            let old = oldLine(number, of: file.path)
            XCTAssertEqual(lines.line(number, of: file.path), old, "line \(number)")
            for column in -1...(old.utf8.count + 3) {
                XCTAssertEqual(
                    lines.utf16Column(byteColumn: column, line: number, of: file.path),
                    SARIFReporter.utf16Column(byteColumn: column, line: old), "line \(number) column \(column)")
            }
        }
        XCTAssertEqual(lines.line(1, of: dir.appendingPathComponent("missing.m").path), "")
    }

    func testFactsWithoutHandlersAreToldFromTheBytes() {
        let f = Symbol(usr: "c:@F@f", name: "f")
        let here = SitePosition(line: 1, column: 1, offset: 0)
        let plain = CallGraphFacts(
            functions: [
                FunctionFact(
                    symbol: f, position: here,
                    sites: [
                        CallSite(kind: .call, target: f, trait: .swift, detail: "d", position: here),
                        CallSite(kind: .objcMessage, target: nil, trait: nil, detail: nil, position: here),
                    ])
            ],
            stores: [PointerStore(slot: f, value: nil)], swiftExports: ["e"],
            forwards: [ParameterForward(function: f, parameter: 0, callee: f, argument: 1)],
            functionArguments: [FunctionArgument(callee: f, argument: 0, value: f, position: here)], macros: ["M"])
        XCTAssertFalse(CallGraphFacts.mayHoldHandlers(encoded: plain.encoded))
        XCTAssertFalse(CallGraphFacts.mayHoldHandlers(encoded: CallGraphFacts().encoded))
        var registered = plain
        registered.registrations = [HandlerRegistration(handler: f, mechanism: .signal, position: here)]
        var annotated = plain
        annotated.annotated = [f]
        var installing = plain
        installing.installingParameters = [ParameterUse(function: f, index: 0, mechanism: .sigaction)]
        var signalArgument = plain
        signalArgument.signalArguments = [FunctionArgument(callee: f, argument: 1, value: f, position: here)]
        for facts in [registered, annotated, installing, signalArgument] {
            XCTAssertTrue(CallGraphFacts.mayHoldHandlers(encoded: facts.encoded))
        }
        // bytes that do not read as facts are decoded in full (and dropped there)
        var damaged = plain.encoded
        damaged.removeLast()
        XCTAssertTrue(CallGraphFacts.mayHoldHandlers(encoded: damaged))
        XCTAssertTrue(CallGraphFacts.mayHoldHandlers(encoded: Data()))
    }

    func testFingerprintsDoNotDependOnTheFindingsOrder() {
        var ordered = awkwardFindings().sorted(by: Finding.ordered)
        var shuffled = Array(ordered.reversed())
        Fingerprints.assign(to: &ordered, root: "/abs")
        Fingerprints.assign(to: &shuffled, root: "/abs")
        XCTAssertEqual(ordered.map(\.fingerprint), shuffled.reversed().map(\.fingerprint))
        var relative = RelativePaths(root: "/abs")
        XCTAssertEqual(
            ordered.map { $0.fingerprint!.split(separator: ":")[0] },
            ordered.map { f in
                Substring(
                    Fingerprints.hash([
                        f.rule, relative[f.path], f.scope ?? "",
                        f.access.map { "access\0\($0.container)\0\($0.accessor)\0\($0.service ?? "")" }
                            ?? "line\0" + Fingerprints.normalize(f.snippet ?? ""),
                    ]))
            })
    }
}
