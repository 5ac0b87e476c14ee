import ArgumentParser
import DILintEngine

/// `di-lint rules [ID]`: list the rules, or show one rule's documentation.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the rules, or show one rule's documentation, examples and fix.",
        discussion: """
            Examples:
              di-lint rules                       # id, default severity, fix phase, summary
              di-lint rules container-access      # rationale, options, examples, fix examples
              di-lint rules --format markdown     # the catalog as docs/rules.md holds it
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, markdown }

    @Argument(help: ArgumentHelp("A rule id to describe.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("text, or markdown (every rule in full, for the docs).", valueName: "format"))
    var format: Format = .text

    /// The config keys the parser accepts, one a line (the docs check compares them with the reference).
    @Flag(help: .hidden)
    var configKeys = false

    func run() throws {
        if configKeys { return try StandardStreams.writeOutput(Configuration.acceptedKeys.map { $0 + "\n" }.joined()) }
        try StandardStreams.writeOutput(format == .markdown ? try markdown() : try text())
    }

    private static func fixColumn(_ id: String) -> String {
        RuleCatalog.fixPhase(of: id).map { "fix: \($0.rawValue)" } ?? "-"
    }

    private func selected() throws -> [RuleDescription] {
        let catalog = RuleCatalog.shared
        guard let id else { return catalog.rules }
        guard let rule = catalog.rule(id) else {
            throw ValidationError("unknown rule '\(id)' (known: \(catalog.ids.joined(separator: ", ")))")
        }
        return [rule]
    }

    /// The list of rules, or the one rule's documentation.
    private func text() throws -> String {
        let catalog = RuleCatalog.shared
        guard id != nil else {
            let width = catalog.rules.map(\.id.count).max() ?? 0
            func pad(_ s: String, _ n: Int) -> String {
                s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0)
            }
            return pad("RULE", width) + " " + pad("DEFAULT", 8) + " " + pad("FIX", 11) + " SUMMARY\n"
                + catalog.rules.map { rule in
                    pad(rule.id, width) + " " + pad(rule.defaultSeverity.rawValue, 8) + " "
                        + pad(Self.fixColumn(rule.id), 11) + " " + rule.summary + "\n"
                }.joined()
        }
        let rule = try selected()[0]
        func indented(_ code: String) -> String {
            code.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "\n" : "    " + $0 + "\n" }
                .joined()
        }
        func examples(_ title: String, _ list: [RuleExample]) -> String {
            list.isEmpty
                ? ""
                : "\(title):\n"
                    + list.enumerated().map { i, e in
                        (i > 0 ? "    ---\n" : "")
                            + (e.config.map {
                                "    # config: "
                                    + $0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
                                        of: "\n", with: "\n    #         ") + "\n"
                            } ?? "")
                            + indented(e.code.trimmingCharacters(in: .newlines))
                    }.joined() + "\n"
        }
        var out =
            "\(rule.id) (\(rule.defaultSeverity.rawValue); \(Self.fixColumn(rule.id) == "-" ? "no fix" : Self.fixColumn(rule.id))): \(rule.summary)\n\n"
            + rule.rationale.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n"
            + "Prevents: \(rule.pitfall)\n\n"
        if !rule.options.isEmpty {
            out +=
                "Config (rules: \(rule.id): {option: value}):\n"
                + rule.options.map { "  \($0.name) (default \($0.defaultValue)): \($0.summary)\n" }.joined() + "\n"
        }
        if !rule.exampleConfig.isEmpty { out += "Examples are linted with:\n" + indented(rule.exampleConfig) + "\n" }
        out += examples("Triggering", rule.triggering) + examples("Not triggering", rule.nonTriggering)
        for (i, fix) in rule.fixExamples.enumerated() {
            out +=
                "Fix example \(i + 1) (di-lint fix --phase \(fix.phase.rawValue), \(fix.language.rawValue)\(fix.fileName.map { ", " + $0 } ?? "")):\n"
            if let config = fix.config { out += "  config:\n" + indented(config.trimmingCharacters(in: .newlines)) }
            out +=
                "  before:\n" + indented(fix.before.trimmingCharacters(in: .newlines))
                + "  after:\n" + indented(fix.after.trimmingCharacters(in: .newlines)) + "\n"
        }
        return out
    }

    /// Every rule (or the one) in full, as Markdown.
    private func markdown() throws -> String {
        func fence(_ code: String, _ language: SourceLanguage) -> String {
            let tag: String
            switch language {
            case .swift: tag = "swift"
            case .c: tag = "c"
            case .cxx: tag = "cpp"
            default: tag = "objc"
            }
            return "```\(tag)\n" + code.trimmingCharacters(in: .newlines) + "\n```\n"
        }
        func yaml(_ text: String) -> String { "```yaml\n" + text.trimmingCharacters(in: .newlines) + "\n```\n" }
        func oneLine(_ s: String) -> String { s.split(whereSeparator: \.isNewline).joined(separator: " ") }
        let rules = try selected()
        var out = ""
        if id == nil {
            out +=
                "# Rules\n\n<!-- Generated by `di-lint rules --format markdown` from Rules/*.yml. Do not edit; scripts/check-docs compares. -->\n\n"
                + "`di-lint rules` lists them; `di-lint rules ID` shows one. Set a rule's severity or options under `rules:` in `.di-lint.yml` ([configuration](configuration.md)).\n\n"
                + "| rule | default | fix | summary |\n|---|---|---|---|\n"
                + rules.map {
                    "| [`\($0.id)`](#\($0.id)) | \($0.defaultSeverity.rawValue) | \(RuleCatalog.fixPhase(of: $0.id).map { "`--phase \($0.rawValue)`" } ?? "—") | \(oneLine($0.summary)) |\n"
                }.joined()
                + "\n"
        }
        for rule in rules {
            out += "## \(rule.id)\n\n"
            out +=
                "\(oneLine(rule.summary)). Default severity: \(rule.defaultSeverity.rawValue). "
                + (RuleCatalog.fixPhase(of: rule.id).map { "Fixed by `di-lint fix --phase \($0.rawValue)`." }
                    ?? "No fix.") + "\n\n"
            out += rule.rationale.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n"
            out +=
                "Prevents: "
                + oneLine(rule.pitfall).replacingOccurrences(
                    of: "docs/migration-pitfalls.md", with: "migration-pitfalls.md") + "\n\n"
            if !rule.options.isEmpty {
                out +=
                    "| option | default | what |\n|---|---|---|\n"
                    + rule.options.map { "| `\($0.name)` | `\($0.defaultValue)` | \(oneLine($0.summary)) |\n" }.joined()
                    + "\n"
            }
            if !rule.exampleConfig.isEmpty { out += "Examples are linted with:\n\n" + yaml(rule.exampleConfig) + "\n" }
            out +=
                "Triggering (`↓` marks the finding):\n\n"
                + rule.triggering.map { fence($0.code, $0.language) }.joined(separator: "\n") + "\n"
            out +=
                "Not triggering:\n\n" + rule.nonTriggering.map { fence($0.code, $0.language) }.joined(separator: "\n")
                + "\n"
            for fix in rule.fixExamples {
                out += "Fix, `--phase \(fix.phase.rawValue)`\(fix.fileName.map { " (`\($0)`)" } ?? ""):\n\n"
                if let config = fix.config { out += yaml(config) + "\n" }
                out +=
                    "Before:\n\n" + fence(fix.before, fix.language) + "\nAfter:\n\n" + fence(fix.after, fix.language)
                    + "\n"
            }
        }
        return out
    }
}
