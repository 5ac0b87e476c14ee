import Foundation

/// What the documentation describes and a check compares with the build: the config keys the
/// parser accepts and the rules that fix.
extension Configuration {
    /// Every top-level key `.di-lint.yml` may hold (lint's and fix's), sorted.
    public static var acceptedKeys: [String] { topLevelKeys.union(fixKeys).sorted() }
}

extension RuleCatalog {
    /// The `di-lint fix` phase that rewrites rule `id`'s findings, or nil when the rule has no fix.
    public static func fixPhase(of id: String) -> FixPhase? {
        if let type = RuleRegistry.fileRuleTypes.first(where: { $0.id == id }) { return type.fixPhase }
        if let type = RuleRegistry.projectRuleTypes.first(where: { $0.id == id }) { return type.fixPhase }
        return RuleRegistry.engineRuleTypes.first { $0.id == id }?.fixPhase
    }
}
