import SwiftSyntax

/// Where a direct Swift access is written, as far as constructor injection cares: in an instance
/// member of a type (method, accessor, closure in one), in one of its initializers, or in a stored
/// property's initial value; or why fix cannot reach it with an injected bridge.
struct SwiftAccessPlace {
    enum Kind {
        /// An instance method, computed property, observer or subscript: reads `self.bridge`.
        case member
        /// An initializer's body: reads the `bridge` parameter.
        case initializer(InitializerDeclSyntax)
        /// A stored (or `lazy`) property's initial value: moved into the initializer.
        case propertyValue(VariableDeclSyntax)
    }

    var kind: Kind
    /// The class, struct or actor (or the type an extension extends).
    var typeName: String
    /// Inside a closure or a nested function: the bridge is spelled `self.bridge`.
    var nested: Bool
    /// The method (or accessor) the access is in, to check for a local that shadows the bridge.
    var function: Syntax?
    /// With `kind == .member`: the outermost closure of the member that holds self weakly
    /// (`[weak self]`) around the access, nil when none does. The bridge style lists such a read.
    var weakClosure: ClosureExprSyntax?

    enum Refusal: Error {
        case manual(ManualReason, String?)
    }

    /// The place of the access `node`, or why it cannot be rewritten.
    static func of(_ node: Syntax) -> Result<SwiftAccessPlace, Refusal> {
        var nested = false
        var function: Syntax?
        var initializer: InitializerDeclSyntax?
        var property: VariableDeclSyntax?
        var weakSelf = false
        var weakClosure: ClosureExprSyntax?
        var current = node.parent
        while let n = current {
            if n.is(MacroExpansionExprSyntax.self) || n.is(MacroExpansionDeclSyntax.self) {
                return .failure(.manual(.macro, nil))
            }
            if let closure = n.as(ClosureExprSyntax.self) {
                if function == nil { nested = true }
                let weak =
                    closure.signature?.capture?.items.contains { item in
                        item.specifier?.specifier.text == "weak" && item.trimmedDescription.hasSuffix("self")
                    } == true
                // inside the member: the outermost such closure; outside it (a local function in one): listed
                if weak && function == nil { weakClosure = closure } else { weakSelf = weakSelf || weak }
            }
            if let decl = n.as(FunctionDeclSyntax.self) {
                if decl.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) {
                    return .failure(.manual(.classMethod, "static func \(decl.name.text)"))
                }
                if function != nil || initializer != nil { nested = true } // a local function
                function = function ?? n
            }
            // computed, observed
            if n.is(AccessorDeclSyntax.self) || n.is(AccessorBlockSyntax.self), function == nil { function = n }
            if let decl = n.as(InitializerDeclSyntax.self), function == nil, initializer == nil { initializer = decl }
            if n.is(FunctionParameterSyntax.self) { return .failure(.manual(.parameterDefault, nil)) }
            if n.is(DeinitializerDeclSyntax.self) { return .failure(.manual(.initializerOrDealloc, "deinit")) }
            if let variable = n.as(VariableDeclSyntax.self), variable.parent?.is(MemberBlockItemSyntax.self) == true {
                if variable.hasModifier(["static", "class"]) {
                    return .failure(.manual(.classMethod, "static property"))
                }
                if function == nil && initializer == nil && property == nil { property = variable }
            }
            if n.is(SubscriptDeclSyntax.self), function == nil { function = n }
            if let typeName = typeName(of: n) {
                let kind: Kind
                if let initializer {
                    kind = .initializer(initializer)
                } else if function != nil {
                    if weakSelf { return .failure(.manual(.blockAvoidingSelf, "the closure holds self weakly")) }
                    kind = .member
                } else if let property {
                    kind = .propertyValue(property)
                } else {
                    return .failure(.manual(.outsideFunction, nil))
                }
                var member = false
                if case .member = kind { member = true }
                return .success(
                    SwiftAccessPlace(
                        kind: kind, typeName: typeName, nested: nested, function: function,
                        weakClosure: member ? weakClosure : nil))
            }
            if n.is(EnumDeclSyntax.self) || n.is(ProtocolDeclSyntax.self) {
                return .failure(.manual(.unsupportedLanguage, "an enum or protocol cannot hold a stored bridge"))
            }
            current = n.parent
        }
        return .failure(.manual(.outsideFunction, nil))
    }

    /// The type a class, struct or actor declaration or an extension names, qualified by the
    /// types it is nested in (`Outer.Inner`).
    static func typeName(of node: Syntax) -> String? {
        guard
            node.is(ClassDeclSyntax.self) || node.is(StructDeclSyntax.self) || node.is(ActorDeclSyntax.self)
                || node.is(ExtensionDeclSyntax.self)
        else { return nil }
        return SwiftRunType.qualifiedName(of: node)
    }
}
