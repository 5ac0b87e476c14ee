/// Swift files in a fix run. Constructor injection is not rewritten yet: every direct (inject)
/// or fallback (finish) Swift access in scope is listed for manual work, never dropped.
struct SwiftFixPlanner {
    let context: FixContext

    func plan(_ paths: [String], phase: FixPhase, into plan: inout FixPlan) {
        let finder = SwiftContainerAccessFinder(configuration: context.configuration)
        let wanted: AccessKind = phase == .inject ? .direct : .fallback
        for path in paths {
            guard let bytes = context.workspace.bytes(path) else { continue }
            let file = SwiftSourceFile(bytes: bytes)
            for located in finder.find(in: file.tree, displayPath: context.display(path))
            where located.access.kind == wanted && context.selects(located.access) {
                let (line, column) = file.buffer.lineColumn(of: located.offset)
                plan.manual.append(ManualItem(path: context.display(path), line: line, column: column,
                                              expression: located.access.expression, reason: .unsupportedLanguage,
                                              detail: "Swift constructor injection is not rewritten by this version"))
            }
        }
    }

    /// Swift edits are never planned, so never checked; a Swift file reaching here is refused.
    func check(_ path: String, edits: [TextEdit], plan: inout FixPlan) -> String? {
        "Swift edits are not verified by this version"
    }
}
