import Foundation

/// Phase `inject` for C-family files: every direct access in an instance method (or a block in
/// one) and every C function with a bridge in reach is rewritten; everything else is listed.
/// One group per Objective-C class (its bridge property and its accesses) and per C function.
struct InjectPlanner {
    let context: FixContext

    func plan(_ analyses: [FixFileAnalysis], into plan: inout FixPlan) {
        var classAccesses: [String: [(FixFileAnalysis, InjectRewriter.Rewrite, FixTarget)]] = [:]
        var classOrder: [String] = []
        var settersAdded = Set<String>() // a setter name without {file} is added to one file only
        var objcService = ObjCServiceInjection(context: context)
        var cService = CServiceInjection(context: context, headers: objcService.types.headers)
        var objcInit = ObjCInitializerInjection(context: context, types: objcService.types)
        // the C functions' groups come after the classes': a file's bridge import (a class's
        // group) then comes before its bridge global where both insert at one place (SARIF's
        // fixes keep the groups' order, not the edits' `order`)
        var cFunctionGroups: [FixGroup] = []
        for analysis in analyses {
            var cGroups: [String: FixGroup] = [:]
            var cOrder: [String] = []
            var rewrites: [(LocatedAccess, Result<InjectRewriter.Rewrite, ManualReason>, bridge: String?)] = []
            let global = GlobalInFile(context: context, analysis: analysis, settersAdded: settersAdded)
            for located in analysis.accesses where located.access.kind == .direct && context.selects(located.access) {
                if style(of: located.access) == .service {
                    // the service style: the service itself, as a property (Objective-C) or through what a C function receives
                    let reason: ManualReason?
                    switch serviceCheck(located, in: analysis) {
                    case .failure(.initializerOrDealloc)
                    where located.enclosing?.kind == .objcMethod
                        && located.enclosing?.isInitializer == true:
                        // a read in an `init…`: the service becomes the initializer's parameter
                        reason = objcInit.add(located, in: analysis)
                    case let .failure(why): reason = why
                    case .success(.objcMethod): reason = objcService.add(located, in: analysis)
                    case .success: reason = cService.add(located, in: analysis)
                    }
                    if let reason { plan.manual.append(context.manual(located, in: analysis, reason)) }
                    continue
                }
                let decision = decide(located, in: analysis, global: global)
                switch decision {
                case let .failure(reason): rewrites.append((located, .failure(reason), nil))
                case let .success(bridge):
                    guard let k = located.tokenIndex else {
                        rewrites.append((located, .failure(.unrecognisedForm), nil)); continue
                    }
                    rewrites.append(
                        (
                            located, InjectRewriter(tokens: analysis.tokens).rewrite(located, at: k, bridge: bridge),
                            bridge
                        ))
                }
            }
            // An access inside another's rewritten span (a send whose argument reads the container too).
            let spans = rewrites.compactMap { try? $0.1.get().range }
            for (located, result, bridge) in rewrites {
                var result = result
                if case let .success(r) = result, spans.contains(where: { $0 != r.range && $0.overlaps(r.range) }) {
                    result = .failure(.nested)
                }
                switch result {
                case let .failure(reason):
                    let detail =
                        reason == .noBridgeType
                        ? context.missingBridgeType.map { "\($0); in \(located.enclosing?.name ?? "")" } : nil
                    plan.manual.append(context.manual(located, in: analysis, reason, detail: detail))
                case let .success(rewrite):
                    let (line, column) = analysis.lineColumn(rewrite.range.lowerBound)
                    let at = analysis.lineColumn(located.offset)
                    let target = FixTarget(
                        path: context.display(analysis.path), line: line, column: column,
                        expression: rewrite.expression, range: rewrite.range, accessLine: at.line,
                        accessColumn: at.column)
                    let enclosing = located.enclosing!
                    if enclosing.kind == .objcMethod, let type = enclosing.typeName, bridge?.hasPrefix("self.") == true
                    {
                        if classAccesses[type] == nil { classOrder.append(type) }
                        classAccesses[type, default: []].append((analysis, rewrite, target))
                    } else {
                        // the functions that need the global added go together with its declarations
                        let adding = global.adds && bridge == global.name
                        let key = adding ? "" : enclosing.name
                        if cGroups[key] == nil {
                            cOrder.append(key)
                            cGroups[key] = FixGroup(
                                title: adding
                                    ? "C functions of \(context.display(analysis.path)) (bridge global \(global.name))"
                                    : "C function \(enclosing.name)", edits: [], targets: [])
                        }
                        if adding && cGroups[key]!.edits.isEmpty, !context.refusedTitles.contains(cGroups[key]!.title) {
                            cGroups[key]!.edits +=
                                global.declarations(before: enclosing.range.lowerBound)
                                + ((analysis.path as NSString).pathExtension == "m"
                                    ? BridgePropertyPlacer(context: context).imports(
                                        in: [analysis], firstEdit: [analysis.path: enclosing.range.lowerBound]) : [])
                        }
                        cGroups[key]!.edits.append(
                            TextEdit(path: analysis.path, range: rewrite.range, replacement: rewrite.replacement))
                        cGroups[key]!.targets.append(target)
                    }
                }
            }
            if let setter = global.setter, cGroups[""] != nil || global.isDeclared { settersAdded.insert(setter) }
            cFunctionGroups += cOrder.map { cGroups[$0]! }
        }
        // a group the verification refused comes back in the second run and is not looked at
        // there: its property's place is not searched again (that parses the headers)
        let title = { (type: String) in "Objective-C class \(type)" }
        let placed = classOrder.filter { !context.refusedTitles.contains(title($0)) }
        objcService.groups(into: &plan)
        objcInit.groups(into: &plan)
        cService.groups(into: &plan)
        context.prefetch(placed.flatMap(context.filesDeclaring))
        let placer = BridgePropertyPlacer(context: context)
        for type in classOrder {
            let items = classAccesses[type]!
            var group = FixGroup(title: title(type), edits: [], targets: items.map(\.2))
            group.edits = items.map { TextEdit(path: $0.0.path, range: $0.1.range, replacement: $0.1.replacement) }
            if !context.refusedTitles.contains(group.title) {
                group.edits += placer.edits(for: type, implementationFiles: items.map(\.0))
                let first = Dictionary(items.map { ($0.0.path, $0.1.range.lowerBound) }, uniquingKeysWith: min)
                group.edits += placer.imports(in: items.map(\.0), firstEdit: first)
            }
            plan.groups.append(group)
        }
        plan.groups += cFunctionGroups
    }

    /// The style for an access's service: the config's (`inject:`), where a config that names a
    /// C bridge global (`c-bridge-global:`) and no style names a bridge, as `bridge-type:` does.
    private func style(of access: ContainerAccess) -> InjectionStyle {
        let configuration = context.configuration
        let service = access.service ?? ""
        if configuration.injection.perService[service] == nil, configuration.injection.defaultStyle == nil,
            configuration.cBridgeGlobal != nil
        {
            return .bridge
        }
        return configuration.injectionStyle(forService: service)
    }

    /// The service style's checks before a place is looked for: the kind of scope the access is
    /// in (an instance method, a C function), or why it stays.
    private func serviceCheck(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> Result<
        CodeScope.Kind, ManualReason
    > {
        let name = located.access.service.map(ObjCServiceInjection.propertyName) ?? ""
        return placeCheck(located, in: analysis, heldAs: [name, "_" + name]).map(\.kind)
    }

    /// The bridge expression to use for an access, or why there is none.
    private func decide(_ located: LocatedAccess, in analysis: FixFileAnalysis, global: GlobalInFile) -> Result<
        String, ManualReason
    > {
        let enclosing: CodeScope
        switch placeCheck(located, in: analysis, heldAs: context.configuration.bridgeNamesWithIvars) {
        case let .failure(reason): return .failure(reason)
        case let .success(scope): enclosing = scope
        }
        if enclosing.kind == .objcMethod {
            // the property and the import would name a type the project does not have
            if context.missingBridgeType != nil { return .failure(.noBridgeType) }
            return .success("self.\(context.bridgeName)")
        }
        if let reached = CBridgeReach(tokens: analysis.tokens, bridgeNames: context.configuration.bridgeNames)
            .bridge(in: enclosing)
        {
            return .success(reached)
        }
        guard global.reaches(enclosing) else { return .failure(.noBridgeInReach) }
        // an Objective-C global added would be declared with a type the project does not have
        if global.adds && (analysis.path as NSString).pathExtension == "m" && context.missingBridgeType != nil {
            return .failure(.noBridgeType)
        }
        return .success(global.name)
    }

    /// What both styles ask of an access before placing it: a read of a service, not in a macro
    /// or suppressed, in an Objective-C instance method (not `init…`, not a `dealloc` that may lose
    /// what holds the service (`heldAs`), not a block avoiding `self`) or a C function. The
    /// enclosing scope, or why the access stays.
    private func placeCheck(_ located: LocatedAccess, in analysis: FixFileAnalysis, heldAs names: Set<String>)
        -> Result<CodeScope, ManualReason>
    {
        if located.access.viaMacro != nil || analysis.tokens.isInDirective(located.offset) { return .failure(.macro) }
        if analysis.isSuppressed(located) { return .failure(.suppressed) }
        if FixContext.isRegistration(located.access.service) { return .failure(.notAServiceRead) }
        guard let enclosing = located.enclosing else { return .failure(.outsideFunction) }
        switch enclosing.kind {
        case .objcMethod:
            let head = analysis.file.buffer.bytes[enclosing.range.lowerBound...].first {
                $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t")
            }
            if head == UInt8(ascii: "+") { return .failure(.classMethod) }
            if enclosing.isInitializer { return .failure(.initializerOrDealloc) }
            guard enclosing.typeName != nil else { return .failure(.unsupportedLanguage) }
            if enclosing.name == "dealloc", let k = located.tokenIndex,
                !analysis.tokens.deallocKeepsBridge(at: k, method: enclosing, bridgeNames: names)
            {
                return .failure(.deallocMayLoseBridge)
            }
            if let k = located.tokenIndex, analysis.tokens.isInBlockAvoidingSelf(k, method: enclosing) {
                return .failure(.blockAvoidingSelf)
            }
            return .success(enclosing)
        case .function:
            return .success(enclosing)
        case .constructor, .destructor:
            return .failure(.initializerOrDealloc)
        case .cxxMethod, .swiftInitializer:
            return .failure(.unsupportedLanguage)
        }
    }
}

/// The bridge global (`c-bridge-global:`) as one file has it: declared before a function (read
/// there), absent (added, with its setter, before the first function that reads it), or not usable.
private struct GlobalInFile {
    let name: String
    let state: CBridgeGlobalState
    let declarations: CBridgeGlobalDeclarations?
    let analysis: FixFileAnalysis
    /// Whether the file declares the global already (and so, presumably, its setter).
    var isDeclared: Bool { if case .declared = state { return true } else { return false } }
    /// Whether this run adds the declarations (the file has none).
    var adds: Bool { if case .absent = state { return declarations != nil } else { return false } }

    /// The setter this file would get.
    let setter: String?

    init(context: FixContext, analysis: FixFileAnalysis, settersAdded: Set<String>) {
        self.analysis = analysis
        guard let global = context.configuration.cBridgeGlobal,
            context.cBridgeGlobalType(forExtension: (analysis.path as NSString).pathExtension) != nil
        else {
            name = ""; state = .conflict; declarations = nil; setter = nil
            return
        }
        name = global.name
        let setter = global.setterName(for: analysis.path)
        self.setter = setter
        // a setter another file of the run gets already (a name without {file}) would be defined twice
        state = settersAdded.contains(setter) ? .conflict : analysis.tokens.bridgeGlobalState(global, setter: setter)
        declarations = CBridgeGlobalDeclarations(context: context, global: global)
    }

    func reaches(_ function: EnclosingDeclaration) -> Bool {
        switch state {
        case let .declared(at): return at < function.range.lowerBound
        case .absent: return declarations != nil
        case .conflict: return false
        }
    }

    /// The global's and the setter's declarations, placed before the function starting at `offset`
    /// (every later function of the file sees them too: the group takes the file's first such function).
    func declarations(before offset: Int) -> [TextEdit] {
        let tokens = analysis.tokens
        guard let first = (0..<tokens.count).first(where: { tokens.start($0) >= offset }) else { return [] }
        return declarations?.edits(in: analysis, firstFunction: first) ?? []
    }
}
