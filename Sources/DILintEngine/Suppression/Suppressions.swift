/// `di-lint:` directives found in a file's comments.
///
///     // di-lint:disable-next-line container-access -- built before the bridge exists
///     // di-lint:disable-line RULE -- reason
///     // di-lint:disable RULE[,RULE] -- reason   …   // di-lint:enable RULE
///
/// No rule list (or `all`) means every rule. A reason after ` -- ` is required.
struct Suppression: Equatable {
    enum Scope: String { case nextLine, sameLine, block }
    var scope: Scope
    /// nil means every rule.
    var rules: Set<String>?
    var reason: String?
    var line: Int
    var column: Int
    var lines: ClosedRange<Int>
    var used = false
}

struct Suppressions: Equatable {
    struct Malformed: Equatable { var line: Int; var column: Int; var problem: String }
    private(set) var directives: [Suppression] = []
    /// Directives that could not be understood, with why.
    private(set) var malformed: [Malformed] = []

    init() {}

    init(directives: [Suppression], malformed: [Malformed]) {
        self.directives = directives
        self.malformed = malformed
    }

    /// `di-lint:` markers that annotate code for a rule rather than suppress findings.
    static let annotations: Set<String> = ["signal-handler"]

    init(comments: [SourceToken], buffer: SourceBuffer) {
        var open: [Int] = [] // indices of block directives waiting for their enable
        let lastLine = buffer.lineStarts.count
        for comment in comments {
            let text = buffer.text(comment.range)
            guard let marker = text.range(of: "di-lint:") else { continue }
            var body = String(text[marker.upperBound...])
            // a directive ends at the end of its comment, or at a second comment marker on the line
            for end in ["*/", "//"] { if let r = body.range(of: end) { body = String(body[..<r.lowerBound]) } }
            let (start, _) = buffer.lineColumn(of: comment.range.lowerBound)
            let end = buffer.lineColumn(of: max(comment.range.lowerBound, comment.range.upperBound - 1)).line
            let column = buffer.lineColumn(of: comment.range.lowerBound).column
            var reason: String?
            if let dashes = body.range(of: " --") {
                let r = body[dashes.upperBound...].trimmingCharacters(in: .whitespaces)
                reason = r.isEmpty ? nil : r
                body = String(body[..<dashes.lowerBound])
            }
            let words = body.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
            guard let verb = words.first else {
                malformed.append(Malformed(line: start, column: column, problem: "empty di-lint directive"))
                continue
            }
            let ruleList = Array(words.dropFirst())
            let rules: Set<String>? = ruleList.isEmpty || ruleList.contains("all") ? nil : Set(ruleList)
            switch verb {
            case _ where Suppressions.annotations.contains(verb):
                continue // marks code for a rule, suppresses nothing
            case "disable-next-line":
                directives.append(
                    Suppression(
                        scope: .nextLine, rules: rules, reason: reason, line: start, column: column,
                        lines: (end + 1)...(end + 1)))
            case "disable-line":
                directives.append(
                    Suppression(
                        scope: .sameLine, rules: rules, reason: reason, line: start, column: column, lines: start...end)
                )
            case "disable":
                directives.append(
                    Suppression(
                        scope: .block, rules: rules, reason: reason, line: start, column: column,
                        lines: start...lastLine))
                open.append(directives.count - 1)
            case "enable":
                // closes the most recent open block whose rules it names
                if let k = open.lastIndex(where: {
                    rules == nil || directives[$0].rules == nil || !directives[$0].rules!.isDisjoint(with: rules!)
                }) {
                    let i = open.remove(at: k)
                    directives[i].lines = directives[i].line...max(directives[i].line, start)
                } else {
                    malformed.append(
                        Malformed(
                            line: start, column: column,
                            problem:
                                "'di-lint:enable' with no open 'di-lint:disable' for \(rules.map { $0.sorted().joined(separator: ",") } ?? "all rules")"
                        ))
                }
            default:
                malformed.append(
                    Malformed(
                        line: start, column: column,
                        problem:
                            "unknown di-lint directive '\(verb)' (use disable-next-line, disable-line, disable, enable)"
                    ))
            }
        }
    }

    /// Whether a finding of `rule` on `line` is suppressed; marks the directive used.
    mutating func suppresses(rule: String, line: Int) -> Bool {
        for i in directives.indices where directives[i].lines.contains(line) {
            if directives[i].rules == nil || directives[i].rules!.contains(rule) {
                directives[i].used = true
                return true
            }
        }
        return false
    }
}
