import SwiftSyntax

/// Phase `finish` for Swift in the `service` style: an initializer parameter whose default is a
/// read of the service (`tabs: TabStore = Container.shared.tabs`, what `inject` writes, or what
/// people wrote by hand) loses the default, and every call of the initializer in the run that
/// omitted it passes the service, inserted in the parameter's place among the arguments. One
/// group per type and parameter: another service's defaults in the same initializer stay, and do
/// not block it. What a caller passes:
/// - a parameter of the enclosing function or initializer of the service's type;
/// - an instance member's type holding a stored property of that type (`self.` in a closure or
///   where a local of the name shadows it);
/// - else the default expression itself: the container read moves to the caller (the composition
///   root's place; a new direct access elsewhere, reported by verification and the summary).
/// - in a stored property's initial value of a type holding a stored property of that type: the
///   service threaded through that type's initializers (`SwiftOwnerThreading`).
/// Left with the reason: a call in a stored property's initial value that cannot be threaded so,
/// in a `[weak self]` closure with only a member in reach, a delegating `self.init` with nothing in reach, arguments that fit no initializer
/// taking the parameter (or one without it too), and a `public` initializer (callers outside
/// the run) unless `swift-callers-in-run: true`.
struct SwiftServiceFinishPlanner {
    let context: FixContext

    private struct Item {
        var file: SwiftFixFile
        var located: LocatedAccess
        var line: Int
        var column: Int
        var parameter: FunctionParameterSyntax
        var decl: InitializerDeclSyntax
    }

    private var pending: [String: [Item]] = [:]
    private var order: [String] = []

    init(context: FixContext) { self.context = context }

    /// Takes a fallback access when it is a service parameter's default; false when it is not one.
    mutating func add(_ located: LocatedAccess, in file: SwiftFixFile, plan: inout FixPlan) -> Bool {
        // the bridge style keeps a service parameter's default (it is not the bridge's)
        guard let service = SwiftServiceRead.service(of: located.access, context.configuration),
            context.configuration.injectionStyle(forService: service) == .service,
            let read = SwiftServiceInjectPlanner.read(of: located, in: file, context.configuration),
            let (parameter, decl) = SwiftServiceRead.initializerParameter(defaultingTo: read),
            let typeName = SwiftRunType.enclosingQualifiedName(of: Syntax(decl))
        else { return false }
        guard SwiftServiceRead.selects(located.access, context) else { return true }
        let (line, column) = file.source.buffer.lineColumn(of: located.offset)
        if file.isSuppressed(located.offset) {
            plan.manual.append(
                ManualItem(
                    path: context.display(file.path), line: line, column: column, expression: located.access.expression,
                    reason: .suppressed, detail: nil))
            return true
        }
        let key = typeName + "\u{0}" + (parameter.secondName ?? parameter.firstName).text
        if pending[key] == nil { order.append(key) }
        pending[key, default: []].append(
            Item(file: file, located: located, line: line, column: column, parameter: parameter, decl: decl))
        return true
    }

    func plan(into plan: inout FixPlan) {
        for key in order {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            planParameter(typeName: parts[0], name: parts[1], pending[key]!, into: &plan)
        }
    }

    private func planParameter(typeName: String, name: String, _ items: [Item], into plan: inout FixPlan) {
        func manual(_ reason: ManualReason, _ detail: String) {
            plan.manual += items.map {
                ManualItem(
                    path: context.display($0.file.path), line: $0.line, column: $0.column,
                    expression: $0.located.access.expression,
                    reason: reason, detail: "\(typeName).\(name): \(detail)")
            }
        }
        guard let each = SwiftRunType.findEach(typeName, context: context) else {
            return manual(.typeNotInRun, "no single declaration of the type among the run's Swift files")
        }
        let type = SwiftRunType.merged(each)
        if !context.configuration.swiftCallersInRun,
            items.contains(where: { $0.decl.modifiers.contains { ["public", "open"].contains($0.name.text) } })
        {
            return manual(
                .serviceCallersRelyOnDefault,
                "the initializer is public: callers outside the run may rely on its default")
        }
        let label = items[0].parameter.firstName.text
        if label == "_" { return manual(.serviceCallersRelyOnDefault, "an unlabeled parameter") }
        var initializers: [Item] = []
        for item in items
        where !initializers.contains(where: { $0.file.path == item.file.path && $0.decl.id == item.decl.id }) {
            initializers.append(item)
        }
        let serviceType = items[0].parameter.type.trimmedDescription
        let defaults = Set(initializers.compactMap { $0.parameter.defaultValue?.value.trimmedDescription })
        let defaultExpression = defaults.count == 1 ? defaults.first : nil
        let reads = initializers[0].file.accesses.filter { a in
            a.access.kind == .fallback
                && (initializers[0].parameter.defaultValue?.byteRange.contains(a.offset) ?? false)
        }.count
        let others = type.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }.filter { d in
            !initializers.contains { $0.decl.id == d.id }
        }

        var callers: [FixCaller] = []
        var extra: [TextEdit] = [] // threading through an owner's initializers: its other edits
        var unwired: [String] = []
        for path in context.swiftFilesMentioning(type.simpleName) {
            guard let file = context.swiftFile(path) else { continue }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            for call in calls.ambiguous where !call.arguments.contains(where: { $0.label?.text == label }) {
                unwired.append(
                    "\(place(file, call.startOffset)) (a call by the simple name '\(type.simpleName)': it may build another type of that name)"
                )
            }
            for call in calls.calls where !call.arguments.contains(where: { $0.label?.text == label }) {
                let inside = type.blocks.contains {
                    $0.file.path == path && $0.block.byteRange.contains(call.startOffset)
                }
                if InitializerCalls.isSelfCall(call) && !inside { continue }
                switch wire(
                    call, in: file, typeName: typeName, label: label, serviceType: serviceType,
                    initializers: initializers,
                    others: others, defaultExpression: defaultExpression, reads: reads, extra: &extra)
                {
                case .none: continue
                case let .some(.success(caller)): callers.append(caller)
                case let .some(.failure(why)): unwired.append("\(place(file, call.startOffset)) (\(why.text))")
                }
            }
        }
        // no call at all: the initializer's callers are outside the run (unless the config says
        // every caller is in it), and they rely on the default
        if callers.isEmpty && unwired.isEmpty && !context.configuration.swiftCallersInRun
            && !calledInRun(type, label: label)
        {
            return manual(
                .serviceCallersRelyOnDefault,
                "no call of the initializer in the run: its callers are outside it (swift-callers-in-run: true says every caller is in it)"
            )
        }
        if !unwired.isEmpty {
            return manual(
                .serviceCallersRelyOnDefault,
                "called without '\(label):' at \(unwired.prefix(3).joined(separator: ", "))\(unwired.count > 3 ? " and \(unwired.count - 3) more" : "")"
            )
        }
        let edits = SwiftCallerWiring.defaultRemovals(initializers.map { ($0.file.path, $0.parameter) })
        plan.groups.append(
            FixGroup(
                title: "finish Swift type \(typeName): service parameter \(name)",
                edits: edits + callers.map(\.edit) + extra,
                targets: items.map {
                    FixTarget(
                        path: context.display($0.file.path), line: $0.line, column: $0.column,
                        expression: $0.located.access.expression, range: $0.located.range)
                },
                callers: callers))
    }

    /// Whether the run's Swift files call the type's initializer at all (with the label or without).
    private func calledInRun(_ type: SwiftRunType, label: String) -> Bool {
        context.swiftFilesMentioning(type.simpleName).contains { path in
            guard let file = context.swiftFile(path) else { return false }
            let calls = InitializerCalls(typeName: type.name)
            calls.walk(file.source.tree)
            return calls.calls.contains { !InitializerCalls.isSelfCall($0) } || !calls.ambiguous.isEmpty
        }
    }

    private func place(_ file: SwiftFixFile, _ offset: Int) -> String {
        let (line, column) = file.source.buffer.lineColumn(of: offset)
        return "\(context.display(file.path)):\(line):\(column)"
    }

    /// The call given the service, nil when it does not rely on the default (it fits only an
    /// initializer without the parameter), or why it cannot be.
    private func wire(
        _ call: FunctionCallExprSyntax, in file: SwiftFixFile, typeName: String, label: String, serviceType: String,
        initializers: [Item], others: [InitializerDeclSyntax], defaultExpression: String?, reads: Int,
        extra: inout [TextEdit]
    ) -> Result<FixCaller, SwiftCallerWiring.Unwired>? {
        typealias Unwired = SwiftCallerWiring.Unwired
        if !call.additionalTrailingClosures.isEmpty { return .failure(Unwired(text: "several trailing closures")) }
        // where the new argument goes: before the first argument filling a later parameter
        var insertion: Int?
        var fits = false
        for item in initializers {
            let all = Array(item.decl.signature.parameterClause.parameters)
            guard let p = all.firstIndex(where: { $0.id == item.parameter.id }) else { continue }
            let reduced = all.enumerated().filter { $0.offset != p }
            guard let (arguments, closure) = SwiftCallerWiring.assign(call, reduced.map(\.element)) else { continue }
            let full = arguments.map { reduced[$0].offset }
            if let closure, reduced[closure].offset < p {
                return .failure(Unwired(text: "the parameter follows the trailing closure's"))
            }
            let at = full.firstIndex { $0 > p } ?? full.count
            if let known = insertion, known != at {
                return .failure(
                    Unwired(text: "its arguments fit initializers that take the parameter in different places"))
            }
            insertion = at
            fits = true
        }
        let fitsOther = others.contains {
            SwiftCallerWiring.assign(call, Array($0.signature.parameterClause.parameters)) != nil
        }
        if !fits {
            return fitsOther && !InitializerCalls.isSelfCall(call)
                ? nil : .failure(Unwired(text: "its arguments fit no initializer taking the parameter"))
        }
        if fitsOther {
            return .failure(Unwired(text: "its arguments fit an initializer that does not take the parameter too"))
        }
        let argument: String
        var explicit = false
        if let threaded = threading(call, in: file, serviceType: serviceType, label: label, insertion: insertion) {
            switch threaded {
            case let .failure(why): return .failure(why)
            case let .success(done):
                let (line, column) = file.source.buffer.lineColumn(of: call.startOffset)
                extra += done.edits.dropFirst()
                return .success(
                    FixCaller(
                        path: context.display(file.path), line: line, column: column, call: "\(typeName)(…)",
                        argument: done.argument, explicitDefault: false, reads: 0, edit: done.edits[0],
                        argumentOffset: 0))
            }
        }
        switch reach(of: call, serviceType: serviceType) {
        case let .failure(why): return .failure(why)
        case let .success(spelling?): argument = spelling
        case .success(nil):
            if InitializerCalls.isSelfCall(call) {
                return .failure(
                    Unwired(
                        text:
                            "a delegating initializer with no '\(serviceType)' in reach: it must take the parameter itself"
                    ))
            }
            guard let expression = defaultExpression else {
                return .failure(Unwired(text: "no '\(serviceType)' in reach, and the initializers' defaults differ"))
            }
            (argument, explicit) = (expression, true)
        }
        let (edit, offsetInEdit) = Self.passing(label: label, argument: argument, to: call, in: file, at: insertion)
        let (line, column) = file.source.buffer.lineColumn(of: call.startOffset)
        return .success(
            FixCaller(
                path: context.display(file.path), line: line, column: column, call: "\(typeName)(…)",
                argument: argument,
                explicitDefault: explicit, reads: explicit ? reads : 0, edit: edit, argumentOffset: offsetInEdit))
    }

    /// The edit that passes `label: argument` to the call, before the argument at `insertion` (at
    /// the end when nil), and where the argument starts in its replacement.
    private static func passing(
        label: String, argument: String, to call: FunctionCallExprSyntax, in file: SwiftFixFile, at insertion: Int?
    ) -> (TextEdit, Int) {
        let text = "\(label): \(argument)"
        let arguments = Array(call.arguments)
        let edit: TextEdit
        let offsetInEdit: Int
        if let at = insertion, at < arguments.count {
            // before arguments[at], in its layout
            let next = arguments[at]
            let lead =
                SwiftServiceInjectPlanner.onOwnLine(next) ? file.newline + file.indentation(at: next.startOffset) : " "
            let replacement = text + "," + lead
            edit = TextEdit(path: file.path, range: next.startOffset..<next.startOffset, replacement: replacement)
            offsetInEdit = label.utf8.count + 2
        } else if let last = arguments.last {
            let lead =
                SwiftServiceInjectPlanner.onOwnLine(last) ? file.newline + file.indentation(at: last.startOffset) : " "
            if let comma = last.trailingComma {
                edit = TextEdit(
                    path: file.path, range: comma.endOffset..<comma.endOffset, replacement: lead + text + ",")
                offsetInEdit = lead.utf8.count + label.utf8.count + 2
            } else {
                edit = TextEdit(path: file.path, range: last.endOffset..<last.endOffset, replacement: "," + lead + text)
                offsetInEdit = 1 + lead.utf8.count + label.utf8.count + 2
            }
        } else if let paren = call.rightParen {
            edit = TextEdit(path: file.path, range: paren.startOffset..<paren.startOffset, replacement: text)
            offsetInEdit = label.utf8.count + 2
        } else {
            // `T { … }`: parentheses before the trailing closure
            let at = call.calledExpression.endOffset
            edit = TextEdit(path: file.path, range: at..<at, replacement: "(" + text + ")")
            offsetInEdit = 1 + label.utf8.count + 2
        }
        return (edit, offsetInEdit)
    }

    /// For a call in a stored property's initial value of a type that holds the service: the
    /// service threaded through that type's initializers (`SwiftOwnerThreading`), or why not;
    /// nil when the call is not in such a place.
    private func threading(
        _ call: FunctionCallExprSyntax, in file: SwiftFixFile, serviceType: String, label: String, insertion: Int?
    ) -> Result<SwiftOwnerThreading.Threaded, SwiftCallerWiring.Unwired>? {
        let place = SwiftCallPlace(of: call, serviceType: serviceType)
        guard place.parameter == nil, let variable = place.member?.as(VariableDeclSyntax.self),
            let ownerName = place.ownerName, !place.isStatic, place.inStoredInitialValue(call),
            let each = SwiftRunType.findEach(ownerName, context: context), each.count == 1
        else { return nil }
        let holding = each[0].mainBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }.filter { v in
            v.isStored && !v.hasModifier(["static", "class"])
                && v.bindings.first?.typeAnnotation?.type.trimmedDescription == serviceType
        }
        guard let held = holding.first, let heldName = held.names.first?.text else { return nil }
        if holding.count > 1 || held.names.count > 1 {
            return .failure(
                SwiftCallerWiring.Unwired(
                    text:
                        "a stored property's initial value in \(ownerName), which holds several '\(serviceType)'s: which one to pass is not known"
                ))
        }
        let start = call.startOffset, end = call.endOffset
        return SwiftOwnerThreading.thread(
            call: call, in: file, variable: variable, owner: each[0], held: heldName
        ) { argument in
            let (edit, _) = Self.passing(label: label, argument: argument, to: call, in: file, at: insertion)
            return file.text(start..<edit.range.lowerBound) + edit.replacement + file.text(edit.range.upperBound..<end)
        }
    }

    /// What the call's place has of the service's type in reach (nil: nothing).
    private func reach(of call: FunctionCallExprSyntax, serviceType: String) -> Result<
        String?, SwiftCallerWiring.Unwired
    > {
        typealias Unwired = SwiftCallerWiring.Unwired
        let place = SwiftCallPlace(of: call, serviceType: serviceType)
        if let parameter = place.parameter { return .success(parameter) }
        guard let member = place.member, let ownerName = place.ownerName, !place.isStatic else {
            return .success(nil)
        }
        if place.inStoredInitialValue(call) {
            return .failure(
                Unwired(
                    text:
                        "a stored property's initial value in \(ownerName): the service would have to be threaded through its initializer"
                ))
        }
        let held = (SwiftRunType.findEach(ownerName, context: context) ?? []).lazy.flatMap { type in
            type.mainBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }
        }.first { v in
            v.isStored && !v.hasModifier(["static", "class"])
                && v.bindings.first?.typeAnnotation?.type.trimmedDescription == serviceType
        }
        guard let held, let heldName = held.names.first?.text else { return .success(nil) }
        if member.is(InitializerDeclSyntax.self) {
            return .failure(Unwired(text: "an initializer of \(ownerName) that does not take '\(serviceType)'"))
        }
        if place.weak { return .failure(Unwired(text: "in a closure that holds self weakly")) }
        return .success(place.spelling(of: heldName, at: call))
    }
}
