import Foundation

/// The byte layout of one cache entry (a `FileOutcome`), written field by field.
///
/// A warm run decodes every file's findings and accesses, so this is a hand-written codec rather
/// than a generic `Codable` one (which cost a third of a warm run). Integers are zigzag LEB128,
/// enums their raw values, and strings go through a per-entry table: the first use writes the
/// bytes, later uses an index, so the path and container names repeated in every record are
/// stored and decoded once. Decoding checks every length and index and throws `Malformed` on
/// anything off (an entry that does not decode is recomputed). `CacheEntryCodecTests` trips when
/// a field is added to a cached type and not here; change `IncrementalCache.layout` with the layout.
enum CacheEntryCodec {
    struct Malformed: Error {}

    static let formatVersion: UInt8 = 1

    static func encode(_ outcome: FileOutcome) -> [UInt8] {
        var w = EntryWriter()
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

    static func decode(_ bytes: [UInt8]) throws -> FileOutcome {
        var r = EntryReader(bytes)
        guard try r.byte() == formatVersion else { throw Malformed() }
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
        guard r.atEnd else { throw Malformed() }
        return outcome
    }
}

private struct EntryWriter {
    var bytes: [UInt8] = []
    private var table: [String: Int] = [:]

    private mutating func leb(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func count(_ n: Int) { leb(UInt64(n)) }

    mutating func int(_ i: Int) { leb(UInt64(bitPattern: Int64((i << 1) ^ (i >> (Int.bitWidth - 1))))) }

    mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    /// 0 for nil, 1 and the bytes for a string first seen, k + 2 for the k-th string of the table.
    mutating func string(_ s: String?) {
        guard let s else { return count(0) }
        if let k = table[s] { return count(k + 2) }
        table[s] = table.count
        count(1)
        count(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }

    mutating func access(_ a: ContainerAccess) {
        string(a.container)
        string(a.accessor)
        string(a.service)
        string(a.viaMacro)
        string(a.kind.rawValue)
    }

    mutating func finding(_ f: Finding) {
        string(f.rule)
        string(f.path)
        int(f.line)
        int(f.column)
        string(f.severity.rawValue)
        string(f.message)
        bool(f.access != nil)
        if let access = f.access { self.access(access) }
        string(f.snippet)
        string(f.fingerprint)
        bool(f.baselined)
    }

    mutating func suppression(_ s: Suppression) {
        string(s.scope.rawValue)
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

private struct EntryReader {
    private let bytes: [UInt8]
    private var at = 0
    private var table: [String] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at == bytes.count }

    mutating func byte() throws -> UInt8 {
        guard at < bytes.count else { throw CacheEntryCodec.Malformed() }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func raw(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n <= bytes.count - at else { throw CacheEntryCodec.Malformed() }
        defer { at += n }
        return bytes[at..<(at + n)]
    }

    private mutating func leb() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw CacheEntryCodec.Malformed() }
            value |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }

    /// A count or length: never more than the bytes left, so a damaged one cannot ask for gigabytes.
    mutating func count() throws -> Int {
        let v = try leb()
        guard v <= UInt64(bytes.count - at) else { throw CacheEntryCodec.Malformed() }
        return Int(v)
    }

    mutating func int() throws -> Int {
        let v = try leb()
        return Int(truncatingIfNeeded: v >> 1) ^ -Int(truncatingIfNeeded: v & 1)
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw CacheEntryCodec.Malformed()
        }
    }

    mutating func optionalString() throws -> String? {
        let tag = try leb()
        switch tag {
        case 0: return nil
        case 1:
            let s = String(decoding: try raw(count()), as: UTF8.self)
            table.append(s)
            return s
        default:
            guard tag - 2 < UInt64(table.count) else { throw CacheEntryCodec.Malformed() }
            return table[Int(tag - 2)]
        }
    }

    mutating func string() throws -> String {
        guard let s = try optionalString() else { throw CacheEntryCodec.Malformed() }
        return s
    }

    mutating func value<T: RawRepresentable>(_: T.Type) throws -> T where T.RawValue == String {
        guard let v = T(rawValue: try string()) else { throw CacheEntryCodec.Malformed() }
        return v
    }

    mutating func list<T>(_ element: (inout EntryReader) throws -> T) throws -> [T] {
        let n = try count()
        var items: [T] = []
        items.reserveCapacity(n)
        for _ in 0..<n { items.append(try element(&self)) }
        return items
    }

    mutating func access() throws -> ContainerAccess {
        ContainerAccess(container: try string(), accessor: try string(), service: try optionalString(),
                        viaMacro: try optionalString(), kind: try value(AccessKind.self))
    }

    mutating func finding() throws -> Finding {
        var f = Finding(rule: try string(), path: try string(), line: try int(), column: try int(),
                        severity: try value(Severity.self), message: try string())
        if try bool() { f.access = try access() }
        f.snippet = try optionalString()
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
        guard lower <= upper else { throw CacheEntryCodec.Malformed() }
        return Suppression(scope: scope, rules: rules, reason: reason, line: line, column: column,
                           lines: lower...upper, used: try bool())
    }
}
