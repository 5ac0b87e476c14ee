import SwiftSyntax

/// `fix --phase wire` for Swift constructor injection: each call in the run of a migrated type's
/// initializer (one whose `bridge:` parameter still has inject's default) that omits `bridge:`
/// passes the bridge, through `SwiftCallerWiring` (the same placement as finish's):
/// - the bridge in reach (a `bridge` parameter, the composing type's stored `bridge`);
/// - in an instance method of a `composition-root` class, struct or actor with no bridge, the
///   type first gets one of its own, built once: `let bridge: T = <the initializers' default>`
///   as its first member (a stored property, not a global or a singleton), and the call passes it.
/// Anything else (a static or global, a type outside the composition root, a stored property's
/// initial value, an initializer) is a manual item with the reason; a type the run calls
/// nowhere is one too. One group per composing type (per file for top-level code).
struct CompositionWiringSwift {
    let context: FixContext

    /// `owned`: the composing types given a bridge of their own in this run (shared with
    /// `CompositionWiringSwiftObjC`, so a type gets one); `add` puts edits in a group by title.
    func plan(
        _ paths: [String], into plan: inout FixPlan, owned: inout Set<String>,
        roots: inout [CompositionWiringRootOwnsBridge.Candidate],
        add: (String, [TextEdit], [String]) -> Void
    ) {
        let finish = SwiftFinishPlanner(context: context)
        // migrated types: the initializers whose bridge parameter has a default (inject's), by type
        var initializers:
            [String: [(file: SwiftFixFile, parameter: FunctionParameterSyntax, decl: InitializerDeclSyntax)]] = [:]
        var order: [String] = []
        for path in paths {
            guard let file = context.swiftFile(path) else { continue }
            for located in file.accesses where located.access.kind == .fallback {
                guard let node = file.node(spanning: located.range),
                    let (parameter, decl) = SwiftFinishPlanner.bridgeParameter(node, names: [context.bridgeName]),
                    let typeName = SwiftRunType.enclosingQualifiedName(of: Syntax(decl))
                else { continue }
                if initializers[typeName] == nil { order.append(typeName) }
                if !(initializers[typeName] ?? []).contains(where: { $0.file.path == path && $0.decl.id == decl.id }) {
                    initializers[typeName, default: []].append((file, parameter, decl))
                }
            }
        }
        for typeName in order {
            guard let each = SwiftRunType.findEach(typeName, context: context) else { continue }
            let type = SwiftRunType.merged(each)
            let wiring = finish.callerWiring(type, initializers: initializers[typeName]!)
            let calls = finish.callsWithoutBridge(type).filter {
                !InitializerCalls.isSelfCall($0.call) && !wiring.reliesOnOther($0.call)
            }
            let (line, column) = type.file.source.buffer.lineColumn(of: type.declaration.startOffset)
            if calls.isEmpty {
                let calledNowhere = !context.swiftFilesMentioning(type.simpleName).contains { path in
                    guard let file = context.swiftFile(path) else { return false }
                    let found = InitializerCalls(typeName: type.name)
                    found.walk(file.source.tree)
                    return !found.calls.filter { !InitializerCalls.isSelfCall($0) }.isEmpty
                }
                if calledNowhere {
                    // listed, unless the type turns out to be a root that owns its bridge
                    roots.append(
                        CompositionWiringRootOwnsBridge.Candidate(
                            typeName: typeName, initializers: initializers[typeName]!,
                            manual: ManualItem(
                                path: context.display(type.file.path), line: line, column: column,
                                expression: typeName, reason: .notBuiltInRun,
                                detail: "pass '\(context.bridgeName):' where \(typeName) is built")))
                }
                continue
            }
            for (file, call) in calls {
                let (l, c) = file.source.buffer.lineColumn(of: call.startOffset)
                func manual(_ reason: ManualReason, _ why: String) {
                    plan.manual.append(
                        ManualItem(
                            path: context.display(file.path), line: l, column: c, expression: "\(typeName)(…)",
                            reason: reason, detail: why))
                }
                let owner = SwiftRunType.enclosingQualifiedName(of: Syntax(call))
                var edits: [TextEdit] = []
                var caller: FixCaller
                switch wiring.wire(call, in: file, typeName: typeName) {
                case let .failure(why): manual(.wiringPlace, why.text); continue
                case let .success(wired): caller = wired
                }
                if caller.fromContainerServices {
                    continue // the container's own type builds it from its services: finish's case
                }
                if caller.explicitDefault {
                    guard let owner, let ownerType = SwiftRunType.find(owner, context: context),
                        !ownerType.declaration.is(EnumDeclSyntax.self),
                        context.mayOwnBridge(type: owner, declaredIn: ownerType.file.path)
                    else {
                        manual(
                            .noBridgeToWire,
                            owner.map {
                                "\($0) has no \(context.bridgeName) to pass, and builds none: \(context.infersCompositionRoot ? context.notCompositionRoot($0) : "it is not a composition-root class, struct or actor")"
                            } ?? "top-level code: no instance owns a \(context.bridgeName) here")
                        continue
                    }
                    guard let value = context.configuration.swiftBridgeDefault ?? wiring.defaultExpression else {
                        manual(
                            .noBridgeToWire,
                            "\(typeName)'s initializers have different defaults to build \(owner)'s \(context.bridgeName) from"
                        )
                        continue
                    }
                    var ownedWiring = wiring
                    ownedWiring.owners = [owner]
                    switch ownedWiring.wire(call, in: file, typeName: typeName) {
                    case let .failure(why): manual(.wiringPlace, why.text); continue
                    case let .success(wired):
                        guard !wired.explicitDefault else {
                            manual(.wiringPlace, "a static member or a stored property's initial value of \(owner)")
                            continue
                        }
                        caller = wired
                    }
                    if ownerType.memberNames.contains(context.bridgeName) {
                        manual(.noBridgeToWire, "\(owner) already has a member named '\(context.bridgeName)'")
                        continue
                    }
                    if owned.insert(owner).inserted {
                        let brace = ownerType.mainBlock.leftBrace
                        let at = brace.endPosition.utf8Offset
                        let (indent, _) = ownerType.memberIndentation
                        edits.append(
                            TextEdit(
                                path: ownerType.file.path, range: at..<at,
                                replacement: ownerType.file.newline + indent
                                    + "private let \(context.bridgeName): \(context.configuration.bridgeType) = \(value)"
                            ))
                    }
                }
                edits.append(caller.edit)
                let title = "wire Swift \(owner.map { "type \($0)" } ?? "file \(context.display(file.path))")"
                add(title, edits, [])
            }
        }
    }
}
