/// One C-family file as the fix sees it: its parse, its classified accesses, its suppressions,
/// its error diagnostics and the findings of the file rules (for the before/after comparison).
struct FixFileAnalysis {
    let path: String
    let file: ParsedFile
    let tokens: FixTokens
    let accesses: [LocatedAccess]
    let suppressions: Suppressions
    let errors: [String]
    /// `rule: message` of every file-rule finding, suppressions not applied.
    let findings: [String]

    init(path: String, file: ParsedFile, configuration: Configuration, finder: ContainerAccessFinder) {
        self.path = path
        self.file = file
        let tokens = FixTokens(file: file)
        let model = ClangFileModel(parsed: file, displayPath: path, configuration: configuration, finder: finder)
        accesses = model.accesses.map { a in
            guard a.enclosing == nil, let k = a.tokenIndex, let method = tokens.enclosingMethod(at: k) else { return a }
            var a = a
            a.enclosing = method
            return a
        }
        suppressions = Suppressions(comments: file.comments, buffer: file.buffer)
        errors = FixWorkspace.errorMessages(file)
        self.tokens = tokens
        findings = RuleRegistry.fileRules.flatMap { rule -> [Finding] in
            guard let severity = configuration.severity(of: rule.id) else { return [] }
            return rule.bound(to: configuration, severity: severity)(model)
        }.map { "\($0.rule): \($0.message)" }
    }

    /// Whether a `di-lint:` directive suppresses container findings on the access's line.
    func isSuppressed(_ access: LocatedAccess) -> Bool {
        var copy = suppressions
        let line = file.buffer.lineColumn(of: access.offset).line
        return copy.suppresses(rule: "container-access", line: line) || copy.suppresses(rule: "container-fallback", line: line)
    }

    func lineColumn(_ offset: Int) -> (line: Int, column: Int) { file.buffer.lineColumn(of: offset) }
}
