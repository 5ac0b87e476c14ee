import SwiftSyntax

/// `finish` for a call of a Swift initializer that omits `bridge:` (it relied on the default that
/// `finish` removes): the call gets `bridge:` as its last argument, the place `inject` gave the
/// parameter. What it passes:
/// - the bridge in reach: a parameter named like the bridge, of the bridge's type, of the
///   enclosing function or initializer (`bridge`); or, in an instance member of a type with a
///   stored `bridge` (`bridge`, `self.bridge` in a closure, a `lazy` value, or where a local of the
///   name shadows it);
/// - else (a static or global, a function of a type with no bridge, a stored property's initial
///   value) the default expression itself: the container read moves to the caller, which is the
///   composition root's place. Verification classifies the moved reads there: in the configured
///   `composition-root` they are `composition-root` reads, elsewhere new direct accesses that the
///   plan lists (and that keep the run from being complete), never hidden.
/// A trailing closure moves into the parentheses with its parameter's label (the bridge, after
/// it, cannot follow a trailing closure). Left with the reason: a `[weak self]` closure, an
/// initializer of a bridged type that does not take the bridge, `self.init` / `Self(…)`, several
/// trailing closures, and a call that fits no initializer taking the bridge.
struct SwiftCallerWiring {
    let context: FixContext
    let bridgeName: String
    let bridgeType: String
    /// The default the type's initializers share (nil when they differ).
    let defaultExpression: String?
    /// The container reads in that default.
    let reads: Int
    /// The initializers that take the bridge, with their bridge parameter.
    let initializers: [(decl: InitializerDeclSyntax, parameter: FunctionParameterSyntax)]

    /// The type's other initializers (those not taking the bridge).
    let otherInitializers: [InitializerDeclSyntax]
    /// Types that will hold a stored bridge once the group's edits are made (`fix --phase wire`
    /// gives a composition-root type one): their instance members have it in reach.
    var owners: Set<String> = []

    struct Unwired: Error { let text: String }

    /// Whether the call fits one of the type's initializers that does not take the bridge (it
    /// does not rely on the default) and none that does.
    func reliesOnOther(_ call: FunctionCallExprSyntax) -> Bool {
        !InitializerCalls.isSelfCall(call)
            && !initializers.contains { i in
                Self.fit(call, i.decl.signature.parameterClause.parameters.filter { $0.id != i.parameter.id }) != nil
            }
            && otherInitializers.contains { Self.fit(call, Array($0.signature.parameterClause.parameters)) != nil }
    }

    private enum Reach {
        case bridge(String)
        /// An instance member of the container's own type: the bridge built from its services.
        case containerSelf(String)
        case none
    }

    func wire(_ call: FunctionCallExprSyntax, in file: SwiftFixFile, typeName: String) -> Result<FixCaller, Unwired> {
        if InitializerCalls.isSelfCall(call) {
            return .failure(Unwired(text: "a delegating initializer: it must take the bridge itself"))
        }
        if !call.additionalTrailingClosures.isEmpty { return .failure(Unwired(text: "several trailing closures")) }
        // the label the trailing closure takes once it moves into the parentheses
        var closureLabel: String?
        var fits = 0
        for (decl, parameter) in initializers {
            let parameters = decl.signature.parameterClause.parameters.filter { $0.id != parameter.id }
            guard let (fit, lastUsed) = Self.match(call, Array(parameters)) else { continue }
            // the bridge goes last among the arguments: no argument may fill a parameter after it
            let bridgeIndex =
                decl.signature.parameterClause.parameters.firstIndex { $0.id == parameter.id }
                .map {
                    decl.signature.parameterClause.parameters.distance(
                        from: decl.signature.parameterClause.parameters.startIndex, to: $0)
                } ?? 0
            if lastUsed >= bridgeIndex {
                return .failure(Unwired(text: "an argument fills a parameter after the bridge parameter"))
            }
            fits += 1
            if call.trailingClosure != nil {
                if let label = closureLabel, label != fit {
                    return .failure(Unwired(text: "its trailing closure fits initializers with different labels"))
                }
                closureLabel = fit
            }
        }
        guard fits > 0 else { return .failure(Unwired(text: "its arguments fit no initializer taking the bridge")) }
        if let other = otherInitializers.first(where: {
            Self.fit(call, Array($0.signature.parameterClause.parameters)) != nil
        }) {
            let line = file.source.buffer.lineColumn(of: other.startOffset).line
            return .failure(
                Unwired(text: "its arguments fit an initializer that does not take the bridge too (line \(line))"))
        }
        let argument: String
        let explicit: Bool
        var fromServices = false
        switch reach(of: call, typeName: typeName) {
        case let .failure(why): return .failure(why)
        case let .success(.bridge(spelling)): (argument, explicit) = (spelling, false)
        case let .success(.containerSelf(spelling)): (argument, explicit, fromServices) = (spelling, false, true)
        case .success(.none):
            guard let expression = defaultExpression else {
                return .failure(Unwired(text: "no bridge in reach, and the initializers' defaults differ"))
            }
            (argument, explicit) = (expression, true)
        }
        let text = "\(bridgeName): \(argument)"
        let edit: TextEdit
        let offsetInEdit: Int
        if let closure = call.trailingClosure {
            let piece =
                (closureLabel == "_" || closureLabel == nil ? "" : closureLabel! + ": ") + file.text(closure.byteRange)
            let start: Int, prefix: String
            if let last = call.arguments.last {
                (start, prefix) = (
                    last.trailingComma.map { $0.endOffset } ?? last.endOffset, last.trailingComma == nil ? ", " : " "
                )
            } else if let paren = call.leftParen {
                (start, prefix) = (paren.endOffset, "")
            } else {
                (start, prefix) = (call.calledExpression.endOffset, "(")
            }
            let replacement = prefix + piece + ", " + text + ")"
            edit = TextEdit(path: file.path, range: start..<closure.endOffset, replacement: replacement)
            offsetInEdit = replacement.utf8.count - 1 - argument.utf8.count
        } else if let last = call.arguments.last {
            let ownLine = last.leadingTrivia.contains {
                if case .newlines = $0 { return true }; if case .carriageReturnLineFeeds = $0 { return true };
                return false
            }
            let lead = ownLine ? file.newline + file.indentation(at: last.startOffset) : " "
            if let comma = last.trailingComma {
                let replacement = lead + text + ","
                edit = TextEdit(path: file.path, range: comma.endOffset..<comma.endOffset, replacement: replacement)
                offsetInEdit = replacement.utf8.count - 1 - argument.utf8.count
            } else {
                let replacement = "," + lead + text
                edit = TextEdit(path: file.path, range: last.endOffset..<last.endOffset, replacement: replacement)
                offsetInEdit = replacement.utf8.count - argument.utf8.count
            }
        } else if let paren = call.rightParen {
            edit = TextEdit(path: file.path, range: paren.startOffset..<paren.startOffset, replacement: text)
            offsetInEdit = text.utf8.count - argument.utf8.count
        } else {
            return .failure(Unwired(text: "a call without parentheses"))
        }
        let (line, column) = file.source.buffer.lineColumn(of: call.startOffset)
        var caller = FixCaller(
            path: context.display(file.path), line: line, column: column, call: "\(typeName)(…)", argument: argument,
            explicitDefault: explicit, reads: explicit ? reads : 0, edit: edit, argumentOffset: offsetInEdit)
        caller.fromContainerServices = fromServices
        return .success(caller)
    }

    /// Whether the call's arguments fit the parameters (the bridge's left out): labels in order,
    /// a parameter skipped only when it has a default. The label of the parameter its trailing
    /// closure fills (the first function-typed one left; `_` when unlabeled), "" when it has none;
    /// nil when it does not fit.
    static func fit(_ call: FunctionCallExprSyntax, _ parameters: [FunctionParameterSyntax]) -> String? {
        match(call, parameters)?.label
    }

    /// `fit`, with the index of the last parameter an argument fills (-1 when none).
    static func match(_ call: FunctionCallExprSyntax, _ parameters: [FunctionParameterSyntax]) -> (
        label: String, lastUsed: Int
    )? {
        guard let filled = assign(call, parameters) else { return nil }
        return (
            filled.closure.map { parameters[$0].firstName.text } ?? "", filled.closure ?? filled.arguments.last ?? -1
        )
    }

    /// For each argument, the index of the parameter it fills, and that of the trailing closure
    /// (labels in order, a parameter skipped only when it has a default; the closure fills the
    /// first function-typed parameter left); nil when they do not fit.
    static func assign(_ call: FunctionCallExprSyntax, _ parameters: [FunctionParameterSyntax]) -> (
        arguments: [Int], closure: Int?
    )? {
        var filled: [Int] = []
        var i = 0
        for argument in call.arguments {
            let label = argument.label?.text ?? "_"
            while i < parameters.count, parameters[i].firstName.text != label {
                guard parameters[i].defaultValue != nil else { return nil }
                i += 1
            }
            guard i < parameters.count else { return nil }
            filled.append(i)
            i += 1
        }
        var closure: Int?
        if call.trailingClosure != nil {
            while i < parameters.count, !isFunctionType(parameters[i].type) {
                guard parameters[i].defaultValue != nil else { return nil }
                i += 1
            }
            guard i < parameters.count else { return nil }
            closure = i
            i += 1
        }
        return parameters[i...].allSatisfy { $0.defaultValue != nil } ? (filled, closure) : nil
    }

    /// The edits that remove each parameter's default value (`: T = value` → `: T`).
    static func defaultRemovals(_ parameters: [(path: String, parameter: FunctionParameterSyntax)]) -> [TextEdit] {
        parameters.compactMap { path, parameter in
            guard let last = parameter.type.lastToken(viewMode: .sourceAccurate), let value = parameter.defaultValue
            else { return nil }
            return TextEdit(
                path: path, range: last.endPositionBeforeTrailingTrivia.utf8Offset..<value.endOffset, replacement: "")
        }
    }

    static func isFunctionType(_ type: TypeSyntax) -> Bool {
        var t = type
        while true {
            if let attributed = t.as(AttributedTypeSyntax.self) { t = attributed.baseType; continue }
            if let optional = t.as(OptionalTypeSyntax.self) { t = optional.wrappedType; continue }
            if let tuple = t.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
                t = only.type; continue
            }
            return t.is(FunctionTypeSyntax.self)
        }
    }

    /// The bridge the call's place has in reach, walking out from the call.
    private func reach(of call: FunctionCallExprSyntax, typeName: String) -> Result<Reach, Unwired> {
        var inClosure = false
        var node = call.parent
        var member: DeclSyntax? // the member (function, property, initializer) the call is in
        while let n = node {
            if let closure = n.as(ClosureExprSyntax.self) {
                if closure.signature?.capture?.items.contains(where: {
                    ["weak", "unowned"].contains($0.specifier?.specifier.text ?? "") && $0.name.text == "self"
                        && $0.initializer == nil
                }) == true {
                    return .failure(Unwired(text: "in a closure that holds self weakly"))
                }
                inClosure = true
            }
            if let function = n.as(FunctionDeclSyntax.self) {
                if takesBridge(function.signature.parameterClause) { return .success(.bridge(bridgeName)) }
                member = member ?? DeclSyntax(function)
            }
            if let initializer = n.as(InitializerDeclSyntax.self) {
                if takesBridge(initializer.signature.parameterClause) { return .success(.bridge(bridgeName)) }
                member = member ?? DeclSyntax(initializer)
            }
            if let deinitializer = n.as(DeinitializerDeclSyntax.self), member == nil {
                member = DeclSyntax(deinitializer)
            }
            if let variable = n.as(VariableDeclSyntax.self), member == nil,
                n.parent?.is(MemberBlockItemSyntax.self) == true
            {
                member = DeclSyntax(variable)
            }
            if let subscriptDecl = n.as(SubscriptDeclSyntax.self), member == nil { member = DeclSyntax(subscriptDecl) }
            if n.is(ClassDeclSyntax.self) || n.is(StructDeclSyntax.self) || n.is(ActorDeclSyntax.self)
                || n.is(EnumDeclSyntax.self)
                || n.is(ExtensionDeclSyntax.self) || n.is(ProtocolDeclSyntax.self)
            {
                break
            }
            node = n.parent
        }
        // a type member: the type's stored bridge, for an instance member that may read self
        guard let member, let owner = node, !owner.is(ProtocolDeclSyntax.self),
            let ownerName = SwiftRunType.enclosingQualifiedName(of: Syntax(member))
        else { return .success(.none) }
        let modifiers =
            member.as(FunctionDeclSyntax.self)?.modifiers ?? member.as(VariableDeclSyntax.self)?.modifiers
            ?? member.as(SubscriptDeclSyntax.self)?.modifiers ?? member.as(InitializerDeclSyntax.self)?.modifiers
        if modifiers?.contains(where: { ["static", "class"].contains($0.name.text) }) == true {
            return .success(.none)
        }
        let bridged =
            owners.contains(ownerName)
            || SwiftRunType.findEach(ownerName, context: context)?.contains { $0.storedProperty(bridgeName) != nil }
                ?? false
        guard bridged else { return containerSelf(ownerName, member: member, call: call) }
        if member.is(InitializerDeclSyntax.self) {
            return .failure(Unwired(text: "an initializer of \(ownerName) that does not take the bridge"))
        }
        if let variable = member.as(VariableDeclSyntax.self) {
            let (stored, inAccessor) = Self.place(of: call, in: variable)
            if stored && !inAccessor {
                return .failure(
                    Unwired(
                        text:
                            "a stored property's initial value in \(ownerName), which has its bridge only once initialized"
                    ))
            }
            if !inAccessor { inClosure = true } // a lazy value: `self.` spelled out
        }
        let shadowed = Self.declares(bridgeName, in: Syntax(member)) // a local or parameter of the name
        return .success(.bridge(inClosure || shadowed ? "self.\(bridgeName)" : bridgeName))
    }

    /// In an instance method, computed or lazy property of the container's own type, the bridge
    /// built from its own services (the default with the container read as `self`): no container
    /// read moves there. Else none.
    private func containerSelf(_ ownerName: String, member: DeclSyntax, call: FunctionCallExprSyntax) -> Result<
        Reach, Unwired
    > {
        guard
            let accessor = context.configuration.containers.lazy.compactMap({ spec -> String? in
                if case let .member(type, accessor) = spec, type == ownerName { return accessor }
                return nil
            }).first
        else { return .success(.none) }
        if member.is(InitializerDeclSyntax.self) || member.is(DeinitializerDeclSyntax.self) { return .success(.none) }
        if let variable = member.as(VariableDeclSyntax.self) {
            let (stored, inAccessor) = Self.place(of: call, in: variable)
            if stored && !inAccessor { return .success(.none) }
        }
        guard let value = SwiftContainerBuild(context: context).bridgeFromSelf(container: ownerName, accessor: accessor)
        else { return .success(.none) }
        return .success(.containerSelf(value))
    }

    /// Whether the property is stored (not `lazy`, not computed), and whether the call is in one of its accessors.
    private static func place(of call: FunctionCallExprSyntax, in variable: VariableDeclSyntax) -> (
        stored: Bool, inAccessor: Bool
    ) {
        (
            variable.bindings.contains { $0.accessorBlock == nil }
                && !variable.modifiers.contains { $0.name.text == "lazy" },
            call.enclosing(AccessorBlockSyntax.self).map { variable.byteRange.contains($0.startOffset) } ?? false
        )
    }

    /// Whether a local, parameter or closure parameter named `name` is declared under `node`.
    static func declares(_ name: String, in node: Syntax) -> Bool {
        final class Names: SyntaxVisitor {
            let name: String
            var found = false
            init(_ name: String) { self.name = name; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
                found = found || node.identifier.text == name; return .visitChildren
            }
            override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
                found = found || (node.secondName ?? node.firstName).text == name; return .visitChildren
            }
            override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
                found = found || (node.secondName ?? node.firstName).text == name; return .visitChildren
            }
            override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
                found = found || node.name.text == name; return .visitChildren
            }
            override func visit(_ node: ClosureCaptureSyntax) -> SyntaxVisitorContinueKind {
                found = found || node.name.text == name; return .visitChildren
            }
        }
        let names = Names(name)
        names.walk(node)
        return names.found
    }

    /// A parameter named like the bridge, of the bridge's type.
    private func takesBridge(_ clause: FunctionParameterClauseSyntax) -> Bool {
        clause.parameters.contains { parameter in
            (parameter.secondName ?? parameter.firstName).text == bridgeName
                && parameter.type.trimmedDescription.trimmingCharacters(in: ["?", "!"]) == bridgeType
        }
    }
}

/// Where a call that must pass a service stands, walking out to the type it is a member of: the
/// first parameter of an enclosing function or initializer whose type is the service's, else the
/// member the call lies in (function, initializer, deinitializer, subscript, property), whether
/// a closure lies between (one holding `self` weakly), and the member's type.
struct SwiftCallPlace {
    /// A parameter of the service's type in reach (its internal name).
    private(set) var parameter: String?
    private(set) var member: DeclSyntax?
    private(set) var inClosure = false
    private(set) var weak = false

    init(of call: FunctionCallExprSyntax, serviceType: String) {
        var node = call.parent
        while let n = node {
            if let closure = n.as(ClosureExprSyntax.self) {
                if closure.signature?.capture?.items.contains(where: {
                    ["weak", "unowned"].contains($0.specifier?.specifier.text ?? "") && $0.name.text == "self"
                }) == true {
                    weak = true
                }
                inClosure = true
            }
            let parameters =
                n.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters
                ?? n.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters
            if let parameters, let found = parameters.first(where: { $0.type.trimmedDescription == serviceType }) {
                parameter = (found.secondName ?? found.firstName).text
                return
            }
            if member == nil,
                n.is(FunctionDeclSyntax.self) || n.is(InitializerDeclSyntax.self) || n.is(DeinitializerDeclSyntax.self)
                    || n.is(SubscriptDeclSyntax.self)
                    || (n.is(VariableDeclSyntax.self) && n.parent?.is(MemberBlockItemSyntax.self) == true)
            {
                member = n.as(DeclSyntax.self)
            }
            if SwiftRunType.declaredName(n) != nil { break }
            node = n.parent
        }
    }

    /// The qualified name of the type the member belongs to.
    var ownerName: String? { member.flatMap { SwiftRunType.enclosingQualifiedName(of: Syntax($0)) } }

    /// Whether the member is `static` or `class` (no `self` to read a stored member of).
    var isStatic: Bool {
        let modifiers =
            member?.as(FunctionDeclSyntax.self)?.modifiers ?? member?.as(VariableDeclSyntax.self)?.modifiers
            ?? member?.as(SubscriptDeclSyntax.self)?.modifiers ?? member?.as(InitializerDeclSyntax.self)?.modifiers
        return modifiers?.contains(where: { ["static", "class"].contains($0.name.text) }) == true
    }

    /// Whether the call is in a stored (not `lazy`) property's initial value, which cannot read a
    /// stored member yet.
    func inStoredInitialValue(_ call: FunctionCallExprSyntax) -> Bool {
        guard let variable = member?.as(VariableDeclSyntax.self) else { return false }
        return !variable.hasModifier(["lazy"]) && variable.bindings.contains(where: { $0.accessorBlock == nil })
            && call.enclosing(AccessorBlockSyntax.self) == nil
    }

    /// The stored member `held` as the call's place spells it: `self.held` in a closure, in a
    /// `lazy` value, or where a local or parameter of that name shadows it.
    func spelling(of held: String, at call: FunctionCallExprSyntax) -> String {
        guard let member else { return held }
        let lazy = member.is(VariableDeclSyntax.self) && call.enclosing(AccessorBlockSyntax.self) == nil
        return inClosure || lazy || SwiftCallerWiring.declares(held, in: Syntax(member)) ? "self.\(held)" : held
    }
}
