import SwiftSyntax

/// Phase `inject`, `service` style, for structs whose only initializer is the memberwise one
/// (the Swift compiler's, from the stored properties in declaration order). Every such struct of
/// the run that reads service S gets a stored `let s: S` as its last stored property, so the
/// memberwise initializer gains `s:` as its last parameter, and every call of it in the run
/// passes the service as its last argument. One group per service: the structs take the service
/// together, since a call inside one struct passes its own `s` to another.
/// - A read in an instance member becomes `s` (`self.s` in a closure or where a local shadows it).
/// - A read in a stored `let x = <value>` (which cannot read `self`) makes `x` a computed
///   property, `var x: T { <value with s> }`: `T` is the `let`'s annotation, or the type a
///   protocol the struct conforms to gives that requirement. The value is then computed at each
///   use instead of once at construction.
/// - A call passes what it has in reach: `s` inside one of the structs, a parameter of the
///   service's type, a stored property of that type of the caller's type; else the container read
///   itself (the read moves to the caller: the composition root's place).
/// A struct of the run with only a memberwise initializer that builds one of them in an instance
/// member takes the service too (it then passes its own), and so on, as people thread it.
/// The group is `unsafe`: reads move to callers and stored values become computed. A struct is
/// left manual, with the reason, when a read is elsewhere (a `var`, an attributed or `lazy`
/// property, a type that cannot be found), when it declares an initializer or a member named like
/// the service, when a call of it is by a simple name that may build another type, delegates
/// (`self.init`), has a trailing closure, or when no call of it is in the run (its callers are
/// outside; `swift-callers-in-run: true` says there are none).
struct SwiftMemberwiseInjection {
    let context: FixContext
    let service: String
    let name: String
    let serviceType: String
    /// The container read, passed by a caller with nothing in reach.
    let defaultValue: String

    struct Member {
        var type: SwiftRunType
        var targets: [SwiftServiceInjectPlanner.Target]
        var reads: [Int: Syntax]
    }

    private var base: SwiftInjectPlanner { SwiftInjectPlanner(context: context) }

    /// Whether a type can be planned here: a struct with no initializer of its own.
    static func applies(to type: SwiftRunType) -> Bool {
        type.isStruct && !type.members.contains { $0.decl.is(InitializerDeclSyntax.self) }
    }

    func plan(_ members: [Member], into plan: inout FixPlan) {
        var members = members
        func list(_ member: Member, _ reason: ManualReason, _ detail: String) {
            plan.manual += member.targets.map {
                base.manual($0.located, in: $0.file, reason, "\(member.type.name): \(detail)")
            }
        }
        // the reads of each struct, each rewritten or its struct left
        var rewrites: [String: [TextEdit]] = [:]
        var notes: [String] = []
        members = members.filter { member in
            switch rewriteReads(member) {
            case let .failure(.manual(reason, detail)):
                list(member, reason, detail ?? "")
                return false
            case let .success((edits, computed)):
                rewrites[member.type.name] = edits
                notes += computed
                return true
            }
        }
        // a struct of the run with only a memberwise initializer that builds one of them in an
        // instance member takes the service too (it passes its own), as far as that reaches
        var names = Set(members.map(\.type.name))
        var queue = members.map(\.type)
        while let built = queue.first, names.count < 256 {
            queue.removeFirst()
            for owner in owners(building: built) where !names.contains(owner.name) {
                names.insert(owner.name)
                members.append(Member(type: owner, targets: [], reads: [:]))
                queue.append(owner)
            }
        }
        // the calls of each struct; a struct left out changes what the others have in reach
        var callers: [FixCaller] = []
        while true {
            let names = Set(members.map(\.type.name))
            var left: (Int, String)?
            callers = []
            for (i, member) in members.enumerated() {
                switch wireCalls(of: member.type, cluster: names) {
                case let .failure(why): left = (i, why.text)
                case let .success(found): callers += found
                }
                if left != nil { break }
            }
            guard let (i, why) = left else { break }
            list(members[i], .serviceInitializers, "a call of its memberwise initializer: \(why)")
            members.remove(at: i)
        }
        guard !members.isEmpty else { return }
        var group = FixGroup(
            title: "Swift memberwise \(members.map(\.type.name).joined(separator: ", ")): service \(service)",
            edits: [], targets: [])
        for member in members {
            group.edits.append(storedPropertyEdit(member.type))
            group.edits += rewrites[member.type.name] ?? []
            for target in member.targets {
                let (line, column) = target.file.source.buffer.lineColumn(of: target.located.offset)
                group.targets.append(
                    FixTarget(
                        path: context.display(target.file.path), line: line, column: column,
                        expression: target.located.access.expression, range: target.located.range))
            }
        }
        group.edits += callers.map(\.edit)
        group.callers = callers
        group.tier = .unsafe
        for member in members {
            let (line, column) = member.type.file.source.buffer.lineColumn(
                of: member.type.declaration.positionAfterSkippingLeadingTrivia.utf8Offset)
            notes.append(
                "\(context.display(member.type.file.path)):\(line):\(column): note: the memberwise initializer of \(member.type.name) takes '\(name):' last; every call of it in the run passes it"
            )
        }
        group.notes = notes
        plan.groups.append(group)
    }

    /// The structs with only a memberwise initializer (and no member named like the service)
    /// whose instance members (not a stored property's initial value) build `type`.
    private func owners(building type: SwiftRunType) -> [SwiftRunType] {
        var found: [String: SwiftRunType] = [:]
        var order: [String] = []
        for path in context.swiftFilesMentioning(type.simpleName) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            for call in calls.calls where !InitializerCalls.isSelfCall(call) {
                guard let member = Self.instanceMember(around: call),
                    let ownerName = SwiftRunType.enclosingQualifiedName(of: Syntax(member)), found[ownerName] == nil,
                    let each = SwiftRunType.findEach(ownerName, context: context), each.count == 1,
                    Self.applies(to: each[0]), !each[0].memberNames.contains(name),
                    SwiftServiceInjectPlanner.onOwnLine(each[0].mainBlock.rightBrace)
                else { continue }
                found[ownerName] = each[0]
                order.append(ownerName)
            }
        }
        return order.map { found[$0]! }
    }

    /// The instance method, computed property or subscript a call is in (nil in a static member,
    /// a stored property's initial value, an initializer, or outside a type).
    static func instanceMember(around call: FunctionCallExprSyntax) -> DeclSyntax? {
        var node = call.parent
        while let n = node {
            if let f = n.as(FunctionDeclSyntax.self) {
                return f.modifiers.contains { ["static", "class"].contains($0.name.text) } ? nil : DeclSyntax(f)
            }
            if let v = n.as(VariableDeclSyntax.self), n.parent?.is(MemberBlockItemSyntax.self) == true {
                guard !v.hasModifier(["static", "class", "lazy"]), call.enclosing(AccessorBlockSyntax.self) != nil
                else { return nil }
                return DeclSyntax(v)
            }
            if let sub = n.as(SubscriptDeclSyntax.self) {
                return sub.modifiers.contains { ["static", "class"].contains($0.name.text) } ? nil : DeclSyntax(sub)
            }
            if n.is(InitializerDeclSyntax.self) || n.is(DeinitializerDeclSyntax.self) || n.is(ClosureExprSyntax.self)
                || SwiftRunType.declaredName(n) != nil
            {
                return nil
            }
            node = n.parent
        }
        return nil
    }

    // MARK: The reads

    private func rewriteReads(_ member: Member) -> Result<([TextEdit], [String]), SwiftAccessPlace.Refusal> {
        let type = member.type
        if type.memberNames.contains(name) {
            return .failure(.manual(.serviceNameTaken, "'\(name)'"))
        }
        let brace = type.mainBlock.rightBrace
        guard SwiftServiceInjectPlanner.onOwnLine(brace) else {
            return .failure(.manual(.serviceInitializers, "its '}' is not on a line of its own"))
        }
        var edits: [TextEdit] = []
        var notes: [String] = []
        // reads in one stored `let` are rewritten together, in the property's new text
        var byProperty: [SyntaxIdentifier: (VariableDeclSyntax, SwiftFixFile, [Syntax])] = [:]
        var propertyOrder: [SyntaxIdentifier] = []
        for target in member.targets {
            guard let read = member.reads[target.located.offset] else { continue }
            switch target.place.kind {
            case .member:
                let shadowed = target.place.function.map { SwiftCallerWiring.declares(name, in: $0) } ?? false
                edits.append(
                    TextEdit(
                        path: target.file.path, range: read.byteRange,
                        replacement: target.place.nested || shadowed ? "self.\(name)" : name))
            case .initializer:
                return .failure(.manual(.initializerOrDealloc, "an initializer"))
            case let .propertyValue(variable):
                if byProperty[variable.id] == nil {
                    propertyOrder.append(variable.id)
                    byProperty[variable.id] = (variable, target.file, [])
                }
                byProperty[variable.id]!.2.append(read)
            }
        }
        for id in propertyOrder {
            let (variable, file, reads) = byProperty[id]!
            switch computed(variable, in: file, reads: reads, type: type) {
            case let .failure(refusal): return .failure(refusal)
            case let .success(edit):
                edits.append(edit)
                let (line, column) = file.source.buffer.lineColumn(
                    of: variable.positionAfterSkippingLeadingTrivia.utf8Offset)
                notes.append(
                    "\(context.display(file.path)):\(line):\(column): note: '\(variable.names.first?.text ?? "")' is now computed: it reads '\(name)' at each use, not once at construction"
                )
            }
        }
        return .success((edits, notes))
    }

    /// `let x = <value>` → `var x: T { <value with the reads as the service> }`.
    private func computed(_ variable: VariableDeclSyntax, in file: SwiftFixFile, reads: [Syntax], type: SwiftRunType)
        -> Result<TextEdit, SwiftAccessPlace.Refusal>
    {
        func refuse(_ why: String) -> Result<TextEdit, SwiftAccessPlace.Refusal> {
            .failure(.manual(.propertyInitialValue, why))
        }
        guard variable.bindingSpecifier.tokenKind == .keyword(.let) else {
            return refuse("a stored 'var' (it may be set) reads it in its initial value")
        }
        guard variable.attributes.isEmpty, !variable.hasModifier(["lazy", "static", "class"]),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            binding.accessorBlock == nil, let value = binding.initializer?.value
        else { return refuse("a stored property fix cannot make computed (attributes, several bindings, a pattern)") }
        guard
            let propertyType = binding.typeAnnotation?.type.trimmedDescription
                ?? SwiftRunType.protocolPropertyType(property, in: type.inheritedNames, context: context)
        else {
            return refuse(
                "the type of '\(property)' is not written, and no protocol of the run it conforms to gives it")
        }
        // the value's text with each read replaced by the service
        var text = ""
        var at = value.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = value.endPositionBeforeTrailingTrivia.utf8Offset
        for read in reads.sorted(by: { $0.byteRange.lowerBound < $1.byteRange.lowerBound }) {
            let range = read.byteRange
            guard range.lowerBound >= at, range.upperBound <= end else { return refuse("overlapping reads") }
            text += file.text(at..<range.lowerBound) + name
            at = range.upperBound
        }
        text += file.text(at..<end)
        let modifiers = variable.modifiers.map { $0.trimmedDescription + " " }.joined()
        let start = variable.positionAfterSkippingLeadingTrivia.utf8Offset
        let stop = variable.endPositionBeforeTrailingTrivia.utf8Offset
        return .success(
            TextEdit(
                path: file.path, range: start..<stop,
                replacement: "\(modifiers)var \(property): \(propertyType) { \(text) }"
            ))
    }

    /// `let s: S` on a line of its own after the last member, a blank line before it.
    private func storedPropertyEdit(_ type: SwiftRunType) -> TextEdit {
        let file = type.file
        let brace = type.mainBlock.rightBrace
        let (memberIndent, _) = type.memberIndentation
        // the start of the brace's line
        let braceStart = brace.positionAfterSkippingLeadingTrivia.utf8Offset
        let line = file.source.buffer.lineColumn(of: braceStart).line
        let at = file.source.buffer.lineStarts[line - 1]
        return TextEdit(
            path: file.path, range: at..<at,
            replacement: file.newline + memberIndent + "let \(name): \(serviceType)" + file.newline)
    }

    // MARK: The calls

    private func wireCalls(of type: SwiftRunType, cluster: Set<String>) -> Result<
        [FixCaller], SwiftCallerWiring.Unwired
    > {
        typealias Unwired = SwiftCallerWiring.Unwired
        var callers: [FixCaller] = []
        var any = false
        for path in context.swiftFilesMentioning(type.simpleName) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            if let call = calls.ambiguous.first {
                return .failure(
                    Unwired(
                        text:
                            "\(place(file, call.startOffset)): a call by the simple name '\(type.simpleName)' may build another type of that name"
                    ))
            }
            // `.init(…)` builds whatever type its context wants: it may be this one when each of its
            // labels names a stored property (the memberwise initializer's labels)
            let stored = Set(
                type.mainBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }.filter(\.isStored)
                    .flatMap { $0.names.map(\.text) })
            if let implicit = file.source.tree.tokens(viewMode: .sourceAccurate).first(where: { token in
                guard token.tokenKind == .keyword(.`init`),
                    token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period,
                    let access = token.parent?.parent?.as(MemberAccessExprSyntax.self), access.base == nil
                else { return false }
                guard let call = access.parent?.as(FunctionCallExprSyntax.self) else { return true }
                return call.arguments.allSatisfy { $0.label.map { stored.contains($0.text) } ?? false }
            }) {
                return .failure(
                    Unwired(
                        text:
                            "\(place(file, implicit.positionAfterSkippingLeadingTrivia.utf8Offset)): an implicit '.init(…)' may build it"
                    ))
            }
            for call in calls.calls {
                any = true
                if InitializerCalls.isSelfCall(call) {
                    return .failure(Unwired(text: "\(place(file, call.startOffset)): a delegating 'self.init'"))
                }
                if call.trailingClosure != nil || !call.additionalTrailingClosures.isEmpty {
                    return .failure(Unwired(text: "\(place(file, call.startOffset)): a trailing closure"))
                }
                if call.arguments.contains(where: { $0.label?.text == name }) {
                    return .failure(Unwired(text: "\(place(file, call.startOffset)): it passes '\(name):' already"))
                }
                guard let rightParen = call.rightParen else {
                    return .failure(Unwired(text: "\(place(file, call.startOffset)): a call without parentheses"))
                }
                let argument: String
                var explicit = false
                switch reach(of: call, cluster: cluster) {
                case let .failure(why): return .failure(Unwired(text: "\(place(file, call.startOffset)): \(why.text)"))
                case let .success(spelling?): argument = spelling
                case .success(nil): (argument, explicit) = (defaultValue, true)
                }
                let text = "\(name): \(argument)"
                let edit: TextEdit
                let offsetInEdit: Int
                if let last = call.arguments.last {
                    let lead =
                        SwiftServiceInjectPlanner.onOwnLine(last)
                        ? file.newline + file.indentation(at: last.startOffset) : " "
                    if let comma = last.trailingComma {
                        edit = TextEdit(
                            path: file.path, range: comma.endOffset..<comma.endOffset, replacement: lead + text + ",")
                        offsetInEdit = lead.utf8.count + name.utf8.count + 2
                    } else {
                        edit = TextEdit(
                            path: file.path, range: last.endOffset..<last.endOffset, replacement: "," + lead + text)
                        offsetInEdit = 1 + lead.utf8.count + name.utf8.count + 2
                    }
                } else {
                    let at = rightParen.startOffset
                    edit = TextEdit(path: file.path, range: at..<at, replacement: text)
                    offsetInEdit = name.utf8.count + 2
                }
                let (line, column) = file.source.buffer.lineColumn(of: call.startOffset)
                callers.append(
                    FixCaller(
                        path: context.display(file.path), line: line, column: column, call: "\(type.name)(…)",
                        argument: argument, explicitDefault: explicit, reads: explicit ? readsInDefault : 0, edit: edit,
                        argumentOffset: offsetInEdit))
            }
        }
        if !any && !context.configuration.swiftCallersInRun {
            return .failure(
                Unwired(
                    text:
                        "no call of its memberwise initializer in the run: its callers are outside it (swift-callers-in-run: true says every caller is in it)"
                ))
        }
        return .success(callers)
    }

    /// The container reads in the default (the read itself: one).
    private var readsInDefault: Int { 1 }

    /// What the call's place has of the service in reach (nil: nothing, the container read goes there).
    private func reach(of call: FunctionCallExprSyntax, cluster: Set<String>) -> Result<
        String?, SwiftCallerWiring.Unwired
    > {
        let place = SwiftCallPlace(of: call, serviceType: serviceType)
        if let parameter = place.parameter { return .success(parameter) }
        guard let member = place.member, let ownerName = place.ownerName, !place.isStatic,
            !place.inStoredInitialValue(call), !member.is(InitializerDeclSyntax.self)
        else { return .success(nil) }
        let held =
            cluster.contains(ownerName)
            ? name
            : (SwiftRunType.findEach(ownerName, context: context) ?? []).lazy.flatMap { type in
                type.mainBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
            }.first { v in
                v.isStored && !v.hasModifier(["static", "class"])
                    && v.bindings.first?.typeAnnotation?.type.trimmedDescription == serviceType
            }?.names.first?.text
        guard let held else { return .success(nil) }
        if place.weak { return .failure(SwiftCallerWiring.Unwired(text: "in a closure that holds self weakly")) }
        return .success(place.spelling(of: held, at: call))
    }

    private func place(_ file: SwiftFixFile, _ offset: Int) -> String {
        let (line, column) = file.source.buffer.lineColumn(of: offset)
        return "\(context.display(file.path)):\(line):\(column)"
    }
}
