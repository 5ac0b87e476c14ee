/// Lints one Swift file: the Swift rules, facts for project rules that read Swift, and the
/// file's suppression comments, in the same `FileOutcome` the C side produces.
enum SwiftFrontEnd {
    static func outcome(displayPath: String, bytes: [UInt8], configuration: Configuration, projectRules: [ProjectRule]) -> FileOutcome {
        let file = SwiftSourceFile(bytes: bytes)
        let accesses = SwiftContainerAccessFinder(configuration: configuration).find(in: file.tree, displayPath: displayPath)
        let context = SwiftFileContext(file: file, displayPath: displayPath, configuration: configuration, accesses: accesses)
        var outcome = FileOutcome(parsed: true)
        outcome.accesses = accesses.map { a in
            let (line, column) = file.buffer.lineColumn(of: a.offset)
            return AccessRecord(path: displayPath, line: line, column: column, access: a.access)
        }
        for rule in swiftFileRules {
            if let severity = configuration.severity(of: rule.id) { outcome.findings += rule.check(context, severity: severity) }
        }
        DeclarationScopes.attach(to: &outcome.findings, tree: file.tree, buffer: file.buffer)
        for rule in projectRules {
            if let collector = rule as? SwiftFactsCollector { outcome.facts[rule.id] = collector.collect(context) }
        }
        outcome.suppressions = Suppressions(comments: file.comments, buffer: file.buffer)
        return outcome
    }
}
