/// How the crash integration is set up.
public struct CrashIntegrationOptions {
    /// Holds pending crash dumps, the reporter's launch record and `sessions/`.
    public var dumpDirectory: String
    /// Attached to every crash dump (for example release and environment).
    public var annotations: [String: String]
    /// Also capture SIGTERM (off by default: it is usually a polite request to exit).
    public var catchSIGTERM: Bool
    /// Keep a copy of the program's own modules per build ID in `<dumpDirectory>/symbols`
    /// (`SymbolStore`), so crashes are symbolicated after the program is rebuilt or upgraded.
    public var keepSymbols: Bool

    public init(
        dumpDirectory: String, annotations: [String: String] = [:],
        catchSIGTERM: Bool = false, keepSymbols: Bool = true
    ) {
        self.dumpDirectory = dumpDirectory
        self.annotations = annotations
        self.catchSIGTERM = catchSIGTERM
        self.keepSymbols = keepSymbols
    }

    /// Rejects what C cannot carry: an empty directory, empty keys, NUL characters.
    func validate() throws {
        if dumpDirectory.isEmpty {
            throw CrashIntegrationError("CrashIntegrationOptions.dumpDirectory is empty")
        }
        if dumpDirectory.contains("\0") {
            throw CrashIntegrationError("CrashIntegrationOptions.dumpDirectory contains a NUL character")
        }
        for (key, value) in annotations where key.isEmpty || key.contains("\0") || value.contains("\0") {
            throw CrashIntegrationError(
                "CrashIntegrationOptions.annotations: key \"\(key)\" is empty or contains a NUL character")
        }
    }
}
