/// `parse-failure`: a file di-lint could not lint (unreadable, binary, too large, too deep for
/// libclang), reported with the reason so that nothing is skipped silently.
struct ParseFailureRule: EngineRule {
    static let id = "parse-failure"

    func finding(path: String, reason: String, severity: Severity) -> Finding {
        Finding(rule: id, path: path, line: 1, column: 1, severity: severity, message: "file not linted: \(reason)")
    }
}
