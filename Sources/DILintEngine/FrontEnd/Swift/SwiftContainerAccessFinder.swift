import SwiftSyntax

/// Finds container accesses in Swift: `C.sharedInstance()`, `C.shared.service`,
/// `C.shared().service`, `container_shared().pointee.service`, and any static member of a helper
/// type named in `container-access`'s `swift-helper-types` option. An access on the fallback side
/// of a bridge check (`bridge?.x ?? C.shared.x`, the `else` of `if let bridge`, a ternary or
/// `guard` on the bridge, the default value of a bridge parameter) is classified `.fallback`; one inside the configured composition root
/// `.compositionRoot`. Services read through the bridge (`bridge.x`, `self.bridge?.x`) are
/// added as `.injected` accesses, as on the C side.
struct SwiftContainerAccessFinder {
    private var accessorsByType: [String: Set<String>] = [:]
    private var functions: Set<String> = []
    private var globals: Set<String> = []
    private var wrappers: Set<String> = []
    private var ambient: Set<String> = []
    private let bridgeNames: Set<String>
    private let configuration: Configuration

    init(configuration: Configuration) {
        for spec in configuration.accessSpecs {
            switch spec {
            case let .member(type, accessor), let .template(type, accessor):
                accessorsByType[type, default: []].insert(accessor)
            case let .function(name): functions.insert(name)
            case let .global(name): globals.insert(name)
            case let .propertyWrapper(name): wrappers.insert(name)
            case let .ambient(name): ambient.insert(name)
            }
        }
        bridgeNames = configuration.bridgeNamesWithIvars
        self.configuration = configuration
    }

    /// The accessor `member` of `type` matches (itself), or nil.
    fileprivate func matches(type: String, member: String) -> Bool {
        guard let accessors = accessorsByType[type] else { return false }
        // `hasEnabledOption:` is `hasEnabledOption(_:)`
        return accessors.contains(member) || accessors.contains(member + ":")
            || accessors.contains("*") && !memberWildcardExclusions.contains(member)
    }

    func find(in tree: SourceFileSyntax, displayPath: String = "") -> [LocatedAccess] {
        let visitor = Visitor(finder: self, aliases: SwiftAccessForms.aliases(in: tree) { accessorsByType[$0] != nil })
        visitor.walk(tree)
        let inRootPath = !displayPath.isEmpty && configuration.isCompositionRootPath(displayPath)
        return visitor.found.compactMap { found in
            var located = found.located
            if located.access.kind != .injected, isAccessorDefinition(found.node, located.access) { return nil }
            if located.access.kind != .injected,
                inRootPath || isInCompositionRoot(found.node) || isOwnedBridgeCreation(found.node)
            {
                located.access.kind = .compositionRoot
            }
            return located
        }.sorted { $0.offset < $1.offset }
    }

    /// Inside the accessor's own definition (`static var shared: Container { … }` in `Container`).
    private func isAccessorDefinition(_ node: Syntax, _ access: ContainerAccess) -> Bool {
        guard node.enclosingTypeName == access.container else { return false }
        var current = node.parent
        while let n = current {
            if let function = n.as(FunctionDeclSyntax.self) { return function.name.text == access.accessor }
            if let variable = n.as(VariableDeclSyntax.self) {
                return variable.bindings.contains {
                    $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == access.accessor
                }
            }
            current = n.parent
        }
        return false
    }

    /// The argument building a type's own bridge once, in a stored instance property of the bridge
    /// type (`private let bridge: B = B(services: Container.shared)`): the composition root's read
    /// when the config names no composition root (`fix --phase wire` infers the root and writes this).
    private func isOwnedBridgeCreation(_ node: Syntax) -> Bool {
        // a configured composition root says which types may build the bridge
        guard !configuration.compositionRootNamesCode, configuration.compositionRoot.paths.isEmpty else { return false }
        var current = node.parent
        var previous = node
        // out through the argument, member reads and the accessor's own call (`C.sharedInstance()`)
        while let n = current,
            n.is(LabeledExprSyntax.self) || n.is(LabeledExprListSyntax.self) || n.is(MemberAccessExprSyntax.self)
                || n.as(FunctionCallExprSyntax.self).map({
                    $0.calledExpression.id == previous.id && $0.arguments.isEmpty && $0.trailingClosure == nil
                }) == true
        {
            previous = n
            current = n.parent
        }
        guard let call = current?.as(FunctionCallExprSyntax.self),
            call.calledExpression.trimmedDescription == configuration.bridgeType,
            let clause = call.parent?.as(InitializerClauseSyntax.self),
            let binding = clause.parent?.as(PatternBindingSyntax.self),
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            bridgeNames.contains(name),
            let variable = binding.parent?.parent?.as(VariableDeclSyntax.self),
            variable.parent?.is(MemberBlockItemSyntax.self) == true,
            !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
        else { return false }
        return true
    }

    /// Inside a function, initializer or type the config names as the composition root.
    func isInCompositionRoot(_ node: Syntax) -> Bool {
        guard configuration.compositionRootNamesCode else { return false }
        if let typeName = node.enclosingTypeName, configuration.isCompositionRootType(typeName) { return true }
        var current = node.parent
        while let n = current {
            let name = n.as(FunctionDeclSyntax.self)?.name.text ?? (n.is(InitializerDeclSyntax.self) ? "init" : nil)
            if let name, configuration.isCompositionRootFunction(name) { return true }
            current = n.parent
        }
        return false
    }

    private final class Visitor: SyntaxVisitor {
        let finder: SwiftContainerAccessFinder
        let aliases: [String: String]
        var found: [(located: LocatedAccess, node: Syntax)] = []
        /// Per type, the members its declarations in the file declare (for ambient names), built on first use.
        private var typeMembers: [String: Set<String>]?
        private func membersByType(from node: Syntax) -> [String: Set<String>] {
            if let typeMembers { return typeMembers }
            let built = node.root.as(SourceFileSyntax.self).map(SwiftAccessForms.memberNames(in:)) ?? [:]
            typeMembers = built
            return built
        }

        init(finder: SwiftContainerAccessFinder, aliases: [String: String]) {
            self.finder = finder
            self.aliases = aliases
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
            SwiftAccessForms.isDeadClause(node) ? .skipChildren : .visitChildren
        }

        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            if let bridge = finder.bridgeReference(node.base),
                finder.isBridge(
                    SwiftAccessForms.nearestDeclaration(
                        of: bridge.name, at: Syntax(node), onSelf: bridge.onSelf,
                        typeMembers: membersByType(from: Syntax(node))))
            {
                injected(node, bridge: bridge.name)
            }
            guard let base = node.base else { return .visitChildren }
            let member = node.declName.baseName.text
            if let type = SwiftAccessForms.containerType(
                of: base, known: { self.finder.accessorsByType[$0] != nil }, aliases: aliases, at: Syntax(node)),
                finder.matches(type: type, member: member)
            {
                record(Syntax(node), container: type, accessor: member)
                return .skipChildren // `MyModule.Container` is not a second access
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self),
                finder.functions.contains(callee.baseName.text)
            {
                record(Syntax(node), container: callee.baseName.text, accessor: callee.baseName.text)
            }
            return .visitChildren
        }

        /// A global holding the container: `gContainer.service`; an ambient property read on `self`.
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            let name = node.baseName.text
            if finder.ambient.contains(name) {
                if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
                    guard member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self",
                        !SwiftAccessForms.isDeclaredNearer(
                            name, than: Syntax(node), onSelf: true,
                            typeMembers: membersByType(from: Syntax(node)))
                    else { return .visitChildren }
                    record(Syntax(member), container: ambientContainerName, accessor: "", service: name)
                } else if !SwiftAccessForms.isDeclaredNearer(
                    name, than: Syntax(node), onSelf: false, typeMembers: membersByType(from: Syntax(node)))
                {
                    record(Syntax(node), container: ambientContainerName, accessor: "", service: name)
                }
                return .visitChildren
            }
            guard finder.globals.contains(name) else { return .visitChildren }
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
                return .visitChildren
            }
            if let list = node.parent?.as(ExprListSyntax.self), let i = list.firstIndex(where: { $0.id == node.id }),
                list.index(after: i) != list.endIndex, list[list.index(after: i)].is(AssignmentExprSyntax.self)
            {
                return .visitChildren
            }
            record(Syntax(node), container: name, accessor: "")
            return .visitChildren
        }

        /// `@Injected var tabManager: TabManager`: the declared type is the service.
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            for case let attribute? in node.attributes.map({ $0.as(AttributeSyntax.self) }) {
                let name = attribute.attributeName.trimmedDescription
                guard finder.wrappers.contains(name) else { continue }
                let service = node.bindings.first?.typeAnnotation.flatMap {
                    SwiftAccessForms.typeName($0.type.trimmedDescription)
                }
                let access = ContainerAccess(container: name, accessor: "@" + name, service: service)
                found.append(
                    (
                        LocatedAccess(
                            offset: attribute.positionAfterSkippingLeadingTrivia.utf8Offset,
                            range: attribute.positionAfterSkippingLeadingTrivia
                                .utf8Offset..<attribute.endPositionBeforeTrailingTrivia.utf8Offset,
                            access: access, tokenIndex: nil), Syntax(attribute)
                    ))
            }
            return .visitChildren
        }

        private func record(_ node: Syntax, container: String, accessor: String, service known: String? = nil) {
            var end = node
            // `C.shared()`: the call is part of the access
            if let call = end.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == end.id {
                end = Syntax(call)
            }
            let service = known ?? finder.service(after: end)
            // `init(tabs: TabStore = Container.shared.tabs)`: the service style's transition form
            // (`ServiceLocator.analytics` under `ServiceLocator.*`: the accessor is the service read)
            let read = SwiftServiceRead.expression(
                end: end, wildcard: finder.accessorsByType[container].map { !$0.contains(accessor) } ?? false)
            let kind =
                SwiftServiceRead.initializerParameter(defaultingTo: read) != nil ? .fallback : finder.kind(of: node)
            let access = ContainerAccess(container: container, accessor: accessor, service: service, kind: kind)
            found.append(
                (
                    LocatedAccess(
                        offset: node.startOffset, range: node.startOffset..<end.endOffset, access: access,
                        tokenIndex: nil), node
                ))
        }

        /// `bridge.service` read (not assigned) through the injected bridge.
        private func injected(_ node: MemberAccessExprSyntax, bridge: String) {
            if let list = node.parent?.as(ExprListSyntax.self), let i = list.firstIndex(where: { $0.id == node.id }),
                list.index(after: i) != list.endIndex, list[list.index(after: i)].is(AssignmentExprSyntax.self)
            {
                return
            }
            let name = bridge.hasPrefix("_") ? String(bridge.dropFirst()) : bridge
            let access = ContainerAccess(
                container: name, accessor: name, service: node.declName.baseName.text, kind: .injected)
            found.append(
                (
                    LocatedAccess(offset: node.startOffset, range: node.byteRange, access: access, tokenIndex: nil),
                    Syntax(node)
                ))
        }
    }

    /// The bridge name when `base` is `bridge`, `self.bridge`, `bridge?` or `bridge!`; `onSelf` for `self.bridge`.
    private func bridgeReference(_ base: ExprSyntax?) -> (name: String, onSelf: Bool)? {
        var expression = base
        if let wrapped = expression?.as(OptionalChainingExprSyntax.self) { expression = wrapped.expression }
        if let wrapped = expression?.as(ForceUnwrapExprSyntax.self) { expression = wrapped.expression }
        if let ref = expression?.as(DeclReferenceExprSyntax.self), bridgeNames.contains(ref.baseName.text) {
            return (ref.baseName.text, false)
        }
        if let member = expression?.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self",
            bridgeNames.contains(member.declName.baseName.text)
        {
            return (member.declName.baseName.text, true)
        }
        return nil
    }

    /// A name of the `bridge` list is the bridge where the file declares it as one — of the
    /// bridge type, a provider or services protocol, a protocol composition, built from one, or
    /// bound from another bridge (`if let bridge = self.bridge`) — or where the file cannot tell:
    /// declared nowhere in reach (a parameter or property of code the file does not show), a
    /// closure's untyped parameter, a member declared elsewhere in the file. A `String` parameter
    /// or a local of another value that happens to be named `bridge` is not.
    fileprivate func isBridge(_ declaration: SwiftAccessForms.Declaration?, depth: Int = 0) -> Bool {
        guard let declaration else { return true }
        if declaration.opaque { return true }
        if let type = declaration.type { return isBridgeType(type) }
        guard var value = declaration.value, depth < 8 else { return false }
        while true { // `self.bridge!`, `bridge as? CrashBridge`, `(bridge)`
            if let wrapped = value.as(ForceUnwrapExprSyntax.self) { value = wrapped.expression; continue }
            if let wrapped = value.as(OptionalChainingExprSyntax.self) { value = wrapped.expression; continue }
            if let tuple = value.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
                value = only.expression; continue
            }
            if let cast = value.as(AsExprSyntax.self) { return isBridgeType(cast.type.trimmedDescription) }
            if let sequence = value.as(SequenceExprSyntax.self), sequence.elements.count == 3, // unfolded `x as? T`
                sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
                let type = sequence.elements.last?.as(TypeExprSyntax.self)
            {
                return isBridgeType(type.type.trimmedDescription)
            }
            break
        }
        if let reference = bridgeReference(value) {
            return isBridge(
                SwiftAccessForms.nearestDeclaration(of: reference.name, at: Syntax(value), onSelf: reference.onSelf),
                depth: depth + 1)
        }
        if let member = value.as(MemberAccessExprSyntax.self), bridgeNames.contains(member.declName.baseName.text) {
            return true // `integration.bridge`: another object's bridge
        }
        if let call = value.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
            callee.baseName.text.first?.isUppercase == true
        {
            return isBridgeType(callee.baseName.text) // `let bridge = CrashBridge(…)`; `String(…)` is not
        }
        return false
    }

    private func isBridgeType(_ spelling: String) -> Bool {
        if spelling.contains("&") { return true } // a composition of providers
        guard let spelling = SwiftAccessForms.typeName(spelling) else { return false }
        let name =
            spelling.split(separator: "<").first.map { $0.split(separator: ".").last.map(String.init) ?? "" }
            ?? spelling
        return configuration.isBridgeTypeName(name)
    }

    /// The member the access goes on to: `.crashReporter` in `C.shared.crashReporter`,
    /// through `?`, `!` and `.pointee`.
    private func service(after end: Syntax) -> String? {
        var node = end
        while let parent = node.parent {
            if parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self) {
                node = parent
                continue
            }
            guard let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == node.id else { return nil }
            let name = member.declName.baseName.text
            if name == "pointee" { node = parent; continue }
            if name.hasPrefix("resolve"), let type = SwiftAccessForms.resolvedType(ofCallAfter: member) { return type }
            return name
        }
        return nil
    }

    /// `.fallback` when the access only runs because the bridge is absent.
    private func kind(of node: Syntax) -> AccessKind {
        var child = node
        while let parent = child.parent {
            if let list = parent.as(ExprListSyntax.self) {
                let elements = Array(list)
                if let i = elements.firstIndex(where: { $0.id == child.id }), i >= 2 {
                    let op = elements[i - 1]
                    let isCoalescing = op.as(BinaryOperatorExprSyntax.self)?.operator.text == "??"
                    if (isCoalescing || op.is(UnresolvedTernaryExprSyntax.self))
                        && elements[..<(i - 1)].contains(where: { $0.mentions(bridgeNames) })
                    {
                        return .fallback
                    }
                }
            }
            if let branch = parent.as(IfExprSyntax.self), let elseBody = branch.elseBody,
                Syntax(elseBody).id == child.id,
                branch.conditions.mentions(bridgeNames)
            {
                return .fallback
            }
            if let guardStatement = parent.as(GuardStmtSyntax.self), guardStatement.body.id == child.id,
                guardStatement.conditions.mentions(bridgeNames)
            {
                return .fallback
            }
            // `init(bridge: Bridge = Container.shared)`: the default runs only for a caller passing no bridge
            if let parameter = parent.as(FunctionParameterSyntax.self), parameter.defaultValue?.id == child.id,
                bridgeNames.contains((parameter.secondName ?? parameter.firstName).text)
            {
                return .fallback
            }
            if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self)
                || parent.is(ClosureExprSyntax.self)
            {
                break
            }
            child = parent
        }
        return .direct
    }
}
