import CrashRuntime
import Foundation

extension MinidumpInput {
    /// The minidump model of a parsed intermediate dump. Threads get the registers the dump
    /// recorded for them (today: the crashed thread's), and stack memory when the capture
    /// recorded a window; `/proc/cpuinfo` and `/etc/os-release` are read on this machine (the
    /// dump is processed on the next launch of the same installation).
    public init(dump: IntermediateDump, hostFiles: HostFiles = .current) {
        self.init(snapshot: ProcessSnapshot(dump), hostFiles: hostFiles)
    }

    init(snapshot: ProcessSnapshot, hostFiles: HostFiles = .current) {
        let crashed = snapshot.crashedThread
        let system = snapshot.system
        let architecture = crashed?.architecture.flatMap(Architecture.init(rawValue:)) ?? .host
        let description = ["os.name", "os.release", "os.version", "machine"].compactMap { system[$0] }.joined(
            separator: " ")
        self.init(
            system: System(
                architecture: architecture, cpuCount: system["cpu.count"].flatMap { Int($0) } ?? 0,
                kernelRelease: system["os.release"] ?? "", osDescription: description),
            processID: snapshot.pid.map { UInt32(truncatingIfNeeded: $0) },
            crashTime: UInt32(truncatingIfNeeded: snapshot.crashTimeSeconds ?? 0),
            cpuInfo: hostFiles.cpuInfo, osRelease: hostFiles.osRelease)

        let crashedID = crashed?.id.map { UInt32(truncatingIfNeeded: $0) }
        var threads = snapshot.threads.compactMap(Self.thread)
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
        if let signal = snapshot.signal {
            exception = Exception(
                signal: UInt32(truncatingIfNeeded: signal.number),
                code: Int32(truncatingIfNeeded: signal.code ?? 0),
                address: signal.address ?? 0, threadID: crashedID ?? 0)
        }
        modules = snapshot.modules.compactMap { module in
            guard let path = module.path, let start = module.start, let end = module.end, end > start else {
                return nil
            }
            return Module(path: path, base: start, size: end - start, buildID: module.buildID)
        }
        memory = snapshot.memory.map { Memory(start: $0.start, bytes: $0.bytes) }
    }

    private static func thread(_ thread: ProcessSnapshot.Thread) -> Thread? {
        guard let id = thread.id else { return nil }
        let stack = thread.stackBytes ?? []
        return Thread(
            id: UInt32(truncatingIfNeeded: id), name: thread.name, registers: thread.registers,
            floatingPoint: thread.floatingPoint,
            stackStart: stack.isEmpty ? nil : thread.stackStart, stackBytes: stack)
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
