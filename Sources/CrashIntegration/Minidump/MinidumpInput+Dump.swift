import CrashRuntime
import Foundation

extension MinidumpInput {
    /// The minidump model of a parsed intermediate dump. Threads get the registers the dump
    /// recorded for them (today: the crashed thread's), and stack memory when the capture
    /// recorded a window; `/proc/cpuinfo` and `/etc/os-release` are read on this machine (the
    /// dump is processed on the next launch of the same installation).
    public init(dump: IntermediateDump, hostFiles: HostFiles = .current) {
        let root = dump.root
        let crashed = root.map(SEAM_DK_CRASHED_THREAD)
        let system = Self.entries(root.array(SEAM_DK_SYSTEM_INFO))
        let architecture = crashed?.string(SEAM_DK_ARCHITECTURE).flatMap(Architecture.init(rawValue:)) ?? .host
        let description = ["os.name", "os.release", "os.version", "machine"].compactMap { system[$0] }.joined(separator: " ")
        self.init(system: System(architecture: architecture, cpuCount: system["cpu.count"].flatMap { Int($0) } ?? 0,
                                 kernelRelease: system["os.release"] ?? "", osDescription: description),
                  processID: root.uint64(SEAM_DK_PID).map { UInt32(truncatingIfNeeded: $0) },
                  crashTime: UInt32(truncatingIfNeeded: root.uint64(SEAM_DK_CRASH_TIME_SEC) ?? 0),
                  cpuInfo: hostFiles.cpuInfo, osRelease: hostFiles.osRelease)

        let crashedID = crashed?.uint64(SEAM_DK_THREAD_ID).map { UInt32(truncatingIfNeeded: $0) }
        var threads = root.array(SEAM_DK_THREADS).compactMap(Self.thread)
        if let crashed, let crashedID {
            let captured = Self.thread(crashed)
            if let index = threads.firstIndex(where: { $0.id == crashedID }) {
                // The signal's context is authoritative for the crashing thread.
                threads[index].registers = captured?.registers ?? threads[index].registers
                if threads[index].stackBytes.isEmpty, let captured {
                    threads[index].stackStart = captured.stackStart
                    threads[index].stackBytes = captured.stackBytes
                }
            } else if let captured {
                threads.insert(captured, at: 0)
            }
        }
        self.threads = threads
        if let signal = root.map(SEAM_DK_SIGNAL), let number = signal.uint64(SEAM_DK_SIGNAL_NUMBER) {
            exception = Exception(signal: UInt32(truncatingIfNeeded: number),
                                  code: Int32(truncatingIfNeeded: signal.uint64(SEAM_DK_SIGNAL_CODE) ?? 0),
                                  address: signal.uint64(SEAM_DK_SIGNAL_ADDRESS) ?? 0, threadID: crashedID ?? 0)
        }
        modules = root.array(SEAM_DK_MODULES).compactMap { map in
            guard let path = map.string(SEAM_DK_MODULE_PATH), let start = map.uint64(SEAM_DK_MODULE_START),
                  let end = map.uint64(SEAM_DK_MODULE_END), end > start else { return nil }
            return Module(path: path, base: start, size: end - start, buildID: map.bytes(SEAM_DK_MODULE_BUILD_ID))
        }
        memory = root.array(SEAM_DK_MEMORY).compactMap { map in
            guard let start = map.uint64(SEAM_DK_MEMORY_START), let bytes = map.bytes(SEAM_DK_MEMORY_BYTES) else { return nil }
            return Memory(start: start, bytes: bytes)
        }
    }

    private static func thread(_ map: DumpMap) -> Thread? {
        guard let id = map.uint64(SEAM_DK_THREAD_ID) else { return nil }
        var registers: [String: UInt64] = [:]
        for register in map.array(SEAM_DK_REGISTERS) {
            if let name = register.string(SEAM_DK_REGISTER_NAME), let value = register.uint64(SEAM_DK_REGISTER_VALUE) {
                registers[name] = value
            }
        }
        let stack = map.bytes(SEAM_DK_STACK_BYTES) ?? []
        return Thread(id: UInt32(truncatingIfNeeded: id), name: map.string(SEAM_DK_THREAD_NAME), registers: registers,
                      floatingPoint: map.bytes(SEAM_DK_FP_REGISTERS),
                      stackStart: stack.isEmpty ? nil : map.uint64(SEAM_DK_STACK_START), stackBytes: stack)
    }

    private static func entries(_ maps: [DumpMap]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in maps {
            if let key = entry.string(SEAM_DK_ENTRY_KEY), let value = entry.string(SEAM_DK_ENTRY_VALUE) { result[key] = value }
        }
        return result
    }
}

extension MinidumpInput.Architecture {
    /// The architecture this code runs on.
    static var host: Self {
        #if arch(aarch64) || arch(arm64)
        return .aarch64
        #else
        return .x86_64
        #endif
    }
}

/// Text files of the machine that processes dumps, kept in the minidump's Linux streams.
public struct HostFiles: Sendable {
    public var cpuInfo: String?
    public var osRelease: String?

    public init(cpuInfo: String?, osRelease: String?) {
        self.cpuInfo = cpuInfo
        self.osRelease = osRelease
    }

    /// `/proc/cpuinfo` and `/etc/os-release` (or `/usr/lib/os-release`), read once.
    public static let current = HostFiles(
        cpuInfo: try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        osRelease: OSRelease.text)
}
