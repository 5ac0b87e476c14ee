/// The verification of a Swift file's edits (`ContainerAccessRule.fix` plans constructor
/// injection through `SwiftInjectPlanner`, `ContainerFallbackRule.fix` the removal of the
/// bridge parameter's default through `SwiftFinishPlanner`): re-parsed with SwiftParser and
/// re-linted with the file rules.
struct SwiftFixPlanner {
    let context: FixContext

    /// Why a Swift file's edits fail verification, or nil when they pass: no new syntax error, no
    /// new finding, and every access rewritten in it classifies as wanted (after `inject`, each
    /// target is read through the bridge; after `finish`, each removed default is gone).
    func check(_ path: String, edits: [TextEdit], plan: inout FixPlan) -> String? {
        let display = context.display(path)
        guard let original = context.workspace.diskBytes(path), let after = context.swiftFile(path) else {
            return "\(display) could not be read after the edits"
        }
        let before = SwiftFixFile(path: path, display: display, bytes: original, configuration: context.configuration)
        let new = Set(after.errors).subtracting(before.errors).sorted()
        plan.diagnostics[display] = DiagnosticCounts(before: before.errors.count, after: after.errors.count, new: new)
        if let first = new.first { return "re-parse of \(display): new syntax error \(first)" }
        if let finding = Fixer.newFinding(before: before.findings, after: after.findings) {
            return "re-lint of \(display): new finding '\(finding)'"
        }
        let targets = plan.accepted.flatMap(\.targets).filter { $0.path == display }.count
        func count(_ file: SwiftFixFile, _ kind: AccessKind) -> Int { file.accesses.filter { $0.access.kind == kind }.count }
        let ok: Bool
        switch plan.phase {
        case .inject:
            ok = count(after, .direct) == count(before, .direct) - targets && count(after, .injected) - count(before, .injected) >= targets
        case .finish:
            ok = count(after, .fallback) == count(before, .fallback) - targets && count(after, .direct) == count(before, .direct)
        }
        let wanted = plan.phase == .inject ? "read through the bridge" : "without the container default"
        return ok ? nil : "re-lint of \(display): the \(targets) rewritten access\(targets == 1 ? " does" : "es do") not all classify as \(wanted)"
    }
}
