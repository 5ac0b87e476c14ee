import Foundation

// A small binary layout for data di-lint writes and reads back itself (cache entries, project
// rules' facts): integers as zigzag LEB128, counts as plain LEB128, booleans as one byte, enums
// as their raw values, and strings through a table local to one buffer: the first use writes the
// bytes, later uses the index, so names repeated in every record are stored and decoded once.
// Hand-written codecs over these cost a fraction of generic `Codable` ones.

/// Appends values to a byte buffer; see `ByteReader` for the layout.
struct ByteWriter {
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

    mutating func value<T: RawRepresentable>(_ v: T) where T.RawValue == String { string(v.rawValue) }

    mutating func list<T>(_ items: [T], _ element: (inout ByteWriter, T) -> Void) {
        count(items.count)
        for item in items { element(&self, item) }
    }

    /// 0 for nil, 1 and the bytes for a string first seen, k + 2 for the k-th string of the table.
    mutating func string(_ s: String?) {
        guard let s else { return count(0) }
        if let k = table[s] { return count(k + 2) }
        table[s] = table.count
        count(1)
        count(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
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
