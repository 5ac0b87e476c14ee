import Foundation

/// Function symbols of one ELF64 little-endian file, from .symtab and .dynsym, plus its
/// GNU build ID. Every offset read from the file is bounds-checked.
struct ELFSymbolTable {
    struct Symbol {
        let start: UInt64
        let size: UInt64
        let name: String
    }

    /// Sorted by start address.
    let symbols: [Symbol]
    let buildID: [UInt8]?

    enum LoadError: Error {
        case unreadable(String)
        case notELF64
    }

    /// Largest module file read: module paths come from the dump, which may be corrupt, so a
    /// path naming a device or a huge file must not stall processing.
    static let maxFileBytes = 1 << 30

    init(path: String) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular,
            let size = attributes?[.size] as? Int, size <= Self.maxFileBytes,
            let data = FileManager.default.contents(atPath: path)
        else { throw LoadError.unreadable(path) }
        try self.init(bytes: [UInt8](data))
    }

    init(bytes: [UInt8]) throws {
        let file = ByteReader(bytes: bytes)
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
            bytes[4] == 2 /* ELFCLASS64 */, bytes[5] == 1 /* little-endian */
        else { throw LoadError.notELF64 }
        let sectionsAt = file.u64(0x28), entrySize = file.u16(0x3A), count = file.u16(0x3C)
        var sections: [(type: UInt32, offset: UInt64, size: UInt64, link: UInt32, entrySize: UInt64)] = []
        for i in 0..<UInt64(count) {
            let at = sectionsAt &+ i &* UInt64(entrySize)
            guard entrySize >= 64, file.has(at, 64) else { break }
            sections.append(
                (file.u32(at + 4), file.u64(at + 0x18), file.u64(at + 0x20), file.u32(at + 0x28), file.u64(at + 0x38)))
        }
        var symbols: [Symbol] = []
        var buildID: [UInt8]?
        for section in sections {
            switch section.type {
            case 2, 11: // SHT_SYMTAB, SHT_DYNSYM
                guard Int(section.link) < sections.count else { continue }
                let strings = sections[Int(section.link)]
                symbols += Self.functions(
                    file, table: section.offset, size: section.size,
                    entrySize: section.entrySize, strings: strings.offset, stringsSize: strings.size)
            case 7 where buildID == nil: // SHT_NOTE
                buildID = Self.buildID(file, notes: section.offset, size: section.size)
            default:
                break
            }
        }
        symbols.sort { $0.start < $1.start || ($0.start == $1.start && $0.size > $1.size) }
        self.symbols = symbols
        self.buildID = buildID
    }

    /// The function containing the ELF virtual address, and the offset into it.
    func lookup(_ address: UInt64) -> (symbol: Symbol, offset: UInt64)? {
        var low = 0, high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid].start <= address { low = mid + 1 } else { high = mid }
        }
        // Walk back over zero-size and overlapping entries to one that contains the address.
        var index = low - 1
        while index >= 0 && low - index <= 8 {
            let symbol = symbols[index]
            if address - symbol.start < max(symbol.size, 1) { return (symbol, address - symbol.start) }
            index -= 1
        }
        return nil
    }

    private static func functions(
        _ file: ByteReader, table: UInt64, size: UInt64, entrySize: UInt64,
        strings: UInt64, stringsSize: UInt64
    ) -> [Symbol] {
        guard entrySize >= 24, file.has(table, size), file.has(strings, stringsSize) else { return [] }
        var result: [Symbol] = []
        var at = table
        while at + 24 <= table + size {
            let info = file.u8(at + 4), section = file.u16(at + 6)
            let value = file.u64(at + 8), length = file.u64(at + 16), nameAt = UInt64(file.u32(at))
            let type = info & 0xF
            if (type == 2 || type == 10) && section != 0 && value != 0 && nameAt < stringsSize,
                let name = file.cString(strings + nameAt, limit: strings + stringsSize), !name.isEmpty
            {
                result.append(Symbol(start: value, size: length, name: name))
            }
            let (next, overflow) = at.addingReportingOverflow(entrySize)
            if overflow { break }
            at = next
        }
        return result
    }

    /// The NT_GNU_BUILD_ID in a notes section or segment.
    static func buildID(_ file: ByteReader, notes: UInt64, size: UInt64) -> [UInt8]? {
        guard file.has(notes, size) else { return nil }
        var at = notes
        while at + 12 <= notes + size {
            let nameSize = UInt64(file.u32(at)), descSize = UInt64(file.u32(at + 4)), type = file.u32(at + 8)
            let nameAt = at + 12, descAt = nameAt + ((nameSize + 3) & ~3)
            let next = descAt + ((descSize + 3) & ~3)
            guard next <= notes + size else { return nil }
            if type == 3 /* NT_GNU_BUILD_ID */ && nameSize == 4 && file.cString(nameAt, limit: nameAt + 4) == "GNU" {
                return file.slice(descAt, descSize)
            }
            at = next
        }
        return nil
    }
}

/// Little-endian reads that return 0 / nil instead of trapping past the end.
struct ByteReader {
    let bytes: [UInt8]

    func has(_ offset: UInt64, _ length: UInt64) -> Bool {
        offset <= UInt64(bytes.count) && length <= UInt64(bytes.count) - offset
    }

    private func value(_ offset: UInt64, _ size: Int) -> UInt64 {
        guard has(offset, UInt64(size)) else { return 0 }
        var result: UInt64 = 0
        for i in (0..<size).reversed() { result = result << 8 | UInt64(bytes[Int(offset) + i]) }
        return result
    }

    func u8(_ offset: UInt64) -> UInt8 { UInt8(value(offset, 1)) }
    func u16(_ offset: UInt64) -> UInt16 { UInt16(value(offset, 2)) }
    func u32(_ offset: UInt64) -> UInt32 { UInt32(value(offset, 4)) }
    func u64(_ offset: UInt64) -> UInt64 { value(offset, 8) }

    func slice(_ offset: UInt64, _ length: UInt64) -> [UInt8]? {
        has(offset, length) ? Array(bytes[Int(offset)..<Int(offset + length)]) : nil
    }

    func cString(_ offset: UInt64, limit: UInt64) -> String? {
        let end = min(limit, UInt64(bytes.count))
        guard offset < end else { return nil }
        var stop = Int(offset)
        while stop < Int(end) && bytes[stop] != 0 { stop += 1 }
        return String(decoding: bytes[Int(offset)..<stop], as: UTF8.self)
    }
}
