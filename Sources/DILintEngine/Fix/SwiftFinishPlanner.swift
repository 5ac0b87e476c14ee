import SwiftSyntax

/// Phase `finish` for Swift: the bridge parameter's default (`bridge: Bridge = Container.shared`,
/// what `inject` writes) is removed, so the bridge must be passed. A type is finished only when
/// the run finds no direct access left in it; the calls of its initializer without `bridge:` in
/// the run get it in the same group (`SwiftCallerWiring`), or, when one cannot, the type is left
/// with those calls named as the blockers. Other Swift fallback forms are listed for manual work.
struct SwiftFinishPlanner {
    let context: FixContext

    /// A type's fallback accesses in its bridge parameters' defaults, as found.
    private struct Pending {
        var type: SwiftRunType
        var items:
            [(
                file: SwiftFixFile, located: LocatedAccess, line: Int, column: Int, parameter: FunctionParameterSyntax,
                decl: InitializerDeclSyntax
            )] = []
    }

    func plan(_ paths: [String], into plan: inout FixPlan) {
        var pending: [String: Pending] = [:]
        var order: [String] = []
        var service = SwiftServiceFinishPlanner(context: context) // service parameters' defaults
        for path in paths {
            guard let file = context.swiftFile(path) else { continue }
            // left direct by this phase: listed, so the run does not end as if it were done
            for located in file.accesses
            where located.access.kind == .direct && SwiftServiceRead.selects(located.access, context) {
                let (line, column) = file.source.buffer.lineColumn(of: located.offset)
                // a registration is no read to inject; a `required`/`override` initializer reads
                // the container for good (the service style's inject wrote it so)
                let reason: ManualReason =
                    FixContext.isRegistration(SwiftServiceRead.service(of: located.access, context.configuration))
                    ? .notAServiceRead
                    : file.source.tree.token(at: AbsolutePosition(utf8Offset: located.offset))?.enclosing(
                        InitializerDeclSyntax.self
                    )
                    .map(SwiftServiceInjectPlanner.cannotTake) == true
                        ? .initializerSetsServiceFromContainer : .directInFinish
                plan.manual.append(
                    ManualItem(
                        path: context.display(path), line: line, column: column, expression: located.access.expression,
                        reason: reason, detail: nil))
            }
            for located in file.accesses where located.access.kind == .fallback {
                let (line, column) = file.source.buffer.lineColumn(of: located.offset)
                if let node = file.node(spanning: located.range),
                    Self.bridgeParameter(node, names: [context.bridgeName]) == nil,
                    service.add(located, in: file, plan: &plan)
                {
                    continue
                }
                guard let node = file.node(spanning: located.range),
                    let (parameter, decl) = Self.bridgeParameter(node, names: [context.bridgeName]),
                    let typeName = SwiftRunType.enclosingQualifiedName(of: Syntax(decl)),
                    let each = SwiftRunType.findEach(typeName, context: context)
                else {
                    if context.selects(located.access) {
                        plan.manual.append(
                            ManualItem(
                                path: context.display(path), line: line, column: column,
                                expression: located.access.expression,
                                reason: .unrecognisedForm,
                                detail: "only a Swift bridge parameter's default is rewritten by this version"))
                    }
                    continue
                }
                let type = SwiftRunType.merged(each) // a type declared per `#if` clause: all its clauses
                if !context.services.isEmpty {
                    // the default serves every service the type reads through the bridge: removed
                    // only when they are all selected; a selected one is not dropped silently
                    let served = injectedServices(type)
                    if !served.isSubset(of: context.services) {
                        if !served.isDisjoint(with: context.services) {
                            plan.manual.append(
                                ManualItem(
                                    path: context.display(path), line: line, column: column,
                                    expression: located.access.expression,
                                    reason: .bridgeServesOthers,
                                    detail:
                                        "\(typeName) also reads \(served.subtracting(context.services).sorted().joined(separator: ", ")) through it"
                                ))
                        }
                        continue
                    }
                }
                if file.isSuppressed(located.offset) {
                    plan.manual.append(
                        ManualItem(
                            path: context.display(path), line: line, column: column,
                            expression: located.access.expression,
                            reason: .suppressed, detail: nil))
                    continue
                }
                if pending[typeName] == nil { order.append(typeName); pending[typeName] = Pending(type: type) }
                pending[typeName]!.items.append((file, located, line, column, parameter, decl))
            }
        }
        for name in order { planType(name, pending[name]!, into: &plan) }
        service.plan(into: &plan)
    }

    /// One group per type: every bridge parameter's default removed, and every call in the run
    /// that omitted `bridge:` given the bridge, together; else each access is listed with why.
    private func planType(_ typeName: String, _ pending: Pending, into plan: inout FixPlan) {
        let type = pending.type
        func manual(_ reason: ManualReason, _ detail: String?) {
            plan.manual += pending.items.map {
                ManualItem(
                    path: context.display($0.file.path), line: $0.line, column: $0.column,
                    expression: $0.located.access.expression,
                    reason: reason, detail: detail)
            }
        }
        let direct = directAccesses(type)
        if !direct.isEmpty {
            return manual(.blockedByDirectAccess, "\(typeName) still reads the container at \(Self.list(direct))")
        }
        if !context.configuration.swiftCallersInRun,
            pending.items.contains(where: { $0.decl.modifiers.contains { ["public", "open"].contains($0.name.text) } })
        {
            let calls = callsWithoutBridge(type).map { place($0.file, $0.call.startOffset) }
            return manual(
                .callersRelyOnDefault,
                "\(typeName).init is called without '\(context.bridgeName):' at \(Self.list(["callers outside the run (the initializer is public)"] + calls))"
            )
        }
        // each initializer taking the bridge once (the accesses of one default share it)
        var initializers: [(file: SwiftFixFile, parameter: FunctionParameterSyntax, decl: InitializerDeclSyntax)] = []
        for item in pending.items
        where !initializers.contains(where: { $0.file.path == item.file.path && $0.decl.id == item.decl.id }) {
            initializers.append((item.file, item.parameter, item.decl))
        }
        let wiring = callerWiring(type, initializers: initializers)
        var callers: [FixCaller] = []
        // a call by the simple name of a nested type, outside its outer type, may build another type of that name
        var unwired = ambiguousCalls(type).map {
            "\(place($0.file, $0.call.startOffset)) (a call of '\(type.simpleName)' outside \(type.name.dropLast(type.simpleName.count + 1)): it may build another type of that name)"
        }
        var builders: [SwiftBuilderThreading.Site] = [] // calls given a facade from the container's services
        for (file, call) in callsWithoutBridge(type) where !wiring.reliesOnOther(call) {
            switch wiring.wire(call, in: file, typeName: typeName) {
            case let .success(caller):
                if caller.fromContainerServices {
                    builders.append(SwiftBuilderThreading.Site(file: file, call: call, index: callers.count))
                }
                callers.append(caller)
            case let .failure(why): unwired.append("\(place(file, call.startOffset)) (\(why.text))")
            }
        }
        if !unwired.isEmpty {
            return manual(
                .callersRelyOnDefault,
                "\(typeName).init is called without '\(context.bridgeName):' at \(Self.list(unwired))")
        }
        // a builder of the container's type takes the bridge of whoever asks it, when all can pass one
        let threaded = SwiftBuilderThreading(context: context).thread(builders, callers: &callers)
        let edits =
            SwiftCallerWiring.defaultRemovals(initializers.map { ($0.file.path, $0.parameter) }) + threaded.edits
        plan.groups.append(
            FixGroup(
                title: "finish Swift type \(typeName)", edits: edits + callers.map(\.edit),
                targets: pending.items.map {
                    FixTarget(
                        path: context.display($0.file.path), line: $0.line, column: $0.column,
                        expression: $0.located.access.expression, range: $0.located.range)
                },
                callers: callers, notes: threaded.notes.isEmpty ? nil : threaded.notes))
    }

    /// The wiring of the calls of a type whose initializers take the bridge (with its default):
    /// finish's, and `fix --phase wire`'s (`CompositionWiringSwift`).
    func callerWiring(
        _ type: SwiftRunType,
        initializers: [(file: SwiftFixFile, parameter: FunctionParameterSyntax, decl: InitializerDeclSyntax)]
    ) -> SwiftCallerWiring {
        let defaults = Set(initializers.compactMap { $0.parameter.defaultValue?.value.trimmedDescription })
        let reads =
            initializers.first.map { i in
                i.file.accesses.filter {
                    $0.access.kind == .fallback && (i.parameter.defaultValue?.byteRange.contains($0.offset) ?? false)
                }.count
            } ?? 0
        return SwiftCallerWiring(
            context: context, bridgeName: context.bridgeName, bridgeType: context.configuration.bridgeType,
            defaultExpression: defaults.count == 1 ? defaults.first : nil, reads: reads,
            initializers: initializers.map { ($0.decl, $0.parameter) },
            otherInitializers: type.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
                .filter { decl in !initializers.contains { $0.decl.id == decl.id } })
    }

    /// The bridge parameter whose default value holds `node`, and the initializer declaring it.
    static func bridgeParameter(_ node: Syntax, names: Set<String>) -> (FunctionParameterSyntax, InitializerDeclSyntax)?
    {
        var current = node.parent
        while let n = current {
            if let parameter = n.as(FunctionParameterSyntax.self) {
                guard parameter.defaultValue?.byteRange.contains(node.startOffset) == true,
                    names.contains((parameter.secondName ?? parameter.firstName).text)
                else { return nil }
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
            entry.file.accesses.filter { $0.access.kind == .direct && entry.block.byteRange.contains($0.offset) }.map {
                place(entry.file, $0.offset)
            }
        }
    }

    /// Services the type reads through the bridge.
    private func injectedServices(_ type: SwiftRunType) -> Set<String> {
        Set(
            type.blocks.flatMap { entry in
                entry.file.accesses.filter { $0.access.kind == .injected && entry.block.byteRange.contains($0.offset) }
                    .compactMap(\.access.service)
            })
    }

    /// Calls of the type's initializer (`T(…)`, `T.init(…)`, and `self.init(…)` / `Self(…)` inside
    /// it) that pass no bridge, in the run's Swift files.
    func callsWithoutBridge(_ type: SwiftRunType) -> [(file: SwiftFixFile, call: FunctionCallExprSyntax)] {
        var found: [(SwiftFixFile, FunctionCallExprSyntax)] = []
        for path in context.swiftFilesMentioning(type.simpleName) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            for call in calls.calls where !call.arguments.contains(where: { $0.label?.text == context.bridgeName }) {
                let inside = type.blocks.contains {
                    $0.file.path == path && $0.block.byteRange.contains(call.startOffset)
                }
                if InitializerCalls.isSelfCall(call) && !inside { continue }
                found.append((file, call))
            }
        }
        return found
    }

    /// Calls by the simple name of a nested type from outside its outer type, which pass no bridge.
    private func ambiguousCalls(_ type: SwiftRunType) -> [(file: SwiftFixFile, call: FunctionCallExprSyntax)] {
        guard type.name != type.simpleName else { return [] }
        return context.swiftFilesMentioning(type.simpleName).compactMap(context.swiftFile).flatMap { file in
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            return calls.ambiguous.filter { call in
                !call.arguments.contains(where: { $0.label?.text == context.bridgeName })
            }.map { (file, $0) }
        }
    }
}

/// `T(…)`, `T.init(…)`, `self.init(…)` and `Self(…)` calls in a file. For a nested type
/// (`Outer.Inner`), a call by its qualified name, or by its simple name inside `Outer` (where the
/// simple name finds it); a call by the simple name elsewhere is `ambiguous`.
final class InitializerCalls: SyntaxVisitor {
    let typeName: String
    var calls: [FunctionCallExprSyntax] = []
    /// Calls by the simple name of a nested type outside its outer type.
    var ambiguous: [FunctionCallExprSyntax] = []
    init(typeName: String) { self.typeName = typeName; super.init(viewMode: .sourceAccurate) }

    static func isSelfCall(_ call: FunctionCallExprSyntax) -> Bool {
        let callee = call.calledExpression.trimmedDescription
        return callee == "self.init" || callee == "Self" || callee == "Self.init"
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression.trimmedDescription
        if callee == typeName || callee == "\(typeName).init" || Self.isSelfCall(node) {
            calls.append(node)
        } else if typeName.contains("."), let simple = typeName.split(separator: ".").last,
            callee == simple || callee == "\(simple).init"
        {
            let outer = typeName.dropLast(simple.count + 1)
            let inside =
                SwiftRunType.enclosingQualifiedName(of: Syntax(node)).map { $0 == outer || $0.hasPrefix(outer + ".") }
                ?? false
            if inside {
                calls.append(node)
            } else if !Self.nestsType(named: String(simple), around: Syntax(node)) {
                ambiguous.append(node)
            }
        }
        return .visitChildren
    }

    /// Whether a type declaration or extension around `node` declares a member type named
    /// `name` (then a call by that name there builds that type).
    static func nestsType(named name: String, around node: Syntax) -> Bool {
        var current = node.parent
        while let n = current {
            let block =
                n.as(ClassDeclSyntax.self)?.memberBlock ?? n.as(StructDeclSyntax.self)?.memberBlock ?? n.as(
                    ActorDeclSyntax.self)?.memberBlock
                ?? n.as(EnumDeclSyntax.self)?.memberBlock ?? n.as(ExtensionDeclSyntax.self)?.memberBlock
            if let block,
                SwiftRunType.flatten(block.members).contains(where: {
                    $0.is(ExtensionDeclSyntax.self) == false && SwiftRunType.declaredName(Syntax($0)) == name
                })
            {
                return true
            }
            current = n.parent
        }
        return false
    }
}
