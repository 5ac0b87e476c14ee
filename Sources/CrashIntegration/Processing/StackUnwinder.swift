import CrashRuntime

/// Unwinds a thread at processing time from the registers and stack memory its dump holds,
/// never from the live process: the frame-pointer chain through the captured memory, with the
/// words between the stack pointer and the first frame record scanned for return addresses
/// (frames of code without frame pointers, such as libc's), marked `scan`.
struct StackUnwinder {
    struct Frame: Equatable {
        let address: UInt64
        let trust: UInt32
    }

    /// The captured memory of one thread: its stack window and any further regions.
    struct Memory {
        var regions: [(start: UInt64, bytes: [UInt8])] = []

        init(thread: DumpMap) {
            if let start = thread.uint64(SEAM_DK_STACK_START), let bytes = thread.bytes(SEAM_DK_STACK_BYTES) {
                regions.append((start, bytes))
            }
            for region in thread.array(SEAM_DK_MEMORY) {
                if let start = region.uint64(SEAM_DK_MEMORY_START), let bytes = region.bytes(SEAM_DK_MEMORY_BYTES) {
                    regions.append((start, bytes))
                }
            }
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

    /// Frames at most, so a corrupt chain cannot run away.
    static let maxFrames = 512
    /// Words scanned between the stack pointer and the first frame record.
    static let maxScanWords = 2048

    /// Innermost first; nil when the thread has no captured stack memory or no program counter.
    func unwind(thread: DumpMap, registers: [String: UInt64], modules: [Symbolicator.Module]) -> [Frame]? {
        let memory = Memory(thread: thread)
        guard !memory.isEmpty, let names = RegisterNames(registers),
              let pc = registers[names.pc], let sp = registers[names.sp] else { return nil }
        var frames = [Frame(address: pc, trust: SEAM_FRAME_TRUST_CONTEXT.rawValue)]
        let isCode = { (address: UInt64) in modules.contains { address >= $0.start && address < $0.end } }
        if let lr = names.lr.flatMap({ registers[$0] }), isCode(lr) {
            frames.append(Frame(address: lr, trust: SEAM_FRAME_TRUST_LINK_REGISTER.rawValue))
        }
        var fp = registers[names.fp] ?? 0
        let fpUsable = fp >= sp && fp - sp < UInt64(Self.maxScanWords * 8) && memory.word(at: fp) != nil
        let scanEnd = fpUsable ? fp : sp + UInt64(Self.maxScanWords * 8)
        var at = sp
        var foundRecord = fpUsable
        while at < scanEnd && frames.count < Self.maxFrames, let word = memory.word(at: at) {
            if isCode(word) {
                frames.append(Frame(address: word, trust: SEAM_FRAME_TRUST_SCAN.rawValue))
                // Without a usable frame pointer, the first return address stored just above a
                // plausible saved frame pointer starts the chain.
                if !fpUsable, at >= sp + 8, let saved = memory.word(at: at - 8), saved > at,
                   let next = memory.word(at: saved + 8), isCode(next) {
                    fp = saved
                    foundRecord = true
                    break
                }
            }
            at += 8
        }
        guard foundRecord else { return frames }
        var lowest = sp
        while frames.count < Self.maxFrames, fp >= lowest, fp & 7 == 0,
              let saved = memory.word(at: fp), let returnAddress = memory.word(at: fp + 8), returnAddress != 0 {
            frames.append(Frame(address: returnAddress, trust: SEAM_FRAME_TRUST_FRAME_POINTER.rawValue))
            guard saved > fp else { break }
            lowest = fp
            fp = saved
        }
        return frames
    }

    /// Which captured register plays which part, by architecture.
    struct RegisterNames {
        let pc: String, sp: String, fp: String, lr: String?

        init?(_ registers: [String: UInt64]) {
            if registers["rip"] != nil {
                (pc, sp, fp, lr) = ("rip", "rsp", "rbp", nil)
            } else if registers["pc"] != nil {
                (pc, sp, fp, lr) = ("pc", "sp", "fp", "lr")
            } else {
                return nil
            }
        }
    }
}
