extension CrashReport {
    /// This report with file, line and column on the crashed thread's frames whose modules carry
    /// DWARF, and the functions inlined at each such frame inserted before it (`inlined: true`,
    /// same index and address). Only modules whose file on disk matches the recorded build ID
    /// are read.
    func withSourceLocations(_ symbolicator: Symbolicator) -> CrashReport {
        guard var thread = crashedThread else { return self }
        var modules: [String: Symbolicator.Module?] = [:]   // only the frames' modules, parsed once each
        func module(_ path: String) -> Symbolicator.Module? {
            if let known = modules[path] { return known }
            let found = self.modules.first { $0.path == path }.flatMap(Symbolicator.Module.init(report:))
            modules[path] = found
            return found
        }
        var frames: [Frame] = []
        for frame in thread.frames {
            guard let path = frame.module, let module = module(path), let address = UInt64(hex: frame.address) else {
                frames.append(frame)
                continue
            }
            let entries = symbolicator.sourceEntries(at: address, in: module, isReturnAddress: frame.trust != "context")
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
                frames.append(inlined)
            }
            var located = frame
            if let concrete = entries.last(where: { !$0.inlined }) {
                located.file = concrete.file
                located.line = concrete.line
                located.column = concrete.column
            }
            frames.append(located)
        }
        thread.frames = frames
        var result = self
        result.crashedThread = thread
        return result
    }

    /// This report with the distribution (from the system info the capture recorded) and the
    /// app's `release` annotation.
    func withIdentity() -> CrashReport {
        var result = self
        let os = OperatingSystem(name: system["os.distribution"], id: system["os.distribution.id"],
                                 version: system["os.distribution.version"], kernel: system["os.release"])
        if os.name != nil || os.id != nil || os.version != nil || os.kernel != nil { result.os = os }
        if let release = annotations["release"] { result.app = App(release: release) }
        return result
    }
}

extension Symbolicator.Module {
    /// The module as a report lists it; nil when its addresses are missing.
    init?(report module: CrashReport.Module) {
        guard let bias = UInt64(hex: module.base), let start = module.start.flatMap({ UInt64(hex: $0) }),
              let end = module.end.flatMap({ UInt64(hex: $0) }) else { return nil }
        self.init(path: module.path, bias: bias, start: start, end: end, buildID: module.buildId.flatMap(Self.bytes(hex:)))
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }
}

extension UInt64 {
    /// Parses the report's "0x…" form.
    init?(hex text: String) {
        guard text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) else { return nil }
        self = value
    }
}
