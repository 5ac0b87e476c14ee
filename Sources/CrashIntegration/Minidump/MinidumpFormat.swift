/// Numbers of the minidump format (Microsoft's `minidumpapiset.h` and Breakpad's
/// `minidump_format.h`, Linux extensions included). Part of the file format: never renumbered.
enum MinidumpFormat {
    static let signature: UInt32 = 0x504d_444d // "MDMP"
    static let version: UInt32 = 0xa793
    static let headerSize = 32
    static let directoryEntrySize = 12

    enum Stream: UInt32 {
        case threadList = 3
        case moduleList = 4
        case memoryList = 5
        case exception = 6
        case systemInfo = 7
        case miscInfo = 15
        // Breakpad's Linux streams ("Gg" prefix).
        case linuxCPUInfo = 0x4767_0003 // /proc/cpuinfo
        case linuxLSBRelease = 0x4767_0005 // /etc/lsb-release or /etc/os-release
        case linuxMaps = 0x4767_0009 // /proc/<pid>/maps
    }

    /// MINIDUMP_SYSTEM_INFO.ProcessorArchitecture.
    static let processorAMD64: UInt16 = 9
    static let processorARM64Breakpad: UInt16 = 0x8003
    /// MINIDUMP_SYSTEM_INFO.PlatformId for Linux (Breakpad/Crashpad).
    static let platformLinux: UInt32 = 0x8201

    /// CodeView signature of an ELF build ID record (Breakpad's MDCVInfoELF).
    static let codeViewELF: UInt32 = 0x4c45_7042 // "BpEL"
    /// VS_FIXEDFILEINFO.dwSignature.
    static let fixedFileInfoSignature: UInt32 = 0xfeef_04bd

    /// CONTEXT_AMD64 flags: the architecture bit, then control (rip, rsp, rbp, cs, ss, eflags),
    /// integer, segments and floating point.
    static let contextAMD64: UInt32 = 0x0010_0000
    static let contextAMD64Control: UInt32 = contextAMD64 | 0x1
    static let contextAMD64Integer: UInt32 = contextAMD64 | 0x2
    static let contextAMD64Segments: UInt32 = contextAMD64 | 0x4
    static let contextAMD64FloatingPoint: UInt32 = contextAMD64 | 0x8
    static let contextAMD64Size = 1232

    /// Breakpad's ARM64 context (`MDRawContextARM64_Old`, the one that goes with processor
    /// architecture 0x8003 and that LLDB reads): 64-bit flags, x0…x31 (x31 = sp), pc, cpsr,
    /// fpsr, fpcr, v0…v31; control and integer flags.
    static let contextARM64: UInt64 = 0x8000_0000
    static let contextARM64Control: UInt64 = contextARM64 | 0x1
    static let contextARM64Integer: UInt64 = contextARM64 | 0x2
    static let contextARM64Size = 800

    /// MINIDUMP_MISC_INFO: size and the flag saying ProcessId is valid.
    static let miscInfoSize: UInt32 = 24
    static let miscInfoProcessID: UInt32 = 0x1
}
