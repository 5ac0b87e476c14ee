import CrashRuntime
import Foundation

/// Builds a `CrashReport` from a parsed dump, symbolicating the crashed thread's frames.
/// Missing sections leave fields empty and are listed among the incomplete reasons.
struct ReportBuilder {
    let symbolicator: Symbolicator
    let unwinder = StackUnwinder()
    private let resolved = ResolvedFrames()

    private struct FrameKey: Hashable {
        let path: String, bias: UInt64, address: UInt64, trust: UInt32
    }

    /// Frames already symbolicated in this pass.
    private final class ResolvedFrames {
        var frames: [FrameKey: CrashReport.Frame] = [:]
    }

    func report(for dump: IntermediateDump, fileName: String) -> CrashReport {
        let root = dump.root
        var reasons = dump.incompleteReason.map { [$0] } ?? []
        if let nested = root.uint64(SEAM_DK_NESTED_SIGNAL) {
            reasons.append("the handler was interrupted by signal \(nested) (\(SignalNames.name(Int(truncatingIfNeeded: nested)))) and wrote a minimal dump")
        }
        let signal = root.map(SEAM_DK_SIGNAL).flatMap(Self.signal)
        if signal == nil && root.uint64(SEAM_DK_HANDLER_ENTRY_MONO_NS) == nil {
            reasons.append("the process died without a clean exit and its crash handler never ran (killed, for example by SIGKILL or the out-of-memory killer, or a crash that no handler could run for)")
        } else if signal == nil {
            reasons.append("no signal section")
        }
        let modules = root.array(SEAM_DK_MODULES).map(Self.module)
        let symbolModules = modules.map(symbolicator.readingSymbols)   // CFI from the file that is the recorded build
        let threadMaps = root.array(SEAM_DK_THREADS)
        let crashedMemory = threadMaps.first { $0.uint64(SEAM_DK_THREAD_CRASHED) == 1 }
        let thread = root.map(SEAM_DK_CRASHED_THREAD).map {
            crashedThread($0, memory: crashedMemory, modules: modules, symbolModules: symbolModules)
        }
        if thread == nil && signal != nil { reasons.append("no crashed-thread section") }
        let exception = root.map(SEAM_DK_EXCEPTION).flatMap(Self.exception)
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
            exception: exception,
            fatalErrorMessage: Self.fatalErrorMessage(root),
            terminateMessage: root.uint64(SEAM_DK_TERMINATE_CALLED) == 1 ? Self.terminateMessage(exception) : nil,
            crashedThread: thread,
            threads: threadMaps.compactMap { otherThread($0, modules: modules, symbolModules: symbolModules) },
            modules: modules.map { module in
                CrashReport.Module(path: module.path, buildId: module.buildID.map(Self.hexBytes), base: hex(module.bias),
                                   start: hex(module.start), end: hex(module.end),
                                   symbols: usedModules.contains(module.path) ? symbolicator.status(of: module) : "not_used",
                                   symbolsSource: usedModules.contains(module.path) ? symbolicator.symbolsSource(of: module) : nil)
            },
            system: Self.entries(root.array(SEAM_DK_SYSTEM_INFO)),
            annotations: Self.entries(root.array(SEAM_DK_ANNOTATIONS)))
    }

    private func crashedThread(_ map: DumpMap, memory: DumpMap?, modules: [Symbolicator.Module],
                               symbolModules: [Symbolicator.Module]) -> CrashReport.CrashedThread {
        let registers = Self.registerValues(map)
        let recorded = Self.frameList(map.array(SEAM_DK_FRAMES))
        // Unwound again from the captured stack memory when there is some: CFI where the module
        // has it, so no stale scanned words; the handler's own walk otherwise.
        var inner = recorded
        if let memory, let unwound = unwinder.unwind(thread: memory, registers: registers, modules: symbolModules), !unwound.isEmpty,
           unwound.count > 1 || recorded.count <= 1 {   // the handler's walk went further (a corrupt stack pointer)
            inner = unwound
        }
        var frames = inner.enumerated().map { symbolicated(index: $0.offset, address: $0.element.address, trust: $0.element.trust, modules: modules) }
        let outer = Self.frameList(map.array(SEAM_DK_OUTER_FRAMES))
        var elided: Int?
        if !outer.isEmpty, let total = map.uint64(SEAM_DK_FRAME_COUNT).map({ Int(clamping: $0) }) {
            // The handler's frame-pointer walk counted `total`; its outermost frames close the list.
            let firstOuter = max(total - outer.count, frames.count)
            elided = max(0, firstOuter - frames.count)
            frames += outer.enumerated().map { symbolicated(index: firstOuter + $0.offset, address: $0.element.address, trust: $0.element.trust, modules: modules) }
        }
        var thread = CrashReport.CrashedThread(id: map.uint64(SEAM_DK_THREAD_ID), name: map.string(SEAM_DK_THREAD_NAME),
                                               architecture: map.string(SEAM_DK_ARCHITECTURE), registers: registers.mapValues(hex),
                                               frames: frames, framesElided: elided)
        let async = Self.frameList(map.array(SEAM_DK_ASYNC_FRAMES))
        if !async.isEmpty {
            thread.asyncFrames = async.enumerated().map { symbolicated(index: $0.offset, address: $0.element.address, trust: $0.element.trust, modules: modules) }
        }
        return thread
    }

    /// A THREADS element: names always; registers and frames when the thread recorded its context.
    private func otherThread(_ map: DumpMap, modules: [Symbolicator.Module], symbolModules: [Symbolicator.Module]) -> CrashReport.Thread? {
        guard var thread = Self.thread(map) else { return nil }
        guard let status = map.uint64(SEAM_DK_CONTEXT_STATUS).map({ UInt32(truncatingIfNeeded: $0) }) else { return thread }
        thread.context = Self.contextName(status)
        let registers = Self.registerValues(map)
        guard !registers.isEmpty else { return thread }
        let frames = unwinder.unwind(thread: map, registers: registers, modules: symbolModules) ?? []
        thread.frames = frames.enumerated().map { symbolicated(index: $0.offset, address: $0.element.address, trust: $0.element.trust, modules: modules) }
        return thread
    }

    private func symbolicated(index: Int, address: UInt64, trust: UInt32, modules: [Symbolicator.Module]) -> CrashReport.Frame {
        var result = CrashReport.Frame(index: index, address: hex(address), trust: Self.trustName(trust))
        guard let module = symbolicator.module(containing: address, in: modules) else { return result }
        // Dumps of one program repeat their addresses (every thread's, every dump's): resolve once.
        let key = FrameKey(path: module.path, bias: module.bias, address: address, trust: trust)
        if var known = resolved.frames[key] {
            known.index = index
            return known
        }
        result.module = module.path
        result.moduleOffset = hex(address &- module.bias)
        // A resume function is an entry point, not a return address.
        let isReturn = trust != SEAM_FRAME_TRUST_CONTEXT.rawValue && trust != SEAM_FRAME_TRUST_ASYNC.rawValue
        if let resolution = symbolicator.resolve(address, in: module, isReturnAddress: isReturn) {
            result.function = resolution.function
            result.mangledFunction = resolution.mangled
            result.functionOffset = resolution.offset
        }
        resolved.frames[key] = result
        return result
    }

    private static func registerValues(_ map: DumpMap) -> [String: UInt64] {
        var registers: [String: UInt64] = [:]
        for register in map.array(SEAM_DK_REGISTERS) {
            if let name = register.string(SEAM_DK_REGISTER_NAME), let value = register.uint64(SEAM_DK_REGISTER_VALUE) {
                registers[name] = value
            }
        }
        return registers
    }

    private static func frameList(_ maps: [DumpMap]) -> [StackUnwinder.Frame] {
        maps.compactMap { frame in
            frame.uint64(SEAM_DK_FRAME_ADDRESS).map {
                StackUnwinder.Frame(address: $0, trust: frame.uint64(SEAM_DK_FRAME_TRUST).map { UInt32(truncatingIfNeeded: $0) } ?? 0)
            }
        }
    }

    private static func fatalErrorMessage(_ root: DumpMap) -> String? {
        guard let text = root.string(SEAM_DK_FATAL_ERROR_MESSAGE) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The words libstdc++'s verbose terminate handler prints.
    private static func terminateMessage(_ exception: CrashReport.Exception?) -> String {
        guard let exception else { return "terminate called without an active exception" }
        var message = "terminate called after throwing an instance of '\(exception.type)'"
        if let what = exception.what { message += "\n  what():  \(what)" }
        return message
    }

    /// Report names of the dump's context statuses and frame trusts.
    private static let contextNames: [UInt32: String] = [
        SEAM_CONTEXT_CAPTURED.rawValue: "captured", SEAM_CONTEXT_CRASHED.rawValue: "crashed",
        SEAM_CONTEXT_NO_ANSWER.rawValue: "no_answer", SEAM_CONTEXT_NOT_ASKED.rawValue: "not_asked",
        SEAM_CONTEXT_SIGNAL_BLOCKED.rawValue: "signal_blocked",
    ]
    private static let trustNames: [UInt32: String] = [
        SEAM_FRAME_TRUST_CONTEXT.rawValue: "context", SEAM_FRAME_TRUST_FRAME_POINTER.rawValue: "frame_pointer",
        SEAM_FRAME_TRUST_SCAN.rawValue: "scan", SEAM_FRAME_TRUST_LINK_REGISTER.rawValue: "link_register",
        SEAM_FRAME_TRUST_CFI.rawValue: "cfi", SEAM_FRAME_TRUST_ASYNC.rawValue: "async",
    ]

    private static func contextName(_ status: UInt32) -> String { contextNames[status] ?? "unknown" }

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

    private static func trustName(_ trust: UInt32) -> String { trustNames[trust] ?? "unknown" }

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
