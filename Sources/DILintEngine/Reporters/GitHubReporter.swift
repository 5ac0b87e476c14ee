/// GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` line per new finding,
/// which the runner turns into annotations on the pull request. Baselined findings are left out.
public struct GitHubReporter: Reporter {
    public init() {}

    public func render(_ result: LintResult) -> String {
        result.findings.filter { !$0.baselined }.map { f in
            let command = f.severity == .error ? "error" : f.severity == .warning ? "warning" : "notice"
            let properties = [("file", f.path), ("line", "\(f.line)"), ("col", "\(f.column)"), ("title", "di-lint \(f.rule)")]
                .map { "\($0)=\(Self.escapeProperty($1))" }.joined(separator: ",")
            return "::\(command) \(properties)::\(Self.escapeData(f.message))\n"
        }.joined()
    }

    /// The message part: `%`, CR and LF are percent-encoded, as the runner decodes them.
    static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: as data, plus `:` and `,`, which would end the value.
    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
