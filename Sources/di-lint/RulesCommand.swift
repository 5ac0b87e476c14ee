import ArgumentParser
import DILintEngine

/// `di-lint rules [ID]`: list the rules, or show one rule's documentation.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the rules, or show one rule's documentation and examples.")

    @Argument(help: "A rule id to describe.")
    var id: String?

    func run() throws {
        let catalog = RuleCatalog.shared
        guard let id else {
            let width = catalog.rules.map(\.id.count).max() ?? 0
            for rule in catalog.rules {
                print("\(rule.id.padding(toLength: width, withPad: " ", startingAt: 0)) \(rule.defaultSeverity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary)")
            }
            return
        }
        guard let rule = catalog.rule(id) else {
            throw ValidationError("unknown rule '\(id)' (known: \(catalog.ids.joined(separator: ", ")))")
        }
        print("\(rule.id) (\(rule.defaultSeverity.rawValue)): \(rule.summary)\n")
        print(rule.rationale + "\n")
        print("Prevents: \(rule.pitfall)\n")
        for o in rule.options { print("option \(o.name) (default \(o.defaultValue)): \(o.summary)") }
        print("Triggering:")
        for e in rule.triggering { print(e.code.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")) }
        print("Not triggering:")
        for e in rule.nonTriggering { print(e.code.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")) }
    }
}
