import Foundation

/// di-lint's version, reported in JSON/SARIF output and part of the cache key.
public enum DILintVersion {
    public static let current = "0.1.0"
}

/// Renders a run's findings in one output format.
public protocol Reporter {
    func render(_ result: LintResult) -> String
}

/// `path:line:col: severity: message [rule]`, one line per finding, as clang prints diagnostics.
public struct TextReporter: Reporter {
    public init() {}

    public func render(_ result: LintResult) -> String {
        result.findings.map { f in
            "\(f.path):\(f.line):\(f.column): \(f.severity.rawValue): \(f.message) [\(f.rule)]\n"
        }.joined()
    }

    /// The one-line summary printed on stderr.
    public static func summary(_ result: LintResult) -> String {
        let count = result.findings.count
        var parts = ["\(count) finding\(count == 1 ? "" : "s")"]
        if count > 0 { parts.append("(\(result.errorCount) error\(result.errorCount == 1 ? "" : "s"), \(result.warningCount) warning\(result.warningCount == 1 ? "" : "s"))") }
        parts.append("in \(result.filesChecked) file\(result.filesChecked == 1 ? "" : "s")")
        var extra = ["\(result.filesParsed) parsed"]
        if result.filesFailed > 0 { extra.append("\(result.filesFailed) not linted") }
        parts.append("(\(extra.joined(separator: ", ")))")
        parts.append(String(format: "in %.2f s", result.seconds))
        return "di-lint: " + parts.joined(separator: " ")
    }
}

/// The documented JSON object (see docs/json-output.md).
public struct JSONReporter: Reporter {
    public init() {}

    struct Document: Encodable {
        struct Tool: Encodable { let name = "di-lint"; let version = DILintVersion.current }
        struct Summary: Encodable {
            let files: Int, parsed: Int, notLinted: Int, findings: Int, errors: Int, warnings: Int, seconds: Double
        }
        struct Item: Encodable {
            let rule: String, path: String, line: Int, column: Int, severity: String, message: String
            let container: String?, accessor: String?, service: String?, kind: String?, viaMacro: String?

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(rule, forKey: .rule)
                try c.encode(path, forKey: .path)
                try c.encode(line, forKey: .line)
                try c.encode(column, forKey: .column)
                try c.encode(severity, forKey: .severity)
                try c.encode(message, forKey: .message)
                if let container {
                    try c.encode(container, forKey: .container)
                    try c.encode(accessor, forKey: .accessor)
                    try c.encode(service, forKey: .service) // null when the access reaches no service
                    try c.encode(kind, forKey: .kind)
                    try c.encodeIfPresent(viaMacro, forKey: .viaMacro)
                }
            }
            enum CodingKeys: String, CodingKey { case rule, path, line, column, severity, message, container, accessor, service, kind, viaMacro }
        }
        let tool = Tool()
        let summary: Summary
        let findings: [Item]
    }

    public func render(_ result: LintResult) -> String {
        let document = Document(
            summary: .init(files: result.filesChecked, parsed: result.filesParsed, notLinted: result.filesFailed,
                           findings: result.findings.count, errors: result.errorCount, warnings: result.warningCount,
                           seconds: (result.seconds * 1000).rounded() / 1000),
            findings: result.findings.map { f in
                .init(rule: f.rule, path: f.path, line: f.line, column: f.column, severity: f.severity.rawValue,
                      message: f.message, container: f.access?.container, accessor: f.access?.accessor,
                      service: f.access?.service, kind: f.access?.kind.rawValue, viaMacro: f.access?.viaMacro)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(document), as: UTF8.self) + "\n"
    }
}
