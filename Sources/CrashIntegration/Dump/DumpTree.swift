/// A node of an intermediate dump: maps hold keyed values, arrays hold maps, properties
/// hold raw bytes. Keys are the integers of `seam_dump_format.h`.
public enum DumpValue: Equatable, Sendable {
    case map(DumpMap)
    case array([DumpMap])
    case property([UInt8])
}

/// One keyed value inside a map.
public struct DumpEntry: Equatable, Sendable {
    public let key: UInt16
    public let value: DumpValue
}

/// An ordered map of keyed values (a key may repeat; lookups return the first).
public struct DumpMap: Equatable, Sendable {
    public internal(set) var entries: [DumpEntry] = []

    public init(entries: [DumpEntry] = []) {
        self.entries = entries
    }

    /// The first value stored under key.
    public subscript(key: UInt16) -> DumpValue? {
        entries.first(where: { $0.key == key })?.value
    }

    public func map(_ key: UInt16) -> DumpMap? {
        if case .map(let map)? = self[key] { return map }
        return nil
    }

    /// The maps of the array under key; empty when absent.
    public func array(_ key: UInt16) -> [DumpMap] {
        if case .array(let elements)? = self[key] { return elements }
        return []
    }

    public func bytes(_ key: UInt16) -> [UInt8]? {
        if case .property(let bytes)? = self[key] { return bytes }
        return nil
    }

    /// An 8-byte little-endian integer property; nil when absent or of another size.
    public func uint64(_ key: UInt16) -> UInt64? {
        guard let bytes = bytes(key), bytes.count == 8 else { return nil }
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A string property (invalid UTF-8 is repaired, never rejected).
    public func string(_ key: UInt16) -> String? {
        bytes(key).map { String(decoding: $0, as: UTF8.self) }
    }
}
