/// `unused-suppression`: a suppression that suppresses nothing, names an unknown rule, or cannot
/// be understood (malformed directives carry their own problem as the message).
struct UnusedSuppressionRule: EngineRule {
    static let id = "unused-suppression"

    func message(rules: String, unknown: [String]) -> String {
        let why =
            unknown.isEmpty ? "suppresses no finding" : "names unknown rule '\(unknown.joined(separator: "', '"))'"
        return "unused suppression of \(rules): it \(why)"
    }
}
