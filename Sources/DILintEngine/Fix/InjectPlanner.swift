import Foundation

/// Phase `inject` for C-family files: every direct access in an instance method (or a block in
/// one) and every C function with a bridge in reach is rewritten; everything else is listed.
/// One group per Objective-C class (its bridge property and its accesses) and per C function.
struct InjectPlanner {
    let context: FixContext

    func plan(_ analyses: [FixFileAnalysis], into plan: inout FixPlan) {
        var classAccesses: [String: [(FixFileAnalysis, InjectRewriter.Rewrite, FixTarget)]] = [:]
        var classOrder: [String] = []
        for analysis in analyses {
            var cGroups: [String: FixGroup] = [:]
            var cOrder: [String] = []
            var rewrites: [(LocatedAccess, Result<InjectRewriter.Rewrite, ManualReason>, bridge: String?)] = []
            for located in analysis.accesses where located.access.kind == .direct && context.selects(located.access) {
                let decision = decide(located, in: analysis)
                switch decision {
                case let .failure(reason): rewrites.append((located, .failure(reason), nil))
                case let .success(bridge):
                    guard let k = located.tokenIndex else { rewrites.append((located, .failure(.unrecognisedForm), nil)); continue }
                    rewrites.append((located, InjectRewriter(tokens: analysis.tokens).rewrite(located, at: k, bridge: bridge), bridge))
                }
            }
            // An access inside another's rewritten span (a send whose argument reads the container too).
            let spans = rewrites.compactMap { try? $0.1.get().range }
            for (located, result, bridge) in rewrites {
                var result = result
                if case let .success(r) = result, spans.contains(where: { $0 != r.range && $0.overlaps(r.range) }) { result = .failure(.nested) }
                switch result {
                case let .failure(reason):
                    plan.manual.append(context.manual(located, in: analysis, reason))
                case let .success(rewrite):
                    let (line, column) = analysis.lineColumn(rewrite.range.lowerBound)
                    let at = analysis.lineColumn(located.offset)
                    let target = FixTarget(path: context.display(analysis.path), line: line, column: column,
                                           expression: rewrite.expression, range: rewrite.range, accessLine: at.line, accessColumn: at.column)
                    let enclosing = located.enclosing!
                    if enclosing.kind == .objcMethod, let type = enclosing.typeName, bridge?.hasPrefix("self.") == true {
                        if classAccesses[type] == nil { classOrder.append(type) }
                        classAccesses[type, default: []].append((analysis, rewrite, target))
                    } else {
                        let key = enclosing.name
                        if cGroups[key] == nil {
                            cOrder.append(key)
                            cGroups[key] = FixGroup(title: "C function \(enclosing.name)", edits: [], targets: [])
                        }
                        cGroups[key]!.edits.append(TextEdit(path: analysis.path, range: rewrite.range, replacement: rewrite.replacement))
                        cGroups[key]!.targets.append(target)
                    }
                }
            }
            plan.groups += cOrder.map { cGroups[$0]! }
        }
        // a group the verification refused comes back in the second run and is not looked at
        // there: its property's place is not searched again (that parses the headers)
        let title = { (type: String) in "Objective-C class \(type)" }
        let placed = classOrder.filter { !context.refusedTitles.contains(title($0)) }
        context.prefetch(placed.flatMap(context.filesDeclaring))
        let placer = BridgePropertyPlacer(context: context)
        for type in classOrder {
            let items = classAccesses[type]!
            var group = FixGroup(title: title(type), edits: [], targets: items.map(\.2))
            group.edits = items.map { TextEdit(path: $0.0.path, range: $0.1.range, replacement: $0.1.replacement) }
            if !context.refusedTitles.contains(group.title) {
                group.edits += placer.edits(for: type, implementationFiles: items.map(\.0))
                group.edits += placer.imports(in: items.map(\.0))
            }
            plan.groups.append(group)
        }
    }

    /// The bridge expression to use for an access, or why there is none.
    private func decide(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> Result<String, ManualReason> {
        if located.access.viaMacro != nil || analysis.tokens.isInDirective(located.offset) { return .failure(.macro) }
        if analysis.isSuppressed(located) { return .failure(.suppressed) }
        guard let enclosing = located.enclosing else { return .failure(.outsideFunction) }
        let bridgeName = context.bridgeName
        switch enclosing.kind {
        case .objcMethod:
            let head = analysis.file.buffer.bytes[enclosing.range.lowerBound...].first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            if head == UInt8(ascii: "+") { return .failure(.classMethod) }
            if enclosing.isInitializer { return .failure(.initializerOrDealloc) }
            guard enclosing.typeName != nil else { return .failure(.unsupportedLanguage) }
            if enclosing.name == "dealloc", let k = located.tokenIndex,
               !analysis.tokens.deallocKeepsBridge(at: k, method: enclosing, bridgeNames: context.configuration.bridgeNamesWithIvars) {
                return .failure(.initializerOrDealloc)
            }
            if let k = located.tokenIndex, analysis.tokens.isInBlockAvoidingSelf(k, method: enclosing) { return .failure(.blockAvoidingSelf) }
            return .success("self.\(bridgeName)")
        case .function:
            return CBridgeReach(tokens: analysis.tokens, bridgeNames: context.configuration.bridgeNames)
                .bridge(in: enclosing).map(Result.success) ?? .failure(.noBridgeInReach)
        case .constructor, .destructor:
            return .failure(.initializerOrDealloc)
        case .cxxMethod, .swiftInitializer:
            return .failure(.unsupportedLanguage)
        }
    }
}
