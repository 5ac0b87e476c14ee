import Foundation

/// The call-frame information (`.eh_frame`, found through `.eh_frame_hdr`) of one ELF64
/// little-endian module file, and the rules it gives for one address: where the caller's frame
/// (CFA) is, and where each saved register, the return address included, was stored.
/// Every read is bounds-checked, and malformed tables give no rule rather than a wrong one.
struct CallFrameInfo {
    /// How to find one register's value in the caller's frame.
    enum RegisterRule: Equatable {
        case undefined
        case sameValue
        case offset(Int64) // saved at CFA + n
        case valueOffset(Int64) // the value is CFA + n
        case register(Int) // held in another register
        case expression([UInt8]) // saved at the address the expression computes
        case valueExpression([UInt8]) // the value is what the expression computes
    }

    enum CFARule: Equatable {
        case registerOffset(register: Int, offset: Int64)
        case expression([UInt8])
    }

    /// The unwind rules in effect at one address.
    struct Row: Equatable {
        var cfa: CFARule
        var registers: [Int: RegisterRule]
        let returnAddressRegister: Int
    }

    private let file: ByteReader
    /// PT_LOAD segments: virtual address, file offset, size in the file.
    private let segments: [(vaddr: UInt64, offset: UInt64, size: UInt64)]
    private let headerVAddr: UInt64
    private let tableVAddr: UInt64
    private let tableEncoding: UInt8
    private let count: Int
    let buildID: [UInt8]?

    /// Reads the module's program headers and its `.eh_frame_hdr`; nil when it has none.
    init?(bytes: [UInt8]) {
        let file = ByteReader(bytes: bytes)
        guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46,
            bytes[4] == 2, bytes[5] == 1
        else { return nil }
        let phoff = file.u64(0x20), phentsize = UInt64(file.u16(0x36)), phnum = UInt64(file.u16(0x38))
        var segments: [(vaddr: UInt64, offset: UInt64, size: UInt64)] = []
        var header: (vaddr: UInt64, offset: UInt64)?
        var buildID: [UInt8]?
        for i in 0..<phnum {
            let at = phoff &+ i &* phentsize
            guard phentsize >= 56, file.has(at, 56) else { break }
            let type = file.u32(at), offset = file.u64(at + 8), vaddr = file.u64(at + 16), size = file.u64(at + 32)
            switch type {
            case 1: segments.append((vaddr, offset, size))
            case 0x6474E550: header = (vaddr, offset)
            case 4 where buildID == nil: buildID = ELFSymbolTable.buildID(file, notes: offset, size: size)
            default: break
            }
        }
        self.file = file
        self.segments = segments
        self.buildID = buildID
        guard let header, file.u8(header.offset) == 1 else { return nil }
        var cursor = header.offset + 4
        let frameEncoding = file.u8(header.offset + 1), countEncoding = file.u8(header.offset + 2)
        tableEncoding = file.u8(header.offset + 3)
        headerVAddr = header.vaddr
        guard frameEncoding != 0xFF, countEncoding != 0xFF, tableEncoding == 0x3B else { return nil } // datarel|sdata4
        guard
            Self.readPointer(
                file, &cursor, encoding: frameEncoding, fieldVAddr: header.vaddr + (cursor - header.offset),
                dataBase: header.vaddr) != nil,
            let entries = Self.readPointer(
                file, &cursor, encoding: countEncoding, fieldVAddr: header.vaddr + (cursor - header.offset),
                dataBase: header.vaddr),
            entries < 10_000_000
        else { return nil }
        count = Int(entries)
        tableVAddr = header.vaddr + (cursor - header.offset)
        guard file.has(cursor, UInt64(count) * 8) else { return nil }
    }

    /// The row for `address` (an ELF virtual address), or nil when no FDE covers it.
    func row(for address: UInt64) -> Row? {
        guard count > 0, let tableOffset = fileOffset(tableVAddr) else { return nil }
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            let start =
                headerVAddr &+ UInt64(bitPattern: Int64(Int32(bitPattern: file.u32(tableOffset + UInt64(mid) * 8))))
            if start <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let fdeVAddr =
            headerVAddr &+ UInt64(bitPattern: Int64(Int32(bitPattern: file.u32(tableOffset + UInt64(low - 1) * 8 + 4))))
        return evaluateFDE(at: fdeVAddr, for: address)
    }

    // MARK: - FDE and CIE

    private struct CIE {
        var codeAlignment: UInt64 = 1
        var dataAlignment: Int64 = 1
        var returnAddressRegister = 16
        var pointerEncoding: UInt8 = 0
        var hasAugmentationData = false
        var instructions: (start: UInt64, end: UInt64) = (0, 0)
    }

    private func evaluateFDE(at fdeVAddr: UInt64, for address: UInt64) -> Row? {
        guard let fde = fileOffset(fdeVAddr) else { return nil }
        var cursor = fde
        guard let (length, body) = entryLength(&cursor) else { return nil }
        let end = body + length
        let ciePointerField = cursor
        let ciePointer = UInt64(file.u32(cursor))
        cursor += 4
        guard ciePointer != 0, ciePointer <= ciePointerField, let cie = parseCIE(at: ciePointerField - ciePointer)
        else { return nil }
        let fieldVAddr = fdeVAddr + (cursor - fde)
        guard
            let start = Self.readPointer(
                file, &cursor, encoding: cie.pointerEncoding, fieldVAddr: fieldVAddr, dataBase: headerVAddr),
            let range = Self.readPointer(
                file, &cursor, encoding: cie.pointerEncoding & 0x0F, fieldVAddr: 0, dataBase: 0),
            address >= start, address - start < range
        else { return nil }
        if cie.hasAugmentationData {
            guard let skip = file.uleb(&cursor) else { return nil }
            cursor += skip
        }
        guard cursor <= end, file.has(cursor, end - cursor) else { return nil }
        var row = Row(
            cfa: .registerOffset(register: 7, offset: 8), registers: [:],
            returnAddressRegister: cie.returnAddressRegister)
        var machine = CFAMachine(file: file, cie: cie, location: start)
        guard machine.run(cie.instructions.start, cie.instructions.end, until: .max, row: &row) else { return nil }
        let initial = row.registers
        machine.initial = initial
        guard machine.run(cursor, end, until: address, row: &row) else { return nil }
        return row
    }

    private func parseCIE(at offset: UInt64) -> CIE? {
        var cursor = offset
        guard let (length, body) = entryLength(&cursor), file.u32(cursor) == 0 else { return nil }
        let end = body + length
        cursor += 4
        let version = file.u8(cursor)
        cursor += 1
        guard version == 1 || version == 3 else { return nil }
        guard let augmentation = file.cString(cursor, limit: end) else { return nil }
        cursor += UInt64(augmentation.utf8.count) + 1
        var cie = CIE()
        if augmentation.contains("eh") { cursor += 8 }
        guard let code = file.uleb(&cursor), let data = file.sleb(&cursor) else { return nil }
        cie.codeAlignment = code
        cie.dataAlignment = data
        if version == 1 {
            cie.returnAddressRegister = Int(file.u8(cursor))
            cursor += 1
        } else {
            guard let ra = file.uleb(&cursor) else { return nil }
            cie.returnAddressRegister = Int(ra)
        }
        if augmentation.hasPrefix("z") {
            cie.hasAugmentationData = true
            guard let dataLength = file.uleb(&cursor) else { return nil }
            var at = cursor
            for character in augmentation.dropFirst() {
                switch character {
                case "R": cie.pointerEncoding = file.u8(at); at += 1
                case "L": at += 1
                case "P":
                    let encoding = file.u8(at)
                    at += 1
                    guard Self.readPointer(file, &at, encoding: encoding & 0x7F, fieldVAddr: 0, dataBase: 0) != nil
                    else { return nil }
                case "S", "B", "G": break
                default: return nil
                }
            }
            cursor += dataLength
        }
        guard cursor <= end else { return nil }
        cie.instructions = (cursor, end)
        return cie
    }

    /// Reads an entry's length; returns it and the offset its body starts at.
    private func entryLength(_ cursor: inout UInt64) -> (UInt64, UInt64)? {
        var length = UInt64(file.u32(cursor))
        cursor += 4
        if length == 0xFFFF_FFFF {
            length = file.u64(cursor)
            cursor += 8
        }
        guard length > 0, file.has(cursor, length) else { return nil }
        return (length, cursor)
    }

    private func fileOffset(_ vaddr: UInt64) -> UInt64? {
        for segment in segments where vaddr >= segment.vaddr && vaddr - segment.vaddr < segment.size {
            return segment.offset + (vaddr - segment.vaddr)
        }
        return nil
    }

    /// A DW_EH_PE-encoded pointer. `fieldVAddr` is the field's own virtual address (pcrel).
    static func readPointer(
        _ file: ByteReader, _ cursor: inout UInt64, encoding: UInt8, fieldVAddr: UInt64, dataBase: UInt64
    ) -> UInt64? {
        guard encoding != 0xFF else { return nil }
        var value: UInt64
        switch encoding & 0x0F {
        case 0x00: value = file.u64(cursor); cursor += 8
        case 0x01: guard let v = file.uleb(&cursor) else { return nil }; value = v
        case 0x02: value = UInt64(file.u16(cursor)); cursor += 2
        case 0x03: value = UInt64(file.u32(cursor)); cursor += 4
        case 0x04: value = file.u64(cursor); cursor += 8
        case 0x09: guard let v = file.sleb(&cursor) else { return nil }; value = UInt64(bitPattern: v)
        case 0x0A: value = UInt64(bitPattern: Int64(Int16(bitPattern: file.u16(cursor)))); cursor += 2
        case 0x0B: value = UInt64(bitPattern: Int64(Int32(bitPattern: file.u32(cursor)))); cursor += 4
        case 0x0C: value = file.u64(cursor); cursor += 8
        default: return nil
        }
        switch encoding & 0x70 {
        case 0x00: break
        case 0x10: value = value &+ fieldVAddr
        case 0x30: value = value &+ dataBase
        default: return nil
        }
        return encoding & 0x80 != 0 ? nil : value // indirect pointers need the live process
    }

    /// Runs CFA instructions, updating a row, until the location passes an address.
    private struct CFAMachine {
        let file: ByteReader
        let cie: CIE
        var location: UInt64
        var initial: [Int: RegisterRule] = [:]
        var saved: [([Int: RegisterRule], CFARule)] = []

        init(file: ByteReader, cie: CIE, location: UInt64) {
            self.file = file
            self.cie = cie
            self.location = location
        }

        /// False when an instruction is unknown or malformed.
        mutating func run(_ start: UInt64, _ end: UInt64, until address: UInt64, row: inout Row) -> Bool {
            var cursor = start
            let code = cie.codeAlignment, data = cie.dataAlignment
            while cursor < end {
                let op = file.u8(cursor)
                cursor += 1
                var advance: UInt64?
                switch op >> 6 {
                case 1: advance = UInt64(op & 0x3F) &* code
                case 2:
                    guard let n = file.uleb(&cursor) else { return false }
                    row.registers[Int(op & 0x3F)] = .offset(Int64(bitPattern: n) &* data)
                case 3: row.registers[Int(op & 0x3F)] = initial[Int(op & 0x3F)] ?? .sameValue
                default:
                    switch op {
                    case 0x00: break
                    case 0x01:
                        guard
                            let to = CallFrameInfo.readPointer(
                                file, &cursor, encoding: cie.pointerEncoding, fieldVAddr: 0, dataBase: 0)
                        else { return false }
                        if to > address { return true }
                        location = to
                    case 0x02: advance = UInt64(file.u8(cursor)) &* code; cursor += 1
                    case 0x03: advance = UInt64(file.u16(cursor)) &* code; cursor += 2
                    case 0x04: advance = UInt64(file.u32(cursor)) &* code; cursor += 4
                    case 0x05, 0x11, 0x14, 0x15, 0x2F:
                        guard let reg = file.uleb(&cursor) else { return false }
                        let factored: Int64
                        if op == 0x11 || op == 0x15 {
                            guard let n = file.sleb(&cursor) else { return false }
                            factored = n &* data
                        } else {
                            guard let n = file.uleb(&cursor) else { return false }
                            factored = op == 0x2F ? -(Int64(bitPattern: n) &* data) : Int64(bitPattern: n) &* data
                        }
                        row.registers[Int(reg)] = op == 0x14 || op == 0x15 ? .valueOffset(factored) : .offset(factored)
                    case 0x06:
                        guard let reg = file.uleb(&cursor) else { return false }
                        row.registers[Int(reg)] = initial[Int(reg)] ?? .sameValue
                    case 0x07, 0x08:
                        guard let reg = file.uleb(&cursor) else { return false }
                        row.registers[Int(reg)] = op == 0x07 ? .undefined : .sameValue
                    case 0x09:
                        guard let reg = file.uleb(&cursor), let other = file.uleb(&cursor) else { return false }
                        row.registers[Int(reg)] = .register(Int(other))
                    case 0x0A: saved.append((row.registers, row.cfa))
                    case 0x0B:
                        guard let state = saved.popLast() else { return false }
                        (row.registers, row.cfa) = state
                    case 0x0C, 0x12:
                        guard let reg = file.uleb(&cursor) else { return false }
                        if op == 0x0C {
                            guard let n = file.uleb(&cursor) else { return false }
                            row.cfa = .registerOffset(register: Int(reg), offset: Int64(bitPattern: n))
                        } else {
                            guard let n = file.sleb(&cursor) else { return false }
                            row.cfa = .registerOffset(register: Int(reg), offset: n &* data)
                        }
                    case 0x0D:
                        guard let reg = file.uleb(&cursor) else { return false }
                        guard case .registerOffset(_, let offset) = row.cfa else { return false }
                        row.cfa = .registerOffset(register: Int(reg), offset: offset)
                    case 0x0E, 0x13:
                        guard case .registerOffset(let reg, _) = row.cfa else { return false }
                        if op == 0x0E {
                            guard let n = file.uleb(&cursor) else { return false }
                            row.cfa = .registerOffset(register: reg, offset: Int64(bitPattern: n))
                        } else {
                            guard let n = file.sleb(&cursor) else { return false }
                            row.cfa = .registerOffset(register: reg, offset: n &* data)
                        }
                    case 0x0F:
                        guard let block = readBlock(&cursor) else { return false }
                        row.cfa = .expression(block)
                    case 0x10, 0x16:
                        guard let reg = file.uleb(&cursor), let block = readBlock(&cursor) else { return false }
                        row.registers[Int(reg)] = op == 0x10 ? .expression(block) : .valueExpression(block)
                    case 0x2E:
                        guard file.uleb(&cursor) != nil else { return false }
                    default:
                        return false
                    }
                }
                if let advance {
                    if location &+ advance > address { return true }
                    location = location &+ advance
                }
            }
            return true
        }

        private func readBlock(_ cursor: inout UInt64) -> [UInt8]? {
            guard let length = file.uleb(&cursor), let block = file.slice(cursor, length) else { return nil }
            cursor += length
            return block
        }
    }
}

extension ByteReader {
    /// Unsigned LEB128 at cursor (advanced past it); nil when cut off or over 64 bits.
    func uleb(_ cursor: inout UInt64) -> UInt64? {
        var result: UInt64 = 0, shift: UInt64 = 0
        while has(cursor, 1) {
            let byte = u8(cursor)
            cursor += 1
            guard shift < 64 else { return nil }
            result |= UInt64(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 { return result }
        }
        return nil
    }

    /// Signed LEB128 at cursor.
    func sleb(_ cursor: inout UInt64) -> Int64? {
        var result: Int64 = 0, shift: Int64 = 0, byte: UInt8 = 0
        repeat {
            guard has(cursor, 1), shift < 64 else { return nil }
            byte = u8(cursor)
            cursor += 1
            result |= Int64(byte & 0x7F) << shift
            shift += 7
        } while byte & 0x80 != 0
        if shift < 64 && byte & 0x40 != 0 { result |= -(Int64(1) << shift) }
        return result
    }
}
