import Foundation

/// A compact binary form for any `Codable` value, used for cache entries: a warm run decodes
/// thousands of findings and accesses, and this decodes several times faster than JSON because
/// keys are compared as bytes in place and containers are skipped by their length.
///
/// Every value is a tag byte and a payload: integers as zigzag/plain LEB128, doubles as 8 bytes,
/// strings and `Data` as a length and bytes, arrays and keyed containers as a byte length, a count
/// and their elements (keyed ones as key/value pairs). It is private to the cache: the layout
/// version in `IncrementalCache.layout` changes with it.
enum BinaryCoding {
    enum Failure: Error { case malformed, typeMismatch }

    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = []
        write(try box(value), to: &out)
        return out
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let reader = Reader(bytes)
        let decoder = BinaryDecoder(reader: reader, position: 0)
        let value = try decoder.decodeValue(T.self)
        guard try reader.end(of: 0) == bytes.count else { throw Failure.malformed }
        return value
    }

    // MARK: Encoding

    enum Tag: UInt8 { case null, bool, int, uint, double, string, data, array, keyed }

    final class ArrayBox { var items: [Value] = [] }
    final class KeyedBox { var entries: [(String, Value)] = [] }

    enum Value {
        case null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String), data(Data)
        case array(ArrayBox), keyed(KeyedBox)
    }

    static func box<T: Encodable>(_ value: T) throws -> Value {
        switch value {
        case let v as String: return .string(v)
        case let v as Int: return .int(Int64(v))
        case let v as Bool: return .bool(v)
        case let v as Double: return .double(v)
        case let v as Data: return .data(v)
        default:
            let encoder = BinaryEncoder()
            try value.encode(to: encoder)
            return encoder.value ?? .keyed(KeyedBox())
        }
    }

    static func writeLEB(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    static func write(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(Tag.null.rawValue)
        case let .bool(b): out.append(Tag.bool.rawValue); out.append(b ? 1 : 0)
        case let .int(i): out.append(Tag.int.rawValue); writeLEB(UInt64(bitPattern: (i << 1) ^ (i >> 63)), to: &out)
        case let .uint(u): out.append(Tag.uint.rawValue); writeLEB(u, to: &out)
        case let .double(d):
            out.append(Tag.double.rawValue)
            withUnsafeBytes(of: d.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case let .string(s): out.append(Tag.string.rawValue); writeLEB(UInt64(s.utf8.count), to: &out); out.append(contentsOf: s.utf8)
        case let .data(d): out.append(Tag.data.rawValue); writeLEB(UInt64(d.count), to: &out); out.append(contentsOf: d)
        case let .array(box):
            var body: [UInt8] = []
            writeLEB(UInt64(box.items.count), to: &body)
            for item in box.items { write(item, to: &body) }
            out.append(Tag.array.rawValue); writeLEB(UInt64(body.count), to: &out); out.append(contentsOf: body)
        case let .keyed(box):
            var body: [UInt8] = []
            writeLEB(UInt64(box.entries.count), to: &body)
            for (key, item) in box.entries {
                writeLEB(UInt64(key.utf8.count), to: &body); body.append(contentsOf: key.utf8)
                write(item, to: &body)
            }
            out.append(Tag.keyed.rawValue); writeLEB(UInt64(body.count), to: &out); out.append(contentsOf: body)
        }
    }

    // MARK: Decoding

    /// The bytes being decoded, with bounds-checked primitive reads.
    final class Reader {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func byte(_ p: inout Int) throws -> UInt8 {
            guard p < bytes.count else { throw Failure.malformed }
            defer { p += 1 }
            return bytes[p]
        }

        func leb(_ p: inout Int) throws -> UInt64 {
            var result: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = try byte(&p)
                guard shift < 64 else { throw Failure.malformed }
                result |= UInt64(b & 0x7f) << shift
                if b < 0x80 { return result }
                shift += 7
            }
        }

        func length(_ p: inout Int) throws -> Int {
            let n = try leb(&p)
            guard n <= UInt64(bytes.count - p) else { throw Failure.malformed }
            return Int(n)
        }

        func tag(at p: Int) throws -> Tag {
            var q = p
            guard let tag = Tag(rawValue: try byte(&q)) else { throw Failure.malformed }
            return tag
        }

        /// The position just past the value at `p`.
        func end(of p: Int) throws -> Int {
            var q = p
            switch try tag(at: p) {
            case .null: return p + 1
            case .bool: return p + 2
            case .int, .uint: q += 1; _ = try leb(&q); return q
            case .double: guard p + 9 <= bytes.count else { throw Failure.malformed }; return p + 9
            case .string, .data, .array, .keyed: q += 1; let n = try length(&q); return q + n
            }
        }

        func string(at p: Int) throws -> String {
            guard try tag(at: p) == .string else { throw Failure.typeMismatch }
            var q = p + 1
            let n = try length(&q)
            return String(decoding: bytes[q..<(q + n)], as: UTF8.self)
        }

        func int(at p: Int) throws -> Int64 {
            var q = p + 1
            switch try tag(at: p) {
            case .int: let z = try leb(&q); return Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
            case .uint: let u = try leb(&q); guard u <= UInt64(Int64.max) else { throw Failure.typeMismatch }; return Int64(u)
            default: throw Failure.typeMismatch
            }
        }

        func uint(at p: Int) throws -> UInt64 {
            var q = p + 1
            switch try tag(at: p) {
            case .uint: return try leb(&q)
            case .int: let i = try int(at: p); guard i >= 0 else { throw Failure.typeMismatch }; return UInt64(i)
            default: throw Failure.typeMismatch
            }
        }

        func double(at p: Int) throws -> Double {
            guard try tag(at: p) == .double, p + 9 <= bytes.count else { throw Failure.typeMismatch }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[p + 1 + i]) << (8 * UInt64(i)) }
            return Double(bitPattern: bits)
        }

        func bool(at p: Int) throws -> Bool {
            guard try tag(at: p) == .bool, p + 1 < bytes.count else { throw Failure.typeMismatch }
            return bytes[p + 1] != 0
        }

        func data(at p: Int) throws -> Data {
            guard try tag(at: p) == .data else { throw Failure.typeMismatch }
            var q = p + 1
            let n = try length(&q)
            return Data(bytes[q..<(q + n)])
        }

        /// Element positions of the array at `p`.
        func elements(at p: Int) throws -> [Int] {
            guard try tag(at: p) == .array else { throw Failure.typeMismatch }
            var q = p + 1
            let size = try length(&q)
            let limit = q + size
            let count = try leb(&q)
            guard count <= UInt64(size) else { throw Failure.malformed }
            var result: [Int] = []
            result.reserveCapacity(Int(count))
            for _ in 0..<count {
                result.append(q)
                q = try end(of: q)
                guard q <= limit else { throw Failure.malformed }
            }
            return result
        }

        /// (key range, value position) of each entry of the keyed container at `p`.
        func entries(at p: Int) throws -> [(key: Range<Int>, value: Int)] {
            guard try tag(at: p) == .keyed else { throw Failure.typeMismatch }
            var q = p + 1
            let size = try length(&q)
            let limit = q + size
            let count = try leb(&q)
            guard count <= UInt64(size) else { throw Failure.malformed }
            var result: [(key: Range<Int>, value: Int)] = []
            result.reserveCapacity(Int(count))
            for _ in 0..<count {
                let n = try length(&q)
                let key = q..<(q + n)
                q += n
                result.append((key, q))
                q = try end(of: q)
                guard q <= limit else { throw Failure.malformed }
            }
            return result
        }

        func keyEquals(_ range: Range<Int>, _ key: String) -> Bool {
            var key = key
            return key.withUTF8 { k in
                k.count == range.count && bytes.withUnsafeBufferPointer { b in
                    k.isEmpty || memcmp(k.baseAddress!, b.baseAddress! + range.lowerBound, k.count) == 0
                }
            }
        }
    }
}

// MARK: - Encoder

private final class BinaryEncoder: Encoder {
    typealias Value = BinaryCoding.Value
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var value: Value?

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case let .keyed(box)? = value { return KeyedEncodingContainer(KeyedEncoding(box: box)) }
        let box = BinaryCoding.KeyedBox()
        value = .keyed(box)
        return KeyedEncodingContainer(KeyedEncoding(box: box))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if case let .array(box)? = value { return UnkeyedEncoding(box: box) }
        let box = BinaryCoding.ArrayBox()
        value = .array(box)
        return UnkeyedEncoding(box: box)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleValueEncoding(encoder: self) }
}

private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: BinaryCoding.KeyedBox
    var codingPath: [CodingKey] = []

    private func put(_ value: BinaryCoding.Value, _ key: Key) { box.entries.append((key.stringValue, value)) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ v: Bool, forKey key: Key) throws { put(.bool(v), key) }
    mutating func encode(_ v: String, forKey key: Key) throws { put(.string(v), key) }
    mutating func encode(_ v: Double, forKey key: Key) throws { put(.double(v), key) }
    mutating func encode(_ v: Float, forKey key: Key) throws { put(.double(Double(v)), key) }
    mutating func encode(_ v: Int, forKey key: Key) throws { put(.int(Int64(v)), key) }
    mutating func encode(_ v: Int8, forKey key: Key) throws { put(.int(Int64(v)), key) }
    mutating func encode(_ v: Int16, forKey key: Key) throws { put(.int(Int64(v)), key) }
    mutating func encode(_ v: Int32, forKey key: Key) throws { put(.int(Int64(v)), key) }
    mutating func encode(_ v: Int64, forKey key: Key) throws { put(.int(v), key) }
    mutating func encode(_ v: UInt, forKey key: Key) throws { put(.uint(UInt64(v)), key) }
    mutating func encode(_ v: UInt8, forKey key: Key) throws { put(.uint(UInt64(v)), key) }
    mutating func encode(_ v: UInt16, forKey key: Key) throws { put(.uint(UInt64(v)), key) }
    mutating func encode(_ v: UInt32, forKey key: Key) throws { put(.uint(UInt64(v)), key) }
    mutating func encode(_ v: UInt64, forKey key: Key) throws { put(.uint(v), key) }
    mutating func encode<T: Encodable>(_ v: T, forKey key: Key) throws { put(try BinaryCoding.box(v), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = BinaryCoding.KeyedBox()
        put(.keyed(nested), key)
        return KeyedEncodingContainer(KeyedEncoding<NestedKey>(box: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = BinaryCoding.ArrayBox()
        put(.array(nested), key)
        return UnkeyedEncoding(box: nested)
    }

    mutating func superEncoder() -> Encoder { SuperEncoder(box: box, key: "super") }
    mutating func superEncoder(forKey key: Key) -> Encoder { SuperEncoder(box: box, key: key.stringValue) }
}

/// An encoder whose value lands under a key of its parent once it is encoded into.
private final class SuperEncoder: Encoder {
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    private let inner = BinaryEncoder()
    private let store: (BinaryCoding.Value) -> Void

    init(box: BinaryCoding.KeyedBox, key: String) {
        box.entries.append((key, .null))
        let index = box.entries.count - 1
        store = { box.entries[index].1 = $0 }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let c = inner.container(keyedBy: type)
        store(inner.value!)
        return c
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        let c = inner.unkeyedContainer()
        store(inner.value!)
        return c
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleValueEncoding(encoder: inner, then: store) }
}

private struct UnkeyedEncoding: UnkeyedEncodingContainer, KeylessEncoding {
    let box: BinaryCoding.ArrayBox
    var codingPath: [CodingKey] = []
    var count: Int { box.items.count }

    func put(_ value: BinaryCoding.Value) { box.items.append(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = BinaryCoding.KeyedBox()
        put(.keyed(nested))
        return KeyedEncodingContainer(KeyedEncoding<NestedKey>(box: nested))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let nested = BinaryCoding.ArrayBox()
        put(.array(nested))
        return UnkeyedEncoding(box: nested)
    }

    mutating func superEncoder() -> Encoder {
        let keyed = BinaryCoding.KeyedBox()
        put(.keyed(keyed))
        return SuperEncoder(box: keyed, key: "super")
    }
}

private struct SingleValueEncoding: SingleValueEncodingContainer, KeylessEncoding {
    let encoder: BinaryEncoder
    var then: (BinaryCoding.Value) -> Void = { _ in }
    var codingPath: [CodingKey] = []

    func put(_ value: BinaryCoding.Value) { encoder.value = value; then(value) }
}

/// The value-encoding methods unkeyed and single-value containers share.
private protocol KeylessEncoding {
    func put(_ value: BinaryCoding.Value)
}

extension KeylessEncoding {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ v: Bool) throws { put(.bool(v)) }
    mutating func encode(_ v: String) throws { put(.string(v)) }
    mutating func encode(_ v: Double) throws { put(.double(v)) }
    mutating func encode(_ v: Float) throws { put(.double(Double(v))) }
    mutating func encode(_ v: Int) throws { put(.int(Int64(v))) }
    mutating func encode(_ v: Int8) throws { put(.int(Int64(v))) }
    mutating func encode(_ v: Int16) throws { put(.int(Int64(v))) }
    mutating func encode(_ v: Int32) throws { put(.int(Int64(v))) }
    mutating func encode(_ v: Int64) throws { put(.int(v)) }
    mutating func encode(_ v: UInt) throws { put(.uint(UInt64(v))) }
    mutating func encode(_ v: UInt8) throws { put(.uint(UInt64(v))) }
    mutating func encode(_ v: UInt16) throws { put(.uint(UInt64(v))) }
    mutating func encode(_ v: UInt32) throws { put(.uint(UInt64(v))) }
    mutating func encode(_ v: UInt64) throws { put(.uint(v)) }
    mutating func encode<T: Encodable>(_ v: T) throws { put(try BinaryCoding.box(v)) }
}

// MARK: - Decoder

private struct BinaryDecoder: Decoder {
    let reader: BinaryCoding.Reader
    let position: Int
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // Metadata comparisons, cheaper than dynamic casts on this hot path.
        if type == String.self { return unsafeBitCast(try reader.string(at: position), to: T.self) }
        if type == Int.self { return unsafeBitCast(Int(try reader.int(at: position)), to: T.self) }
        if type == Bool.self { return unsafeBitCast(try reader.bool(at: position), to: T.self) }
        if type == Double.self { return unsafeBitCast(try reader.double(at: position), to: T.self) }
        if type == Data.self { return try reader.data(at: position) as! T }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedDecoding<Key>(reader: reader, entries: try reader.entries(at: position)))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        UnkeyedDecoding(reader: reader, elements: try reader.elements(at: position))
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        SingleValueDecoding(decoder: self)
    }
}

/// Decodes the primitive types from a value position; shared by the three container kinds.
private protocol PrimitiveDecoding {
    var reader: BinaryCoding.Reader { get }
}

extension PrimitiveDecoding {
    func int<T: FixedWidthInteger & SignedInteger>(_ p: Int) throws -> T {
        guard let v = T(exactly: try reader.int(at: p)) else { throw BinaryCoding.Failure.typeMismatch }
        return v
    }

    func uint<T: FixedWidthInteger & UnsignedInteger>(_ p: Int) throws -> T {
        guard let v = T(exactly: try reader.uint(at: p)) else { throw BinaryCoding.Failure.typeMismatch }
        return v
    }

    func value<T: Decodable>(_ type: T.Type, _ p: Int) throws -> T {
        try BinaryDecoder(reader: reader, position: p).decodeValue(type)
    }
}

private struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol, PrimitiveDecoding {
    let reader: BinaryCoding.Reader
    let entries: [(key: Range<Int>, value: Int)]
    var codingPath: [CodingKey] { [] }

    var allKeys: [Key] {
        entries.compactMap { Key(stringValue: String(decoding: reader.bytes[$0.key], as: UTF8.self)) }
    }

    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        return entries.first { reader.keyEquals($0.key, name) }?.value
    }

    private func at(_ key: Key) throws -> Int {
        guard let p = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no value for \(key.stringValue)"))
        }
        return p
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try reader.tag(at: try at(key)) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try reader.bool(at: try at(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try reader.string(at: try at(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try reader.double(at: try at(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try reader.double(at: try at(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try int(try at(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try int(try at(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try int(try at(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try int(try at(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try int(try at(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try uint(try at(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try uint(try at(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try uint(try at(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try uint(try at(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try uint(try at(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, try at(key)) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try BinaryDecoder(reader: reader, position: try at(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try BinaryDecoder(reader: reader, position: try at(key)).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder {
        guard let p = entries.first(where: { reader.keyEquals($0.key, "super") })?.value else { throw BinaryCoding.Failure.malformed }
        return BinaryDecoder(reader: reader, position: p)
    }

    func superDecoder(forKey key: Key) throws -> Decoder { BinaryDecoder(reader: reader, position: try at(key)) }
}

private struct UnkeyedDecoding: UnkeyedDecodingContainer, PrimitiveDecoding {
    let reader: BinaryCoding.Reader
    let elements: [Int]
    var codingPath: [CodingKey] { [] }
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(reader: BinaryCoding.Reader, elements: [Int]) {
        self.reader = reader
        self.elements = elements
    }

    private mutating func next() throws -> Int {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "past the end of an array"))
        }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elements.count, try reader.tag(at: elements[currentIndex]) == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try reader.bool(at: try next()) }
    mutating func decode(_ type: String.Type) throws -> String { try reader.string(at: try next()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try reader.double(at: try next()) }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try reader.double(at: try next())) }
    mutating func decode(_ type: Int.Type) throws -> Int { try int(try next()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try int(try next()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try int(try next()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try int(try next()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try int(try next()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try uint(try next()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try uint(try next()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try uint(try next()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try uint(try next()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try uint(try next()) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type, try next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try BinaryDecoder(reader: reader, position: try next()).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        try BinaryDecoder(reader: reader, position: try next()).unkeyedContainer()
    }

    mutating func superDecoder() throws -> Decoder { BinaryDecoder(reader: reader, position: try next()) }
}

private struct SingleValueDecoding: SingleValueDecodingContainer, PrimitiveDecoding {
    let decoder: BinaryDecoder
    var reader: BinaryCoding.Reader { decoder.reader }
    var codingPath: [CodingKey] { [] }
    private var p: Int { decoder.position }

    func decodeNil() -> Bool { (try? reader.tag(at: p)) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.bool(at: p) }
    func decode(_ type: String.Type) throws -> String { try reader.string(at: p) }
    func decode(_ type: Double.Type) throws -> Double { try reader.double(at: p) }
    func decode(_ type: Float.Type) throws -> Float { Float(try reader.double(at: p)) }
    func decode(_ type: Int.Type) throws -> Int { try int(p) }
    func decode(_ type: Int8.Type) throws -> Int8 { try int(p) }
    func decode(_ type: Int16.Type) throws -> Int16 { try int(p) }
    func decode(_ type: Int32.Type) throws -> Int32 { try int(p) }
    func decode(_ type: Int64.Type) throws -> Int64 { try int(p) }
    func decode(_ type: UInt.Type) throws -> UInt { try uint(p) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try uint(p) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try uint(p) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try uint(p) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try uint(p) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
