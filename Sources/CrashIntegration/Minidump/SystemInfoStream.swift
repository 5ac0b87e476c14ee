/// MINIDUMP_SYSTEM_INFO for Linux: CPU architecture and count, kernel version, and the OS
/// description as the CSD version string.
enum SystemInfoStream {
    static func write(_ system: MinidumpInput.System, into buffer: inout MinidumpBuffer) -> MinidumpBuffer.Location {
        let description = buffer.string(system.osDescription)
        let version = system.kernelRelease.split(whereSeparator: { !$0.isNumber }).prefix(3).map { UInt32($0) ?? 0 }
        let start = buffer.beginRecords()
        switch system.architecture {
        case .x86_64: buffer.u16(MinidumpFormat.processorAMD64)
        case .aarch64: buffer.u16(MinidumpFormat.processorARM64Breakpad)
        }
        buffer.u16(0) // processor level
        buffer.u16(0) // processor revision
        buffer.u8(UInt8(clamping: system.cpuCount))
        buffer.u8(0) // product type: not Windows
        for index in 0..<3 { buffer.u32(index < version.count ? version[index] : 0) }
        buffer.u32(MinidumpFormat.platformLinux)
        buffer.u32(description)
        buffer.u16(0) // suite mask
        buffer.u16(0)
        buffer.zeros(24) // CPU information: not recorded
        return buffer.end(from: start)
    }
}

/// MINIDUMP_MISC_INFO carrying the process id.
enum MiscInfoStream {
    static func write(processID: UInt32, into buffer: inout MinidumpBuffer) -> MinidumpBuffer.Location {
        let start = buffer.beginRecords()
        buffer.u32(MinidumpFormat.miscInfoSize)
        buffer.u32(MinidumpFormat.miscInfoProcessID)
        buffer.u32(processID)
        buffer.zeros(12) // process times: not recorded
        return buffer.end(from: start)
    }
}
