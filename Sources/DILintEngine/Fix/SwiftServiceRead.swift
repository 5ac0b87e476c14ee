import SwiftSyntax

/// A read of one service off a Swift container, as the `service` injection style moves it: the
/// whole expression that yields the service (`Container.shared.tabs`, `Container.shared.tabs()`,
/// `Container.shared.resolve()`, `Container.shared.resolve(Profile.self)`, and for a wildcard
/// static member container, `ServiceLocator.analytics` itself).
enum SwiftServiceRead {
    /// The expression that reads the service, from the end of the container access (`end`: the
    /// access node, or the call of a function accessor). `wildcard`: the accessor is the service.
    static func expression(end: Syntax, wildcard: Bool) -> Syntax {
        if wildcard { return end }
        guard let member = end.parent?.as(MemberAccessExprSyntax.self), member.base?.id == end.id else { return end }
        var called = Syntax(member)
        if let generic = member.parent?.as(GenericSpecializationExprSyntax.self), generic.expression.id == member.id {
            called = Syntax(generic)
        }
        // `Container.shared.tabs()` (a method without arguments) and `resolve(…)` are the call
        if let call = called.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == called.id,
            call.trailingClosure == nil,
            call.arguments.isEmpty || member.declName.baseName.text.hasPrefix("resolve")
        {
            return Syntax(call)
        }
        return Syntax(member)
    }

    /// Whether the access's container is a static member matched by a wildcard (`ServiceLocator.*`).
    static func isWildcard(_ access: ContainerAccess, _ configuration: Configuration) -> Bool {
        let specs = configuration.containers
        return specs.contains(.member(type: access.container, accessor: "*"))
            && !specs.contains(.member(type: access.container, accessor: access.accessor))
    }

    /// The service fix moves: the accessor of a wildcard static-member container
    /// (`ServiceLocator.analytics`), else the service lint names.
    static func service(of access: ContainerAccess, _ configuration: Configuration) -> String? {
        isWildcard(access, configuration) ? access.accessor : access.service
    }

    /// Whether a run's `--service` selects the access (by `service(of:)`).
    static func selects(_ access: ContainerAccess, _ context: FixContext) -> Bool {
        context.services.isEmpty || service(of: access, context.configuration).map(context.services.contains) == true
    }

    /// Whether the read is a `resolve…` call (its service is the resolved type).
    static func isResolve(_ read: Syntax) -> Bool {
        guard let call = read.as(FunctionCallExprSyntax.self) else { return false }
        let callee = call.calledExpression.as(GenericSpecializationExprSyntax.self)?.expression ?? call.calledExpression
        return callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text.hasPrefix("resolve") == true
    }

    /// The initializer parameter whose default value is exactly the read (`init(tabs: TabStore =
    /// Container.shared.tabs)`): the `service` style's transition form, which runs only for a
    /// caller that passes nothing.
    static func initializerParameter(defaultingTo read: Syntax) -> (FunctionParameterSyntax, InitializerDeclSyntax)? {
        var node = read
        while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self) {
            node = parent
        }
        guard let clause = node.parent?.as(InitializerClauseSyntax.self), clause.value.id == node.id,
            let parameter = clause.parent?.as(FunctionParameterSyntax.self), parameter.defaultValue?.id == clause.id,
            let decl = parameter.enclosing(InitializerDeclSyntax.self)
        else { return nil }
        return (parameter, decl)
    }
}
