/// A thread's registers as the CONTEXT record of its architecture (CONTEXT_AMD64, or Breakpad's
/// ARM64 context, which LLDB reads). Registers the dump lacks stay zero and their group's flag
/// stays clear, so a reader does not trust them.
enum ThreadContext {
    static func bytes(for thread: MinidumpInput.Thread, architecture: MinidumpInput.Architecture) -> [UInt8] {
        switch architecture {
        case .x86_64: return amd64(thread)
        case .aarch64: return arm64(thread)
        }
    }

    /// CONTEXT_AMD64 general registers from offset 120, in the record's order.
    private static let amd64Integer = [
        "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
        "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip",
    ]

    private static func amd64(_ thread: MinidumpInput.Thread) -> [UInt8] {
        var context = [UInt8](repeating: 0, count: MinidumpFormat.contextAMD64Size)
        let registers = thread.registers
        var flags = MinidumpFormat.contextAMD64
        if registers["rip"] != nil && registers["rsp"] != nil {
            flags |= MinidumpFormat.contextAMD64Control | MinidumpFormat.contextAMD64Integer
            for (index, name) in amd64Integer.enumerated() {
                put(registers[name] ?? 0, at: 120 + index * 8, into: &context)
            }
            put(UInt32(truncatingIfNeeded: registers["eflags"] ?? 0), at: 68, into: &context)
        }
        if let segments = registers["csgsfs"] {
            // Linux's mcontext packs cs, gs, fs and ss in 16-bit fields.
            flags |= MinidumpFormat.contextAMD64Segments
            put(UInt16(truncatingIfNeeded: segments), at: 56, into: &context) // SegCs
            put(UInt16(truncatingIfNeeded: segments >> 32), at: 62, into: &context) // SegFs
            put(UInt16(truncatingIfNeeded: segments >> 16), at: 64, into: &context) // SegGs
            put(UInt16(truncatingIfNeeded: segments >> 48), at: 66, into: &context) // SegSs
        }
        if let fxsave = thread.floatingPoint, fxsave.count == 512 {
            flags |= MinidumpFormat.contextAMD64FloatingPoint
            context.replaceSubrange(256..<768, with: fxsave)
            context.replaceSubrange(52..<56, with: fxsave[24..<28]) // MxCsr
        }
        put(flags, at: 48, into: &context)
        return context
    }

    private static func arm64(_ thread: MinidumpInput.Thread) -> [UInt8] {
        var context = [UInt8](repeating: 0, count: MinidumpFormat.contextARM64Size)
        let registers = thread.registers
        var flags = MinidumpFormat.contextARM64
        if let pc = registers["pc"], let sp = registers["sp"] {
            flags |= MinidumpFormat.contextARM64Control | MinidumpFormat.contextARM64Integer
            for index in 0..<29 { put(registers["x\(index)"] ?? 0, at: 8 + index * 8, into: &context) }
            put(registers["fp"] ?? registers["x29"] ?? 0, at: 8 + 29 * 8, into: &context)
            put(registers["lr"] ?? registers["x30"] ?? 0, at: 8 + 30 * 8, into: &context)
            put(sp, at: 8 + 31 * 8, into: &context)
            put(pc, at: 264, into: &context)
            put(UInt32(truncatingIfNeeded: registers["pstate"] ?? 0), at: 272, into: &context)
        }
        put(flags, at: 0, into: &context)
        return context
    }

    private static func put<T: FixedWidthInteger>(_ value: T, at offset: Int, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }
}
