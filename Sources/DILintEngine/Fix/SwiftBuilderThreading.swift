import Foundation
import SwiftSyntax

/// `finish` for a construction in a builder method of the container's own type
/// (`func makeHandler(_ options: Options) -> Handler { Handler(…) }`): instead of building a new
/// facade from the container's services at each call (`bridge: B(services: self)`), the method
/// takes the bridge of the one who asks for the object — the composition root's one bridge:
/// - the method gains `bridge: B` as its last parameter, and its constructions pass `bridge`;
/// - every call of the method in the run passes the bridge its place has in reach (a parameter of
///   the bridge's type, or its type's stored `bridge`: in an initializer only when that bridge is
///   the type's own, built in the property's initial value, so set before the body runs);
/// - each protocol of the run that requires the method requires the new signature.
/// Only when all of that holds: the method is an instance method (not `@objc`, not `static`), no
/// Objective-C file of the run names it, no other type of the run declares a method of that name
/// and labels, the method is referenced only in calls, each call fits its labels, passes no
/// trailing closure, and has a bridge in reach, and the run calls it at least once. Else each
/// construction keeps its facade, a new bridge at each call, and a note says so and why.
struct SwiftBuilderThreading {
    let context: FixContext

    /// A caller `finish` wired with a facade built from the container's services.
    struct Site {
        var file: SwiftFixFile
        var call: FunctionCallExprSyntax
        var index: Int
    }

    /// Rewrites the callers that can pass the builder's `bridge` instead (their edits and
    /// arguments), and returns the other edits: signatures, calls, protocol requirements.
    func thread(_ sites: [Site], callers: inout [FixCaller]) -> (edits: [TextEdit], notes: [String]) {
        var byMethod: [String: (FunctionDeclSyntax, SwiftFixFile, [Site])] = [:]
        var order: [String] = []
        var notes: [String] = []
        for site in sites {
            guard let method = Self.method(around: site.call) else {
                // a `lazy` value builds its facade once per container; anything else at each use
                if site.call.enclosing(VariableDeclSyntax.self)?.hasModifier(["lazy"]) != true {
                    let (line, column) = site.file.source.buffer.lineColumn(of: site.call.startOffset)
                    notes.append(
                        "\(context.display(site.file.path)):\(line):\(column): note: \(callers[site.index].call) is given a \(context.bridgeName) built from the container's own services, a new one at each use (not in a method whose callers could pass theirs)"
                    )
                }
                continue
            }
            let key = "\(site.file.path):\(method.startOffset)"
            if byMethod[key] == nil { order.append(key); byMethod[key] = (method, site.file, []) }
            byMethod[key]!.2.append(site)
        }
        var edits: [TextEdit] = []
        for key in order {
            let (method, file, sites) = byMethod[key]!
            let threaded: [TextEdit]
            switch thread(method, in: file) {
            case let .success(found): threaded = found
            case let .failure(why):
                // listed: each construction builds its own facade
                for site in sites {
                    let (line, column) = site.file.source.buffer.lineColumn(of: site.call.startOffset)
                    notes.append(
                        "\(context.display(site.file.path)):\(line):\(column): note: \(callers[site.index].call) is given a \(context.bridgeName) built from the container's own services, a new one at each call of \(method.name.text) (it cannot take the caller's: \(why.text))"
                    )
                }
                continue
            }
            edits += threaded
            for site in sites {
                var caller = callers[site.index]
                let bytes = Array(caller.edit.replacement.utf8)
                let start = caller.argumentOffset, end = start + caller.argument.utf8.count
                guard end <= bytes.count else { continue }
                caller.edit.replacement =
                    String(decoding: bytes[..<start], as: UTF8.self) + context.bridgeName
                    + String(decoding: bytes[end...], as: UTF8.self)
                caller.argument = context.bridgeName
                caller.fromContainerServices = false
                callers[site.index] = caller
            }
            let (line, column) = file.source.buffer.lineColumn(of: method.startOffset)
            notes.append(
                "\(context.display(file.path)):\(line):\(column): note: \(method.name.text) takes '\(context.bridgeName):' and passes it on: each caller gives its own \(context.bridgeName) (no facade built per call); a protocol requiring it requires the new signature (conformers outside the run must take it too)"
            )
        }
        return (edits, notes)
    }

    /// The instance method of a type (or extension) that holds the call, through closures.
    static func method(around call: FunctionCallExprSyntax) -> FunctionDeclSyntax? {
        var node = call.parent
        while let n = node {
            if let function = n.as(FunctionDeclSyntax.self) {
                guard function.parent?.is(MemberBlockItemSyntax.self) == true,
                    !function.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
                else { return nil }
                return function
            }
            if n.is(InitializerDeclSyntax.self) || n.is(AccessorBlockSyntax.self) || n.is(VariableDeclSyntax.self)
                || n.is(SubscriptDeclSyntax.self) || SwiftRunType.declaredName(n) != nil
            {
                return nil
            }
            node = n.parent
        }
        return nil
    }

    private func thread(_ method: FunctionDeclSyntax, in file: SwiftFixFile) -> Result<
        [TextEdit], SwiftCallerWiring.Unwired
    > {
        func refuse(_ why: String) -> Result<[TextEdit], SwiftCallerWiring.Unwired> {
            .failure(SwiftCallerWiring.Unwired(text: why))
        }
        let bridge = context.bridgeName
        let bridgeType = context.configuration.bridgeType
        let name = method.name.text
        let parameters = Array(method.signature.parameterClause.parameters)
        guard !method.attributes.contains(where: { $0.trimmedDescription.hasPrefix("@objc") }),
            !method.modifiers.contains(where: { ["public", "open", "override"].contains($0.name.text) })
                || context.configuration.swiftCallersInRun,
            !method.modifiers.contains(where: { $0.name.text == "override" }),
            !SwiftCallerWiring.declares(bridge, in: Syntax(method)),
            parameters.allSatisfy({ $0.defaultValue == nil && $0.ellipsis == nil })
        else {
            return refuse("\(name) cannot take the \(bridge) (@objc, override, variadic, defaults, or it names one)")
        }
        let labels = parameters.map(\.firstName.text)
        // Objective-C cannot be followed: a file of the run naming the method stops it
        if context.runFiles.contains(where: { path in
            ["m", "mm", "h"].contains((path as NSString).pathExtension)
                && (context.workspace.bytes(path).map { $0.withUnsafeBytes { $0.containsASCII(name) } } ?? true)
        }) {
            return refuse("an Objective-C file of the run names \(name)")
        }
        var edits = [parameterEdit(method.signature.parameterClause, in: file, "\(bridge): \(bridgeType)")]
        var calls = 0
        for path in context.swiftFilesMentioning(name) {
            guard let other = context.swiftFile(path) else { return refuse("\(path) does not parse") }
            let uses = Uses(name: name)
            uses.walk(other.source.tree)
            if uses.bare { return refuse("\(name) is referenced other than in a call") }
            for declaration in uses.declarations
            where declaration.signature.parameterClause.parameters.map(\.firstName.text) == labels {
                if path == file.path && declaration.startOffset == method.startOffset { continue }
                guard declaration.parent?.parent?.parent?.parent?.is(ProtocolDeclSyntax.self) == true else {
                    return refuse("another declaration of \(name) with the same labels")
                }
                edits.append(
                    parameterEdit(declaration.signature.parameterClause, in: other, "\(bridge): \(bridgeType)"))
            }
            for call in uses.calls {
                guard call.trailingClosure == nil, call.additionalTrailingClosures.isEmpty,
                    SwiftCallerWiring.fit(call, parameters) != nil
                else { return refuse("a call of \(name) that does not fit its labels, or has a trailing closure") }
                if call.arguments.map({ $0.label?.text ?? "_" }) != labels {
                    return refuse("a call of \(name) that does not fit its labels")
                }
                guard let argument = reach(of: call) else {
                    return refuse("a call of \(name) with no \(bridge) in reach")
                }
                edits.append(argumentEdit(call, in: other, "\(bridge): \(argument)"))
                calls += 1
            }
        }
        // called nowhere in the run: no caller has a bridge to give it
        if calls == 0 { return refuse("the run calls \(name) nowhere") }
        return .success(edits)
    }

    /// The bridge a call's place has in reach: a parameter of the bridge's type, or its type's
    /// stored bridge (in an initializer only the type's own, set by its initial value).
    private func reach(of call: FunctionCallExprSyntax) -> String? {
        let bridge = context.bridgeName
        let place = SwiftCallPlace(of: call, serviceType: context.configuration.bridgeType)
        if let parameter = place.parameter { return parameter }
        guard !place.weak, !place.isStatic, !place.inStoredInitialValue(call), let member = place.member,
            let owner = place.ownerName, let each = SwiftRunType.findEach(owner, context: context), !each.isEmpty
        else { return nil }
        let stored = each.map { $0.storedProperty(bridge) }
        guard stored.allSatisfy({ $0 != nil }) else { return nil }
        if let initializer = member.as(InitializerDeclSyntax.self) {
            // before the body runs only a property's initial value has set it
            guard stored.allSatisfy({ $0!.bindings.first?.initializer != nil }), !place.inClosure,
                let body = initializer.body, !SwiftRunType.delegates(body),
                !SwiftCallerWiring.declares(bridge, in: Syntax(initializer))
            else { return nil }
            return bridge
        }
        return place.spelling(of: bridge, at: call)
    }

    /// `, text` after the last parameter (on its own line when the parameters are), or `text`.
    private func parameterEdit(_ clause: FunctionParameterClauseSyntax, in file: SwiftFixFile, _ text: String)
        -> TextEdit
    {
        guard let last = clause.parameters.last else {
            let at = clause.rightParen.startOffset
            return TextEdit(path: file.path, range: at..<at, replacement: text)
        }
        let at = last.endOffset
        return TextEdit(path: file.path, range: at..<at, replacement: "," + lead(last, in: file) + text)
    }

    private func argumentEdit(_ call: FunctionCallExprSyntax, in file: SwiftFixFile, _ text: String) -> TextEdit {
        guard let last = call.arguments.last else {
            let at = call.rightParen?.startOffset ?? call.endOffset
            return TextEdit(path: file.path, range: at..<at, replacement: text)
        }
        let at = last.endOffset
        return TextEdit(path: file.path, range: at..<at, replacement: "," + lead(last, in: file) + text)
    }

    private func lead(_ node: some SyntaxProtocol, in file: SwiftFixFile) -> String {
        let ownLine = node.leadingTrivia.contains {
            if case .newlines = $0 { return true }; if case .carriageReturnLineFeeds = $0 { return true }; return false
        }
        return ownLine ? file.newline + file.indentation(at: node.startOffset) : " "
    }

    /// The method's declarations, calls (`x.name(…)`, `name(…)`) and other references by name.
    private final class Uses: SyntaxVisitor {
        let name: String
        var declarations: [FunctionDeclSyntax] = []
        var calls: [FunctionCallExprSyntax] = []
        var bare = false
        init(name: String) { self.name = name; super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            if node.name.text == name { declarations.append(node) }
            return .visitChildren
        }
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            guard node.baseName.text == name else { return .visitChildren }
            // the called expression of a call: itself, or the member name of `x.name`
            var callee = Syntax(node)
            if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
                callee = Syntax(member)
            }
            if let call = callee.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == callee.id {
                calls.append(call)
            } else {
                bare = true
            }
            return .visitChildren
        }
    }
}
