import SwiftSyntax

/// `fix --phase wire` for an Objective-C class with a bridge property built in Swift
/// (`let crash = SentryCrash(basePath: p)`, `self.crash = …`, `crash = …`): the next line sets
/// `crash.bridge = B`, before any other use of the object. `B` is the bridge in reach (a `bridge`
/// parameter of the bridge's type, the type's stored `bridge`: `self.bridge` in a closure), or,
/// in an instance method of a `composition-root` class, struct or actor, a stored
/// `private let bridge: T = <swift-bridge-default>` it is given once. Anything else is listed.
struct CompositionWiringSwiftObjC {
    let context: FixContext
    /// The migrated Objective-C classes (those with a bridge property), by name.
    let classes: Set<String>
    /// The classes wired where a composing type obtains them (`CompositionWiringReceipt`): a
    /// construction that returns one (a provider's `return T(…)`) is wired there, not listed.
    var received: Set<String> = []

    /// Adds each wiring to the group of its composing type (through `add`), each place that
    /// cannot be wired to the manual items; returns the classes it found built.
    func plan(
        _ paths: [String], into plan: inout FixPlan, owned: inout Set<String>,
        add: (String, [TextEdit], [String]) -> Void
    ) -> Set<String> {
        guard !classes.isEmpty else { return [] }
        // Swift subclasses of the classes inherit the property (`class R: SentryCrashInstallation`)
        let superclass = Self.swiftSubclasses(paths, of: classes, context: context)
        let classes = classes.union(superclass.keys)
        var built = Set<String>()
        let bridge = context.bridgeName
        let bridgeType = context.configuration.bridgeType
        for path in paths where classes.contains(where: { context.swiftFilesMentioning($0).contains(path) }) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = Calls(classes)
            calls.walk(file.source.tree)
            for (call, className) in calls.found {
                built.insert(superclass[className] ?? className)
                let (line, column) = file.source.buffer.lineColumn(of: call.startOffset)
                func manual(_ reason: ManualReason, _ why: String) {
                    plan.manual.append(
                        ManualItem(
                            path: context.display(path), line: line, column: column, expression: "\(className)(…)",
                            reason: reason, detail: why))
                }
                guard let (receiver, statement) = Self.kept(call) else {
                    if received.contains(className), Self.isReturned(call) { continue }
                    manual(
                        .wiringPlace,
                        "it is built inside a larger expression (no variable holds it before its first use)")
                    continue
                }
                if Self.setsBridge(receiver, after: statement, bridge: bridge) { continue }
                // the bridge in reach, walking out from the call
                var value: String?
                var inClosure = false
                var node = Syntax(call).parent
                var member: Syntax?
                while let n = node, value == nil {
                    if n.is(ClosureExprSyntax.self) { inClosure = true }
                    let clause =
                        n.as(FunctionDeclSyntax.self)?.signature.parameterClause
                        ?? n.as(InitializerDeclSyntax.self)?.signature.parameterClause
                    if let clause {
                        if clause.parameters.contains(where: {
                            ($0.secondName ?? $0.firstName).text == bridge
                                && $0.type.trimmedDescription.trimmingCharacters(in: ["?", "!"]) == bridgeType
                        }) {
                            value = bridge
                        }
                        member = member ?? n
                    }
                    if n.is(MemberBlockSyntax.self) { break }
                    node = n.parent
                }
                var edits: [TextEdit] = []
                if value == nil {
                    guard let member, !member.is(InitializerDeclSyntax.self),
                        member.as(FunctionDeclSyntax.self)?.modifiers.contains(where: {
                            ["static", "class"].contains($0.name.text)
                        }) != true,
                        let owner = SwiftRunType.enclosingQualifiedName(of: member),
                        let type = SwiftRunType.find(owner, context: context),
                        !type.declaration.is(EnumDeclSyntax.self)
                    else {
                        if let wrapper = wrapperDetail(receiver, className: className, member: member) {
                            manual(.noBridgeToWire, wrapper)
                            continue
                        }
                        manual(
                            .noBridgeToWire,
                            "no \(bridge) in reach here (an initializer, a static member or top-level code): pass one in"
                        )
                        continue
                    }
                    if type.storedProperty(bridge) == nil && !owned.contains(owner) {
                        guard
                            context.mayOwnBridge(type: owner, declaredIn: type.file.path)
                        else {
                            manual(
                                .noBridgeToWire,
                                "\(owner) has no \(bridge) to pass, and may not build one (\(context.notCompositionRoot(owner)))"
                            )
                            continue
                        }
                        guard let made = Self.ownedBridgeDefault(context) else {
                            manual(
                                .noBridgeToWire,
                                "\(owner) may build the \(bridge), but the config names no swift-bridge-default to build it with"
                            )
                            continue
                        }
                        if owned.insert(owner).inserted {
                            let at = type.mainBlock.leftBrace.endPosition.utf8Offset
                            edits.append(
                                TextEdit(
                                    path: type.file.path, range: at..<at,
                                    replacement: type.file.newline + type.memberIndentation.member
                                        + "private let \(bridge): \(bridgeType) = \(made)"))
                        }
                    }
                    value = inClosure || SwiftCallerWiring.declares(bridge, in: member) ? "self.\(bridge)" : bridge
                }
                if receiver == value { continue }
                // an optional variable or property (`var crash: Crash?`) is set through `?.`
                let name = receiver.hasPrefix("self.") ? String(receiver.dropFirst(5)) : receiver
                let access =
                    Self.declaredOptional(name, around: Syntax(call), member: receiver.hasPrefix("self.")) ? "?." : "."
                let at = statement.endPositionBeforeTrailingTrivia.utf8Offset
                edits.append(
                    TextEdit(
                        path: path, range: at..<at,
                        replacement: file.newline + file.indentation(at: statement.startOffset)
                            + "\(receiver)\(access)\(bridge) = \(value!)"))
                let owner = SwiftRunType.enclosingQualifiedName(of: Syntax(call))
                add("wire Swift \(owner.map { "type \($0)" } ?? "file \(context.display(path))")", edits, [])
            }
        }
        return built
    }

    /// Why a wrapper is left: a type that builds the object in its own initializer and keeps it in
    /// a stored property (`sentryCrash = SentryCrash(…)` in `SentryCrashSwift.init`). Fix writes
    /// no forwarding setter on it: the wrapper, not the object, is what others obtain (the
    /// container builds it and hands the same one to every holder), and the object's lifecycle
    /// messages go through the wrapper, so no place of the run is known to come before the
    /// object's first one; a setter called there could set the bridge after `install`.
    private func wrapperDetail(_ receiver: String, className: String, member: Syntax?) -> String? {
        guard let initializer = member?.as(InitializerDeclSyntax.self),
            let owner = SwiftRunType.enclosingQualifiedName(of: Syntax(initializer)),
            let type = SwiftRunType.find(owner, context: context)
        else { return nil }
        let property = receiver.hasPrefix("self.") ? String(receiver.dropFirst(5)) : receiver
        guard type.storedProperty(property) != nil else { return nil }
        let bridge = context.bridgeName
        let builder =
            context.fileBuilding(type.simpleName).map { "built in \(context.display($0))" }
            ?? "built nowhere in the run"
        return
            "\(owner) wraps \(className) in its stored '\(property)', built in its initializer, where no \(bridge) is in reach; fix writes no forwarding setter: \(owner) is \(builder), whoever obtains it may share it, and \(className)'s lifecycle messages go through it, so no place of the run is known to come before its first one: add a setter on \(owner) that sets \(property).\(bridge), and call it where the composition root obtains \(owner), before \(className) is started"
    }

    /// Swift subclasses of the classes in the run's Swift files, with their superclass.
    static func swiftSubclasses(_ paths: [String], of classes: Set<String>, context: FixContext) -> [String: String] {
        var superclass: [String: String] = [:]
        for path in paths {
            guard let file = context.swiftFile(path) else { continue }
            let subclasses = Subclasses(of: classes)
            subclasses.walk(file.source.tree)
            for (sub, base) in subclasses.found { superclass[sub] = base }
        }
        return superclass
    }

    /// What a composing type's own bridge is built with: the configured `swift-bridge-default`,
    /// or the facade `--phase bridge` wrote, built from the container; nil when neither.
    static func ownedBridgeDefault(_ context: FixContext) -> String? {
        let container = context.configuration.containers.lazy.compactMap { spec -> String? in
            if case let .member(type, accessor) = spec { return "\(type).\(accessor)" }
            return nil
        }.first
        return context.configuration.swiftBridgeDefault
            ?? container.flatMap({
                context.generatedSwiftBridge ? BridgeWriter.swiftDefault(container: $0, context) : nil
            })
    }

    /// The object a statement keeps the call's result in (`let x = T(…)`, `x = T(…)`,
    /// `self.x = T(…)`), and that statement (the code block item); nil when the call is part of
    /// a larger expression.
    static func kept(_ call: FunctionCallExprSyntax) -> (String, Syntax)? {
        guard let parent = call.parent else { return nil }
        if let clause = parent.as(InitializerClauseSyntax.self),
            let binding = clause.parent?.as(PatternBindingSyntax.self),
            binding.typeAnnotation.map({ !$0.type.is(OptionalTypeSyntax.self) }) ?? true,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let declaration = binding.parent?.parent?.as(VariableDeclSyntax.self),
            declaration.bindings.count == 1,
            let item = declaration.parent?.as(CodeBlockItemSyntax.self)
        {
            return (name, Syntax(item))
        }
        if let list = parent.as(ExprListSyntax.self), list.count == 3, list.last?.id == call.id,
            list.dropFirst().first?.is(AssignmentExprSyntax.self) == true, let target = list.first,
            target.is(DeclReferenceExprSyntax.self)
                || (target.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription == "self"),
            let sequence = list.parent?.as(SequenceExprSyntax.self),
            let item = sequence.parent?.as(CodeBlockItemSyntax.self)
        {
            return (target.trimmedDescription, Syntax(item))
        }
        if let infix = parent.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self),
            infix.rightOperand.id == call.id,
            infix.leftOperand.is(DeclReferenceExprSyntax.self)
                || infix.leftOperand.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription == "self",
            let item = infix.parent?.as(CodeBlockItemSyntax.self)
        {
            return (infix.leftOperand.trimmedDescription, Syntax(item))
        }
        return nil
    }

    /// Whether the call is what its function or getter returns (`return T(…)`, a body of that one
    /// expression).
    static func isReturned(_ call: FunctionCallExprSyntax) -> Bool {
        guard let parent = call.parent else { return false }
        if parent.is(ReturnStmtSyntax.self) { return true }
        guard let item = parent.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
            list.count == 1
        else { return false }
        let holder = list.parent
        return holder?.parent?.is(FunctionDeclSyntax.self) == true || holder?.is(AccessorBlockSyntax.self) == true
            || holder?.parent?.is(AccessorDeclSyntax.self) == true
    }

    /// Whether a variable or stored property named `name` that the code around `node` sees is
    /// declared with an optional type (`var crash: Crash?`); `member`: only a property (`self.x`).
    static func declaredOptional(_ name: String, around node: Syntax, member: Bool) -> Bool {
        final class Finder: SyntaxVisitor {
            let name: String
            var optional: Bool?
            init(_ name: String) { self.name = name; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                if optional == nil, node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                    optional = node.typeAnnotation?.type.is(OptionalTypeSyntax.self) ?? false
                }
                return .visitChildren
            }
        }
        var current = node.parent
        while let n = current {
            if (n.is(CodeBlockSyntax.self) && !member) || n.is(MemberBlockSyntax.self) {
                let finder = Finder(name)
                finder.walk(n)
                if let optional = finder.optional { return optional }
            }
            current = n.parent
        }
        return false
    }

    /// Whether the statement right after `statement` sets the object's bridge already.
    static func setsBridge(_ receiver: String, after statement: Syntax, bridge: String) -> Bool {
        guard let item = statement.as(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self),
            let index = list.firstIndex(where: { $0.id == item.id })
        else { return false }
        let next = list.index(after: index)
        guard next < list.endIndex else { return false }
        let text = list[next].item.trimmedDescription.replacingOccurrences(of: " ", with: "")
        return text.hasPrefix("\(receiver).\(bridge)=") || text.hasPrefix("\(receiver)?.\(bridge)=")
    }

    /// Swift classes whose superclass is one of the classes, with it.
    final class Subclasses: SyntaxVisitor {
        let classes: Set<String>
        var found: [(String, String)] = []
        init(of classes: Set<String>) { self.classes = classes; super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            if let first = node.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription,
                classes.contains(first)
            {
                found.append((node.name.text, first))
            }
            return .visitChildren
        }
    }

    /// `T(…)` and `T.init(…)` of the classes, with the class.
    final class Calls: SyntaxVisitor {
        let classes: Set<String>
        var found: [(FunctionCallExprSyntax, String)] = []
        init(_ classes: Set<String>) { self.classes = classes; super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            var callee = node.calledExpression.trimmedDescription
            if callee.hasSuffix(".init") { callee.removeLast(5) }
            if classes.contains(callee) { found.append((node, callee)) }
            return .visitChildren
        }
    }
}
