import SwiftSyntax

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
        guard context.workspace.diskBytes(path) != nil, let after = context.swiftFile(path) else {
            // lint's Swift front end refuses the edited file (nesting or chains past its guard): lint's reason
            return context.failures[path].map { "re-parse of \(display): \($0)" }
                ?? "\(display) could not be read after the edits"
        }
        guard let before = context.swiftFileOnDisk(path) else {
            return
                "\(display) could not be parsed as it is on disk (\(context.failures[path] ?? "left out of the run"))"
        }
        let new = Set(after.errors).subtracting(before.errors).sorted()
        plan.diagnostics[display] = DiagnosticCounts(before: before.errors.count, after: after.errors.count, new: new)
        if let first = new.first { return "re-parse of \(display): new syntax error \(first)" }
        // the service style moves one service at a time: a type that takes one service and still
        // reads others is the expected state in between (`swift-mixed-injection` keeps saying so)
        let serviceStyle = plan.accepted.contains {
            $0.title.contains(": service ") && $0.edits.contains { $0.path == path }
        }
        // and an initializer that cannot take a parameter reads the container (checked below:
        // no other read is added), which `container-access-in-initializer` reports
        let expected: Set<String> = [SwiftMixedInjectionRule.id, "container-access-in-initializer"]
        func kept(_ findings: [Finding]) -> [Finding] {
            serviceStyle ? findings.filter { !expected.contains($0.rule) } : findings
        }
        if let finding = Fixer.newFinding(before: kept(before.findings), after: kept(after.findings)) {
            return "re-lint of \(display): new finding '\(finding)'"
        }
        let targets = plan.accepted.flatMap(\.targets).filter { $0.path == display }.count
        func count(_ file: SwiftFixFile, _ kind: AccessKind) -> Int {
            file.accesses.filter { $0.access.kind == kind }.count
        }
        let ok: Bool
        switch plan.phase {
        case .inject where serviceStyle:
            // a memberwise struct's callers given the container read (see SwiftMemberwiseInjection)
            guard let moved = movedReads(path, edits: edits, after: after, plan: &plan) else {
                return
                    "re-lint of \(display): the container reads moved to a caller do not classify as reads of the container there"
            }
            return serviceCheck(
                display, edits: edits, before: before, after: after, targets: targets, moved: moved.ranges)
        case .inject:
            ok =
                count(after, .direct) == count(before, .direct) - targets
                && count(after, .injected) - count(before, .injected) >= targets
        case .bridge:
            ok = count(after, .direct) == count(before, .direct)
        case .wire:
            // a bridge the wiring builds reads the container in the composition root only; a root
            // that comes to own its bridge (`CompositionWiringRootOwnsBridge`) trades each read of
            // the parameter defaults it removes for a composition-root read
            let removed = before.accesses.filter { access in
                access.access.kind == .fallback
                    && edits.contains { $0.replacement.isEmpty && $0.range.contains(access.offset) }
            }.count
            ok =
                count(after, .direct) == count(before, .direct)
                && count(after, .fallback) == count(before, .fallback) - removed
                && count(after, .compositionRoot) >= count(before, .compositionRoot) + removed
        case .finish:
            // a caller given the bridge built from the container: its reads are the only new
            // container reads, each in the argument passed, as `composition-root` or `direct` (recorded)
            guard let moved = movedReads(path, edits: edits, after: after, plan: &plan) else {
                return
                    "re-lint of \(display): the container reads moved to a caller do not classify as reads of the container there"
            }
            ok =
                count(after, .fallback) == count(before, .fallback) - targets
                && count(after, .direct) == count(before, .direct) + moved.direct
                && count(after, .compositionRoot) == count(before, .compositionRoot) + moved.root
        }
        let wanted =
            plan.phase == .inject
            ? "read through the bridge"
            : plan.phase == .wire ? "as before (no direct or fallback access added)" : "without the container default"
        return ok
            ? nil
            : "re-lint of \(display): the \(targets) rewritten access\(targets == 1 ? " does" : "es do") not all classify as \(wanted)"
    }

    /// The `service` style's inject: the reads it rewrote are gone, and every container read
    /// its edits add is a parameter's default (`fallback`), or a direct read in an initializer
    /// that cannot take a parameter (`required`, `override`; listed for manual work).
    private func serviceCheck(
        _ display: String, edits: [TextEdit], before: SwiftFixFile, after: SwiftFixFile, targets: Int,
        moved: [Range<Int>]
    ) -> String? {
        var inserted: [Range<Int>] = []
        var shift = 0
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.order) < ($1.range.lowerBound, $1.order) }) {
            let start = edit.range.lowerBound + shift
            inserted.append(start..<(start + edit.replacement.utf8.count))
            shift += edit.replacement.utf8.count - edit.range.count
        }
        var addedDirect = 0, addedFallback = 0, addedRoot = 0
        for access in after.accesses where inserted.contains(where: { $0.contains(access.offset) }) {
            // a read moved to a caller: checked by `movedReads`
            if moved.contains(where: { $0.contains(access.offset) }) {
                if access.access.kind == .direct { addedDirect += 1 } else { addedRoot += 1 }
                continue
            }
            switch access.access.kind {
            case .fallback: addedFallback += 1
            case .direct:
                let initializer = after.source.tree.token(at: AbsolutePosition(utf8Offset: access.offset))?.enclosing(
                    InitializerDeclSyntax.self)
                guard let initializer, SwiftServiceInjectPlanner.cannotTake(initializer) else {
                    let (line, column) = after.source.buffer.lineColumn(of: access.offset)
                    return "re-lint of \(display): the edits add a direct read of the container at \(line):\(column)"
                }
                addedDirect += 1
            default:
                return
                    "re-lint of \(display): the edits add a container read that classifies \(access.access.kind.rawValue)"
            }
        }
        func count(_ file: SwiftFixFile, _ kind: AccessKind) -> Int {
            file.accesses.filter { $0.access.kind == kind }.count
        }
        let ok =
            count(after, .direct) == count(before, .direct) - targets + addedDirect
            && count(after, .fallback) == count(before, .fallback) + addedFallback
            && count(after, .compositionRoot) == count(before, .compositionRoot) + addedRoot
        return ok
            ? nil
            : "re-lint of \(display): the \(targets) rewritten access\(targets == 1 ? " does" : "es do") not all leave the container"
    }

    /// The container reads of the explicit bridge arguments given to callers in the file, by how
    /// they classify after the edits (each caller's kinds are recorded on it); nil when an
    /// argument does not hold exactly the default's reads, each `direct` or `composition-root`.
    private func movedReads(_ path: String, edits: [TextEdit], after: SwiftFixFile, plan: inout FixPlan) -> (
        direct: Int, root: Int, ranges: [Range<Int>]
    )? {
        var direct = 0, root = 0
        var ranges: [Range<Int>] = []
        for g in plan.groups.indices where plan.groups[g].refused == nil {
            for c in plan.groups[g].callers.indices {
                let caller = plan.groups[g].callers[c]
                guard caller.explicitDefault, caller.edit.path == path, let index = edits.firstIndex(of: caller.edit)
                else { continue }
                let shift = edits[..<index].reduce(0) { $0 + $1.replacement.utf8.count - $1.range.count }
                let start = caller.edit.range.lowerBound + shift + caller.argumentOffset
                let range = start..<(start + caller.argument.utf8.count)
                let kinds = after.accesses.filter { range.contains($0.offset) }.map(\.access.kind)
                guard kinds.count == caller.reads, kinds.allSatisfy({ $0 == .direct || $0 == .compositionRoot }) else {
                    return nil
                }
                plan.groups[g].callers[c].movedKinds = kinds.map(\.rawValue)
                ranges.append(range)
                direct += kinds.filter { $0 == .direct }.count
                root += kinds.filter { $0 == .compositionRoot }.count
            }
        }
        return (direct, root, ranges)
    }
}
