import CrashRuntime
import Foundation

/// Builds a `CrashReport` from a parsed dump, symbolicating the crashed thread's frames.
/// Missing sections leave fields empty and are listed among the incomplete reasons.
struct ReportBuilder {
    let symbolicator: Symbolicator

    func report(for dump: IntermediateDump, fileName: String) -> CrashReport {
        let root = dump.root
        var reasons = dump.incompleteReason.map { [$0] } ?? []
        if let nested = root.uint64(SEAM_DK_NESTED_SIGNAL) {
            reasons.append("the handler was interrupted by signal \(nested) (\(SignalNames.name(Int(truncatingIfNeeded: nested)))) and wrote a minimal dump")
        }
        let signal = root.map(SEAM_DK_SIGNAL).flatMap(Self.signal)
        if signal == nil { reasons.append("no signal section") }
        let modules = root.array(SEAM_DK_MODULES).map(Self.module)
        let thread = root.map(SEAM_DK_CRASHED_THREAD).map { crashedThread($0, modules: modules) }
        if thread == nil { reasons.append("no crashed-thread section") }
        let usedModules = Set(thread?.frames.compactMap(\.module) ?? [])
        var duration: UInt64?
        if let entry = root.uint64(SEAM_DK_HANDLER_ENTRY_MONO_NS), let exit = root.uint64(SEAM_DK_HANDLER_EXIT_MONO_NS), exit >= entry {
            duration = exit - entry
        }
        let process = root.map(SEAM_DK_PROCESS)
        return CrashReport(
            dumpFile: fileName,
            dumpFormatVersion: dump.version,
            incomplete: !reasons.isEmpty,
            incompleteReasons: reasons,
            crashTime: root.uint64(SEAM_DK_CRASH_TIME_SEC).map { Self.iso8601($0, nanoseconds: root.uint64(SEAM_DK_CRASH_TIME_NSEC) ?? 0) },
            handlerDurationNs: duration,
            process: .init(pid: root.uint64(SEAM_DK_PID), parentPid: process?.uint64(SEAM_DK_PROCESS_PARENT_PID),
                           executable: process?.string(SEAM_DK_PROCESS_EXECUTABLE),
                           installTime: root.uint64(SEAM_DK_INSTALL_TIME_SEC).map { Self.iso8601($0, nanoseconds: 0) }),
            signal: signal,
            exception: root.map(SEAM_DK_EXCEPTION).flatMap(Self.exception),
            crashedThread: thread,
            threads: root.array(SEAM_DK_THREADS).compactMap(Self.thread),
            modules: modules.map { module in
                CrashReport.Module(path: module.path, buildId: module.buildID.map(Self.hexBytes), base: hex(module.bias),
                                   start: hex(module.start), end: hex(module.end),
                                   symbols: usedModules.contains(module.path) ? symbolicator.status(of: module) : "not_used")
            },
            system: Self.entries(root.array(SEAM_DK_SYSTEM_INFO)),
            annotations: Self.entries(root.array(SEAM_DK_ANNOTATIONS)))
    }

    private func crashedThread(_ map: DumpMap, modules: [Symbolicator.Module]) -> CrashReport.CrashedThread {
        var registers: [String: String] = [:]
        for register in map.array(SEAM_DK_REGISTERS) {
            if let name = register.string(SEAM_DK_REGISTER_NAME), let value = register.uint64(SEAM_DK_REGISTER_VALUE) {
                registers[name] = hex(value)
            }
        }
        let frames = map.array(SEAM_DK_FRAMES).enumerated().compactMap { index, frame -> CrashReport.Frame? in
            guard let address = frame.uint64(SEAM_DK_FRAME_ADDRESS) else { return nil }
            let trust = frame.uint64(SEAM_DK_FRAME_TRUST).map { UInt32(truncatingIfNeeded: $0) } ?? 0
            var result = CrashReport.Frame(index: index, address: hex(address), trust: Self.trustName(trust))
            if let module = symbolicator.module(containing: address, in: modules) {
                result.module = module.path
                result.moduleOffset = hex(address &- module.bias)
                let isReturn = trust != SEAM_FRAME_TRUST_CONTEXT.rawValue
                if let resolved = symbolicator.resolve(address, in: module, isReturnAddress: isReturn) {
                    result.function = resolved.function
                    result.mangledFunction = resolved.mangled
                    result.functionOffset = resolved.offset
                }
            }
            return result
        }
        return CrashReport.CrashedThread(id: map.uint64(SEAM_DK_THREAD_ID), name: map.string(SEAM_DK_THREAD_NAME),
                                         architecture: map.string(SEAM_DK_ARCHITECTURE), registers: registers, frames: frames)
    }

    private static func signal(_ map: DumpMap) -> CrashReport.Signal? {
        guard let number = map.uint64(SEAM_DK_SIGNAL_NUMBER).map({ Int(truncatingIfNeeded: $0) }) else { return nil }
        let code = Int(Int32(truncatingIfNeeded: map.uint64(SEAM_DK_SIGNAL_CODE) ?? 0))
        return CrashReport.Signal(number: number, name: SignalNames.name(number), code: code,
                                  codeName: SignalNames.codeName(signal: number, code: code),
                                  address: map.uint64(SEAM_DK_SIGNAL_ADDRESS).map(hex),
                                  senderPid: map.uint64(SEAM_DK_SIGNAL_SENDER_PID))
    }

    private static func exception(_ map: DumpMap) -> CrashReport.Exception? {
        guard let mangled = map.string(SEAM_DK_EXCEPTION_TYPE) else { return nil }
        return CrashReport.Exception(type: Demangler.cxxType(mangled), mangledType: mangled, what: map.string(SEAM_DK_EXCEPTION_WHAT))
    }

    private static func module(_ map: DumpMap) -> Symbolicator.Module {
        Symbolicator.Module(path: map.string(SEAM_DK_MODULE_PATH) ?? "", bias: map.uint64(SEAM_DK_MODULE_BIAS) ?? 0,
                            start: map.uint64(SEAM_DK_MODULE_START) ?? 0, end: map.uint64(SEAM_DK_MODULE_END) ?? 0,
                            buildID: map.bytes(SEAM_DK_MODULE_BUILD_ID))
    }

    private static func thread(_ map: DumpMap) -> CrashReport.Thread? {
        guard let id = map.uint64(SEAM_DK_THREAD_ID) else { return nil }
        return CrashReport.Thread(id: id, name: map.string(SEAM_DK_THREAD_NAME) ?? "",
                                  crashed: map.uint64(SEAM_DK_THREAD_CRASHED) == 1)
    }

    private static func entries(_ maps: [DumpMap]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in maps {
            if let key = entry.string(SEAM_DK_ENTRY_KEY), let value = entry.string(SEAM_DK_ENTRY_VALUE) { result[key] = value }
        }
        return result
    }

    private static func trustName(_ trust: UInt32) -> String {
        switch trust {
        case SEAM_FRAME_TRUST_CONTEXT.rawValue: return "context"
        case SEAM_FRAME_TRUST_FRAME_POINTER.rawValue: return "frame_pointer"
        case SEAM_FRAME_TRUST_SCAN.rawValue: return "scan"
        case SEAM_FRAME_TRUST_LINK_REGISTER.rawValue: return "link_register"
        default: return "unknown"
        }
    }

    /// Lower-case hex, two digits a byte (build IDs). Table-driven: `String(format:)` was the
    /// largest single cost of processing a thousand dumps.
    static func hexBytes(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func iso8601(_ seconds: UInt64, nanoseconds: UInt64) -> String {
        let clamped = min(seconds, 253_402_300_799)   // year 9999: keeps Date formatting sane
        let date = Date(timeIntervalSince1970: Double(clamped) + Double(min(nanoseconds, 999_999_999)) / 1e9)
        return timestampFormatter.string(from: date)
    }

    private static let timestampFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
