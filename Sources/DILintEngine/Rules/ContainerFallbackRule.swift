/// `container-fallback`: a container access that runs only when no bridge was injected. Its
/// severity is the migration's phase switch, `fallback: allow | warn | error`.
struct ContainerFallbackRule: FileRule {
    static let id = "container-fallback"
    static let fixPhase: FixPhase? = .finish

    /// `finish`: every recognised fallback form becomes the bridge alone; in Swift the bridge
    /// parameter's container default goes.
    func fix(_ run: FixRun, into plan: inout FixPlan) {
        FinishPlanner(context: run.context).plan(run.clang, into: &plan)
        SwiftFinishPlanner(context: run.context).plan(run.swift, into: &plan)
    }

    /// The severity for a phase: off while fallbacks are the goal, the YAML's default severity once
    /// they should go (`warn`), error once they must be gone.
    static func severity(for policy: FallbackPolicy) -> Severity? {
        switch policy {
        case .allow: return nil
        case .warn: return RuleCatalog.indexEntry(id)?.defaultSeverity ?? .warning
        case .error: return .error
        }
    }

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        file.accesses.filter { $0.access.kind == .fallback }.map { located in
            let a = located.access
            var message = "fallback to container '\(a.accessorExpression)'"
            if let service = a.service { message += " for service '\(service)'" }
            message += " when no bridge is set; remove it once every caller injects the bridge"
            return file.finding(rule: id, offset: located.offset, severity: severity, message: message, access: a)
        }
    }
}
