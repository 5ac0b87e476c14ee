/// What a rule sees of one file.
struct FileContext {
    let file: ParsedFile
    let displayPath: String
    let configuration: Configuration
    /// Container accesses found in the file (shared by the rules that need them).
    let accesses: [LocatedAccess]

    func finding(rule: String, offset: Int, severity: Severity, message: String, access: ContainerAccess? = nil) -> Finding {
        let (line, column) = file.buffer.lineColumn(of: offset)
        return Finding(rule: rule, path: displayPath, line: line, column: column, severity: severity,
                       message: message, access: access,
                       snippet: file.buffer.lineText(line).trimmingCharacters(in: .whitespaces))
    }
}

/// A rule that looks at one file at a time. Its metadata lives in `Rules/<id>.yml`.
protocol FileRule {
    var id: String { get }
    func check(_ context: FileContext, severity: Severity) -> [Finding]
}

/// The file rules this build implements, by id. `RuleCatalogTests` checks they match `Rules/`.
let fileRules: [FileRule] = [ContainerAccessRule()]

/// Rules the engine itself reports (no per-file logic of their own).
enum EngineRuleID {
    static let parseFailure = "parse-failure"
    static let suppressionWithoutReason = "suppression-without-reason"
    static let unusedSuppression = "unused-suppression"
}
