import ArgumentParser
import DILintEngine

/// `di-lint rules [ID]`: list the rules, or show one rule's documentation.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the rules, or show one rule's documentation and examples.")

    @Argument(help: "A rule id to describe.")
    var id: String?

    func run() throws {
        try StandardStreams.writeOutput(try text())
    }

    /// The list of rules, or the one rule's documentation.
    private func text() throws -> String {
        let catalog = RuleCatalog.shared
        guard let id else {
            let width = catalog.rules.map(\.id.count).max() ?? 0
            return catalog.rules.map { rule in
                "\(rule.id.padding(toLength: width, withPad: " ", startingAt: 0)) \(rule.defaultSeverity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary)\n"
            }.joined()
        }
        guard let rule = catalog.rule(id) else {
            throw ValidationError("unknown rule '\(id)' (known: \(catalog.ids.joined(separator: ", ")))")
        }
        func indented(_ code: String) -> String { code.split(separator: "\n").map { "    " + $0 + "\n" }.joined() }
        return "\(rule.id) (\(rule.defaultSeverity.rawValue)): \(rule.summary)\n\n"
            + rule.rationale + "\n\n"
            + "Prevents: \(rule.pitfall)\n\n"
            + rule.options.map { "option \($0.name) (default \($0.defaultValue)): \($0.summary)\n" }.joined()
            + "Triggering:\n" + rule.triggering.map { indented($0.code) }.joined()
            + "Not triggering:\n" + rule.nonTriggering.map { indented($0.code) }.joined()
    }
}
