import Foundation
import SwiftSyntax

/// Phase `inject` for Swift: constructor injection. A type whose members read the container gets
/// a stored `let bridge: BridgeType`, a `bridge` parameter on its one designated initializer whose
/// default is the container (so existing callers keep compiling; that default is the Swift
/// fallback form), `Container.shared.svc` → `bridge.svc`, and a property whose initial value read
/// the container (`lazy var x: T = Container.shared.svc`) becomes a `let` set in the initializer
/// from the bridge. One group per type; what cannot be done safely is listed with its reason.
struct SwiftInjectPlanner {
    let context: FixContext

    private struct Target {
        var file: SwiftFixFile
        var located: LocatedAccess
        var place: SwiftAccessPlace
    }

    func plan(_ paths: [String], into plan: inout FixPlan) {
        var byType: [String: [Target]] = [:]
        var order: [String] = []
        var service = SwiftServiceInjectPlanner(context: context) // the `service` style's accesses
        for path in paths {
            guard let file = context.swiftFile(path) else { continue }
            for located in file.accesses
            where located.access.kind == .direct && SwiftServiceRead.selects(located.access, context) {
                switch place(of: located, in: file) {
                case let .failure(.manual(reason, detail)):
                    plan.manual.append(manual(located, in: file, reason, detail))
                case let .success(place):
                    if let name = SwiftServiceRead.service(of: located.access, context.configuration),
                        context.configuration.injectionStyle(forService: name) == .service
                    {
                        service.add(file: file, located: located, place: place, service: name)
                        continue
                    }
                    // the bridge style reads `self.bridge`, which a closure holding self weakly cannot
                    if place.weakClosure != nil {
                        plan.manual.append(
                            manual(located, in: file, .blockAvoidingSelf, "the closure holds self weakly"))
                        continue
                    }
                    if byType[place.typeName] == nil { order.append(place.typeName) }
                    byType[place.typeName, default: []].append(Target(file: file, located: located, place: place))
                }
            }
        }
        for name in order { planType(name, byType[name]!, into: &plan) }
        service.plan(into: &plan)
    }

    func place(of located: LocatedAccess, in file: SwiftFixFile) -> Result<SwiftAccessPlace, SwiftAccessPlace.Refusal> {
        if file.isSuppressed(located.offset) { return .failure(.manual(.suppressed, nil)) }
        let service = SwiftServiceRead.service(of: located.access, context.configuration)
        guard service != nil else { return .failure(.manual(.noService, nil)) }
        let containers = context.configuration.containers
        guard
            containers.contains(.member(type: located.access.container, accessor: located.access.accessor))
                || SwiftServiceRead.isWildcard(located.access, context.configuration),
            let node = file.node(spanning: located.range)
        else {
            return .failure(
                .manual(.unrecognisedForm, "only a member container (Type.shared, Type.shared()) is rewritten in Swift")
            )
        }
        if let parent = node.parent, parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self)
        {
            return .failure(
                .manual(.unrecognisedForm, "the container is unwrapped ('?' or '!'); the bridge is not optional"))
        }
        // only a read of a service moves onto the bridge: not a registration, not an assignment
        if FixContext.isRegistration(service) { return .failure(.manual(.notAServiceRead, nil)) }
        if let member = node.parent?.as(MemberAccessExprSyntax.self), Self.isAssigned(ExprSyntax(member)) {
            return .failure(.manual(.assignedTo, nil))
        }
        return SwiftAccessPlace.of(node)
    }

    /// Whether an expression is assigned to (`x = …`, `x += …`, in a sequence SwiftParser leaves
    /// unfolded, or folded) or passed `inout` (`&x`).
    static func isAssigned(_ expression: ExprSyntax) -> Bool {
        guard let parent = expression.parent else { return false }
        if parent.is(InOutExprSyntax.self) { return true }
        func assigns(_ op: ExprSyntax) -> Bool {
            if op.is(AssignmentExprSyntax.self) { return true }
            guard let text = op.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
            return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
        }
        if let infix = parent.as(InfixOperatorExprSyntax.self) {
            return infix.leftOperand.id == expression.id && assigns(infix.operator)
        }
        if let list = parent.as(ExprListSyntax.self), let i = list.firstIndex(where: { $0.id == expression.id }) {
            let next = list.index(after: i)
            return next != list.endIndex && assigns(list[next])
        }
        return false
    }

    func manual(_ located: LocatedAccess, in file: SwiftFixFile, _ reason: ManualReason, _ detail: String?)
        -> ManualItem
    {
        let (line, column) = file.source.buffer.lineColumn(of: located.offset)
        return ManualItem(
            path: context.display(file.path), line: line, column: column, expression: located.access.expression,
            reason: reason, detail: detail)
    }

    // MARK: One type

    private func planType(_ name: String, _ targets: [Target], into plan: inout FixPlan) {
        func refuse(_ reason: ManualReason, _ detail: String) {
            plan.manual += targets.map { manual($0.located, in: $0.file, reason, "\(name): \(detail)") }
        }
        // the stored bridge and its parameter would name a type the project does not have
        if let missing = context.missingBridgeType {
            plan.manual += targets.map { manual($0.located, in: $0.file, .noBridgeType, "\(name): \(missing)") }
            return
        }
        // one declaration, or one per clause of an `#if`: each gets the bridge as a type of its
        // own, all in one group (every clause is done, or none)
        guard let types = SwiftRunType.findEach(name, context: context),
            !types.contains(where: { $0.declaration.is(EnumDeclSyntax.self) })
        else {
            return refuse(
                .typeNotInRun,
                "no single class, struct or actor declaration of it (or one per clause of an #if) among the run's Swift files"
            )
        }
        // a static the container's initialization reads builds the type: the container builds it instead
        var containerBuild = SwiftContainerBuild.Result()
        if let builder = staticBuilder(of: types[0]) {
            switch SwiftContainerBuild(context: context).plan(builder, typeName: name) {
            case let .failure(.manual(reason, detail)): return refuse(reason, detail ?? "")
            case let .success(build): containerBuild = build
            }
        }
        var shapes: [InitializerShape] = []
        for type in types {
            switch initializerShape(of: type) {
            case let .failure(.manual(reason, detail)):
                let clause =
                    types.count > 1
                    ? " (the declaration at line \(type.file.source.buffer.lineColumn(of: type.declaration.startOffset).line))"
                    : ""
                return refuse(reason, (detail ?? "") + clause)
            case let .success(s): shapes.append(s)
            }
        }
        /// The clause whose declaration holds an offset of a file (nil: an extension).
        func owner(_ file: SwiftFixFile, _ offset: Int) -> Int? {
            types.firstIndex { $0.file.path == file.path && $0.declaration.byteRange.contains(offset) }
        }
        let bridge = context.bridgeName
        let bridgeType = context.configuration.bridgeType
        let defaultValue = BridgeWriter.swiftDefault(
            container: targets[0].file.text(targets[0].located.range), context)
        var group = FixGroup(title: "Swift type \(name)", edits: [], targets: [])
        // `self.x = value` lines for each clause's initializers
        var assignments = Array(repeating: [String](), count: types.count)
        var moved: [Int: Bool] = [:] // properties (by offset) already handled: whether they move
        for target in targets {
            let file = target.file, located = target.located
            let (line, column) = file.source.buffer.lineColumn(of: located.offset)
            let fixTarget = FixTarget(
                path: context.display(file.path), line: line, column: column,
                expression: located.access.expression, range: located.range)
            switch target.place.kind {
            case .member:
                let shadowed = target.place.function.map { $0.mentions([bridge]) } ?? false
                let spelling = target.place.nested || shadowed ? "self.\(bridge)" : bridge
                group.edits.append(TextEdit(path: file.path, range: located.range, replacement: spelling))
                group.targets.append(fixTarget)
            case let .initializer(decl):
                let taking = shapes.contains { shape in
                    if case let .existing(designated, _) = shape {
                        return designated.contains { $0.decl.id == decl.id && $0.file.path == file.path }
                    }
                    return false
                }
                guard taking else {
                    plan.manual.append(
                        manual(
                            located, in: file, .initializerOrDealloc,
                            "\(name): an initializer that delegates or is not the one taking the bridge"))
                    continue
                }
                group.edits.append(TextEdit(path: file.path, range: located.range, replacement: bridge))
                group.targets.append(fixTarget)
            case let .propertyValue(variable):
                if let done = moved[variable.startOffset] {
                    if done { group.targets.append(fixTarget) }
                    continue
                }
                guard let i = owner(file, variable.startOffset) else {
                    moved[variable.startOffset] = false
                    plan.manual.append(
                        manual(
                            located, in: file, .propertyInitialValue,
                            "\(name): a property outside the type's declaration"))
                    continue
                }
                switch movedProperty(
                    variable, in: file, type: types[i], memberNames: types[i].memberNames,
                    accesses: targets.filter { $0.file.path == file.path }.map(\.located), nested: target.place.nested)
                {
                case let .failure(.manual(reason, detail)):
                    moved[variable.startOffset] = false
                    plan.manual += targets.filter { t in
                        t.file.path == file.path && variable.byteRange.contains(t.located.offset)
                    }
                    .map { manual($0.located, in: $0.file, reason, "\(name): \(detail ?? "")") }
                case let .success((edits, assignment)):
                    moved[variable.startOffset] = true
                    group.edits += edits
                    assignments[i] += assignment.map { [$0] } ?? []
                    group.targets.append(fixTarget)
                }
            }
        }
        guard !group.targets.isEmpty else { return }
        if types.count > 1 { group.title += " (declared in \(types.count) #if clauses)" }
        for (i, type) in types.enumerated() {
            group.edits += declarationEdits(
                type: type, shape: shapes[i], bridge: bridge, bridgeType: bridgeType,
                defaultValue: defaultValue, assignments: assignments[i])
        }
        group.edits += containerBuild.edits
        if !containerBuild.notes.isEmpty { group.notes = containerBuild.notes }
        plan.groups.append(group)
    }

    // MARK: Initializers

    private enum InitializerShape {
        /// The one designated initializer (or one per clause of an `#if`); `reused` when it already
        /// takes the bridge into a stored `let`.
        case existing([(file: SwiftFixFile, decl: InitializerDeclSyntax)], reused: Bool)
        /// A class or actor with no initializer: one is added.
        case added
    }

    private func initializerShape(of type: SwiftRunType) -> Result<InitializerShape, SwiftAccessPlace.Refusal> {
        let bridge = context.bridgeName
        let designated = type.designatedInitializers
        if let property = type.storedProperty(bridge) {
            let taking = designated.filter {
                $0.decl.signature.parameterClause.parameters.contains { ($0.secondName ?? $0.firstName).text == bridge }
            }
            guard property.bindingSpecifier.text == "let", property.bindings.first?.isOptional == false,
                designated.count == 1, taking.count == 1
            else {
                return .failure(
                    .manual(
                        .swiftInitializers,
                        "it already has a stored '\(bridge)' that is not a non-optional let its one designated initializer sets"
                    ))
            }
            return .success(.existing([designated[0]], reused: true))
        }
        if type.members.contains(where: { member in
            (member.decl.as(VariableDeclSyntax.self)?.names.contains { $0.text == bridge } ?? false)
                || member.decl.as(FunctionDeclSyntax.self)?.name.text == bridge
        }) {
            return .failure(.manual(.swiftInitializers, "it already has a member named '\(bridge)'"))
        }
        if type.attributes?.contains(where: { $0.trimmedDescription.hasPrefix("@objcMembers") }) == true {
            return .failure(
                .manual(.swiftInitializers, "@objcMembers: Objective-C callers do not see a default argument"))
        }
        guard !startsOnSameLine(after: type.mainBlock.leftBrace, in: type.file) else {
            return .failure(.manual(.swiftInitializers, "its members start on the line of its '{'"))
        }
        switch designated.count {
        case 0:
            if type.isStruct {
                return .failure(
                    .manual(
                        .swiftInitializers,
                        "a struct with a memberwise initializer (a new stored property changes it for every caller)"))
            }
            if type.hasInheritanceClause {
                return .failure(
                    .manual(
                        .swiftInitializers,
                        "no initializer of its own and an inheritance clause (an added one would hide inherited initializers)"
                    ))
            }
            return .success(.added)
        default:
            // several designated initializers (one per `#if` clause, or side by side): each must set
            // the stored `let bridge`, so each takes the defaulted parameter
            if let requirement = SwiftRunType.protocolRequiringInit(type.inheritedNames, context: context) {
                return .failure(
                    .manual(.protocolInitializer, "it conforms to '\(requirement)', which requires an initializer"))
            }
            for (file, decl) in designated {
                if let m = decl.modifiers.first(where: { ["required", "override"].contains($0.name.text) }) {
                    return .failure(
                        .manual(.swiftInitializers, "its initializer is '\(m.name.text)' (its signature is fixed)"))
                }
                if decl.attributes.contains(where: { $0.trimmedDescription.hasPrefix("@objc") }) {
                    // its selector gains `bridge:`; Objective-C senders of the old one stop compiling
                    guard context.configuration.swiftCallersInRun else {
                        return .failure(
                            .manual(
                                .swiftInitializers,
                                "its initializer is @objc: Objective-C callers do not see a default argument (swift-callers-in-run: true lets fix change its selector)"
                            ))
                    }
                    if let sender = objectiveCCreator(of: type.simpleName) {
                        return .failure(
                            .manual(
                                .swiftInitializers,
                                "its initializer is @objc and \(context.display(sender)) creates a \(type.name) (its selector gains 'bridge:')"
                            ))
                    }
                }
                guard let body = decl.body, !startsOnSameLine(after: body.leftBrace, in: file) else {
                    return .failure(.manual(.swiftInitializers, "its initializer's body starts on the line of its '{'"))
                }
                if decl.mentions([bridge]) {
                    return .failure(.manual(.swiftInitializers, "its initializer already names '\(bridge)'"))
                }
            }
            return .success(.existing(designated, reused: false))
        }
    }

    /// Where a Swift file of the run builds the type in the initial value of a static or a global
    /// (`static let wrapper = T(…)`, closures run for it included) that the container's own
    /// initialization may read, if it does: statics initialize on first use, so a bridge default
    /// reading the container would then re-enter the container while it is being built.
    private func staticBuilder(of type: SwiftRunType) -> StaticBuilder? {
        for path in context.swiftFilesMentioning(type.simpleName) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            // a call that may build the type counts (a nested type's by its simple name elsewhere too)
            for call in calls.calls + calls.ambiguous where !InitializerCalls.isSelfCall(call) {
                guard let variable = Self.staticVariable(around: Syntax(call)) else { continue }
                let names = variable.bindings.compactMap {
                    $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                }
                let qualified = names.map { name in variable.enclosingTypeName.map { "\($0).\(name)" } ?? name }
                guard containerMayRead(qualified) else { continue }
                return StaticBuilder(
                    file: file, variable: variable, call: call, owner: variable.enclosingTypeName,
                    name: names.first ?? "")
            }
        }
        return nil
    }

    /// Whether the container's initialization may read one of these statics or globals: its
    /// declaration names one, or it is not among the run's Swift files (nothing tells it does not).
    private func containerMayRead(_ names: [String]) -> Bool {
        let types = context.configuration.containers.compactMap { spec -> String? in
            if case let .member(type, _) = spec { return type }
            return nil
        }
        guard !types.isEmpty else { return true }
        for name in types {
            guard let declarations = SwiftRunType.findEach(name, context: context) else { return true }
            if declarations.contains(where: {
                $0.blocks.contains { block in names.contains { block.block.trimmedDescription.contains($0) } }
            }) {
                return true
            }
        }
        return false
    }

    /// The static or global whose initial value holds the node (not a function, initializer or
    /// accessor body in it, nor an instance member), if any.
    static func staticVariable(around node: Syntax) -> VariableDeclSyntax? {
        var current = node.parent
        while let n = current {
            if n.is(FunctionDeclSyntax.self) || n.is(InitializerDeclSyntax.self) || n.is(DeinitializerDeclSyntax.self)
                || n.is(AccessorBlockSyntax.self) || n.is(SubscriptDeclSyntax.self)
            {
                return nil
            }
            if let variable = n.as(VariableDeclSyntax.self) {
                if variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) {
                    return variable
                }
                // a global: a statement of the file itself
                return variable.parent?.parent?.parent?.is(SourceFileSyntax.self) == true ? variable : nil
            }
            if n.is(ClassDeclSyntax.self) || n.is(StructDeclSyntax.self) || n.is(ActorDeclSyntax.self)
                || n.is(EnumDeclSyntax.self)
                || n.is(ExtensionDeclSyntax.self)
            {
                return nil
            }
            current = n.parent
        }
        return nil
    }

    /// An Objective-C file of the run that creates the type (`[T alloc]`, `[T new]`).
    func objectiveCCreator(of name: String) -> String? {
        let pattern = "\\[\\s*\(NSRegularExpression.escapedPattern(for: name))\\s+(alloc|new)\\b"
        return context.runFiles.first { path in
            ["m", "mm", "h"].contains((path as NSString).pathExtension)
                && context.workspace.bytes(path).map {
                    String(decoding: $0, as: UTF8.self).range(of: pattern, options: .regularExpression) != nil
                } == true
        }
    }

    /// Whether the code after `token` goes on on its line (a one-line body or member block).
    func startsOnSameLine(after token: TokenSyntax, in file: SwiftFixFile) -> Bool {
        guard let next = token.nextToken(viewMode: .sourceAccurate) else { return false }
        return !next.leadingTrivia.contains {
            if case .newlines = $0 { return true }; if case .carriageReturnLineFeeds = $0 { return true }; return false
        }
    }

    /// The stored property, the initializer's parameter and its first statements (or a new initializer).
    private func declarationEdits(
        type: SwiftRunType, shape: InitializerShape, bridge: String, bridgeType: String,
        defaultValue: String, assignments: [String]
    ) -> [TextEdit] {
        let file = type.file
        let nl = file.newline
        let brace = type.mainBlock.leftBrace
        let (memberIndent, unit) = type.memberIndentation
        let parameter = "\(bridge): \(bridgeType) = \(defaultValue)"
        switch shape {
        case .added:
            let body = (["self.\(bridge) = \(bridge)"] + assignments).map { nl + memberIndent + unit + $0 }.joined()
            let text =
                nl + memberIndent + "let \(bridge): \(bridgeType)" + nl + nl + memberIndent + "init(\(parameter)) {"
                + body + nl + memberIndent + "}" + nl
            return [
                TextEdit(
                    path: file.path, range: brace.endPosition.utf8Offset..<brace.endPosition.utf8Offset,
                    replacement: text)
            ]
        case let .existing(initializers, reused):
            var edits: [TextEdit] = []
            let statements = (reused ? [] : ["self.\(bridge) = \(bridge)"]) + assignments
            if !reused {
                edits.append(
                    TextEdit(
                        path: file.path, range: brace.endPosition.utf8Offset..<brace.endPosition.utf8Offset,
                        replacement: nl + memberIndent + "let \(bridge): \(bridgeType)"))
            }
            for (initFile, decl) in initializers {
                if !reused { edits.append(parameterEdit(decl, in: initFile, parameter)) }
                if !statements.isEmpty, let body = decl.body {
                    let initIndent = initFile.indentation(at: decl.startOffset)
                    let indent =
                        body.statements.first.map { initFile.indentation(at: $0.startOffset) } ?? initIndent + unit
                    let at = body.leftBrace.endPosition.utf8Offset
                    edits.append(
                        TextEdit(
                            path: initFile.path, range: at..<at,
                            replacement: statements.map { initFile.newline + indent + $0 }.joined()))
                }
            }
            return edits
        }
    }

    /// `, bridge: T = default` after the last parameter, on its own line when the parameters are.
    private func parameterEdit(_ decl: InitializerDeclSyntax, in file: SwiftFixFile, _ parameter: String) -> TextEdit {
        let clause = decl.signature.parameterClause
        guard let last = clause.parameters.last else {
            let at = clause.rightParen.startOffset
            return TextEdit(path: file.path, range: at..<at, replacement: parameter)
        }
        let ownLine = last.leadingTrivia.contains {
            if case .newlines = $0 { return true }; if case .carriageReturnLineFeeds = $0 { return true }; return false
        }
        if let comma = last.trailingComma {
            let at = comma.endPositionBeforeTrailingTrivia.utf8Offset
            return TextEdit(
                path: file.path, range: at..<at,
                replacement: ownLine
                    ? file.newline + file.indentation(at: last.startOffset) + parameter + "," : " " + parameter + ",")
        }
        let at = last.endOffset
        return TextEdit(
            path: file.path, range: at..<at,
            replacement: "," + (ownLine ? file.newline + file.indentation(at: last.startOffset) : " ") + parameter)
    }

    // MARK: Properties

    /// `lazy var x: T = Container.shared.svc` → `let x: T` and `self.x = bridge.svc` in the initializer.
    /// A `lazy var` without a type annotation (`lazy var info = Container.shared.svc.info as? T ?? [:]`)
    /// cannot move (its type is inferred from the value): it stays `lazy` and reads the bridge in
    /// place — a lazy value runs on first use, after the initializer has set the bridge. The
    /// assignment is nil then.
    private func movedProperty(
        _ variable: VariableDeclSyntax, in file: SwiftFixFile, type: SwiftRunType, memberNames: Set<String>,
        accesses: [LocatedAccess], nested: Bool
    ) -> Result<([TextEdit], String?), SwiftAccessPlace.Refusal> {
        if variable.hasModifier(["lazy"]), variable.bindings.count == 1, let binding = variable.bindings.first,
            binding.pattern.is(IdentifierPatternSyntax.self), binding.typeAnnotation == nil,
            let value = binding.initializer?.value
        {
            let shadowed = value.mentions([context.bridgeName])
            let spelling = nested || shadowed ? "self.\(context.bridgeName)" : context.bridgeName
            return .success(
                (
                    accesses.filter { value.byteRange.contains($0.offset) }
                        .map { TextEdit(path: file.path, range: $0.range, replacement: spelling) }, nil
                ))
        }
        guard variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let annotation = binding.typeAnnotation, let value = binding.initializer?.value
        else {
            return .failure(
                .manual(
                    .propertyInitialValue,
                    "the property has no type annotation (needed once its value moves into init), or several bindings"))
        }
        let references = BareReferences()
        references.walk(value)
        if let used = references.names.first(where: { $0 == "self" || memberNames.contains($0) }) {
            return .failure(
                .manual(
                    .propertyInitialValue,
                    "its initial value uses '\(used)', which is not available before the initializer has run"))
        }
        var edits: [TextEdit] = []
        let isLazy = variable.hasModifier(["lazy"])
        if let lazy = variable.modifiers.first(where: { $0.name.text == "lazy" }) {
            let end = lazy.nextToken(viewMode: .sourceAccurate)?.startOffset ?? lazy.endOffset
            edits.append(TextEdit(path: file.path, range: lazy.startOffset..<end, replacement: ""))
        }
        let setterScoped = variable.modifiers.contains { $0.detail != nil }
        if isLazy, !setterScoped, !isAssigned(name, in: type) {
            edits.append(
                TextEdit(
                    path: file.path, range: variable.bindingSpecifier.startOffset..<variable.bindingSpecifier.endOffset,
                    replacement: "let"))
        }
        edits.append(TextEdit(path: file.path, range: annotation.endOffset..<value.endOffset, replacement: ""))
        var text = Array(file.bytes[value.byteRange])
        for access in accesses.filter({ value.byteRange.contains($0.offset) }).sorted(by: {
            $0.range.lowerBound > $1.range.lowerBound
        }) {
            let r = (access.range.lowerBound - value.startOffset)..<(access.range.upperBound - value.startOffset)
            text.replaceSubrange(r, with: Array(context.bridgeName.utf8))
        }
        return .success((edits, "self.\(name) = \(String(decoding: text, as: UTF8.self))"))
    }

    /// Whether any of the type's members, or any Swift file of the run, assigns the property.
    private func isAssigned(_ name: String, in type: SwiftRunType) -> Bool {
        if type.blocks.contains(where: { Assignment.all(in: $0.block).contains { $0.propertyName == name } }) {
            return true
        }
        return context.swiftFilesMentioning(".\(name)").contains { path in
            context.swiftFile(path).map {
                Assignment.all(in: $0.source.tree).contains { $0.isMember && $0.name == name }
            } ?? true
        }
    }
}

/// Names an expression reads on its own (`x`, `self`), not as a member of something (`a.x`).
final class BareReferences: SyntaxVisitor {
    var names: [String] = []
    init() { super.init(viewMode: .sourceAccurate) }
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            return .visitChildren
        }
        names.append(node.baseName.text)
        return .visitChildren
    }
}
