/// `suppression-without-reason`: a `di-lint:` suppression that gives no `-- reason`.
struct SuppressionWithoutReasonRule: EngineRule {
    static let id = "suppression-without-reason"

    /// `rules` is the directive's rule list as written in messages (`a,b` or `all rules`).
    func message(rules: String) -> String {
        "suppression of \(rules) gives no reason; add ' -- why' after the rule list"
    }
}
