/// Suppression application: each file's findings meet its `di-lint:` directives.
extension Linter {
    /// Findings not suppressed, plus the file's findings about its directives. When the run is
    /// incomplete, a directive that could be for a project rule is not called unused: the finding
    /// it suppresses may need files outside the run.
    func applySuppressions(_ findings: [Finding], _ suppressions: Suppressions, path: String, complete: Bool)
        -> [Finding]
    {
        var suppressions = suppressions
        // The findings suppressed, in order; kept ones are not copied when none is.
        var suppressed: [Int] = []
        for i in findings.indices
        where findings[i].rule != ParseFailureRule.id
            && suppressions.suppresses(rule: findings[i].rule, line: findings[i].line)
        {
            suppressed.append(i)
        }
        var kept: [Finding]
        if suppressed.isEmpty {
            kept = findings
        } else {
            kept = []
            kept.reserveCapacity(findings.count - suppressed.count)
            var next = 0
            for i in findings.indices {
                if next < suppressed.count && suppressed[next] == i { next += 1 } else { kept.append(findings[i]) }
            }
        }
        func at(_ line: Int, _ column: Int, rule: String, _ message: String) -> Finding? {
            guard let severity = configuration.severity(of: rule) else { return nil }
            return Finding(rule: rule, path: path, line: line, column: column, severity: severity, message: message)
        }
        for s in suppressions.directives {
            let rules = s.rules.map { $0.sorted().joined(separator: ",") } ?? "all rules"
            if s.reason == nil,
                let f = at(
                    s.line, s.column, rule: SuppressionWithoutReasonRule.id,
                    SuppressionWithoutReasonRule().message(rules: rules))
            {
                kept.append(f)
            }
            let mayBeForAProjectRule =
                s.rules.map { !$0.isDisjoint(with: activeProjectRules.map(\.rule.id)) } ?? !activeProjectRules.isEmpty
            if !s.used && (complete || !mayBeForAProjectRule) {
                let unknown = (s.rules ?? []).filter { RuleCatalog.indexEntry($0) == nil }.sorted()
                if let f = at(
                    s.line, s.column, rule: UnusedSuppressionRule.id,
                    UnusedSuppressionRule().message(rules: rules, unknown: unknown))
                {
                    kept.append(f)
                }
            }
        }
        for m in suppressions.malformed {
            if let f = at(m.line, m.column, rule: UnusedSuppressionRule.id, m.problem) { kept.append(f) }
        }
        return kept
    }
}
