import SwiftSyntax

/// Statics and globals that create a bridge (`static let shared = CrashBridge()`).
enum SwiftSingletons {
    static func creations(in tree: SourceFileSyntax, configuration: Configuration) -> [SingletonCreation] {
        final class Collector: SyntaxVisitor {
            var candidates: [VariableDeclSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                let global =
                    node.parent?.is(CodeBlockItemSyntax.self) == true
                    && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
                if global || node.hasModifier(["static", "class"]) { candidates.append(node) }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        var found: [SingletonCreation] = []
        for variable in collector.candidates {
            let ownerName = variable.enclosingTypeName ?? ""
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
                    let value = binding.initializer?.value,
                    let created = createdType(value, owner: ownerName)
                else { continue }
                let typeText = binding.typeAnnotation?.type.trimmedDescription ?? ""
                guard
                    configuration.mentionsBridge(name.text) || configuration.mentionsBridge(created)
                        || configuration.mentionsBridge(typeText)
                else { continue }
                found.append(
                    SingletonCreation(name: name.text, offset: name.startOffset, how: .swiftStatic(created: created)))
            }
        }
        return found
    }

    /// The type an initial value constructs: `T(...)`, `T.init(...)`, `.init(...)`/`Self(...)` in `owner`.
    private static func createdType(_ value: ExprSyntax, owner: String) -> String? {
        final class Calls: SyntaxVisitor {
            var called: [ExprSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                called.append(node.calledExpression); return .visitChildren
            }
        }
        let calls = Calls()
        calls.walk(value)
        for callee in calls.called {
            if let ref = callee.as(DeclReferenceExprSyntax.self) {
                let name = ref.baseName.text
                if name == "Self" { return owner }
                if name.first?.isUppercase == true { return name }
            }
            if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init" {
                return member.base?.trimmedDescription ?? owner
            }
        }
        return nil
    }
}

/// `x.install()`, `x.uninstall()`, `x.setBridge(b)` and `x.bridge = b`, per function and init body, in source order.
enum SwiftLifecycleEvents {
    static func events(in tree: SourceFileSyntax, assignments: [Assignment], configuration: Configuration)
        -> [[LifecycleEvent]]
    {
        let setters = configuration.bridgeSetterNames
        final class Collector: SyntaxVisitor {
            var bodies: [CodeBlockSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                node.body.map { bodies.append($0) }; return .visitChildren
            }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
                node.body.map { bodies.append($0) }; return .visitChildren
            }
        }
        final class Calls: SyntaxVisitor {
            var calls: [FunctionCallExprSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                calls.append(node); return .visitChildren
            }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.bodies.map { body in
            var events: [LifecycleEvent] = []
            let calls = Calls()
            calls.walk(body)
            for call in calls.calls {
                guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else {
                    continue
                }
                let name = member.declName.baseName.text
                if name == "install" {
                    events.append(
                        LifecycleEvent(receiver: base.trimmedDescription, kind: .install, offset: call.startOffset))
                }
                if name == "uninstall" {
                    events.append(
                        LifecycleEvent(receiver: base.trimmedDescription, kind: .uninstall, offset: call.startOffset))
                }
                if setters.contains(name) {
                    events.append(
                        LifecycleEvent(receiver: base.trimmedDescription, kind: .bridgeSet, offset: call.startOffset))
                }
            }
            for assignment in assignments where body.byteRange.contains(assignment.offset) {
                guard assignment.isMember, let base = assignment.base, let name = assignment.name,
                    configuration.isBridgeName(name)
                else { continue }
                events.append(LifecycleEvent(receiver: base, kind: .bridgeSet, offset: assignment.offset))
            }
            return events.sorted { $0.offset < $1.offset }
        }
    }
}

extension SwiftTypeMembers {
    /// Properties an initializer sets from one of its parameters (`self.x = x`).
    func injectedProperties(_ assignments: [Assignment]) -> [String] {
        var result: [String] = []
        for initializer in initializers {
            guard let body = initializer.body else { continue }
            let parameters = Set(
                initializer.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            for assignment in assignments where body.byteRange.contains(assignment.offset) {
                guard let property = assignment.propertyName,
                    let value = assignment.valueName, parameters.contains(value),
                    !result.contains(property)
                else { continue }
                result.append(property)
            }
        }
        return result
    }

    /// Optional `var` bridges of the type, with the first assignment outside an init's own statements.
    func optionalBridges(_ configuration: Configuration, assignments: [Assignment]) -> [OptionalBridgeProperty] {
        func within(_ node: some SyntaxProtocol) -> [Assignment] {
            let range = node.byteRange
            return assignments.filter { range.contains($0.offset) }
        }
        let inits = initializers.compactMap(\.body)
        let initAssignments = inits.flatMap { body in
            let later = deferredClosureRanges(in: body)
            return within(body).filter { a in !later.contains { $0.contains(a.offset) } }
        }
        let initRanges = inits.map(\.byteRange)
        let allAssignments = memberBlocks.flatMap { within($0) }
        var result: [OptionalBridgeProperty] = []
        for property in storedProperties where property.bindingSpecifier.text == "var" {
            for binding in property.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
                    configuration.isBridgeName(name.text), binding.isOptional
                else { continue }
                let outside = allAssignments.first { a in
                    a.propertyName == name.text && contains(a.offset)
                        && !initAssignments.contains { $0.offset == a.offset }
                }
                let offset = outside?.offset
                result.append(
                    OptionalBridgeProperty(
                        name: name.text, offset: name.startOffset,
                        setAfterInit: offset.map { o in (o, initRanges.contains { $0.contains(o) }) },
                        setByInit: initAssignments.contains { $0.propertyName == name.text }))
            }
        }
        return result
    }
}

extension PatternBindingSyntax {
    /// Declared optional (`T?`, `T!`), or initialized to `nil`.
    var isOptional: Bool {
        if let type = typeAnnotation?.type {
            return type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
        }
        return initializer?.value.is(NilLiteralExprSyntax.self) == true
    }
}
