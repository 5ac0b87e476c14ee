/// GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` line per new finding,
/// which the runner turns into annotations on the pull request. Baselined findings are left out.
public struct GitHubReporter: Reporter {
    public init() {}

    public func render(_ result: LintResult) -> String {
        var text = ""
        for i in result.findings.indices where !result.findings[i].baselined {
            let severity = result.findings[i].severity
            text += severity == .error ? "::error " : severity == .warning ? "::warning " : "::notice "
            text += "file="
            text += Self.escapeProperty(result.findings[i].path)
            text += ",line="
            text += Self.escapeProperty(String(result.findings[i].line))
            text += ",col="
            text += Self.escapeProperty(String(result.findings[i].column))
            text += ",title="
            text += Self.escapeProperty("di-lint " + result.findings[i].rule)
            text += "::"
            text += Self.escapeData(result.findings[i].message)
            text += "\n"
        }
        return text
    }

    /// The message part: `%`, CR and LF are percent-encoded, as the runner decodes them.
    static func escapeData(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == 0x0D || $0 == 0x0A }) else { return s }
        return s.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: as data, plus `:` and `,`, which would end the value.
    static func escapeProperty(_ s: String) -> String {
        guard
            s.utf8.contains(where: {
                $0 == UInt8(ascii: "%") || $0 == 0x0D || $0 == 0x0A || $0 == UInt8(ascii: ":")
                    || $0 == UInt8(ascii: ",")
            })
        else {
            return s
        }
        return escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
