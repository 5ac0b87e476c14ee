import SwiftSyntax

/// Phase `finish` for Swift: the bridge parameter's default (`bridge: Bridge = Container.shared`,
/// what `inject` writes) is removed, so the bridge must be passed. A type is finished only when
/// the run finds no direct access left in it and no call of its initializer without `bridge:`;
/// those are named as the blockers. Other Swift fallback forms are listed for manual work.
struct SwiftFinishPlanner {
    let context: FixContext

    func plan(_ paths: [String], into plan: inout FixPlan) {
        for path in paths {
            guard let file = context.swiftFile(path) else { continue }
            for located in file.accesses where located.access.kind == .fallback {
                let (line, column) = file.source.buffer.lineColumn(of: located.offset)
                func manual(_ reason: ManualReason, _ detail: String?) {
                    plan.manual.append(ManualItem(path: context.display(path), line: line, column: column,
                                                  expression: located.access.expression, reason: reason, detail: detail))
                }
                guard let node = file.node(spanning: located.range), let (parameter, decl) = Self.bridgeParameter(node, names: [context.bridgeName]),
                      let typeName = decl.enclosingTypeName, let each = SwiftRunType.findEach(typeName, context: context) else {
                    if context.selects(located.access) {
                        manual(.unrecognisedForm, "only a Swift bridge parameter's default is rewritten by this version")
                    }
                    continue
                }
                let type = SwiftRunType.merged(each) // a type declared per `#if` clause: all its clauses
                guard context.services.isEmpty || injectedServices(type).isSubset(of: context.services) else { continue }
                if file.isSuppressed(located.offset) { manual(.suppressed, nil); continue }
                let direct = directAccesses(type)
                if !direct.isEmpty {
                    manual(.blockedByDirectAccess, "\(typeName) still reads the container at \(Self.list(direct))")
                    continue
                }
                var callers = callsWithoutBridge(type)
                if !context.configuration.swiftCallersInRun, decl.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) {
                    callers.insert("callers outside the run (the initializer is public)", at: 0)
                }
                if !callers.isEmpty {
                    manual(.callersRelyOnDefault, "\(typeName).init is called without '\(context.bridgeName):' at \(Self.list(callers))")
                    continue
                }
                guard let type = parameter.type.lastToken(viewMode: .sourceAccurate), let value = parameter.defaultValue else { continue }
                let range = type.endPositionBeforeTrailingTrivia.utf8Offset..<value.endOffset
                plan.groups.append(FixGroup(title: "finish Swift type \(typeName)",
                                            edits: [TextEdit(path: path, range: range, replacement: "")],
                                            targets: [FixTarget(path: context.display(path), line: line, column: column,
                                                                expression: located.access.expression, range: located.range)]))
            }
        }
    }

    /// The bridge parameter whose default value holds `node`, and the initializer declaring it.
    static func bridgeParameter(_ node: Syntax, names: Set<String>) -> (FunctionParameterSyntax, InitializerDeclSyntax)? {
        var current = node.parent
        while let n = current {
            if let parameter = n.as(FunctionParameterSyntax.self) {
                guard parameter.defaultValue?.byteRange.contains(node.startOffset) == true,
                      names.contains((parameter.secondName ?? parameter.firstName).text) else { return nil }
                return parameter.enclosing(InitializerDeclSyntax.self).map { (parameter, $0) }
            }
            if n.is(CodeBlockSyntax.self) || n.is(MemberBlockSyntax.self) { return nil }
            current = n.parent
        }
        return nil
    }

    private static func list(_ places: [String]) -> String {
        places.prefix(3).joined(separator: ", ") + (places.count > 3 ? " and \(places.count - 3) more" : "")
    }

    private func place(_ file: SwiftFixFile, _ offset: Int) -> String {
        let (line, column) = file.source.buffer.lineColumn(of: offset)
        return "\(context.display(file.path)):\(line):\(column)"
    }

    /// Direct accesses written in the type's declaration or extensions.
    private func directAccesses(_ type: SwiftRunType) -> [String] {
        type.blocks.flatMap { entry in
            entry.file.accesses.filter { $0.access.kind == .direct && entry.block.byteRange.contains($0.offset) }.map { place(entry.file, $0.offset) }
        }
    }

    /// Services the type reads through the bridge.
    private func injectedServices(_ type: SwiftRunType) -> Set<String> {
        Set(type.blocks.flatMap { entry in
            entry.file.accesses.filter { $0.access.kind == .injected && entry.block.byteRange.contains($0.offset) }.compactMap(\.access.service)
        })
    }

    /// Calls of the type's initializer (`T(…)`, `T.init(…)`, and `self.init(…)` / `Self(…)` inside
    /// it) that pass no bridge, in the run's Swift files.
    private func callsWithoutBridge(_ type: SwiftRunType) -> [String] {
        var found: [String] = []
        for path in context.swiftFilesMentioning(type.name) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            for call in calls.calls where !call.arguments.contains(where: { $0.label?.text == context.bridgeName }) {
                let inside = type.blocks.contains { $0.file.path == path && $0.block.byteRange.contains(call.startOffset) }
                if calls.isSelfCall(call) && !inside { continue }
                found.append(place(file, call.startOffset))
            }
        }
        return found
    }
}

/// `T(…)`, `T.init(…)`, `self.init(…)` and `Self(…)` calls in a file.
private final class InitializerCalls: SyntaxVisitor {
    let typeName: String
    var calls: [FunctionCallExprSyntax] = []
    init(typeName: String) { self.typeName = typeName; super.init(viewMode: .sourceAccurate) }

    func isSelfCall(_ call: FunctionCallExprSyntax) -> Bool {
        let callee = call.calledExpression.trimmedDescription
        return callee == "self.init" || callee == "Self" || callee == "Self.init"
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression.trimmedDescription
        if callee == typeName || callee == "\(typeName).init" || isSelfCall(node) { calls.append(node) }
        return .visitChildren
    }
}
