import CrashRuntime
import Foundation

/// Builds a `CrashReport` from a dump's `ProcessSnapshot`, symbolicating every thread's frames.
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

    func report(for snapshot: ProcessSnapshot, fileName: String) -> CrashReport {
        var reasons = snapshot.incompleteReason.map { [$0] } ?? []
        if let nested = snapshot.nestedSignal {
            reasons.append(
                "the handler was interrupted by signal \(nested) (\(SignalNames.name(Int(truncatingIfNeeded: nested)))) and wrote a minimal dump"
            )
        }
        let signal = snapshot.signal.map(Self.signal)
        if signal == nil && snapshot.handlerEntryNanoseconds == nil {
            reasons.append(
                "the process died without a clean exit and its crash handler never ran (killed, for example by SIGKILL or the out-of-memory killer, or a crash that no handler could run for)"
            )
        } else if signal == nil {
            reasons.append("no signal section")
        }
        let modules = snapshot.modules.map(Self.module)
        let symbolModules = modules.map(symbolicator.readingSymbols) // CFI from the file that is the recorded build
        let crashedMemory = snapshot.threads.first { $0.crashed }
        let thread = snapshot.crashedThread.map {
            crashedThread($0, memory: crashedMemory, modules: modules, symbolModules: symbolModules)
        }
        if thread == nil && signal != nil { reasons.append("no crashed-thread section") }
        let exception = snapshot.exception.flatMap(Self.exception)
        let usedModules = Set(thread?.frames.compactMap(\.module) ?? [])
        var duration: UInt64?
        if let entry = snapshot.handlerEntryNanoseconds, let exit = snapshot.handlerExitNanoseconds, exit >= entry {
            duration = exit - entry
        }
        return CrashReport(
            dumpFile: fileName,
            dumpFormatVersion: snapshot.formatVersion,
            incomplete: !reasons.isEmpty,
            incompleteReasons: reasons,
            crashTime: snapshot.crashTimeSeconds.map {
                Self.iso8601($0, nanoseconds: snapshot.crashTimeNanoseconds ?? 0)
            },
            handlerDurationNs: duration,
            process: .init(
                pid: snapshot.pid, parentPid: snapshot.parentPID, executable: snapshot.executable,
                installTime: snapshot.installTimeSeconds.map { Self.iso8601($0, nanoseconds: 0) }),
            signal: signal,
            exception: exception,
            fatalErrorMessage: Self.fatalErrorMessage(snapshot.fatalErrorMessage),
            terminateMessage: snapshot.terminateCalled ? Self.terminateMessage(exception) : nil,
            crashedThread: thread,
            threads: snapshot.threads.compactMap { otherThread($0, modules: modules, symbolModules: symbolModules) },
            modules: modules.map { module in
                CrashReport.Module(
                    path: module.path, buildId: module.buildID.map(Self.hexBytes), base: hex(module.bias),
                    start: hex(module.start), end: hex(module.end),
                    symbols: usedModules.contains(module.path) ? symbolicator.status(of: module) : "not_used",
                    symbolsSource: usedModules.contains(module.path) ? symbolicator.symbolsSource(of: module) : nil)
            },
            system: snapshot.system,
            annotations: snapshot.annotations)
    }

    private func crashedThread(
        _ snapshot: ProcessSnapshot.Thread, memory: ProcessSnapshot.Thread?,
        modules: [Symbolicator.Module], symbolModules: [Symbolicator.Module]
    ) -> CrashReport.CrashedThread {
        let registers = snapshot.registers
        // Unwound again from the captured stack memory when there is some: CFI where the module
        // has it, so no stale scanned words; the handler's own walk otherwise, also when it went
        // further (a corrupt stack pointer leaves processing only the first frame).
        var inner = snapshot.frames
        if let memory, let unwound = unwinder.unwind(thread: memory, registers: registers, modules: symbolModules),
            !unwound.isEmpty,
            unwound.count > 1 || inner.count <= 1
        {
            inner = unwound
        }
        var indexed = inner.enumerated().map { (index: $0.offset, frame: $0.element) }
        let outer = snapshot.outerFrames
        var elided: Int?
        if !outer.isEmpty, let total = snapshot.frameCount.map({ Int(clamping: $0) }) {
            // The handler's frame-pointer walk counted `total`; its outermost frames close the list.
            let firstOuter = max(total - outer.count, inner.count)
            elided = max(0, firstOuter - inner.count)
            indexed += outer.enumerated().map { (index: firstOuter + $0.offset, frame: $0.element) }
        }
        var thread = CrashReport.CrashedThread(
            id: snapshot.id, name: snapshot.name,
            architecture: snapshot.architecture, registers: registers.mapValues(hex),
            frames: frames(indexed, modules: modules), framesElided: elided)
        if !snapshot.asyncFrames.isEmpty {
            thread.asyncFrames = frames(
                snapshot.asyncFrames.enumerated().map { (index: $0.offset, frame: $0.element) }, modules: modules)
        }
        return thread
    }

    /// A THREADS element: names always; registers and frames when the thread recorded its context.
    private func otherThread(
        _ snapshot: ProcessSnapshot.Thread, modules: [Symbolicator.Module],
        symbolModules: [Symbolicator.Module]
    ) -> CrashReport.Thread? {
        guard let id = snapshot.id else { return nil }
        var thread = CrashReport.Thread(id: id, name: snapshot.name ?? "", crashed: snapshot.crashed)
        guard let status = snapshot.contextStatus else { return thread }
        thread.context = Self.contextName(status)
        let registers = snapshot.registers
        guard !registers.isEmpty else { return thread }
        let unwound = unwinder.unwind(thread: snapshot, registers: registers, modules: symbolModules) ?? []
        thread.frames = frames(unwound.enumerated().map { (index: $0.offset, frame: $0.element) }, modules: modules)
        return thread
    }

    /// One thread's frames: each frame's function, then file, line and column from the module's
    /// DWARF, all of the thread's frames in one `Runtime` lookup, with the functions inlined at a
    /// frame inserted before it (`inlined: true`, same index and address). Only modules whose
    /// file matches the recorded build ID are read.
    private func frames(_ list: [(index: Int, frame: ProcessSnapshot.Frame)], modules: [Symbolicator.Module])
        -> [CrashReport.Frame]
    {
        let frames = list.map {
            symbolicated(index: $0.index, address: $0.frame.address, trust: $0.frame.trust, modules: modules)
        }
        let requests = list.map { item -> SourceLocator.Request? in
            guard let module = symbolicator.module(containing: item.frame.address, in: modules) else { return nil }
            let kind: SourceLocator.Kind
            switch item.frame.trust {
            case SEAM_FRAME_TRUST_CONTEXT.rawValue: kind = .programCounter
            case SEAM_FRAME_TRUST_ASYNC.rawValue: kind = .asyncResumePoint
            default: kind = .returnAddress
            }
            return SourceLocator.Request(address: item.frame.address, kind: kind, module: module)
        }
        let located = symbolicator.sourceEntries(for: requests)
        var result: [CrashReport.Frame] = []
        result.reserveCapacity(frames.count)
        for (frame, entries) in zip(frames, located) {
            for entry in entries where entry.inlined {
                var inlined = frame
                let readable = Demangler.function(entry.rawName)
                inlined.function = readable ?? entry.rawName
                inlined.mangledFunction = readable == nil ? nil : entry.rawName
                inlined.functionOffset = nil
                inlined.file = entry.file
                inlined.line = entry.line
                inlined.column = entry.column
                inlined.inlined = true
                result.append(inlined)
            }
            var located = frame
            if let concrete = entries.last(where: { !$0.inlined }) {
                located.file = concrete.file
                located.line = concrete.line
                located.column = concrete.column
            }
            result.append(located)
        }
        return result
    }

    private func symbolicated(index: Int, address: UInt64, trust: UInt32, modules: [Symbolicator.Module])
        -> CrashReport.Frame
    {
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

    private static func fatalErrorMessage(_ text: String?) -> String? {
        guard let text else { return nil }
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

    private static func signal(_ signal: ProcessSnapshot.Signal) -> CrashReport.Signal {
        let number = Int(truncatingIfNeeded: signal.number)
        let code = Int(Int32(truncatingIfNeeded: signal.code ?? 0))
        return CrashReport.Signal(
            number: number, name: SignalNames.name(number), code: code,
            codeName: SignalNames.codeName(signal: number, code: code),
            address: signal.address.map(hex), senderPid: signal.senderPID)
    }

    private static func exception(_ exception: ProcessSnapshot.Exception) -> CrashReport.Exception? {
        guard let mangled = exception.mangledType else { return nil }
        return CrashReport.Exception(type: Demangler.cxxType(mangled), mangledType: mangled, what: exception.what)
    }

    private static func module(_ module: ProcessSnapshot.Module) -> Symbolicator.Module {
        Symbolicator.Module(
            path: module.path ?? "", bias: module.bias ?? 0, start: module.start ?? 0, end: module.end ?? 0,
            buildID: module.buildID)
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
        let clamped = min(seconds, 253_402_300_799) // year 9999: keeps Date formatting sane
        let date = Date(timeIntervalSince1970: Double(clamped) + Double(min(nanoseconds, 999_999_999)) / 1e9)
        return timestampFormatter.string(from: date)
    }

    private static let timestampFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
