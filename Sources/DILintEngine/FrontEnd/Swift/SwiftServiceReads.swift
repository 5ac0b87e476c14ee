import SwiftSyntax

/// What `di-lint report` needs of a Swift file to count service-style injected accesses
/// (`ServiceInjection`): the typed members its type declarations declare (where the container's
/// services and their types are found), and the reads of a stored property or an initializer
/// parameter with a written type.
enum SwiftServiceReads {
    static func facts(of model: SwiftFileModel) -> ServiceInjectionFacts {
        let tree = model.tree
        let members = MemberCollector()
        members.walk(tree)
        let reads = ReadCollector(
            model: model, storedByType: members.storedByType,
            typeMembers: SwiftAccessForms.memberNames(in: tree))
        reads.walk(tree)
        return ServiceInjectionFacts(members: members.members, reads: reads.reads)
    }

    /// `Module.Type` → `Type`.
    static func simpleName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The type a member's declaration says: its annotation, the type its initial value builds
    /// (`let tabs = TabStore()`), or a method's result without parameters.
    private static func memberType(_ decl: DeclSyntax, name: String) -> String? {
        if let variable = decl.as(VariableDeclSyntax.self) {
            guard
                let binding = variable.bindings.first(where: {
                    $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
                })
            else { return nil }
            if let annotation = binding.typeAnnotation {
                return SwiftAccessForms.typeName(annotation.type.trimmedDescription)
            }
            return builtType(binding.initializer?.value)
        }
        if let function = decl.as(FunctionDeclSyntax.self), function.signature.parameterClause.parameters.isEmpty,
            let result = function.signature.returnClause
        {
            return SwiftAccessForms.typeName(result.type.trimmedDescription)
        }
        return nil
    }

    /// `TabStore()` → `TabStore`.
    static func builtType(_ value: ExprSyntax?) -> String? {
        guard let call = value?.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
            callee.baseName.text.first?.isUppercase == true
        else { return nil }
        return callee.baseName.text
    }

    /// Every typed member of every class, struct, enum, actor, protocol and extension.
    private final class MemberCollector: SyntaxVisitor {
        var members: [ServiceInjectionFacts.Member] = []
        /// Per type name (simple), its stored properties' types, from every declaration in the file.
        var storedByType: [String: [String: String]] = [:]
        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
            SwiftAccessForms.isDeadClause(node) ? .skipChildren : .visitChildren
        }

        override func visit(_ node: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
            let owner: String?
            if let group = node.parent?.asProtocol(DeclGroupSyntax.self) {
                owner =
                    group.as(ProtocolDeclSyntax.self)?.name.text
                    ?? SwiftAccessForms.declaredTypeName(group).map(SwiftServiceReads.simpleName)
            } else {
                owner = nil
            }
            guard let owner else { return .visitChildren }
            for item in node.members {
                let decl = item.decl
                var names: [String] = []
                var isStatic = false
                if let variable = decl.as(VariableDeclSyntax.self) {
                    names = variable.bindings.compactMap {
                        $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                    }
                    isStatic = variable.modifiers.contains { ["static", "class"].contains($0.name.text) }
                } else if let function = decl.as(FunctionDeclSyntax.self) {
                    names = [function.name.text]
                    isStatic = function.modifiers.contains { ["static", "class"].contains($0.name.text) }
                }
                for name in names {
                    guard let type = SwiftServiceReads.memberType(decl, name: name) else { continue }
                    members.append(.init(owner: owner, name: name, type: type, isStatic: isStatic))
                    if SwiftAccessForms.isStoredProperty(decl) { storedByType[owner, default: [:]][name] = type }
                }
            }
            return .visitChildren
        }
    }

    /// Reads of stored properties (`tabs`, `self.tabs`, `self?.tabs`) and initializer parameters
    /// with a written type, outside the composition root. Writes (`self.tabs = …`) and the store
    /// of an initializer parameter into a property (`self.tabs = tabs`) are not reads.
    private final class ReadCollector: SyntaxVisitor {
        let model: SwiftFileModel
        let storedByType: [String: [String: String]]
        let typeMembers: [String: Set<String>]
        let finder: SwiftContainerAccessFinder
        let inRootPath: Bool
        var reads: [ServiceInjectionFacts.Read] = []

        init(model: SwiftFileModel, storedByType: [String: [String: String]], typeMembers: [String: Set<String>]) {
            self.model = model
            self.storedByType = storedByType
            self.typeMembers = typeMembers
            finder = SwiftContainerAccessFinder(configuration: model.configuration)
            inRootPath = model.configuration.isCompositionRootPath(model.displayPath)
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
            SwiftAccessForms.isDeadClause(node) ? .skipChildren : .visitChildren
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            guard !inRootPath else { return .skipChildren }
            let name = node.baseName.text
            guard let first = name.first, first.isLowercase || first == "_", name != "self" else {
                return .visitChildren
            }
            var expression = ExprSyntax(node)
            var onSelf = false
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
                var base = member.base
                while let b = base, b.is(OptionalChainingExprSyntax.self) || b.is(ForceUnwrapExprSyntax.self) {
                    base =
                        b.as(OptionalChainingExprSyntax.self)?.expression
                        ?? b.as(ForceUnwrapExprSyntax.self)?.expression
                }
                guard base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" else { return .visitChildren }
                onSelf = true
                expression = ExprSyntax(member)
            }
            if Self.isAssigned(expression) { return .visitChildren }
            guard
                let declaration = SwiftAccessForms.nearestDeclaration(
                    of: name, at: Syntax(node), onSelf: onSelf, typeMembers: typeMembers)
            else { return .visitChildren }
            let type: String?
            switch declaration.place {
            case .storedProperty:
                type = declaration.type ?? SwiftServiceReads.builtType(declaration.value)
            case .memberElsewhere:
                type = node.enclosingTypeName.flatMap { storedByType[SwiftServiceReads.simpleName($0)]?[name] }
            case .initializerParameter:
                type = Self.storesIntoProperty(expression) ? nil : declaration.type
            default:
                type = nil
            }
            guard let type, !finder.isInCompositionRoot(Syntax(node)) else { return .visitChildren }
            let (line, column) = model.buffer.lineColumn(of: expression.positionAfterSkippingLeadingTrivia.utf8Offset)
            reads.append(
                .init(
                    line: line, column: column, name: name, type: type, enclosing: Self.enclosingTypes(of: Syntax(node))
                ))
            return .visitChildren
        }

        /// The left side of `=`.
        private static func isAssigned(_ expression: ExprSyntax) -> Bool {
            guard let list = expression.parent?.as(ExprListSyntax.self),
                let i = list.firstIndex(where: { $0.id == expression.id })
            else { return false }
            let next = list.index(after: i)
            return next != list.endIndex && list[next].is(AssignmentExprSyntax.self)
        }

        /// The whole right side of `self.x = expression`.
        private static func storesIntoProperty(_ expression: ExprSyntax) -> Bool {
            guard let list = expression.parent?.as(ExprListSyntax.self), list.count == 3,
                list.last?.id == expression.id,
                list[list.index(after: list.startIndex)].is(AssignmentExprSyntax.self),
                let target = list.first?.as(MemberAccessExprSyntax.self)
            else { return false }
            return target.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
        }

        /// The enclosing types' names (innermost first) and the types they inherit from or conform to.
        private static func enclosingTypes(of node: Syntax) -> [String] {
            var names: [String] = []
            var current = node.parent
            while let n = current {
                if let group = n.asProtocol(DeclGroupSyntax.self) {
                    if let name = SwiftAccessForms.declaredTypeName(group) {
                        names.append(SwiftServiceReads.simpleName(name))
                    }
                    for inherited in group.inheritanceClause?.inheritedTypes ?? [] {
                        names.append(SwiftServiceReads.simpleName(inherited.type.trimmedDescription))
                    }
                }
                current = n.parent
            }
            return names
        }
    }
}
