import Foundation

/// A Sentry event (develop.sentry.dev/sdk/data-model/event-payloads) made from a Seam report,
/// carrying what the report has: the exception (the fatal-error or terminate message as its
/// value, the signal in its mechanism) with the crashed thread's stack trace and registers;
/// every thread with its frames (function, module, file, line, `in_app` for the program's own
/// modules); the Swift async callers after the crashed thread's frames; the frames a very deep
/// stack left out as `frames_omitted`; the loaded images (`debug_meta`, so Sentry can
/// symbolicate server-side too), OS and device contexts, release and annotations as tags.
enum SentryEvent {
    /// 32 hex digits derived from the report id, so every retry of one report carries the same
    /// event id and Sentry drops duplicates.
    static func eventID(forReport id: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325, second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in id.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 1
        }
        return [first, second].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    static func json(_ report: CrashReport, eventID: String) -> ReportJSON.Value {
        var fields: [(String, ReportJSON.Value)] = [
            ("event_id", .string(eventID)), ("platform", .string("native")), ("level", .string("fatal")),
            ("logger", .string("seam-crash")),
            ("exception", .object([("values", .array([exception(report)]))])),
            ("threads", .object([("values", .array(threads(report)))])),
            ("debug_meta", .object([("images", .array(report.modules.compactMap(image)))])),
            ("contexts", .object(contexts(report))),
            (
                "tags",
                .object(
                    report.annotations.filter { $0.key != "release" && $0.key != "environment" }
                        .map { ($0.key, .string($0.value)) })
            ),
            (
                "extra",
                .object([
                    ("seam_dump_file", .string(report.dumpFile)),
                    ("seam_incomplete_reasons", .array(report.incompleteReasons.map { .string($0) })),
                ])
            ),
        ]
        if let time = report.crashTime { fields.append(("timestamp", .string(time))) }
        if let release = report.app?.release { fields.append(("release", .string(release))) }
        if let environment = report.annotations["environment"] { fields.append(("environment", .string(environment))) }
        return .object(fields)
    }

    private static func exception(_ report: CrashReport) -> ReportJSON.Value {
        var fields: [(String, ReportJSON.Value)] = []
        var mechanism: [(String, ReportJSON.Value)] = [("type", .string("signalhandler")), ("handled", .bool(false))]
        let message = report.fatalErrorMessage ?? report.terminateMessage ?? report.exception?.what
        if let signal = report.signal {
            fields.append(("type", .string(report.exception?.type ?? signal.name)))
            let description =
                (signal.codeName.map { "\(signal.name) / \($0)" } ?? signal.name)
                + (signal.address.map { " at \($0)" } ?? "")
            fields.append(("value", .string(message ?? description)))
            var meta: [(String, ReportJSON.Value)] = [
                ("number", .integer(Int64(signal.number))),
                ("code", .integer(Int64(signal.code))), ("name", .string(signal.name)),
            ]
            if let codeName = signal.codeName { meta.append(("code_name", .string(codeName))) }
            mechanism.append(("meta", .object([("signal", .object(meta))])))
            if message != nil { mechanism.append(("description", .string(description))) }
        } else {
            fields.append(("type", .string(report.exception?.type ?? "crash")))
            if let message { fields.append(("value", .string(message))) }
        }
        if let elided = report.crashedThread?.framesElided, elided > 0 {
            // Sentry's ingestion drops the stack trace's `frames_omitted`; the mechanism's data stays.
            mechanism.append(("data", .object([("frames_elided", .unsigned(UInt64(elided)))])))
        }
        fields.append(("mechanism", .object(mechanism)))
        if let thread = report.crashedThread {
            if let id = thread.id { fields.append(("thread_id", .unsigned(id))) }
            fields.append(("stacktrace", crashedStacktrace(thread, report)))
        }
        return .object(fields)
    }

    /// Every thread of the report with its stack trace; the crashed thread's is the exception's
    /// (frames, async callers, registers, omitted frames). A crashed thread the THREADS section
    /// lacks is added first.
    private static func threads(_ report: CrashReport) -> [ReportJSON.Value] {
        var values: [ReportJSON.Value] = []
        let crashedID = report.crashedThread?.id
        if let crashed = report.crashedThread, let id = crashed.id, !report.threads.contains(where: { $0.id == id }) {
            var fields: [(String, ReportJSON.Value)] = [("id", .unsigned(id))]
            if let name = crashed.name { fields.append(("name", .string(name))) }
            fields += [
                ("crashed", .bool(true)), ("current", .bool(true)), ("stacktrace", crashedStacktrace(crashed, report)),
            ]
            values.append(.object(fields))
        }
        for thread in report.threads {
            var fields: [(String, ReportJSON.Value)] = [
                ("id", .unsigned(thread.id)), ("name", .string(thread.name)),
                ("crashed", .bool(thread.crashed)), ("current", .bool(thread.crashed)),
            ]
            if let crashed = report.crashedThread, thread.id == crashedID || (crashedID == nil && thread.crashed) {
                fields.append(("stacktrace", crashedStacktrace(crashed, report)))
            } else if let frames = thread.frames, !frames.isEmpty {
                fields.append(("stacktrace", .object([("frames", .array(sentryFrames(frames, report)))])))
            }
            values.append(.object(fields))
        }
        return values
    }

    /// The crashed thread's frames then its async callers, outermost first as Sentry lists
    /// them, with its registers and, for a very deep stack, the left-out frames as
    /// `frames_omitted`: [start, end) of the places they would take in that list.
    private static func crashedStacktrace(_ thread: CrashReport.CrashedThread, _ report: CrashReport)
        -> ReportJSON.Value
    {
        let innermostFirst = thread.frames + (thread.asyncFrames ?? [])
        var fields: [(String, ReportJSON.Value)] = [("frames", .array(sentryFrames(innermostFirst, report)))]
        let frames = thread.frames
        if let elided = thread.framesElided, elided > 0,
            let firstOuter = frames.indices.dropFirst().first(where: { frames[$0].index > frames[$0 - 1].index + 1 })
        {
            // Reversed, the outer frames come first; the left-out ones follow the last of them.
            let start = innermostFirst.count - firstOuter
            fields.append(("frames_omitted", .array([.unsigned(UInt64(start)), .unsigned(UInt64(start + elided))])))
        }
        if !thread.registers.isEmpty {
            fields.append(
                ("registers", .object(thread.registers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return .object(fields)
    }

    /// Frames in Sentry's order, outermost first.
    private static func sentryFrames(_ innermostFirst: [CrashReport.Frame], _ report: CrashReport) -> [ReportJSON.Value]
    {
        let ownDirectory = report.process.executable.map { ($0 as NSString).deletingLastPathComponent + "/" }
        return innermostFirst.reversed().map { frame($0, ownDirectory: ownDirectory) }
    }

    private static func frame(_ frame: CrashReport.Frame, ownDirectory: String?) -> ReportJSON.Value {
        var fields: [(String, ReportJSON.Value)] = [("instruction_addr", .string(frame.address))]
        if let function = frame.function { fields.append(("function", .string(function))) }
        if let mangled = frame.mangledFunction { fields.append(("raw_function", .string(mangled))) }
        if let module = frame.module { fields.append(("package", .string(module))) }
        if let file = frame.file { fields.append(("filename", .string(file))) }
        if let line = frame.line { fields.append(("lineno", .integer(Int64(line)))) }
        if let column = frame.column { fields.append(("colno", .integer(Int64(column)))) }
        // The program's own modules: the executable and what lies beside it.
        let inApp = frame.module.map { module in ownDirectory.map { module.hasPrefix($0) } ?? false } ?? false
        fields.append(("in_app", .bool(inApp)))
        fields.append(("trust", .string(sentryTrust[frame.trust] ?? "prewalked")))
        return .object(fields)
    }

    /// Sentry's names for how a frame was found.
    private static let sentryTrust = ["context": "context", "frame_pointer": "fp", "scan": "scan"]

    private static func image(_ module: CrashReport.Module) -> ReportJSON.Value? {
        guard let start = module.start.flatMap({ UInt64(hex: $0) }), let end = module.end.flatMap({ UInt64(hex: $0) })
        else { return nil }
        var fields: [(String, ReportJSON.Value)] = [
            ("type", .string("elf")), ("code_file", .string(module.path)),
            ("image_addr", .string(hex(start))), ("image_size", .unsigned(end &- start)),
        ]
        if let buildID = module.buildId {
            fields.append(("code_id", .string(buildID)))
            if let debugID = debugID(buildID: buildID) { fields.append(("debug_id", .string(debugID))) }
        }
        return .object(fields)
    }

    /// Breakpad's debug identifier of an ELF file: the first 16 build ID bytes read as a GUID
    /// (first three fields little-endian).
    static func debugID(buildID: String) -> String? {
        let digits = Array(buildID.utf8)
        guard digits.count >= 32 else { return nil }
        func byte(_ index: Int) -> String { String(decoding: digits[index * 2..<index * 2 + 2], as: UTF8.self) }
        let order = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15]
        let hexDigits = order.map(byte).joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hexDigits.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    private static func contexts(_ report: CrashReport) -> [(String, ReportJSON.Value)] {
        var os: [(String, ReportJSON.Value)] = [("name", .string(report.os?.id ?? report.system["os.name"] ?? "Linux"))]
        if let version = report.os?.version { os.append(("version", .string(version))) }
        if let kernel = report.os?.kernel { os.append(("kernel_version", .string(kernel))) }
        if let pretty = report.os?.name { os.append(("raw_description", .string(pretty))) }
        var device: [(String, ReportJSON.Value)] = []
        if let arch = report.crashedThread?.architecture ?? report.system["machine"] {
            device.append(("arch", .string(arch)))
        }
        return [("os", .object(os)), ("device", .object(device))]
    }
}
