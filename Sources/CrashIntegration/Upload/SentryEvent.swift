import Foundation

/// A Sentry event (develop.sentry.dev/sdk/data-model/event-payloads) made from a Seam report:
/// the exception with its mechanism and symbolicated stack trace, threads, the loaded images
/// (`debug_meta`, so Sentry can symbolicate server-side too), OS and device contexts, release
/// and annotations as tags. With a minidump attached, Sentry builds the stack from the
/// minidump and keeps these fields.
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
            ("threads", .object([("values", .array(report.threads.map { thread in
                .object([("id", .unsigned(thread.id)), ("name", .string(thread.name)), ("crashed", .bool(thread.crashed)),
                         ("current", .bool(thread.crashed))])
            }))])),
            ("debug_meta", .object([("images", .array(report.modules.compactMap(image)))])),
            ("contexts", .object(contexts(report))),
            ("tags", .object(report.annotations.filter { $0.key != "release" && $0.key != "environment" }
                .map { ($0.key, .string($0.value)) })),
            ("extra", .object([("seam_dump_file", .string(report.dumpFile)),
                               ("seam_incomplete_reasons", .array(report.incompleteReasons.map { .string($0) }))])),
        ]
        if let time = report.crashTime { fields.append(("timestamp", .string(time))) }
        if let release = report.app?.release { fields.append(("release", .string(release))) }
        if let environment = report.annotations["environment"] { fields.append(("environment", .string(environment))) }
        return .object(fields)
    }

    private static func exception(_ report: CrashReport) -> ReportJSON.Value {
        var fields: [(String, ReportJSON.Value)] = []
        var mechanism: [(String, ReportJSON.Value)] = [("type", .string("signalhandler")), ("handled", .bool(false))]
        if let signal = report.signal {
            fields.append(("type", .string(report.exception?.type ?? signal.name)))
            let value = report.exception?.what ?? signal.codeName.map { "\(signal.name) / \($0)" } ?? signal.name
            fields.append(("value", .string(value + (signal.address.map { " at \($0)" } ?? ""))))
            var meta: [(String, ReportJSON.Value)] = [("number", .integer(Int64(signal.number))),
                                                      ("code", .integer(Int64(signal.code))), ("name", .string(signal.name))]
            if let codeName = signal.codeName { meta.append(("code_name", .string(codeName))) }
            mechanism.append(("meta", .object([("signal", .object(meta))])))
        } else {
            fields.append(("type", .string(report.exception?.type ?? "crash")))
        }
        fields.append(("mechanism", .object(mechanism)))
        if let thread = report.crashedThread {
            if let id = thread.id { fields.append(("thread_id", .unsigned(id))) }
            // Sentry lists frames outermost first.
            fields.append(("stacktrace", .object([("frames", .array(thread.frames.reversed().map(frame)))])))
        }
        return .object(fields)
    }

    private static func frame(_ frame: CrashReport.Frame) -> ReportJSON.Value {
        var fields: [(String, ReportJSON.Value)] = [("instruction_addr", .string(frame.address))]
        if let function = frame.function { fields.append(("function", .string(function))) }
        if let mangled = frame.mangledFunction { fields.append(("raw_function", .string(mangled))) }
        if let module = frame.module { fields.append(("package", .string(module))) }
        if let file = frame.file { fields.append(("filename", .string(file))) }
        if let line = frame.line { fields.append(("lineno", .integer(Int64(line)))) }
        if let column = frame.column { fields.append(("colno", .integer(Int64(column)))) }
        fields.append(("trust", .string(sentryTrust[frame.trust] ?? "prewalked")))
        return .object(fields)
    }

    /// Sentry's names for how a frame was found.
    private static let sentryTrust = ["context": "context", "frame_pointer": "fp", "scan": "scan"]

    private static func image(_ module: CrashReport.Module) -> ReportJSON.Value? {
        guard let start = module.start.flatMap({ UInt64(hex: $0) }), let end = module.end.flatMap({ UInt64(hex: $0) }) else { return nil }
        var fields: [(String, ReportJSON.Value)] = [("type", .string("elf")), ("code_file", .string(module.path)),
                                                    ("image_addr", .string(hex(start))), ("image_size", .unsigned(end &- start))]
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
        if let arch = report.crashedThread?.architecture ?? report.system["machine"] { device.append(("arch", .string(arch))) }
        return [("os", .object(os)), ("device", .object(device))]
    }
}
