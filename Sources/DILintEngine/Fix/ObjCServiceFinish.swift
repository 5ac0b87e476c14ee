import Foundation

/// Phase `finish` in the service style for Objective-C: the getter `inject` wrote,
/// `- (T *)svc { return _svc ?: <container read>; }`, is removed (the property is then set or
/// nil) once every construction of the class the run shows gives the object the service:
/// - it calls an initializer of the class that takes the service and assigns it (`_svc = svc`,
///   `self.svc = svc`);
/// - it is `v = [[C alloc] init…];` (or `T *v = …;`) followed by `v.svc = …;`;
/// - it is such a statement and the place has the service in reach (a parameter of its type, its
///   class's property `svc` of that type): `v.svc = <that>;` is added after it.
/// Else the getter stays, listed with the construction that does not set it. A class the run
/// builds nowhere, or in a way not followed (a subclass, `[[self alloc] …]`), and a view or view
/// controller (a storyboard or nib may build it, setting nothing) stay listed. The
/// group is `unsafe` (constructions outside the run would get nil) unless the run holds the
/// composition root (`composition-root: paths`).
struct ObjCServiceFinish {
    let context: FixContext
    let types: ObjCServiceTypes

    private var getters: [(analysis: FixFileAnalysis, located: LocatedAccess)] = []

    init(context: FixContext) {
        self.context = context
        types = ObjCServiceTypes(context: context)
    }

    /// Takes the access of a service getter's fallback (see `ObjCServiceInjection.isGetterFallback`).
    mutating func add(_ located: LocatedAccess, in analysis: FixFileAnalysis) {
        getters.append((analysis, located))
    }

    func groups(into plan: inout FixPlan) {
        let constructions = ObjCConstructions(context: context, types: types)
        let rootInRun =
            !context.configuration.compositionRoot.paths.isEmpty
            && context.runFiles.contains { context.configuration.isCompositionRootPath(context.display($0)) }
        for (analysis, located) in getters {
            switch group(located, in: analysis, constructions) {
            case let .failure(why):
                plan.manual.append(context.manual(located, in: analysis, why.reason, detail: why.detail))
            case var .success(group):
                group.tier = rootInRun ? .safe : .unsafe
                plan.groups.append(group)
            }
        }
    }

    private struct Why: Error {
        var reason: ManualReason
        var detail: String?
    }

    private func group(_ located: LocatedAccess, in analysis: FixFileAnalysis, _ constructions: ObjCConstructions)
        -> Result<FixGroup, Why>
    {
        let tokens = analysis.tokens
        guard let service = located.access.service, let method = located.enclosing, let className = method.typeName,
            let type = types.declared(service, of: located.access.container)
        else { return .failure(Why(reason: .serviceGetterFallback, detail: nil)) }
        let name = ObjCServiceInjection.propertyName(service)
        let m0 = tokens.firstToken(atOrAfter: method.range.lowerBound)
        guard let signature = ObjCMethodSignature.parse(tokens, at: m0), tokens.text(signature.terminator) == "{",
            let close = tokens.matchingClose(signature.terminator), tokens.isFirstOnLine(m0)
        else { return .failure(Why(reason: .serviceGetterFallback, detail: nil)) }
        let b = signature.terminator
        // exactly what inject writes: { return _svc ?: <read>; }
        guard tokens.text(b + 1) == "return", tokens.text(b + 2) == "_\(name)", tokens.text(b + 3) == "?",
            tokens.text(b + 4) == ":", tokens.text(close - 1) == ";"
        else {
            return .failure(Why(reason: .serviceGetterFallback, detail: "the getter is not the form inject writes"))
        }
        // a view or view controller may come from a storyboard or nib, which sets no property
        if let superclass = superclass(of: className),
            ["Controller", "View", "Cell", "Window"].contains(where: superclass.hasSuffix)
        {
            return .failure(
                Why(
                    reason: .serviceNoConstruction,
                    detail: "\(className) is a \(superclass): a storyboard or nib may build it without setting \(name)")
            )
        }
        let (sites, unknown) = constructions.sites(of: className)
        if !unknown.isEmpty {
            return .failure(Why(reason: .serviceNoConstruction, detail: unknown.prefix(3).joined(separator: "; ")))
        }
        if sites.isEmpty {
            return .failure(Why(reason: .serviceNoConstruction, detail: "no [[\(className) alloc] init…] in the run"))
        }
        let setting = settingInitializers(className, name: name, in: analysis)
        var edits: [TextEdit] = []
        var notes: [String] = []
        for site in sites {
            let st = site.analysis.tokens
            let (line, column) = site.analysis.lineColumn(st.start(site.open))
            let place = "\(context.display(site.analysis.path)):\(line):\(column)"
            if setting.contains(site.selector) { continue }
            // v = [[C alloc] …];  or  T *v = [[C alloc] …];
            guard st.text(site.open - 1) == "=", st.isIdentifier(site.open - 2),
                ![".", "->"].contains(st.text(site.open - 3)), st.text(site.close + 1) == ";"
            else {
                return .failure(
                    Why(
                        reason: .serviceConstructionNotSet,
                        detail: "\(place): -\(site.selector) not in a statement `v = …;`"))
            }
            let variable = st.text(site.open - 2)
            let semicolon = site.close + 1
            if st.text(semicolon + 1) == variable, st.text(semicolon + 2) == ".", st.text(semicolon + 3) == name,
                st.text(semicolon + 4) == "="
            {
                continue
            }
            guard let value = constructions.inReach(type, named: name, at: site.open, in: site.analysis) else {
                return .failure(
                    Why(
                        reason: .serviceConstructionNotSet,
                        detail: "\(place): nothing of type \(type.returnType) in reach"))
            }
            let at = st.end(semicolon)
            let indent = st.indentation(st.start(site.open))
            edits.append(
                TextEdit(
                    path: site.analysis.path, range: at..<at,
                    replacement: st.lineEnding + indent + "\(variable).\(name) = \(value);"))
            notes.append("\(place): note: sets \(variable).\(name) = \(value)")
        }
        // the getter, its lines and the blank line after it
        let removed = ObjCDelegationFinish.linesRange(tokens, from: m0, through: close)
        let (from, to) = (removed.lowerBound, removed.upperBound)
        edits.append(TextEdit(path: analysis.path, range: from..<to, replacement: ""))
        let (line, column) = analysis.lineColumn(from)
        let at = analysis.lineColumn(located.offset)
        var target = FixTarget(
            path: context.display(analysis.path), line: line, column: column,
            expression: located.access.expression, range: from..<to, accessLine: at.line, accessColumn: at.column)
        target.reads = "_\(name)"
        var group = FixGroup(
            title: "finish Objective-C class \(className) service \(name)", edits: edits, targets: [target])
        group.notes = notes.isEmpty ? nil : notes
        return .success(group)
    }

    /// The superclass the class's primary `@interface` names, if found.
    private func superclass(of className: String) -> String? {
        let pattern = #"@interface\s+"# + NSRegularExpression.escapedPattern(for: className) + #"\s*:\s*(\w+)"#
        let regex = try? NSRegularExpression(pattern: pattern)
        for text in types.interfaceTexts(of: className) {
            let ns = text as NSString
            if let m = regex?.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) {
                return ns.substring(with: m.range(at: 1))
            }
        }
        return nil
    }

    /// The selectors of the class's initializers (in the getter's file) whose body assigns the
    /// argument `name` to the property: `_name = name;` or `self.name = name;`.
    private func settingInitializers(_ className: String, name: String, in analysis: FixFileAnalysis) -> Set<String> {
        let tokens = analysis.tokens
        let declarations = ObjCDeclarations(tokens: tokens, bridgeNames: [])
        var result = Set<String>()
        for signature in ObjCMethodSignature.methods(of: className, in: tokens, declarations)
        where signature.isInstance && tokens.text(signature.terminator) == "{"
            && signature.argumentNames(tokens).contains(name)
        {
            guard let close = tokens.matchingClose(signature.terminator) else { continue }
            let assigns = (signature.terminator..<close).contains { i in
                (tokens.text(i) == "_\(name)" && tokens.text(i + 1) == "=" && tokens.text(i + 2) == name
                    && tokens.text(i + 3) == ";")
                    || (tokens.text(i) == "self" && tokens.text(i + 1) == "." && tokens.text(i + 2) == name
                        && tokens.text(i + 3) == "=" && tokens.text(i + 4) == name && tokens.text(i + 5) == ";")
            }
            if assigns { result.insert(signature.selector(tokens)) }
        }
        return result
    }
}
