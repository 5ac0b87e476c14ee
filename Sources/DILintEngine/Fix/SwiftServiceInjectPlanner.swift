import Foundation
import SwiftSyntax

/// Phase `inject` for Swift in the `service` style: each read of service S becomes a dependency
/// of the type that reads it. The type gets a stored `let s: S`, each designated initializer a
/// parameter `s: S = <the container read>` (the transition form, which lint classifies
/// `fallback`) and `self.s = s`; `Container.shared.s` → `s`. One group per type and service:
/// another service's accesses in the same type are never part of it, nor block it.
///
/// The service's type comes from the run: the container's declaration of the member (property
/// type, method return type), the resolved type of a generic `resolve()` (its annotation or
/// generic argument), or a declaration annotated with a type whose value is the same read. When
/// none says it, the accesses are listed (fix does not guess a type).
///
/// An initializer that cannot take a parameter (`required`, `override`) sets the property from
/// the container read (listed: a fallback left), unless its body only traps (`fatalError()`).
/// Initializers visible to Objective-C whose selector an Objective-C file of the run sends are
/// refused (the selector would change).
struct SwiftServiceInjectPlanner {
    let context: FixContext

    struct Target {
        var file: SwiftFixFile
        var located: LocatedAccess
        var place: SwiftAccessPlace
        var service: String
    }

    private var byKey: [String: [Target]] = [:]
    private var order: [String] = []

    init(context: FixContext) { self.context = context }

    mutating func add(file: SwiftFixFile, located: LocatedAccess, place: SwiftAccessPlace, service: String) {
        let key = place.typeName + "\u{0}" + service
        if byKey[key] == nil { order.append(key) }
        byKey[key, default: []].append(Target(file: file, located: located, place: place, service: service))
    }

    func plan(into plan: inout FixPlan) {
        // structs with only a memberwise initializer take a service together (see SwiftMemberwiseInjection)
        var memberwise: [String: (planner: SwiftMemberwiseInjection, members: [SwiftMemberwiseInjection.Member])] = [:]
        var services: [String] = []
        // the services of each type this run injects: initializers they all write must compose
        var servicesOfType: [String: [String]] = [:]
        for key in order {
            let first = byKey[key]![0]
            servicesOfType[first.place.typeName, default: []].append(first.service)
        }
        for key in order {
            let targets = byKey[key]!
            let typeName = targets[0].place.typeName
            guard
                let (planner, member) = planService(
                    typeName: typeName, service: targets[0].service,
                    alongside: servicesOfType[typeName, default: []].filter { $0 != targets[0].service }, targets,
                    into: &plan)
            else { continue }
            let key = planner.service + "\u{0}" + planner.serviceType
            if memberwise[key] == nil {
                services.append(key)
                memberwise[key] = (planner, [])
            }
            memberwise[key]!.members.append(member)
        }
        for key in services {
            let (planner, members) = memberwise[key]!
            planner.plan(members, into: &plan)
        }
    }

    private var base: SwiftInjectPlanner { SwiftInjectPlanner(context: context) }

    // MARK: The service read

    /// The read's expression for an access (nil when the node is not found).
    static func read(of located: LocatedAccess, in file: SwiftFixFile, _ configuration: Configuration) -> Syntax? {
        guard let end = file.node(spanning: located.range) else { return nil }
        return SwiftServiceRead.expression(
            end: end, wildcard: SwiftServiceRead.isWildcard(located.access, configuration))
    }

    /// Why a read cannot move onto an injected name, if it cannot.
    private func refusal(of read: Syntax) -> (ManualReason, String)? {
        if let member = read.as(MemberAccessExprSyntax.self), let call = member.parent?.as(FunctionCallExprSyntax.self),
            call.calledExpression.id == member.id
        {
            return (
                .notAServiceRead,
                "a call of the container's method '\(member.declName.baseName.text)' with arguments, not a read of a service"
            )
        }
        if let parent = read.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            return (.unrecognisedForm, "a throwing or async read (a parameter default cannot be one)")
        }
        return nil
    }

    /// The service's type: from the container's declaration in the run, a typed `resolve()`, or
    /// a declaration of the run annotated with a type whose value is the same read.
    func serviceType(_ service: String, _ access: ContainerAccess, read: Syntax) -> String? {
        if SwiftServiceRead.isResolve(read) { return service } // the resolved type (annotation, generic argument)
        // every declaration and extension of the container's type in the run that declares the
        // member (a type of one name may be declared in several modules): one type, or none
        var owners = [access.container]
        for member in ContainerMembers.find(access.accessor, in: access.container, context: context) {
            if case let .property(type) = member, let name = SwiftAccessForms.typeName(type), name != access.container {
                owners.append(name)
            }
        }
        var types = Set<String>()
        for owner in owners {
            for member in ContainerMembers.find(service, in: owner, context: context) {
                switch member {
                case let .property(type), let .method(type): types.insert(type)
                case let .built(name):
                    // `let tabs = TabStore()`: a type of the run built by a non-failable initializer
                    if let built = SwiftRunType.findEach(name, context: context),
                        !built.contains(where: {
                            $0.members.contains { $0.decl.as(InitializerDeclSyntax.self)?.optionalMark != nil }
                        })
                    {
                        types.insert(name)
                    } else {
                        return nil
                    }
                case .unknown: return nil
                }
            }
        }
        if types.count == 1 { return types.first }
        if types.count > 1 { return nil }
        // `let analytics: Analytics = ServiceLocator.analytics`, `stores: StoresManager = ServiceLocator.stores`
        let text = read.trimmedDescription
        for path in context.swiftFilesMentioning(text) {
            guard let other = context.swiftFile(path) else { continue }
            let annotated = AnnotatedReads(text: text)
            annotated.walk(other.source.tree)
            if let type = annotated.types.first { return type }
        }
        return nil
    }

    /// The injected name: the service's (a resolved type's in lower camel case).
    static func name(service: String, resolve: Bool) -> String {
        guard resolve else { return service }
        let simple =
            String(service.split(separator: "<").first ?? Substring(service)).split(separator: ".").last.map(
                String.init) ?? service
        // `URLSession` → `urlSession`, `TabStore` → `tabStore`
        let chars = Array(simple)
        var upper = 0
        while upper < chars.count, chars[upper].isUppercase { upper += 1 }
        if upper == 0 { return simple }
        let lower = upper > 1 && upper < chars.count ? upper - 1 : upper
        return chars[..<lower].map { $0.lowercased() }.joined() + String(chars[lower...])
    }

    // MARK: One type, one service

    /// Plans one type's reads of one service; a struct with only a memberwise initializer is
    /// handed back, to be planned with the run's others (nil otherwise).
    private func planService(
        typeName: String, service: String, alongside: [String], _ targets: [Target], into plan: inout FixPlan
    )
        -> (SwiftMemberwiseInjection, SwiftMemberwiseInjection.Member)?
    {
        var targets = targets
        func list(_ items: [Target], _ reason: ManualReason, _ detail: String) {
            plan.manual += items.map { base.manual($0.located, in: $0.file, reason, "\(typeName): \(detail)") }
        }
        // only service reads move: a call of the container's own method is listed
        var reads: [Int: Syntax] = [:]
        targets = targets.filter { t in
            guard let read = Self.read(of: t.located, in: t.file, context.configuration) else {
                list([t], .unrecognisedForm, "the read could not be found in the file's tree")
                return false
            }
            if let (reason, detail) = refusal(of: read) { list([t], reason, detail); return false }
            reads[t.located.offset] = read
            return true
        }
        guard let first = targets.first, let firstRead = reads[first.located.offset] else { return nil }
        guard let serviceType = serviceType(service, first.located.access, read: firstRead) else {
            list(targets, .serviceTypeUnknown, "'\(service)' of \(first.located.access.container)")
            return nil
        }
        let name = Self.name(service: service, resolve: SwiftServiceRead.isResolve(firstRead))
        let defaultValue = firstRead.trimmedDescription
        guard let types = SwiftRunType.findEach(typeName, context: context), types.count == 1,
            !types[0].declaration.is(EnumDeclSyntax.self)
        else {
            list(
                targets, .typeNotInRun, "no single class, struct or actor declaration of it among the run's Swift files"
            )
            return nil
        }
        let type = types[0]
        if !type.memberNames.contains(name), SwiftMemberwiseInjection.applies(to: type) {
            return (
                SwiftMemberwiseInjection(
                    context: context, service: service, name: name, serviceType: serviceType,
                    defaultValue: defaultValue),
                SwiftMemberwiseInjection.Member(type: type, targets: targets, reads: reads)
            )
        }
        // the name is free, or the type already holds the service under it (every designated
        // initializer takes it): then only the reads move
        var reused = false
        if type.memberNames.contains(name) {
            let stored = type.storedProperty(name)
            let takers = type.designatedInitializers.filter { !Self.cannotTake($0.decl) }
            let takes =
                !takers.isEmpty
                && takers.allSatisfy { i in
                    i.decl.signature.parameterClause.parameters.contains {
                        ($0.secondName ?? $0.firstName).text == name && $0.type.trimmedDescription == serviceType
                    }
                }
            guard stored?.bindings.first?.typeAnnotation?.type.trimmedDescription == serviceType, takes else {
                list(targets, .serviceNameTaken, "'\(name)'")
                return nil
            }
            reused = true
        }
        var group = FixGroup(title: "Swift type \(typeName): service \(service)", edits: [], targets: [])
        var notes: [String] = []
        if !reused {
            switch initializerEdits(
                type: type, name: name, serviceType: serviceType, defaultValue: defaultValue, alongside: alongside,
                plan: &plan, notes: &notes
            ) {
            case let .failure(.manual(reason, detail)):
                list(targets, reason, detail ?? "")
                return nil
            case let .success(edits): group.edits += edits
            }
            if notes.contains(where: { $0.contains(SwiftObjCInitCallers.notePrefix) }) { group.tier = .unsafe }
        }
        let taking = Set(type.designatedInitializers.filter { !Self.cannotTake($0.decl) }.map { $0.decl.id })
        var capturedClosures = Set<SyntaxIdentifier>()
        for target in targets {
            let file = target.file, located = target.located
            guard let read = reads[located.offset] else { continue }
            let (line, column) = file.source.buffer.lineColumn(of: located.offset)
            let fixTarget = FixTarget(
                path: context.display(file.path), line: line, column: column,
                expression: located.access.expression, range: located.range)
            switch target.place.kind {
            case .member:
                let shadowed = target.place.function.map { SwiftCallerWiring.declares(name, in: $0) } ?? false
                if let closure = target.place.weakClosure {
                    // a closure holding self weakly captures the service itself (`[weak self, tabs =
                    // self.tabs]`), read where the closure is made, and reads the capture
                    guard !shadowed, let capture = closure.signature?.capture, let last = capture.items.last else {
                        plan.manual.append(
                            base.manual(
                                located, in: file, .blockAvoidingSelf,
                                "\(typeName): the closure holds self weakly and its method declares '\(name)'"))
                        continue
                    }
                    if capturedClosures.insert(closure.id).inserted {
                        let at = last.endPositionBeforeTrailingTrivia.utf8Offset
                        group.edits.append(
                            TextEdit(
                                path: file.path, range: at..<at,
                                replacement: (last.trailingComma == nil ? ", " : " ") + "\(name) = self.\(name)"))
                    }
                    group.edits.append(TextEdit(path: file.path, range: read.byteRange, replacement: name))
                    group.targets.append(fixTarget)
                    continue
                }
                group.edits.append(
                    TextEdit(
                        path: file.path, range: read.byteRange,
                        replacement: target.place.nested || shadowed ? "self.\(name)" : name))
                group.targets.append(fixTarget)
            case let .initializer(decl):
                guard taking.contains(decl.id),
                    !reused
                        || decl.signature.parameterClause.parameters.contains(where: {
                            ($0.secondName ?? $0.firstName).text == name
                        })
                else {
                    plan.manual.append(
                        base.manual(
                            located, in: file, .initializerOrDealloc,
                            "\(typeName): an initializer that delegates or cannot take a parameter"))
                    continue
                }
                group.edits.append(TextEdit(path: file.path, range: read.byteRange, replacement: name))
                group.targets.append(fixTarget)
            case let .propertyValue(variable):
                // a lazy value runs on first use, after the initializer has set the property
                guard variable.hasModifier(["lazy"]) else {
                    plan.manual.append(
                        base.manual(
                            located, in: file, .propertyInitialValue,
                            "\(typeName): a stored property's initial value runs before the initializer sets '\(name)'")
                    )
                    continue
                }
                group.edits.append(TextEdit(path: file.path, range: read.byteRange, replacement: "self.\(name)"))
                group.targets.append(fixTarget)
            }
        }
        guard !group.targets.isEmpty else { return nil }
        if !notes.isEmpty { group.notes = notes }
        plan.groups.append(group)
        return nil
    }

    /// An initializer whose signature is fixed (`required`, `override`): it cannot take a parameter.
    static func cannotTake(_ decl: InitializerDeclSyntax) -> Bool {
        decl.modifiers.contains { ["required", "override"].contains($0.name.text) }
    }

    /// Whether an initializer's body only traps (`fatalError(…)`): it sets nothing.
    static func onlyTraps(_ decl: InitializerDeclSyntax) -> Bool {
        guard let statements = decl.body?.statements, statements.count == 1,
            let call = statements.first?.item.as(FunctionCallExprSyntax.self)
        else { return false }
        return ["fatalError", "preconditionFailure"].contains(call.calledExpression.trimmedDescription)
    }

    private func initializerEdits(
        type: SwiftRunType, name: String, serviceType: String, defaultValue: String, alongside: [String],
        plan: inout FixPlan, notes: inout [String]
    ) -> Result<[TextEdit], SwiftAccessPlace.Refusal> {
        // Each service's group stands alone (it lands or is refused alone), so an initializer two
        // groups would both write, or a parameter list both would start, cannot be shared.
        let oneAtATime =
            "the run injects \(alongside.count + 1) of its services (\((alongside + [name]).sorted().joined(separator: ", "))): inject one service at a time (--service)"
        let file = type.file
        let nl = file.newline
        let brace = type.mainBlock.leftBrace
        let (memberIndent, unit) = type.memberIndentation
        let parameter = "\(name): \(serviceType) = \(defaultValue)"
        let stored = "let \(name): \(serviceType)"
        if base.startsOnSameLine(after: brace, in: file) {
            return .failure(.manual(.serviceInitializers, "its member block starts on the line of its '{'"))
        }
        let designated = type.designatedInitializers
        if designated.isEmpty, !alongside.isEmpty {
            return .failure(.manual(.serviceInitializers, "it has no initializer of its own and \(oneAtATime)"))
        }
        if !alongside.isEmpty,
            designated.contains(where: {
                !Self.cannotTake($0.decl) && $0.decl.signature.parameterClause.parameters.isEmpty
            })
        {
            return .failure(.manual(.serviceInitializers, "its 'init()' takes no parameters and \(oneAtATime)"))
        }
        if designated.isEmpty {
            if type.isStruct {
                return .failure(
                    .manual(
                        .serviceInitializers,
                        "a struct with a memberwise initializer (a new stored property changes it for every caller)"))
            }
            if type.hasInheritanceClause {
                return .failure(
                    .manual(
                        .serviceInitializers,
                        "no initializer of its own and an inheritance clause (an added one would hide inherited initializers)"
                    ))
            }
            let text =
                nl + memberIndent + stored + nl + nl + memberIndent + "init(\(parameter)) {" + nl + memberIndent + unit
                + "self.\(name) = \(name)" + nl + memberIndent + "}" + nl
            let at = brace.endPosition.utf8Offset
            return .success([TextEdit(path: file.path, range: at..<at, replacement: text)])
        }
        if let requirement = SwiftRunType.protocolRequiringInit(type.inheritedNames, context: context) {
            return .failure(
                .manual(.protocolInitializer, "it conforms to '\(requirement)', which requires an initializer"))
        }
        let takers = designated.filter { !Self.cannotTake($0.decl) }
        guard !takers.isEmpty else {
            return .failure(
                .manual(.serviceInitializers, "none of its initializers can take a parameter (required or override)"))
        }
        var objcSenders: [TextEdit] = [] // the Objective-C senders of an initializer, given the service
        let objcType = type.attributes?.contains { $0.trimmedDescription.hasPrefix("@objcMembers") } == true
        let nsObject = type.inheritedNames.contains("NSObject")
        for (initFile, decl) in designated {
            guard let body = decl.body, !base.startsOnSameLine(after: body.leftBrace, in: initFile) else {
                return .failure(.manual(.serviceInitializers, "its initializer's body starts on the line of its '{'"))
            }
            if SwiftCallerWiring.declares(name, in: Syntax(decl)) {
                return .failure(.manual(.serviceNameTaken, "its initializer already declares '\(name)'"))
            }
            if Self.cannotTake(decl) { continue }
            let explicit = decl.attributes.contains { $0.trimmedDescription.hasPrefix("@objc") } || objcType
            if explicit || nsObject {
                // its selector gains a part: Objective-C senders of the old one stop compiling
                let selector = Self.selector(of: decl)
                if objectiveCSender(of: selector) != nil {
                    // its Objective-C senders in the run pass the service, or the type is refused
                    let parameters = decl.signature.parameterClause.parameters
                    switch SwiftObjCInitCallers(context: context).senders(
                        typeName: type.simpleName, labels: parameters.map(\.firstName.text), name: name,
                        serviceType: serviceType,
                        last: parameters.last.map { !SwiftCallerWiring.isFunctionType($0.type) } ?? true)
                    {
                    case let .failure(why):
                        return .failure(
                            .manual(.serviceInitializers, "its initializer is visible to Objective-C: \(why.why)"))
                    case let .success(senders):
                        objcSenders += senders.edits
                        notes += senders.notes
                    }
                }
                if explicit && !context.configuration.swiftCallersInRun {
                    return .failure(
                        .manual(
                            .serviceInitializers,
                            "its initializer is @objc: Objective-C callers do not see a default argument (swift-callers-in-run: true lets fix change its selector)"
                        ))
                }
            }
        }
        var edits = [
            TextEdit(
                path: file.path, range: brace.endPosition.utf8Offset..<brace.endPosition.utf8Offset,
                replacement: nl + memberIndent + stored)
        ]
        for (initFile, decl) in designated {
            guard let body = decl.body else { continue }
            let initIndent = initFile.indentation(at: decl.startOffset)
            let indent = body.statements.first.map { initFile.indentation(at: $0.startOffset) } ?? initIndent + unit
            let at = body.leftBrace.endPosition.utf8Offset
            if Self.cannotTake(decl) {
                if Self.onlyTraps(decl) { continue }
                edits.append(
                    TextEdit(
                        path: initFile.path, range: at..<at,
                        replacement: initFile.newline + indent + "self.\(name) = \(defaultValue)"))
                let (line, column) = initFile.source.buffer.lineColumn(of: decl.startOffset)
                plan.manual.append(
                    ManualItem(
                        path: context.display(initFile.path), line: line, column: column, expression: defaultValue,
                        reason: .initializerSetsServiceFromContainer,
                        detail:
                            "\(type.name): its '\(decl.modifiers.map(\.name.text).joined(separator: " ")) init' sets '\(name)' from the container"
                    ))
                continue
            }
            edits.append(parameterEdit(decl, in: initFile, parameter))
            edits.append(
                TextEdit(
                    path: initFile.path, range: at..<at,
                    replacement: initFile.newline + indent + "self.\(name) = \(name)"))
        }
        return .success(edits + objcSenders)
    }

    /// `name: T = default` before the trailing function-typed parameters (so a trailing closure
    /// still fills the last one), else after the last parameter; on its own line when they are.
    private func parameterEdit(_ decl: InitializerDeclSyntax, in file: SwiftFixFile, _ parameter: String) -> TextEdit {
        let parameters = Array(decl.signature.parameterClause.parameters)
        var insertAt = parameters.count
        while insertAt > 0, SwiftCallerWiring.isFunctionType(parameters[insertAt - 1].type) { insertAt -= 1 }
        if insertAt == parameters.count || insertAt == 0 && parameters.isEmpty {
            guard let last = parameters.last else {
                let at = decl.signature.parameterClause.rightParen.startOffset
                return TextEdit(path: file.path, range: at..<at, replacement: parameter)
            }
            let ownLine = Self.onOwnLine(last)
            let at = last.endOffset
            return TextEdit(
                path: file.path, range: at..<at,
                replacement: "," + (ownLine ? file.newline + file.indentation(at: last.startOffset) : " ") + parameter)
        }
        // before parameters[insertAt]
        let next = parameters[insertAt]
        let at = next.startOffset
        let ownLine = Self.onOwnLine(next)
        return TextEdit(
            path: file.path, range: at..<at,
            replacement: parameter + "," + (ownLine ? file.newline + file.indentation(at: next.startOffset) : " "))
    }

    static func onOwnLine(_ node: some SyntaxProtocol) -> Bool {
        node.leadingTrivia.contains {
            if case .newlines = $0 { return true }; if case .carriageReturnLineFeeds = $0 { return true }; return false
        }
    }

    /// The Objective-C selector Swift gives an initializer (`init(name:)` → `initWithName:`).
    static func selector(of decl: InitializerDeclSyntax) -> String {
        let labels = decl.signature.parameterClause.parameters.map(\.firstName.text)
        guard let first = labels.first else { return "init" }
        let head = first == "_" ? "init:" : "initWith" + first.prefix(1).uppercased() + first.dropFirst() + ":"
        return head + labels.dropFirst().map { ($0 == "_" ? "" : $0) + ":" }.joined()
    }

    /// An Objective-C file of the run that sends the selector.
    private func objectiveCSender(of selector: String) -> String? {
        let parts = selector.split(separator: ":").map(String.init)
        guard let first = parts.first else { return nil }
        return context.runFiles.first { path in
            ["m", "mm"].contains((path as NSString).pathExtension)
                && context.workspace.bytes(path).map { bytes in
                    let text = String(decoding: bytes, as: UTF8.self)
                    return parts.allSatisfy {
                        text.range(
                            of: "\\b\(NSRegularExpression.escapedPattern(for: $0))\\s*:", options: .regularExpression)
                            != nil
                    }
                        && text.contains(first)
                } == true
        }
    }
}

/// Types of declarations annotated with a type whose value is exactly a given read:
/// `let p: Profile = <read>`, a parameter `p: Profile = <read>`.
private final class AnnotatedReads: SyntaxVisitor {
    let text: String
    var types: [String] = []
    init(text: String) { self.text = text; super.init(viewMode: .sourceAccurate) }
    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let annotation = node.typeAnnotation, node.initializer?.value.trimmedDescription == text {
            types.append(annotation.type.trimmedDescription)
        }
        return .visitChildren
    }
    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        if node.defaultValue?.value.trimmedDescription == text, node.ellipsis == nil {
            types.append(node.type.trimmedDescription)
        }
        return .visitChildren
    }
}

/// What the declarations and extensions of a type named `owner` in the run's Swift files (and
/// the project's, `--types-from`) say of
/// a member: its annotated type, a method's result type (no parameters), the type a stored value
/// builds (`let tabs = TabStore()`), or that its type is not written.
enum ContainerMembers {
    enum Member {
        case property(String)
        case method(String)
        case built(String)
        case unknown
    }

    static func find(_ member: String, in owner: String, context: FixContext) -> [Member] {
        let simple = SwiftRunType.simpleName(owner)
        var found: [Member] = []
        let blocks = context.remembered("member blocks of \(simple)") {
            context.declarationTrees(of: simple, mentioning: simple).flatMap { tree in
                let blocks = OwnerBlocks(name: simple)
                blocks.walk(tree)
                return blocks.found
            }
        }
        for block in blocks {
            for decl in SwiftRunType.flatten(block.members) {
                if let v = decl.as(VariableDeclSyntax.self),
                    let binding = v.bindings.first(where: {
                        $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == member
                    })
                {
                    if let annotation = binding.typeAnnotation {
                        found.append(.property(annotation.type.trimmedDescription))
                    } else if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                        let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
                        callee.baseName.text.first?.isUppercase == true
                    {
                        found.append(.built(callee.baseName.text))
                    } else {
                        found.append(.unknown)
                    }
                }
                if let f = decl.as(FunctionDeclSyntax.self), f.name.text == member {
                    if f.signature.parameterClause.parameters.isEmpty, let result = f.signature.returnClause {
                        found.append(.method(result.type.trimmedDescription))
                    } else {
                        found.append(.unknown)
                    }
                }
            }
        }
        return found
    }

    /// Member blocks of the classes, structs, enums, actors and extensions of a simple name.
    private final class OwnerBlocks: SyntaxVisitor {
        let name: String
        var found: [MemberBlockSyntax] = []
        init(name: String) { self.name = name; super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            add(node.name.text, node.memberBlock)
        }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            add(node.name.text, node.memberBlock)
        }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            add(node.name.text, node.memberBlock)
        }
        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
            add(node.name.text, node.memberBlock)
        }
        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            add(SwiftRunType.simpleName(node.extendedType.trimmedDescription), node.memberBlock)
        }
        private func add(_ declared: String, _ block: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
            if declared == name { found.append(block) }
            return .visitChildren
        }
    }
}
