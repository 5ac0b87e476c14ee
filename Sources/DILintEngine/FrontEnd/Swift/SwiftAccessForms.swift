import SwiftSyntax

/// The Swift spellings of a container type and of a service that the access finder reads:
/// `MyModule.Container`, `Container<Foo>`, a file's `typealias C = Container`, `Self` inside the
/// container type; the type a generic `resolve()` returns where the code writes it; dead
/// `#if false` clauses.
enum SwiftAccessForms {
    /// The configured type a member access's base names, or nil.
    static func containerType(of base: ExprSyntax, known: (String) -> Bool, aliases: [String: String], at node: Syntax)
        -> String?
    {
        if let generic = base.as(GenericSpecializationExprSyntax.self) {
            // Container<Foo>.shared
            return containerType(of: generic.expression, known: known, aliases: aliases, at: node)
        }
        if let ref = base.as(DeclReferenceExprSyntax.self) {
            let name = ref.baseName.text
            // Self.shared in the type
            if name == "Self" { return node.enclosingTypeName.flatMap { known($0) ? $0 : nil } }
            if known(name) { return name }
            return aliases[name]
        }
        if let qualified = base.as(MemberAccessExprSyntax.self),
            qualified.base?.is(DeclReferenceExprSyntax.self) == true
        {
            let name = qualified.declName.baseName.text
            return known(name) ? name : nil // MyModule.Container.shared
        }
        return nil
    }

    /// `typealias C = Container` / `= MyModule.Container` / `= Container<Foo>` in the file, by alias name.
    static func aliases(in tree: SourceFileSyntax, known: @escaping (String) -> Bool) -> [String: String] {
        final class Collector: SyntaxVisitor {
            var found: [String: String] = [:]
            let known: (String) -> Bool
            init(known: @escaping (String) -> Bool) { self.known = known; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
                var type = node.initializer.value
                if let member = type.as(MemberTypeSyntax.self) { type = TypeSyntax(member) }
                let name: String?
                if let identifier = type.as(IdentifierTypeSyntax.self) {
                    name = identifier.name.text
                } else {
                    name = type.as(MemberTypeSyntax.self)?.name.text
                }
                if let name, known(name) { found[node.name.text] = name }
                return .skipChildren
            }
        }
        let collector = Collector(known: known)
        collector.walk(tree)
        return collector.found
    }

    /// For a service reached by a call named `resolve…`: the type the code writes for the result
    /// (`resolve<T>()`, `resolve(T.self)`, `… as T`, `let x: T = …`, a parameter's default value
    /// `p: T = …`, `return …` or a single-expression body of a getter, function or closure
    /// declaring `T`, `x = …` / `self.x = …` to a variable or stored property declared `: T`), or nil.
    static func resolvedType(ofCallAfter member: MemberAccessExprSyntax) -> String? {
        var called = Syntax(member)
        if let generic = member.parent?.as(GenericSpecializationExprSyntax.self) {
            if let argument = generic.genericArgumentClause.arguments.first {
                return typeName(argument.argument.trimmedDescription)
            }
            called = Syntax(generic)
        }
        guard let call = called.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == called.id else {
            return nil
        }
        if let first = call.arguments.first?.expression.as(MemberAccessExprSyntax.self),
            first.declName.baseName.text == "self",
            let base = first.base
        {
            return typeName(base.trimmedDescription) // resolve(TabManager.self)
        }
        var node = Syntax(call)
        while let parent = node.parent {
            if parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self)
                || parent.is(TryExprSyntax.self)
                || parent.is(AwaitExprSyntax.self)
            {
                node = parent
                continue
            }
            if let cast = parent.as(AsExprSyntax.self) { return typeName(cast.type.trimmedDescription) }
            if let list = parent.as(ExprListSyntax.self) {
                // unfolded `x as T`: [x, as, T]
                let elements = Array(list)
                if let i = elements.firstIndex(where: { $0.id == node.id }), i + 2 < elements.count,
                    elements[i + 1].is(UnresolvedAsExprSyntax.self), let type = elements[i + 2].as(TypeExprSyntax.self)
                {
                    return typeName(type.type.trimmedDescription)
                }
                // unfolded `x = C.shared.resolve()`: [x, =, call]
                if elements.count == 3, elements[2].id == node.id, elements[1].is(AssignmentExprSyntax.self) {
                    return assignedType(elements[0], at: Syntax(list))
                }
                return nil
            }
            if parent.is(InitializerClauseSyntax.self), let binding = parent.parent?.as(PatternBindingSyntax.self),
                let annotation = binding.typeAnnotation
            {
                return typeName(annotation.type.trimmedDescription) // let x: TabManager = C.shared.resolve()
            }
            if parent.is(InitializerClauseSyntax.self), let parameter = parent.parent?.as(FunctionParameterSyntax.self)
            {
                return typeName(parameter.type.trimmedDescription) // init(tabs: TabManager = C.shared.resolve())
            }
            // return C.shared.resolve()
            if parent.is(ReturnStmtSyntax.self) { return declaredResultType(enclosing: parent) }
            if let item = parent.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
                list.count == 1,
                let body = list.parent,
                body.is(AccessorBlockSyntax.self) || body.is(ClosureExprSyntax.self)
                    || (body.is(CodeBlockSyntax.self)
                        && (body.parent?.is(FunctionDeclSyntax.self) == true
                            || body.parent?.is(AccessorDeclSyntax.self) == true))
            {
                return declaredResultType(enclosing: Syntax(list)) // var p: Profile { C.shared.resolve() }
            }
            return nil
        }
        return nil
    }

    /// The result type of the getter, function, subscript or closure whose body holds `node`
    /// (nil for one without a declared type, a setter, an initializer).
    private static func declaredResultType(enclosing node: Syntax) -> String? {
        var current = node.parent
        while let n = current {
            if let closure = n.as(ClosureExprSyntax.self) {
                return closure.signature?.returnClause.flatMap { typeName($0.type.trimmedDescription) }
            }
            if let function = n.as(FunctionDeclSyntax.self) {
                return function.signature.returnClause.flatMap { typeName($0.type.trimmedDescription) }
            }
            if let subscriptDecl = n.as(SubscriptDeclSyntax.self) {
                return typeName(subscriptDecl.returnClause.type.trimmedDescription)
            }
            if let accessor = n.as(AccessorDeclSyntax.self), accessor.accessorSpecifier.tokenKind != .keyword(.get) {
                return nil
            }
            if let block = n.as(AccessorBlockSyntax.self) {
                if let binding = block.parent?.as(PatternBindingSyntax.self) {
                    return binding.typeAnnotation.flatMap { typeName($0.type.trimmedDescription) } // var x: T { … }
                }
                if let subscriptDecl = block.parent?.as(SubscriptDeclSyntax.self) {
                    return typeName(subscriptDecl.returnClause.type.trimmedDescription)
                }
                return nil
            }
            if n.is(InitializerDeclSyntax.self) || n.is(DeinitializerDeclSyntax.self) || n.is(MemberBlockSyntax.self)
                || n.is(SourceFileSyntax.self)
            {
                return nil
            }
            current = n.parent
        }
        return nil
    }

    /// The declared type of the target of `x = …` / `self.x = …`: a `var x: T` earlier in an
    /// enclosing code block, else a stored property `x: T` of the enclosing type; nil otherwise.
    private static func assignedType(_ target: ExprSyntax, at node: Syntax) -> String? {
        let name: String
        var local = true
        if let ref = target.as(DeclReferenceExprSyntax.self) {
            name = ref.baseName.text
        } else if let member = target.as(MemberAccessExprSyntax.self),
            member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
        {
            name = member.declName.baseName.text
            local = false
        } else {
            return nil
        }
        func declared(in decl: DeclSyntax) -> (found: Bool, type: String?) {
            guard let variable = decl.as(VariableDeclSyntax.self) else { return (false, nil) }
            for binding in variable.bindings
            where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                return (true, binding.typeAnnotation.flatMap { typeName($0.type.trimmedDescription) })
            }
            return (false, nil)
        }
        var current = node.parent
        while let n = current {
            if local, let list = n.as(CodeBlockItemListSyntax.self) {
                for item in list {
                    if item.position >= node.position { break }
                    if let decl = item.item.as(DeclSyntax.self) {
                        let result = declared(in: decl)
                        if result.found { return result.type } // a local declaration hides the property
                    }
                }
            }
            if let group = n.asProtocol(DeclGroupSyntax.self) {
                for member in group.memberBlock.members {
                    let result = declared(in: member.decl)
                    if result.found { return result.type }
                }
                return nil
            }
            current = n.parent
        }
        return nil
    }

    /// Whether `name` at `node` means something declared nearer than an ambient (base-class
    /// extension) property, as Swift's lookup finds it: a member of the enclosing type itself
    /// (`self.name` looks only there), or, for a bare name, a parameter of the enclosing function,
    /// initializer, subscript or closure, a local declared earlier in an enclosing block, or an
    /// `if let` / `guard let` / `while let` binding.
    /// `typeMembers`: per type name, what its declarations and extensions in the file declare
    /// (`memberNames(in:)`); a nested type's bare name also finds an outer type's members.
    static func isDeclaredNearer(
        _ name: String, than node: Syntax, onSelf: Bool, typeMembers: [String: Set<String>] = [:]
    ) -> Bool {
        nearestDeclaration(of: name, at: node, onSelf: onSelf, typeMembers: typeMembers) != nil
    }

    /// What declares a name, as far as the file shows it: its annotated type (`typeName`'s
    /// spelling) and initial value, either of which may be absent; `opaque` when the file gives
    /// no way to tell (a member declared in another declaration of the type, a closure's
    /// untyped parameter).
    struct Declaration {
        var type: String?
        var value: ExprSyntax?
        var opaque = false
        /// Where the name is declared.
        var place: Place = .local

        enum Place {
            /// A local, an `if let` / `guard let` / `for` binding.
            case local
            /// A stored instance property of the enclosing type (no getter; observers allowed).
            case storedProperty
            /// Another member of the enclosing type: computed, static, a method.
            case otherMember
            /// A member declared in another declaration of the type in the file.
            case memberElsewhere
            case functionParameter
            case initializerParameter
            case closureParameter
        }
    }

    /// Whether a member declaration is a stored instance property: not `static` or `class`, and
    /// no getter (`willSet` / `didSet` observers allowed).
    static func isStoredProperty(_ decl: DeclSyntax) -> Bool {
        guard let variable = decl.as(VariableDeclSyntax.self),
            !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
        else { return false }
        return variable.bindings.allSatisfy { binding in
            switch binding.accessorBlock?.accessors {
            case nil: return true
            case .getter: return false
            case let .accessors(list)?:
                return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
            }
        }
    }

    /// The declaration `name` at `node` finds (`isDeclaredNearer`'s lookup), or nil when the file
    /// declares it nowhere in reach. A member declared in another declaration of the type in the
    /// file is found without a type.
    static func nearestDeclaration(
        of name: String, at node: Syntax, onSelf: Bool,
        typeMembers: [String: Set<String>] = [:]
    ) -> Declaration? {
        func binding(_ pattern: PatternSyntax, type: TypeSyntax?, value: ExprSyntax?) -> Declaration? {
            if let identifier = pattern.as(IdentifierPatternSyntax.self) {
                return identifier.identifier.text == name
                    ? Declaration(type: type.flatMap { typeName($0.trimmedDescription) }, value: value) : nil
            }
            if let tuple = pattern.as(TuplePatternSyntax.self) {
                return tuple.elements.lazy.compactMap { binding($0.pattern, type: nil, value: nil) }.first
            }
            if let bound = pattern.as(ValueBindingPatternSyntax.self) {
                return binding(bound.pattern, type: type, value: value)
            }
            return nil
        }
        func declaration(_ decl: DeclSyntax) -> Declaration? {
            if let variable = decl.as(VariableDeclSyntax.self) {
                return variable.bindings.lazy.compactMap {
                    binding($0.pattern, type: $0.typeAnnotation?.type, value: $0.initializer?.value)
                }.first
            }
            if let function = decl.as(FunctionDeclSyntax.self), function.name.text == name { return Declaration() }
            return nil
        }
        func conditions(_ list: ConditionElementListSyntax, before end: AbsolutePosition? = nil) -> Declaration? {
            list.lazy.filter { end == nil || $0.endPosition <= end! }.compactMap { element -> Declaration? in
                guard let bound = element.condition.as(OptionalBindingConditionSyntax.self) else { return nil }
                return binding(bound.pattern, type: bound.typeAnnotation?.type, value: bound.initializer?.value)
            }.first
        }
        func parameters(_ clause: FunctionParameterClauseSyntax, _ place: Declaration.Place = .functionParameter)
            -> Declaration?
        {
            clause.parameters.first { ($0.secondName ?? $0.firstName).text == name }
                .map {
                    Declaration(
                        type: typeName($0.type.trimmedDescription), value: $0.defaultValue?.value, place: place)
                }
        }
        var child = node
        var current = node.parent
        while let n = current {
            defer { child = n; current = n.parent }
            if let group = n.asProtocol(DeclGroupSyntax.self) {
                // the type's own member (in this body or another declaration of the type in the file) wins
                if let found = group.memberBlock.members.lazy.compactMap({ member -> Declaration? in
                    guard var found = declaration(member.decl) else { return nil }
                    found.place = isStoredProperty(member.decl) ? .storedProperty : .otherMember
                    return found
                }).first {
                    return found
                }
                if let type = declaredTypeName(group), typeMembers[type]?.contains(name) == true {
                    return Declaration(opaque: true, place: .memberElsewhere)
                }
                if onSelf { return nil }
                continue // a nested type sees its outer types' members
            }
            if onSelf { continue }
            if let list = n.as(CodeBlockItemListSyntax.self) {
                for item in list {
                    if item.position >= child.position { break }
                    if let decl = item.item.as(DeclSyntax.self), let found = declaration(decl) { return found }
                    if let guardStmt = item.item.as(GuardStmtSyntax.self), let found = conditions(guardStmt.conditions)
                    {
                        return found
                    }
                }
            }
            if let ifExpr = n.as(IfExprSyntax.self), child.id == ifExpr.body.id,
                let found = conditions(ifExpr.conditions)
            {
                return found
            }
            // a later condition sees the bindings of the earlier ones
            if let list = n.as(ConditionElementListSyntax.self), let found = conditions(list, before: child.position) {
                return found
            }
            if let whileStmt = n.as(WhileStmtSyntax.self), child.id == whileStmt.body.id,
                let found = conditions(whileStmt.conditions)
            {
                return found
            }
            if let forStmt = n.as(ForStmtSyntax.self), child.id == forStmt.body.id,
                let found = binding(forStmt.pattern, type: forStmt.typeAnnotation?.type, value: nil)
            {
                return found
            }
            if let function = n.as(FunctionDeclSyntax.self), let found = parameters(function.signature.parameterClause)
            {
                return found
            }
            if let initializer = n.as(InitializerDeclSyntax.self),
                let found = parameters(initializer.signature.parameterClause, .initializerParameter)
            {
                return found
            }
            if let subscriptDecl = n.as(SubscriptDeclSyntax.self), let found = parameters(subscriptDecl.parameterClause)
            {
                return found
            }
            if let closure = n.as(ClosureExprSyntax.self), let clause = closure.signature?.parameterClause {
                switch clause {
                case let .simpleInput(shorthand):
                    if shorthand.contains(where: { $0.name.text == name }) {
                        return Declaration(opaque: true, place: .closureParameter)
                    }
                case let .parameterClause(list):
                    if let parameter = list.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                        let type = parameter.type.flatMap { typeName($0.trimmedDescription) }
                        return Declaration(type: type, opaque: type == nil, place: .closureParameter)
                    }
                }
            }
        }
        return nil
    }

    /// The name of the type a declaration group declares or extends.
    static func declaredTypeName(_ group: some DeclGroupSyntax) -> String? {
        if let c = group.as(ClassDeclSyntax.self) { return c.name.text }
        if let s = group.as(StructDeclSyntax.self) { return s.name.text }
        if let e = group.as(EnumDeclSyntax.self) { return e.name.text }
        if let a = group.as(ActorDeclSyntax.self) { return a.name.text }
        if let x = group.as(ExtensionDeclSyntax.self) { return x.extendedType.trimmedDescription }
        return nil
    }

    /// Per type name, the properties and functions its declaration and extensions in the file declare.
    static func memberNames(in tree: SourceFileSyntax) -> [String: Set<String>] {
        final class Collector: SyntaxVisitor {
            var members: [String: Set<String>] = [:]
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
                guard let group = node.parent?.asProtocol(DeclGroupSyntax.self),
                    let type = SwiftAccessForms.declaredTypeName(group)
                else {
                    return .visitChildren
                }
                for member in node.members {
                    if let variable = member.decl.as(VariableDeclSyntax.self) {
                        for binding in variable.bindings {
                            if let id = binding.pattern.as(IdentifierPatternSyntax.self) {
                                members[type, default: []].insert(id.identifier.text)
                            }
                        }
                    } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                        members[type, default: []].insert(function.name.text)
                    }
                }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.members
    }

    /// `TabManager?` → `TabManager`; `any WindowManager` → `WindowManager`.
    static func typeName(_ text: String) -> String? {
        var t = Substring(text)
        while t.last == "?" || t.last == "!" { t = t.dropLast() }
        if t.first == "(", t.last == ")" { t = t.dropFirst().dropLast() } // (any T)?
        for prefix in ["any ", "some "] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        return t.isEmpty ? nil : String(t)
    }

    /// Whether an `#if` clause can never be compiled, decided by constants alone (`#if false`,
    /// `#if 0`, the `#else` of `#if true`), as on the C side; `#if DEBUG` clauses stay linted.
    static func isDeadClause(_ clause: IfConfigClauseSyntax) -> Bool {
        guard let list = clause.parent?.as(IfConfigClauseListSyntax.self) else { return false }
        for c in list {
            let constant = c.condition.flatMap(constantValue)
            if c.id == clause.id {
                if c.poundKeyword.tokenKind == .poundElse { return false } // every earlier one was constant false
                return constant == false
            }
            guard let constant else { return false } // an earlier non-constant condition: undecided
            if constant { return true } // an earlier clause is always taken
        }
        return false
    }

    private static func constantValue(_ condition: ExprSyntax) -> Bool? {
        if let b = condition.as(BooleanLiteralExprSyntax.self) { return b.literal.tokenKind == .keyword(.true) }
        if let n = condition.as(IntegerLiteralExprSyntax.self) { return n.literal.text != "0" }
        if let p = condition.as(TupleExprSyntax.self), p.elements.count == 1, let inner = p.elements.first?.expression {
            return constantValue(inner)
        }
        if let not = condition.as(PrefixOperatorExprSyntax.self), not.operator.text == "!" {
            return constantValue(not.expression).map { !$0 }
        }
        return nil
    }
}
