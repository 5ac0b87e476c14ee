extension CrashReport {
    /// This report with the distribution (from the system info the capture recorded) and the
    /// app's `release` annotation.
    func withIdentity() -> CrashReport {
        var result = self
        let os = OperatingSystem(
            name: system["os.distribution"], id: system["os.distribution.id"],
            version: system["os.distribution.version"], kernel: system["os.release"])
        if os.name != nil || os.id != nil || os.version != nil || os.kernel != nil { result.os = os }
        if let release = annotations["release"] { result.app = App(release: release) }
        return result
    }
}

extension UInt64 {
    /// Parses the report's "0x…" form.
    init?(hex text: String) {
        guard text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) else { return nil }
        self = value
    }
}
