import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class CacheEntryCodecTests: XCTestCase {
    /// An outcome with every field set, optional ones both ways, and strings that repeat (the table).
    private func everything() -> FileOutcome {
        let direct = ContainerAccess(
            container: "Container", accessor: "sharedInstance", service: "crashReporter",
            viaMacro: "SHARED", kind: .direct)
        let bare = ContainerAccess(
            container: "container_shared", accessor: "container_shared", service: nil, kind: .compositionRoot)
        var finding = Finding(
            rule: "container-access", path: "Sources/ä b.m", line: 12, column: -3, severity: .error,
            message: "héllo \u{0} \"world\"", access: direct, snippet: "id x = y;")
        finding.scope = "Type.method"
        finding.fingerprint = "abc123"
        finding.baselined = true
        let plain = Finding(
            rule: "parse-failure", path: "Sources/ä b.m", line: Int.max, column: Int.min, severity: .note, message: "")
        var outcome = FileOutcome(parsed: true, failed: true, fromCache: false)
        outcome.findings = [finding, plain]
        outcome.accesses = [
            AccessRecord(path: "Sources/ä b.m", line: 1, column: 2, access: direct),
            AccessRecord(path: "other.c", line: 3, column: 4, access: bare),
            AccessRecord(
                path: "other.c", line: 5, column: 6,
                access: ContainerAccess(container: "C", accessor: "s", service: "x", kind: .fallback)),
        ]
        outcome.facts = ["signal-handler-safety": Data([0, 1, 2, 255]), "empty": Data()]
        outcome.suppressions = Suppressions(
            directives: [
                Suppression(
                    scope: .nextLine, rules: ["container-access", "fallback-access"], reason: "built here",
                    line: 7, column: 5, lines: 8...8, used: true),
                Suppression(scope: .block, rules: nil, reason: nil, line: 1, column: 1, lines: 1...400),
                Suppression(scope: .sameLine, rules: [], reason: "r", line: 2, column: 9, lines: 2...3),
            ],
            malformed: [.init(line: 4, column: 1, problem: "unknown di-lint directive 'x'")])
        return outcome
    }

    func testRoundTripsEveryField() throws {
        let value = everything()
        XCTAssertEqual(try CacheEntryCodec.decode(CacheEntryCodec.encode(value)), value)
        XCTAssertEqual(try CacheEntryCodec.decode(CacheEntryCodec.encode(FileOutcome())), FileOutcome())
    }

    /// A parse worker writes a large file's outcome in two steps, the findings while its facts are
    /// collected (strings of the first step shared with the second): the bytes of one.
    func testABodyBegunWithoutTheFactsIsTheWholeBody() throws {
        let value = everything()
        var withoutFacts = value
        withoutFacts.facts = [:]
        withoutFacts.suppressions = Suppressions()
        var begun = CacheEntryCodec.beginBody(withoutFacts)
        let twoSteps = CacheEntryCodec.finishBody(&begun, value)
        XCTAssertEqual(twoSteps, CacheEntryCodec.encodeUndigested(value))
        XCTAssertEqual(try CacheEntryCodec.decodeUndigested(twoSteps), value)
    }

    /// The codec names each field; a field added to a cached type must be added to it (and here).
    func testTheCodecKnowsEveryStoredField() {
        func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let outcome = everything()
        XCTAssertEqual(
            labels(outcome), ["findings", "accesses", "facts", "suppressions", "parsed", "failed", "fromCache"])
        // `fix` is not cached: `lint --fixes` attaches it after the run, from a fix plan
        XCTAssertEqual(
            labels(outcome.findings[0]),
            [
                "rule", "path", "line", "column", "severity", "message", "access", "snippet",
                "scope", "fingerprint", "baselined", "fix",
            ])
        XCTAssertEqual(labels(outcome.accesses[0]), ["path", "line", "column", "access"])
        XCTAssertEqual(labels(outcome.accesses[0].access), ["container", "accessor", "service", "viaMacro", "kind"])
        XCTAssertEqual(labels(outcome.suppressions), ["directives", "malformed"])
        XCTAssertEqual(
            labels(outcome.suppressions.directives[0]), ["scope", "rules", "reason", "line", "column", "lines", "used"])
        XCTAssertEqual(labels(outcome.suppressions.malformed[0]), ["line", "column", "problem"])
    }

    func testRepeatedStringsAreStoredOnce() {
        var outcome = FileOutcome()
        let access = ContainerAccess(
            container: "SentryDependencyContainer", accessor: "sharedInstance", service: "dateProvider")
        outcome.accesses = Array(
            repeating: AccessRecord(path: "Sources/Sentry/SentryHub.m", line: 10, column: 5, access: access), count: 100
        )
        let bytes = CacheEntryCodec.encode(outcome)
        XCTAssertLessThan(bytes.count, 100 * 12, "\(bytes.count) bytes: strings are not shared")
    }

    func testRoundTripsARealFileOutcome() throws {
        let project = try GateProject(
            self,
            files: [
                "a.m": """
                @implementation R
                - (void)f {
                    id a = self.bridge ? self.bridge.clock : [[Container sharedInstance] clock];
                    // di-lint:disable-next-line container-access -- why not
                    id b = [Container sharedInstance];
                    id c = Container.sharedInstance.crashReporter;
                }
                @end

                """
            ])
        let directory = try temporaryDirectory(self)
        let cache = try IncrementalCache(directory: directory.path, configuration: try project.configuration)
        let first = try project.lint(cache: cache)
        XCTAssertGreaterThanOrEqual(first.accesses.count, 4)
        let second = try project.lint(cache: cache)
        XCTAssertEqual(second.filesCached, 1)
        XCTAssertEqual(second.findings, first.findings)
        XCTAssertEqual(second.accesses, first.accesses)
    }

    func testTruncatedOrDamagedBytesThrowRatherThanCrash() throws {
        let bytes = CacheEntryCodec.encode(everything())
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try CacheEntryCodec.decode(Array(bytes[..<length])), "prefix \(length)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            _ = try? CacheEntryCodec.decode(damaged) // may decode or throw; must not trap
        }
        XCTAssertThrowsError(try CacheEntryCodec.decode(bytes + [0]), "trailing bytes")
        XCTAssertThrowsError(
            try CacheEntryCodec.decode([CacheEntryCodec.formatVersion + 1] + bytes.dropFirst()), "another version")
        XCTAssertThrowsError(
            try CacheEntryCodec.decode([CacheEntryCodec.formatVersion, 1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]),
            "a count larger than the entry")
    }

    /// Two strings Swift calls equal (canonically equivalent) but of different bytes are two
    /// entries of the string table: each reads back with its own bytes.
    func testCanonicallyEquivalentStringsKeepTheirBytes() throws {
        let composed = "caf\u{E9} \u{2026}", decomposed = "cafe\u{301} \u{2026}"
        XCTAssertEqual(composed, decomposed)
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        var outcome = FileOutcome()
        outcome.findings = [
            Finding(
                rule: "r", path: "a.m", line: 1, column: 1, severity: .error, message: composed, snippet: decomposed),
            Finding(
                rule: "r", path: "a.m", line: 2, column: 1, severity: .error, message: decomposed, snippet: composed),
        ]
        for decoded in [
            try CacheEntryCodec.decode(CacheEntryCodec.encode(outcome)),
            try CacheEntryCodec.decodeUndigested(CacheEntryCodec.encodeUndigested(outcome)),
        ] {
            XCTAssertEqual(
                decoded.findings.map { Array($0.message.utf8) }, [Array(composed.utf8), Array(decomposed.utf8)])
            XCTAssertEqual(
                decoded.findings.map { $0.snippet.map { Array($0.utf8) } },
                [Array(decomposed.utf8), Array(composed.utf8)])
        }
    }

    /// The string table's layout, over enough strings to grow it several times: a string first
    /// seen is 1, its length and bytes; a repeat is its index + 2; nil is 0.
    func testStringTableLayout() throws {
        let strings: [String?] = (0..<3000).map { i in
            switch i % 7 {
            case 0: return nil
            case 1: return ""
            case 2: return "s\(i / 3)"
            case 3: return "\u{2026}snippet \(i / 2) with a longer text to hash \(i % 50)"
            default: return "name\(i % 400)"
            }
        }
        var w = ByteWriter()
        for s in strings { w.string(s) }
        var expected: [UInt8] = []
        func leb(_ value: Int) {
            var v = UInt64(value)
            while v >= 0x80 { expected.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
            expected.append(UInt8(v))
        }
        var table: [[UInt8]: Int] = [:]
        for s in strings {
            guard let s else { leb(0); continue }
            let bytes = Array(s.utf8)
            if let k = table[bytes] { leb(k + 2); continue }
            table[bytes] = table.count
            leb(1)
            leb(bytes.count)
            expected += bytes
        }
        XCTAssertEqual(w.bytes, expected)
        var r = ByteReader(w.bytes)
        for s in strings { XCTAssertEqual(try r.optionalString(), s) }
        XCTAssertTrue(r.atEnd)
    }

    /// A parse worker's reply is the entry without its digest.
    func testUndigestedEntryIsTheEntryWithoutItsDigest() throws {
        let value = everything()
        XCTAssertEqual(
            CacheEntryCodec.encodeUndigested(value)
                + CacheEntryCodec.digest(CacheEntryCodec.encodeUndigested(value)[...]),
            CacheEntryCodec.encode(value))
        XCTAssertEqual(try CacheEntryCodec.decodeUndigested(CacheEntryCodec.encodeUndigested(value)), value)
    }
}
