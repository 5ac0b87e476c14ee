import Foundation

// A small binary layout for data di-lint writes and reads back itself (cache entries, project
// rules' facts): integers as zigzag LEB128, counts as plain LEB128, booleans as one byte, enums
// as their raw values, and strings through a table local to one buffer: the first use writes the
// bytes, later uses the index, so names repeated in every record are stored and decoded once.
// Hand-written codecs over these cost a fraction of generic `Codable` ones.

/// Appends values to a byte buffer; see `ByteReader` for the layout. `bytes` may be appended to
/// directly (a version byte, raw bytes), never changed otherwise: the string table points into it.
struct ByteWriter {
    var bytes: [UInt8] = []
    private var table = StringTable()

    private mutating func leb(_ value: UInt64) {
        var v = value
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func count(_ n: Int) { leb(UInt64(n)) }

    mutating func int(_ i: Int) { leb(UInt64(bitPattern: Int64((i << 1) ^ (i >> (Int.bitWidth - 1))))) }

    mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    mutating func value<T: RawRepresentable>(_ v: T) where T.RawValue == String { string(v.rawValue) }

    mutating func list<T>(_ items: [T], _ element: (inout ByteWriter, T) -> Void) {
        count(items.count)
        for item in items { element(&self, item) }
    }

    /// 0 for nil, 1 and the bytes for a string first seen, k + 2 for the k-th string of the table.
    /// Strings are the same when their UTF-8 bytes are (not under `String`'s Unicode equivalence,
    /// which would read a string back as the bytes of an equivalent one written before it).
    mutating func string(_ s: String?) {
        guard var s else { return count(0) }
        s.withUTF8 { utf8 in
            let hash = StringTable.hash(utf8)
            if let k = table.index(of: utf8, hash: hash, in: bytes) { return count(k + 2) }
            count(1)
            count(utf8.count)
            table.insert(hash: hash, offset: bytes.count, length: utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
}

/// The strings a `ByteWriter` wrote, by their UTF-8 bytes, which stay in its buffer: an
/// open-addressing table of 8-byte slots (the hash's high half and the string's index + 1; 0 is
/// empty) over where each string's bytes are and its hash. A `[String: Int]` hashed every string through
/// Unicode normalisation (snippets hold `…`): a tenth of a run over a large file.
private struct StringTable {
    private var slots: [UInt64] = []
    /// Where the k-th string's bytes are in the buffer, and their hash.
    private var spans: [(offset: Int, length: Int, hash: UInt64)] = []

    var count: Int { spans.count }

    /// A 64-bit hash of the bytes, eight at a time.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return mix(h) }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count {
            h = mix(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < bytes.count {
            tail |= UInt64(base[i]) << shift
            shift += 8
            i += 1
        }
        return mix(h ^ tail)
    }

    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 31)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }

    /// The index of the string with these bytes, if it was written before into `buffer`.
    func index(of utf8: UnsafeBufferPointer<UInt8>, hash: UInt64, in buffer: [UInt8]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1, tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & mask
        return buffer.withUnsafeBufferPointer { stored -> Int? in
            while true {
                let entry = slots[slot]
                if entry == 0 { return nil }
                if entry >> 32 == tag {
                    let k = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                    let (offset, length, _) = spans[k]
                    if length == utf8.count, offset + length <= stored.count,
                        length == 0 || memcmp(stored.baseAddress! + offset, utf8.baseAddress!, length) == 0
                    {
                        return k
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Records the next string (index `count`), whose bytes are at `offset` in the buffer.
    mutating func insert(hash: UInt64, offset: Int, length: Int) {
        precondition(spans.count < Int(UInt32.max), "a byte buffer of four billion strings")
        if (spans.count + 1) * 2 > slots.count { grow() }
        spans.append((offset, length, hash))
        place(hash: hash, index: spans.count - 1)
    }

    private mutating func place(hash: UInt64, index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = (hash >> 32) << 32 | UInt64(index + 1)
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: max(64, slots.count * 2))
        for (k, span) in spans.enumerated() { place(hash: span.hash, index: k) }
    }
}

/// Reads what `ByteWriter` wrote, checking every length and index: anything off throws
/// `Malformed`, never traps, and a damaged count cannot ask for more than the bytes left.
struct ByteReader {
    struct Malformed: Error {}

    private let bytes: [UInt8]
    private var at = 0
    private var table: [String] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Reads `bytes` from offset `start` (the bytes before it are not read).
    init(_ bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        at = min(max(0, start), bytes.count)
    }

    var atEnd: Bool { at == bytes.count }

    mutating func byte() throws -> UInt8 {
        guard at < bytes.count else { throw Malformed() }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func raw(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n <= bytes.count - at else { throw Malformed() }
        defer { at += n }
        return bytes[at..<(at + n)]
    }

    private mutating func leb() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw Malformed() }
            value |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }

    /// A count or length: never more than the bytes left, so a damaged one cannot ask for gigabytes.
    mutating func count() throws -> Int {
        let v = try leb()
        guard v <= UInt64(bytes.count - at) else { throw Malformed() }
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
        default: throw Malformed()
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
            guard tag - 2 < UInt64(table.count) else { throw Malformed() }
            return table[Int(tag - 2)]
        }
    }

    mutating func string() throws -> String {
        guard let s = try optionalString() else { throw Malformed() }
        return s
    }

    mutating func value<T: RawRepresentable>(_: T.Type) throws -> T where T.RawValue == String {
        guard let v = T(rawValue: try string()) else { throw Malformed() }
        return v
    }

    mutating func list<T>(_ element: (inout ByteReader) throws -> T) throws -> [T] {
        let n = try count()
        var items: [T] = []
        items.reserveCapacity(n)
        for _ in 0..<n { items.append(try element(&self)) }
        return items
    }

}
