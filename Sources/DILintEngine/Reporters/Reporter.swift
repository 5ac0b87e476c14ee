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
        // `path:line:col: severity: message [rule]`, appended field by field: no copy of a finding.
        var text: [UInt8] = []
        result.findings.withUnsafeBufferPointer { fs in
            for i in fs.indices {
                text += fs[i].path.utf8
                text.append(UInt8(ascii: ":"))
                text += String(fs[i].line).utf8
                text.append(UInt8(ascii: ":"))
                text += String(fs[i].column).utf8
                text += ": ".utf8
                text += fs[i].severity.rawValue.utf8
                text += ": ".utf8
                text += fs[i].message.utf8
                text += " [".utf8
                text += fs[i].rule.utf8
                text += "]\n".utf8
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The one-line summary printed on stderr.
    public static func summary(_ result: LintResult) -> String {
        let count = result.findings.count
        var parts = ["\(count) finding\(count == 1 ? "" : "s")"]
        if count > 0 {
            parts.append(
                "(\(result.errorCount) error\(result.errorCount == 1 ? "" : "s"), \(result.warningCount) warning\(result.warningCount == 1 ? "" : "s"))"
            )
        }
        parts.append("in \(result.filesChecked) file\(result.filesChecked == 1 ? "" : "s")")
        var extra = ["\(result.filesParsed) parsed"]
        if result.filesCached > 0 { extra.append("\(result.filesCached) from the cache") }
        if result.filesFailed > 0 { extra.append("\(result.filesFailed) not linted") }
        parts.append("(\(extra.joined(separator: ", ")))")
        parts.append(String(format: "in %.2f s", result.seconds))
        var line = "di-lint: " + parts.joined(separator: " ")
        if let n = result.handlerFunctionsReadPartly, n > 0 {
            line +=
                "; \(n) function\(n == 1 ? "" : "s") reached from crash-time handlers read only partly (signal-handler-safety cannot vouch for what it did not read)"
        }
        return line
    }
}

/// The documented JSON object (see docs/output-formats.md). `di-lint merge` reads it back.
public struct JSONReporter: Reporter {
    public init() {}

    struct Document: Codable {
        struct Tool: Codable { var name = "di-lint"; var version = DILintVersion.current }
        struct Summary: Codable {
            var files: Int, parsed: Int, notLinted: Int, cached: Int, findings: Int, errors: Int, warnings: Int
            /// Findings a baseline accepts, of `findings`; `newErrors` are the errors it does not.
            var baselined: Int, newErrors: Int, stale: Int
            var seconds: Double
            /// Functions reached from crash-time handlers read only partly; absent when
            /// `signal-handler-safety` did not run.
            var handlerFunctionsReadPartly: Int?
        }
        struct Item: Codable {
            var rule: String, path: String, line: Int, column: Int, severity: String, message: String
            var container: String?, accessor: String?, service: String?, kind: String?, viaMacro: String?
            var fingerprint: String?
            var baselined: Bool
            /// `lint --fixes`: the verified edits that fix the finding.
            var fix: FindingFix?

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
                try c.encodeIfPresent(fingerprint, forKey: .fingerprint)
                try c.encode(baselined, forKey: .baselined)
                try c.encodeIfPresent(fix, forKey: .fix)
            }
            enum CodingKeys: String, CodingKey {
                case rule, path, line, column, severity, message, container, accessor, service, kind, viaMacro,
                    fingerprint, baselined, fix
            }

            /// As `encode(to:)` through `JSONReporter`'s encoder, keys sorted; not for items with a fix.
            func write(to w: inout PrettyJSON) {
                w.element()
                w.beginObject()
                if container != nil {
                    w.key("accessor")
                    if let accessor { w.string(accessor) } else { w.null() }
                }
                w.key("baselined")
                w.bool(baselined)
                w.key("column")
                w.int(column)
                if let container {
                    w.key("container")
                    w.string(container)
                }
                if let fingerprint {
                    w.key("fingerprint")
                    w.string(fingerprint)
                }
                if container != nil {
                    w.key("kind")
                    if let kind { w.string(kind) } else { w.null() }
                }
                w.key("line")
                w.int(line)
                w.key("message")
                w.string(message)
                w.key("path")
                w.string(path)
                w.key("rule")
                w.string(rule)
                if container != nil {
                    w.key("service")
                    if let service { w.string(service) } else { w.null() }
                }
                w.key("severity")
                w.string(severity)
                if container != nil, let viaMacro {
                    w.key("viaMacro")
                    w.string(viaMacro)
                }
                w.endObject()
            }
        }
        var tool = Tool()
        var summary: Summary
        var findings: [Item]
        /// Baseline entries whose finding is gone.
        var stale: [BaselineEntry]

        init(summary: Summary, findings: [Item], stale: [BaselineEntry]) {
            self.summary = summary
            self.findings = findings
            self.stale = stale
        }

        /// Summary counts recomputed from the findings, with the given file counts.
        static func summary(
            findings: [Item], stale: Int, files: Int, parsed: Int, notLinted: Int, cached: Int, seconds: Double,
            handlerFunctionsReadPartly: Int? = nil
        ) -> Summary {
            Summary(
                files: files, parsed: parsed, notLinted: notLinted, cached: cached, findings: findings.count,
                errors: findings.filter { $0.severity == "error" }.count,
                warnings: findings.filter { $0.severity == "warning" }.count,
                baselined: findings.filter(\.baselined).count,
                newErrors: findings.filter { $0.severity == "error" && !$0.baselined }.count,
                stale: stale, seconds: (seconds * 1000).rounded() / 1000,
                handlerFunctionsReadPartly: handlerFunctionsReadPartly)
        }

        /// The document through `JSONEncoder`. Its numbers are finite (`seconds` is a run's
        /// measured time, or a shard's that `merge` checked), the only thing it could throw on.
        func rendered() -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try! encoder.encode(self), as: UTF8.self) + "\n"
        }

        /// `rendered()`'s text, the findings (but those with a fix) and the stale entries written
        /// by hand into what `JSONEncoder` writes for the rest: encoding a hundred thousand
        /// findings, or a million stale entries, through `Codable` cost more time and memory than
        /// linting them.
        func text() -> String {
            var document = self
            let findings = findings, stale = stale
            let fast = !findings.isEmpty && !findings.contains(where: { $0.fix != nil })
            if fast { document.findings = [] }
            document.stale = []
            var text = document.rendered()
            if fast {
                guard
                    let spliced = PrettyJSON.splice(
                        text, key: "findings", indent: 2, capacity: findings.count * 512,
                        write: { w in
                            for i in findings.indices { findings[i].write(to: &w) }
                        })
                else { return rendered() }
                text = spliced
            }
            if !stale.isEmpty {
                guard let spliced = BaselineEntry.splice(stale, into: text, indent: 2) else { return rendered() }
                text = spliced
            }
            return text
        }
    }

    func document(_ result: LintResult) -> Document {
        let items = result.findings.map { f in
            Document.Item(
                rule: f.rule, path: f.path, line: f.line, column: f.column, severity: f.severity.rawValue,
                message: f.message, container: f.access?.container, accessor: f.access?.accessor,
                service: f.access?.service, kind: f.access?.kind.rawValue, viaMacro: f.access?.viaMacro,
                fingerprint: f.fingerprint, baselined: f.baselined, fix: f.fix)
        }
        return Document(
            summary: Document.summary(
                findings: items, stale: result.staleBaselineEntries.count,
                files: result.filesChecked, parsed: result.filesParsed,
                notLinted: result.filesFailed, cached: result.filesCached, seconds: result.seconds,
                handlerFunctionsReadPartly: result.handlerFunctionsReadPartly),
            findings: items, stale: result.staleBaselineEntries)
    }

    public func render(_ result: LintResult) -> String {
        document(result).text()
    }
}
