import Foundation

/// The byte layout of one cache entry (a `FileOutcome`), written field by field over
/// `ByteWriter`/`ByteReader`. A warm run decodes every file's findings and accesses, and a generic
/// `Codable` codec cost a third of such a run. An entry that does not decode is recomputed.
/// `CacheEntryCodecTests` trips when a field is added to a cached type and not here; change
/// `IncrementalCache.layout` with the layout.
///
/// An entry ends with the first `digestSize` bytes of the SHA-256 of its binding (the cache key
/// it is stored under: `IncrementalCache` passes it) and what precedes it: a damaged entry that
/// would still decode (a flipped byte in a line number, a severity, a count) is caught by the
/// digest and recomputed, never trusted, and so is an entry copied, renamed or linked to the key
/// of another file, another content or other settings.
enum CacheEntryCodec {
    static let formatVersion: UInt8 = 2
    static let digestSize = 16

    /// The entry does not end with the digest of its content.
    struct DigestMismatch: Error {}

    static func encode(_ outcome: FileOutcome, binding: String = "") -> [UInt8] {
        var bytes = body(outcome)
        bytes += digest(bytes[...], binding: binding)
        return bytes
    }

    /// The entry without its digest, for a parse worker's reply (`ParseWorker`): a socket to the
    /// parent does not damage bytes, and hashing tens of megabytes on both sides cost a tenth of
    /// a run over a large file. Read with `decodeUndigested`.
    static func encodeUndigested(_ outcome: FileOutcome) -> [UInt8] { body(outcome) }

    static func digest(_ bytes: ArraySlice<UInt8>, binding: String = "") -> [UInt8] {
        var hasher = SHA256()
        if !binding.isEmpty { hasher.update(binding) }
        hasher.update(bytes)
        return Array(hasher.finalize().prefix(digestSize))
    }

    private static func body(_ outcome: FileOutcome) -> [UInt8] {
        var begun = beginBody(outcome)
        return finishBody(&begun, outcome)
    }

    /// An entry's body written up to the facts: what a parse worker writes of a large file's
    /// outcome while its facts are still being collected (`finishBody` writes the rest; the two
    /// give `encodeUndigested`'s bytes).
    struct PartialBody {
        fileprivate var writer: ByteWriter
    }

    static func beginBody(_ outcome: FileOutcome) -> PartialBody {
        var w = ByteWriter()
        w.bytes.append(formatVersion)
        w.bool(outcome.parsed)
        w.bool(outcome.failed)
        w.count(outcome.findings.count)
        for f in outcome.findings { w.finding(f) }
        w.count(outcome.accesses.count)
        for a in outcome.accesses {
            w.string(a.path)
            w.int(a.line)
            w.int(a.column)
            w.access(a.access)
        }
        return PartialBody(writer: w)
    }

    /// The body's rest, from the facts; `outcome` is the one `beginBody` began with, facts added.
    /// Takes the begun bytes over (not copied: a large file's findings are megabytes).
    static func finishBody(_ partial: inout PartialBody, _ outcome: FileOutcome) -> [UInt8] {
        var w = ByteWriter()
        swap(&w, &partial.writer)
        w.count(outcome.facts.count)
        for (rule, facts) in outcome.facts.sorted(by: { $0.key < $1.key }) {
            w.string(rule)
            w.count(facts.count)
            w.bytes.append(contentsOf: facts)
        }
        w.count(outcome.suppressions.directives.count)
        for s in outcome.suppressions.directives { w.suppression(s) }
        w.count(outcome.suppressions.malformed.count)
        for m in outcome.suppressions.malformed {
            w.int(m.line)
            w.int(m.column)
            w.string(m.problem)
        }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8], binding: String = "") throws -> FileOutcome {
        guard bytes.count > digestSize else { throw DigestMismatch() }
        let content = bytes[..<(bytes.count - digestSize)]
        guard digest(content, binding: binding).elementsEqual(bytes[(bytes.count - digestSize)...]) else {
            throw DigestMismatch()
        }
        return try decodeUndigested(Array(content))
    }

    /// What `encodeUndigested` wrote, from offset `start` of `content` to its end.
    static func decodeUndigested(_ content: [UInt8], from start: Int = 0) throws -> FileOutcome {
        var r = ByteReader(content, from: start)
        guard try r.byte() == formatVersion else { throw ByteReader.Malformed() }
        var outcome = FileOutcome()
        outcome.parsed = try r.bool()
        outcome.failed = try r.bool()
        outcome.findings = try r.list { r in try r.finding() }
        outcome.accesses = try r.list { r in
            AccessRecord(path: try r.string(), line: try r.int(), column: try r.int(), access: try r.access())
        }
        for _ in 0..<(try r.count()) {
            let rule = try r.string()
            outcome.facts[rule] = Data(try r.raw(r.count()))
        }
        let directives = try r.list { r in try r.suppression() }
        let malformed = try r.list { r in
            Suppressions.Malformed(line: try r.int(), column: try r.int(), problem: try r.string())
        }
        outcome.suppressions = Suppressions(directives: directives, malformed: malformed)
        guard r.atEnd else { throw ByteReader.Malformed() }
        return outcome
    }
}

private extension ByteWriter {
    mutating func access(_ a: ContainerAccess) {
        string(a.container)
        string(a.accessor)
        string(a.service)
        string(a.viaMacro)
        value(a.kind)
    }

    mutating func finding(_ f: Finding) {
        string(f.rule)
        string(f.path)
        int(f.line)
        int(f.column)
        value(f.severity)
        string(f.message)
        bool(f.access != nil)
        if let access = f.access { self.access(access) }
        string(f.snippet)
        string(f.scope)
        string(f.fingerprint)
        bool(f.baselined)
    }

    mutating func suppression(_ s: Suppression) {
        value(s.scope)
        if let rules = s.rules {
            count(rules.count + 1)
            for rule in rules.sorted() { string(rule) }
        } else {
            count(0)
        }
        string(s.reason)
        int(s.line)
        int(s.column)
        int(s.lines.lowerBound)
        int(s.lines.upperBound)
        bool(s.used)
    }
}

private extension ByteReader {
    mutating func access() throws -> ContainerAccess {
        ContainerAccess(
            container: try string(), accessor: try string(), service: try optionalString(),
            viaMacro: try optionalString(), kind: try value(AccessKind.self))
    }

    mutating func finding() throws -> Finding {
        var f = Finding(
            rule: try string(), path: try string(), line: try int(), column: try int(),
            severity: try value(Severity.self), message: try string())
        if try bool() { f.access = try access() }
        f.snippet = try optionalString()
        f.scope = try optionalString()
        f.fingerprint = try optionalString()
        f.baselined = try bool()
        return f
    }

    mutating func suppression() throws -> Suppression {
        let scope = try value(Suppression.Scope.self)
        let ruleCount = try count()
        var rules: Set<String>?
        if ruleCount > 0 {
            rules = []
            for _ in 1..<ruleCount { rules!.insert(try string()) }
        }
        let reason = try optionalString()
        let line = try int(), column = try int(), lower = try int(), upper = try int()
        guard lower <= upper else { throw ByteReader.Malformed() }
        return Suppression(
            scope: scope, rules: rules, reason: reason, line: line, column: column,
            lines: lower...upper, used: try bool())
    }
}
