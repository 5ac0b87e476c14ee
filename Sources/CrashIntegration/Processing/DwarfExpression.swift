/// The DWARF expression subset that CFI uses (PLT entries, signal trampolines, realigned
/// frames): literals, register-relative values, memory reads from the captured stack, and
/// arithmetic. Anything else gives nil, never a guess.
enum DwarfExpression {
    static func evaluate(_ code: [UInt8], regs: [Int: UInt64], memory: StackMemory, initial: UInt64? = nil) -> UInt64? {
        let reader = ByteReader(bytes: code)
        var stack: [UInt64] = initial.map { [$0] } ?? []
        var cursor: UInt64 = 0
        var steps = 0
        func pop() -> UInt64? { stack.popLast() }
        while cursor < UInt64(code.count) {
            steps += 1
            guard steps < 1000, stack.count < 64 else { return nil }
            let op = reader.u8(cursor)
            cursor += 1
            switch op {
            case 0x30...0x4F: stack.append(UInt64(op - 0x30))
            case 0x50...0x6F:
                guard let value = regs[Int(op - 0x50)] else { return nil }
                stack.append(value)
            case 0x70...0x8F:
                guard let value = regs[Int(op - 0x70)], let offset = reader.sleb(&cursor) else { return nil }
                stack.append(value &+ UInt64(bitPattern: offset))
            case 0x08: stack.append(UInt64(reader.u8(cursor))); cursor += 1
            case 0x09: stack.append(UInt64(bitPattern: Int64(Int8(bitPattern: reader.u8(cursor))))); cursor += 1
            case 0x0A: stack.append(UInt64(reader.u16(cursor))); cursor += 2
            case 0x0B: stack.append(UInt64(bitPattern: Int64(Int16(bitPattern: reader.u16(cursor))))); cursor += 2
            case 0x0C: stack.append(UInt64(reader.u32(cursor))); cursor += 4
            case 0x0D: stack.append(UInt64(bitPattern: Int64(Int32(bitPattern: reader.u32(cursor))))); cursor += 4
            case 0x0E, 0x0F: stack.append(reader.u64(cursor)); cursor += 8
            case 0x10:
                guard let value = reader.uleb(&cursor) else { return nil }
                stack.append(value)
            case 0x11:
                guard let value = reader.sleb(&cursor) else { return nil }
                stack.append(UInt64(bitPattern: value))
            case 0x12:
                guard let top = stack.last else { return nil }
                stack.append(top)
            case 0x13: guard pop() != nil else { return nil }
            case 0x14:
                guard stack.count >= 2 else { return nil }
                stack.append(stack[stack.count - 2])
            case 0x16:
                guard stack.count >= 2 else { return nil }
                stack.swapAt(stack.count - 1, stack.count - 2)
            case 0x06:
                guard let address = pop(), let value = memory.word(at: address) else { return nil }
                stack.append(value)
            case 0x23:
                guard let value = pop(), let addend = reader.uleb(&cursor) else { return nil }
                stack.append(value &+ addend)
            case 0x1A, 0x1C, 0x1E, 0x21, 0x22, 0x24, 0x25, 0x29...0x2E:
                guard let b = pop(), let a = pop() else { return nil }
                stack.append(binary(op, a, b))
            default:
                return nil
            }
        }
        return stack.last
    }

    private static func binary(_ op: UInt8, _ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sa, sb) = (Int64(bitPattern: a), Int64(bitPattern: b))
        switch op {
        case 0x1A: return a & b
        case 0x1C: return a &- b
        case 0x1E: return a &* b
        case 0x21: return a | b
        case 0x22: return a &+ b
        case 0x24: return b >= 64 ? 0 : a << b
        case 0x25: return b >= 64 ? 0 : a >> b
        case 0x29: return a == b ? 1 : 0
        case 0x2A: return sa >= sb ? 1 : 0
        case 0x2B: return sa > sb ? 1 : 0
        case 0x2C: return sa <= sb ? 1 : 0
        case 0x2D: return sa < sb ? 1 : 0
        default: return a != b ? 1 : 0 // 0x2E ne
        }
    }
}
