/// One file analysed: its model, its suppressions, its parse errors and the file rules' typed
/// findings. lint (and report, which runs lint) and fix (planning, and verifying over the edited
/// contents) all make it the same way: a front end's model handed to `FileRules.analyze`.
struct AnalyzedFile {
    let model: FileModel
    let suppressions: Suppressions
    /// The parse's errors (libclang's error diagnostics; SwiftParser's missing and unexpected
    /// syntax), read when asked for (fix's verification compares them; lint reports none).
    let diagnostics: [ParseDiagnostic]
    /// The file rules' findings, suppressions not applied.
    let findings: [Finding]
}

/// A parse error: its message and, when it lies in the parsed file itself, its byte offset there;
/// when it lies in another file (an included header), that file's name and line (`Bridge.h:3`).
struct ParseDiagnostic: Hashable, Sendable {
    let message: String
    let offset: Int?
    var elsewhere: String? = nil
    /// The path of the file the error lies in, when it is not the file itself.
    var elsewherePath: String? = nil
}

/// The file rules the configuration enables, each bound to its options and severity.
struct FileRules {
    private let checks: [(id: String, check: (FileModel) -> [Finding])]

    /// `except`: rules not run (fix's verification leaves out those its edits are meant to change).
    init(configuration: Configuration, except: Set<String> = []) {
        checks = RuleRegistry.fileRules.compactMap { rule in
            guard !except.contains(rule.id), let severity = configuration.severity(of: rule.id) else { return nil }
            return (rule.id, rule.bound(to: configuration, severity: severity))
        }
    }

    var isEmpty: Bool { checks.isEmpty }

    /// The rules' ids, in rule order.
    var ids: [String] { checks.map(\.id) }

    /// The findings of the rule `id` over the model (none when it is not one of these rules).
    func findings(_ model: FileModel, rule id: String) -> [Finding] {
        checks.first { $0.id == id }.map { $0.check(model) } ?? []
    }

    /// The file rules' findings over the model, in rule order.
    func findings(_ model: FileModel) -> [Finding] {
        var findings: [Finding] = []
        for (_, check) in checks { findings += check(model) }
        return findings
    }

    /// The file analysed: the rules run over its model, its suppression directives read.
    func analyze(_ model: FileModel, diagnostics: [ParseDiagnostic] = []) -> AnalyzedFile {
        AnalyzedFile(
            model: model, suppressions: Suppressions(comments: model.comments, buffer: model.buffer),
            diagnostics: diagnostics, findings: findings(model))
    }
}
