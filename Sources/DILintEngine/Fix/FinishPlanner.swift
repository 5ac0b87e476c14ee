import Foundation

/// Phase `finish` for C-family files: every fallback form becomes the bridge alone, and a class
/// whose fallbacks are all gone gets a `nonnull` bridge property. A service keeps its fallbacks
/// while the run still finds a direct access to it; those accesses are named as the blockers.
struct FinishPlanner {
    let context: FixContext

    func plan(_ analyses: [FixFileAnalysis], into plan: inout FixPlan) {
        var blockers: [String: [String]] = [:]
        var directByType = Set<String>()
        var objcService = ObjCServiceFinish(context: context)
        var objcDelegation = ObjCDelegationFinish(context: context, types: objcService.types)
        for analysis in analyses {
            for a in analysis.accesses where a.access.kind == .direct {
                let (line, column) = analysis.lineColumn(a.offset)
                // left direct by this phase: listed, so the run does not end as if it were done
                if context.selects(a.access) {
                    if ObjCServiceInjection.isGetterFallback(a, in: analysis) {
                        // the service style's getter: removed once every construction sets the property
                        objcService.add(a, in: analysis)
                    } else if ObjCInitializerInjection.isDelegationFallback(a, in: analysis) {
                        // an old initializer passing the read: its callers call the new one
                        objcDelegation.add(a, in: analysis)
                    } else {
                        plan.manual.append(context.manual(a, in: analysis, .directInFinish))
                    }
                }
                if let service = a.access.service {
                    blockers[service, default: []].append("\(context.display(analysis.path)):\(line):\(column)")
                }
                if let type = a.enclosing?.typeName { directByType.insert(type) }
            }
        }
        var groups: [String: FixGroup] = [:]
        var order: [String] = []
        var unfinishedTypes = directByType
        for analysis in analyses {
            let rewriter = FinishRewriter(analysis: analysis, configuration: context.configuration)
            var found: [(LocatedAccess, InjectRewriter.Rewrite)] = []
            for located in analysis.accesses where located.access.kind == .fallback && context.selects(located.access) {
                var reason: ManualReason?
                var detail: String?
                if located.access.viaMacro != nil || analysis.tokens.isInDirective(located.offset) {
                    reason = .macro
                } else if analysis.isSuppressed(located) {
                    reason = .suppressed
                } else if let service = located.access.service, let blocking = blockers[service] {
                    reason = .blockedByDirectAccess
                    detail =
                        "\(service) is still read directly at \(blocking.prefix(3).joined(separator: ", "))\(blocking.count > 3 ? " and \(blocking.count - 3) more" : "")"
                }
                if reason == nil, let k = located.tokenIndex, let rewrite = rewriter.rewrite(at: k) {
                    found.append((located, rewrite))
                    continue
                }
                if let type = located.enclosing?.typeName { unfinishedTypes.insert(type) }
                plan.manual.append(context.manual(located, in: analysis, reason ?? .unrecognisedForm, detail: detail))
            }
            // Accesses inside a construct another access's rewrite replaces go with the outer one.
            let outer = found.filter { f in
                !found.contains {
                    $0.1.range != f.1.range && $0.1.range.lowerBound <= f.1.range.lowerBound
                        && f.1.range.upperBound <= $0.1.range.upperBound
                }
            }
            var done = Set<Range<Int>>()
            for (located, rewrite) in outer where done.insert(rewrite.range).inserted {
                let key =
                    located.enclosing.map { e in
                        e.kind == .objcMethod ? e.typeName.map { "Objective-C class \($0)" } : nil
                    }
                    .flatMap { $0 }
                    ?? "function \(located.enclosing?.name ?? "at file scope") in \(context.display(analysis.path))"
                if groups[key] == nil {
                    order.append(key); groups[key] = FixGroup(title: "finish \(key)", edits: [], targets: [])
                }
                let (line, column) = analysis.lineColumn(rewrite.range.lowerBound)
                let at = analysis.lineColumn(located.offset)
                groups[key]!.edits.append(
                    TextEdit(path: analysis.path, range: rewrite.range, replacement: rewrite.replacement))
                groups[key]!.targets.append(
                    FixTarget(
                        path: context.display(analysis.path), line: line, column: column,
                        expression: rewrite.expression, range: rewrite.range,
                        accessLine: at.line, accessColumn: at.column))
            }
        }
        for key in order where key.hasPrefix("Objective-C class ") {
            let type = String(key.dropFirst("Objective-C class ".count))
            guard !unfinishedTypes.contains(type) else { continue }
            groups[key]!.edits += nonnullEdits(for: type, files: groups[key]!.edits.map(\.path))
        }
        plan.groups += order.map { groups[$0]! }
        objcService.groups(into: &plan)
        objcDelegation.groups(into: &plan)
    }

    /// `nullable` → `nonnull` in the bridge property's attributes (or `_Nullable` → `_Nonnull`).
    private func nonnullEdits(for type: String, files: [String]) -> [TextEdit] {
        let names = Set(context.configuration.bridgeNames)
        for path in Set(context.filesDeclaring(type)).union(files).sorted() {
            guard let analysis = context.analysis(path) else { continue }
            let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: names)
            for block in declarations.interfaces(of: type) {
                guard let name = block.bridgeProperty else { continue }
                var i = name
                while i > block.start && !(analysis.tokens.text(i) == "property") { i -= 1 }
                for j in i..<name {
                    let word = analysis.tokens.text(j)
                    if word == "nullable" || word == "_Nullable" {
                        return [
                            TextEdit(
                                path: path, range: analysis.tokens.start(j)..<analysis.tokens.end(j),
                                replacement: word == "nullable" ? "nonnull" : "_Nonnull")
                        ]
                    }
                }
                return []
            }
        }
        return []
    }
}
