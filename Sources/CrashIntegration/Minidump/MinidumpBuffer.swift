/// A minidump's bytes as they are laid out: little-endian fields, blobs placed at RVAs (file
/// offsets) that the fixed-size records then point at.
struct MinidumpBuffer {
    /// Where a blob landed: MINIDUMP_LOCATION_DESCRIPTOR.
    struct Location {
        var size: UInt32
        var rva: UInt32
        static let empty = Location(size: 0, rva: 0)
    }

    private(set) var bytes: [UInt8] = []

    var offset: UInt32 { UInt32(truncatingIfNeeded: bytes.count) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { append(littleEndian: value) }
    mutating func u32(_ value: UInt32) { append(littleEndian: value) }
    mutating func u64(_ value: UInt64) { append(littleEndian: value) }
    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }
    mutating func raw(_ data: [UInt8]) { bytes.append(contentsOf: data) }

    mutating func location(_ location: Location) {
        u32(location.size)
        u32(location.rva)
    }

    /// Pads with zeros to a multiple of `alignment`.
    mutating func align(_ alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 { zeros(alignment - remainder) }
    }

    /// Appends `data` 8-byte aligned and says where it is.
    mutating func blob(_ data: [UInt8]) -> Location {
        align(8)
        let start = offset
        raw(data)
        return Location(size: UInt32(truncatingIfNeeded: data.count), rva: start)
    }

    /// Appends a MINIDUMP_STRING (length in bytes, UTF-16LE, a NUL) and returns its RVA.
    mutating func string(_ text: String) -> UInt32 {
        align(4)
        let start = offset
        let units = Array(text.utf16).map(\.littleEndian) + [0]
        u32(UInt32(truncatingIfNeeded: (units.count - 1) * 2))
        units.withUnsafeBytes { bytes.append(contentsOf: $0) }
        return start
    }

    /// Overwrites 4 bytes at `position` (directory entries written after their streams).
    mutating func patch(_ value: UInt32, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[position + index] = byte }
        }
    }

    private mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
