import CrashRuntime
import Foundation

/// Unwinds a thread at processing time from the registers and stack memory its dump holds,
/// never from the live process. Each step uses the module's call-frame information
/// (`.eh_frame`, only when the file's build ID matches the one recorded at crash time), else
/// the frame-pointer chain, else a scan of the stack for a word that points into a module,
/// marked `scan` because it may be stale. Tables are loaded once per module file.
final class StackUnwinder {
    typealias Frame = ProcessSnapshot.Frame

    /// Frames at most, so a corrupt chain cannot run away.
    static let maxFrames = 2048
    /// Words scanned for a return address when neither CFI nor a frame pointer gives a step.
    static let maxScanWords = 512

    private var tables: [String: CallFrameInfo?] = [:]
    /// Rows already evaluated, by module path and address: dumps of one program repeat them.
    private var rows: [String: [UInt64: CallFrameInfo.Row?]] = [:]

    /// Innermost first; nil when the thread has no captured stack memory or no program counter.
    func unwind(thread: ProcessSnapshot.Thread, registers: [String: UInt64], modules: [Symbolicator.Module]) -> [Frame]?
    {
        let memory = StackMemory(thread: thread)
        guard !memory.isEmpty, let arch = Architecture(registers), var pc = registers[arch.pcName] else { return nil }
        var regs = arch.dwarfRegisters(registers)
        var frames = [Frame(address: pc, trust: SEAM_FRAME_TRUST_CONTEXT.rawValue)]
        var isFirst = true
        while frames.count < Self.maxFrames {
            guard let sp = regs[arch.sp] else { break }
            let cfi = cfiStep(pc: pc, isFirst: isFirst, regs: regs, arch: arch, memory: memory, modules: modules)
            if case .outermost = cfi { break }
            let step =
                cfi.step
                ?? frameChainStep(regs: regs, arch: arch, memory: memory, modules: modules)
                ?? scanStep(sp: sp, arch: arch, memory: memory, modules: modules)
            guard let (next, trust) = step, let ra = next[arch.returnAddress], ra != 0,
                let newSP = next[arch.sp], newSP > sp || (newSP == sp && ra != pc)
            else { break }
            guard module(containing: ra, in: modules) != nil else { break }
            frames.append(Frame(address: ra, trust: trust))
            regs = next
            pc = ra
            isFirst = false
        }
        return frames
    }

    // MARK: - Steps: each returns the caller's registers (return address in arch.returnAddress)

    /// What the CFI says about one frame.
    private enum CFIResult {
        case step([Int: UInt64], UInt32)
        /// The return address is undefined: this is the outermost frame (_start, thread entry).
        case outermost
        case unknown

        var step: ([Int: UInt64], UInt32)? {
            if case .step(let regs, let trust) = self { return (regs, trust) }
            return nil
        }
    }

    private func cfiStep(
        pc: UInt64, isFirst: Bool, regs: [Int: UInt64], arch: Architecture, memory: StackMemory,
        modules: [Symbolicator.Module]
    ) -> CFIResult {
        guard let module = module(containing: pc, in: modules), let info = table(for: module) else { return .unknown }
        // A return address points after the call; the call itself is one byte before.
        let lookup = (isFirst ? pc : pc &- 1) &- module.bias
        let cached = rows[module.path]?[lookup]
        let found = cached ?? info.row(for: lookup)
        if cached == nil { rows[module.path, default: [:]][lookup] = .some(found) }
        guard let row = found else { return .unknown }
        if row.registers[row.returnAddressRegister] == .undefined { return .outermost }
        guard let (next, trust) = applying(row, regs: regs, arch: arch, memory: memory) else { return .unknown }
        return .step(next, trust)
    }

    private func applying(
        _ row: CallFrameInfo.Row, regs: [Int: UInt64], arch: Architecture,
        memory: StackMemory
    ) -> ([Int: UInt64], UInt32)? {
        let cfa: UInt64
        switch row.cfa {
        case .registerOffset(let register, let offset):
            guard let base = regs[register] else { return nil }
            cfa = base &+ UInt64(bitPattern: offset)
        case .expression(let expression):
            guard let value = DwarfExpression.evaluate(expression, regs: regs, memory: memory) else { return nil }
            cfa = value
        }
        var next = regs
        for (register, rule) in row.registers {
            switch rule {
            case .undefined: next[register] = nil
            case .sameValue: break
            case .offset(let n): next[register] = memory.word(at: cfa &+ UInt64(bitPattern: n))
            case .valueOffset(let n): next[register] = cfa &+ UInt64(bitPattern: n)
            case .register(let other): next[register] = regs[other]
            case .expression(let e):
                next[register] = DwarfExpression.evaluate(e, regs: regs, memory: memory, initial: cfa).flatMap {
                    memory.word(at: $0)
                }
            case .valueExpression(let e):
                next[register] = DwarfExpression.evaluate(e, regs: regs, memory: memory, initial: cfa)
            }
        }
        if row.returnAddressRegister != arch.returnAddress {
            next[arch.returnAddress] = next[row.returnAddressRegister]
        }
        guard next[arch.returnAddress] != nil else { return nil }
        if let fp = next[arch.fp] { next[arch.fp] = fp & Architecture.asyncFrameMask }
        next[arch.sp] = cfa
        return (next, SEAM_FRAME_TRUST_CFI.rawValue)
    }

    private func frameChainStep(
        regs: [Int: UInt64], arch: Architecture, memory: StackMemory,
        modules: [Symbolicator.Module]
    ) -> ([Int: UInt64], UInt32)? {
        guard let fp = regs[arch.fp], let sp = regs[arch.sp], fp >= sp, fp & 7 == 0,
            let saved = memory.word(at: fp), let ra = memory.word(at: fp &+ 8),
            module(containing: ra, in: modules) != nil
        else { return nil }
        var next = regs
        next[arch.fp] = saved & Architecture.asyncFrameMask
        next[arch.sp] = fp &+ 16
        next[arch.returnAddress] = ra
        return (next, SEAM_FRAME_TRUST_FRAME_POINTER.rawValue)
    }

    private func scanStep(
        sp: UInt64, arch: Architecture, memory: StackMemory,
        modules: [Symbolicator.Module]
    ) -> ([Int: UInt64], UInt32)? {
        for i in 0..<UInt64(Self.maxScanWords) {
            let at = sp &+ i * 8
            guard let word = memory.word(at: at) else { return nil }
            if module(containing: word, in: modules) != nil {
                var next: [Int: UInt64] = [arch.sp: at &+ 8, arch.returnAddress: word]
                if let saved = memory.word(at: at &- 8), saved > at { next[arch.fp] = saved }
                return (next, SEAM_FRAME_TRUST_SCAN.rawValue)
            }
        }
        return nil
    }

    private func module(containing address: UInt64, in modules: [Symbolicator.Module]) -> Symbolicator.Module? {
        modules.first { address >= $0.start && address < $0.end }
    }

    /// The module's CFI when its file is readable and its build ID is the recorded one.
    private func table(for module: Symbolicator.Module) -> CallFrameInfo? {
        if let cached = tables[module.path] { return cached }
        var loaded: CallFrameInfo?
        if module.path.hasPrefix("/"), let data = FileManager.default.contents(atPath: module.path),
            data.count <= ELFSymbolTable.maxFileBytes, let info = CallFrameInfo(bytes: [UInt8](data))
        {
            loaded = module.buildID == nil || info.buildID == nil || module.buildID == info.buildID ? info : nil
        }
        tables[module.path] = loaded
        return loaded
    }
}

/// The captured memory of one thread: its stack window and any further regions.
struct StackMemory {
    var regions: [(start: UInt64, bytes: [UInt8])] = []

    init(thread: ProcessSnapshot.Thread) {
        if let start = thread.stackStart, let bytes = thread.stackBytes {
            regions.append((start, bytes))
        }
        regions += thread.memory.map { ($0.start, $0.bytes) }
    }

    var isEmpty: Bool { regions.isEmpty }

    /// The 8-byte little-endian word at address, when the captured memory holds all of it.
    func word(at address: UInt64) -> UInt64? {
        for region in regions where address >= region.start {
            let offset = address - region.start
            guard offset <= UInt64(region.bytes.count), UInt64(region.bytes.count) - offset >= 8 else { continue }
            var value: UInt64 = 0
            for i in (0..<8).reversed() { value = value << 8 | UInt64(region.bytes[Int(offset) + i]) }
            return value
        }
        return nil
    }
}

/// DWARF register numbers and the dump's register names, by architecture.
struct Architecture {
    let pcName: String
    let sp: Int, fp: Int, returnAddress: Int
    let names: [(String, Int)]

    /// Swift marks an async frame's saved frame pointer with bit 60 (x86_64 and arm64); the
    /// real caller frame is the value without it.
    static let asyncFrameMask: UInt64 = ~(UInt64(1) << 60)

    init?(_ registers: [String: UInt64]) {
        if registers["rip"] != nil {
            pcName = "rip"
            (sp, fp, returnAddress) = (7, 6, 16)
            names = [
                ("rax", 0), ("rdx", 1), ("rcx", 2), ("rbx", 3), ("rsi", 4), ("rdi", 5), ("rbp", 6), ("rsp", 7),
                ("r8", 8), ("r9", 9), ("r10", 10), ("r11", 11), ("r12", 12), ("r13", 13), ("r14", 14), ("r15", 15),
                ("rip", 16),
            ]
        } else if registers["pc"] != nil {
            pcName = "pc"
            (sp, fp, returnAddress) = (31, 29, 30)
            names = (0...28).map { ("x\($0)", $0) } + [("fp", 29), ("lr", 30), ("sp", 31)]
        } else {
            return nil
        }
    }

    func dwarfRegisters(_ registers: [String: UInt64]) -> [Int: UInt64] {
        var result: [Int: UInt64] = [:]
        for (name, number) in names { if let value = registers[name] { result[number] = value } }
        return result
    }
}
