import Foundation

/// The project-wide call graph, joined from the facts of every file in the run.
struct CallGraph {
    struct Definition {
        var path: String
        var function: FunctionFact
    }

    /// Where a call site may lead.
    enum Resolution {
        /// Into these definitions (USRs) in the run.
        case functions([String])
        /// Out of the run, to this function.
        case external(Symbol)
        /// Nowhere the run can see (a pointer with an unknown value).
        case unknown
    }

    private(set) var definitions: [String: [Definition]] = [:]
    /// USRs of definitions by name: how calls to undeclared or differently-declared functions
    /// (a C header's static inline seen from C++, whose USR then carries parameter types) find
    /// their definition.
    private var usrsByName: [String: [String]] = [:]
    /// Values stored into each function-pointer slot, by slot USR.
    private var stores: [String: [Symbol?]] = [:]
    /// Every registration, those through tables and wrappers expanded (`via`: the wrapper's name).
    private(set) var registrations: [(path: String, registration: HandlerRegistration, via: String?)] = []
    private(set) var annotated: [Symbol] = []
    private(set) var swiftExports: Set<String> = []
    /// Function-like macros defined in the run: a call by one of these names is no call.
    private(set) var macros: Set<String> = []
    /// What calling each macro of the run calls, expanded with `MacroExpander` over the run's
    /// definitions (the first file's where several define a name): a call by name that no
    /// definition satisfies and the parse did not expand (its header came through one the run
    /// lacks) is a call of these.
    private(set) var macroCalls: [String: MacroExpander.Result] = [:]
    /// The function-like and call-making macros the run's files define, by name (the first).
    private var macroDefinitions: [String: MacroDefinition] = [:]
    /// The headers each file's translation unit includes (file names), for files that call by name.
    private var includedFiles: [String: Set<String>] = [:]
    /// Definitions that are all stand-ins for a system function under an `#if` the run cannot
    /// show is taken (`FunctionFact.conditionalShim`): a call keeps the system function's meaning.
    private(set) var shims = Set<String>()
    /// Statements per function USR that did not resolve and were only read for their calls.
    private(set) var unresolvedStatements: [String: Int] = [:]

    init(facts: [(path: String, facts: CallGraphFacts)]) {
        for (path, f) in facts {
            for function in f.functions {
                definitions[function.symbol.usr, default: []].append(Definition(path: path, function: function))
                usrsByName[function.symbol.name, default: []].append(function.symbol.usr)
                if function.unresolvedStatements > 0 {
                    unresolvedStatements[function.symbol.usr, default: 0] += function.unresolvedStatements
                }
            }
            for s in f.stores { stores[s.slot.usr, default: []].append(s.value) }
            annotated += f.annotated
            swiftExports.formUnion(f.swiftExports)
            macros.formUnion(f.macros)
            if !f.includedFiles.isEmpty { includedFiles[path] = Set(f.includedFiles) }
        }
        var macroDefinitions: [String: MacroDefinition] = [:]
        for (_, f) in facts {
            for m in f.macroDefinitions where macroDefinitions[m.name] == nil { macroDefinitions[m.name] = m }
        }
        self.macroDefinitions = macroDefinitions
        let expander = MacroExpander { macroDefinitions[$0] }
        for (name, m) in macroDefinitions {
            // the invocation's arguments are not known here: a parameter called in the body is no call read
            var invocation = [name]
            if let parameters = m.parameters {
                invocation += ["("] + Array(parameters.map { [$0] }.joined(separator: [","])) + [")"]
            }
            var result = expander.calls(of: invocation)
            if let parameters = m.parameters { result.calls.removeAll { parameters.contains($0) } }
            macroCalls[name] = result
        }
        for (name, usrs) in usrsByName where usrs.count > 1 { usrsByName[name] = Array(Set(usrs)).sorted() }
        shims = Set(definitions.filter { $0.value.allSatisfy(\.function.conditionalShim) }.keys)
        for (path, f) in facts {
            for r in f.registrations {
                guard r.throughSlot else { registrations.append((path, r, nil)); continue }
                // every function stored into the table's field (or the variable) is a handler
                for case let value? in stores[r.handler.usr] ?? [] {
                    registrations.append(
                        (
                            path, HandlerRegistration(handler: value, mechanism: r.mechanism, position: r.position),
                            "table field '\(ChainText.shown(r.handler.name))'"
                        ))
                }
            }
        }
        registrations += wrapperRegistrations(facts)
        for (path, f) in facts {
            for a in f.signalArguments where usrsByName[a.callee.name] == nil && !macros.contains(a.callee.name) {
                registrations.append(
                    (
                        path, HandlerRegistration(handler: a.value, mechanism: .signal, position: a.position),
                        "through '\(ChainText.shown(a.callee.name))', undefined in the run,"
                    ))
            }
        }
    }

    /// Calls of functions that install one of their parameters (directly, or by passing it on to
    /// such a function, transitively) register the function they pass there.
    private func wrapperRegistrations(_ facts: [(path: String, facts: CallGraphFacts)]) -> [(
        path: String, registration: HandlerRegistration, via: String?
    )] {
        var installing: [String: HandlerRegistration.Mechanism] = [:] // "usr#index"
        for (_, f) in facts {
            for p in f.installingParameters { installing["\(p.function.usr)#\(p.index)"] = p.mechanism }
        }
        guard !installing.isEmpty else { return [] }
        func installer(_ callee: Symbol, _ argument: Int) -> HandlerRegistration.Mechanism? {
            guard case let .functions(usrs) = resolve(function: callee) else { return nil }
            return usrs.lazy.compactMap { installing["\($0)#\(argument)"] }.first
        }
        // A worklist over the forwards waiting on each parameter: each forward is looked at when
        // a parameter it passes to becomes installing, not on every pass of a fixed point (a
        // chain of n wrappers written outermost first took n passes over n forwards).
        let forwards = facts.flatMap(\.facts.forwards)
        var waiting: [String: [Int]] = [:] // "usr#index" → the forwards passing to it
        for (i, forward) in forwards.enumerated() {
            guard case let .functions(usrs) = resolve(function: forward.callee) else { continue }
            for usr in usrs { waiting["\(usr)#\(forward.argument)", default: []].append(i) }
        }
        var queue = Array(installing.keys)
        while let key = queue.popLast() {
            for i in waiting[key] ?? [] {
                let forward = forwards[i], parameter = "\(forward.function.usr)#\(forward.parameter)"
                guard installing[parameter] == nil, let mechanism = installer(forward.callee, forward.argument) else {
                    continue
                }
                installing[parameter] = mechanism
                queue.append(parameter)
            }
        }
        var result: [(path: String, registration: HandlerRegistration, via: String?)] = []
        for (path, f) in facts {
            for a in f.functionArguments {
                guard let mechanism = installer(a.callee, a.argument) else { continue }
                result.append(
                    (
                        path, HandlerRegistration(handler: a.value, mechanism: mechanism, position: a.position),
                        "through '\(ChainText.shown(a.callee.name))'"
                    ))
            }
        }
        return result
    }

    /// The project's definitions named like an external function that a call of it does not bind
    /// to, from a function of the file `path`: stand-ins under an `#if` the run cannot show is
    /// taken (`FunctionFact.shimCondition`), and `static` ones in files the caller's translation
    /// unit does not include. A finding on the call names them (the build may use one instead).
    func setAside(_ symbol: Symbol, from path: String) -> [Definition] {
        guard !symbol.usr.hasPrefix("macro:") else { return [] }
        let own = (path as NSString).lastPathComponent
        let visible = includedFiles[path] ?? []
        var result: [Definition] = []
        for usr in Set((usrsByName[symbol.name] ?? []) + (definitions[symbol.usr] != nil ? [symbol.usr] : [])).sorted()
        {
            for definition in definitions[usr] ?? [] {
                if definition.function.conditionalShim {
                    result.append(definition)
                } else if let prefix = CallGraph.filePrefix(usr) {
                    let file = String(prefix.dropFirst(2).dropLast())
                    if file != own && !visible.contains(file) { result.append(definition) }
                }
            }
        }
        return result
    }

    /// Clang gives file-local (static) entities a USR that starts with the file name (`c:util.c@F@f`).
    static func hasExternalLinkage(_ usr: String) -> Bool {
        usr.hasPrefix("c:@") || usr.hasPrefix("name:") || usr.hasPrefix("scoped:")
    }

    /// `c:util.c@` for a file-local USR.
    static func filePrefix(_ usr: String) -> String? {
        guard !hasExternalLinkage(usr), let at = usr.firstIndex(of: "@") else { return nil }
        return String(usr[...at])
    }

    /// Definitions named `name` (qualified for C++), for configured handler names.
    func definitions(named name: String) -> [String] {
        definitions.filter { $0.value.contains { $0.function.symbol.name == name } }.map(\.key).sorted()
    }

    /// Where a site of a function defined in the file `path` leads (`path` nil: as seen from any file).
    func resolve(_ site: CallSite, from path: String? = nil) -> [Resolution] {
        switch site.kind {
        case .call:
            guard let target = site.target else { return [] }
            if target.usr.hasPrefix("macro:") { return [.external(target)] }
            let resolution = resolve(function: target, from: path)
            if case .external = resolution, target.usr.hasPrefix("name:") || target.usr.hasPrefix("scoped:"),
                var expansion = macroCalls[target.name]
            {
                // the calls of the macro's expansion, made at the invocation, with its arguments
                // when the site kept them; calls spelled in the arguments are sites of their own
                if let invocation = site.invocation, macroDefinitions[target.name]?.parameters != nil {
                    let definitions = macroDefinitions
                    expansion = MacroExpander { definitions[$0] }.calls(of: [target.name] + invocation)
                    let spelled = Set(
                        invocation.indices.dropLast().filter { invocation[$0 + 1] == "(" }.map { invocation[$0] })
                    expansion.calls.removeAll { spelled.contains($0) }
                }
                return expansion.calls.map { resolve(function: Symbol(usr: "name:" + $0, name: $0), from: path) }
                    + expansion.unexpanded.map { .external(Symbol(usr: "macro:" + $0, name: $0)) }
            }
            return [resolution]
        case .pointerCall:
            guard let slot = site.target, let values = stores[slot.usr], !values.isEmpty else { return [.unknown] }
            var result: [Resolution] = []
            var seen = Set<String>()
            for value in values {
                guard let value else { return [.unknown] }
                if seen.insert(value.usr).inserted { result.append(resolve(function: value)) }
            }
            return result
        default:
            return []
        }
    }

    /// A call read from tokens (no declaration resolved it) to `name`, made inside the function
    /// `caller`: C++ looks the name up in the caller's class and namespaces first, so the symbol
    /// carries that scope (`scoped:a::b::f|name`); resolved by `resolve(function:)`.
    static func lookup(_ name: String, from caller: String) -> Symbol {
        guard let last = caller.range(of: "::", options: .backwards) else {
            return Symbol(usr: "name:" + name, name: name)
        }
        return Symbol(usr: "scoped:" + caller[..<last.lowerBound] + "|" + name, name: name)
    }

    /// For a name read from tokens in a C++ scope (`scoped:a::b|name`, see `lookup`), the qualified
    /// names it is looked up by before the plain name, innermost scope first: `a::b::name`,
    /// `a::name`. Nil for any other symbol.
    static func scopedNames(of symbol: Symbol) -> [String]? {
        guard symbol.usr.hasPrefix("scoped:"), let bar = symbol.usr.firstIndex(of: "|") else { return nil }
        var scope = String(symbol.usr[symbol.usr.index(symbol.usr.startIndex, offsetBy: 7)..<bar])
        var names: [String] = []
        while !scope.isEmpty {
            names.append(scope + "::" + symbol.name)
            scope = scope.range(of: "::", options: .backwards).map { String(scope[..<$0.lowerBound]) } ?? ""
        }
        return names
    }

    private func resolve(function symbol: Symbol, from path: String? = nil) -> Resolution {
        if definitions[symbol.usr] != nil {
            return shims.contains(symbol.usr) ? .external(symbol) : .functions([symbol.usr])
        }
        if let scoped = CallGraph.scopedNames(of: symbol) {
            for name in scoped { if let usrs = usrsByName[name] { return .functions(usrs) } }
            return resolve(function: Symbol(usr: "name:" + symbol.name, name: symbol.name), from: path)
        }
        var sameName = (usrsByName[symbol.name] ?? []).filter { !shims.contains($0) }
        if let path, symbol.usr.hasPrefix("name:") {
            // as a linker binds: a `static` definition only from its own file or a header the caller's unit includes
            let own = (path as NSString).lastPathComponent
            let visible = includedFiles[path] ?? []
            sameName.removeAll { usr in
                guard let prefix = CallGraph.filePrefix(usr) else { return false }
                let name = String(prefix.dropFirst(2).dropLast())
                return name != own && !visible.contains(name)
            }
        }
        // external names match external definitions; a file-local one matches the same file's
        // (a name found only in tokens may be either)
        let candidates =
            symbol.usr.hasPrefix("name:") && !sameName.contains(where: CallGraph.hasExternalLinkage)
            ? sameName
            : CallGraph.filePrefix(symbol.usr).map { prefix in sameName.filter { $0.hasPrefix(prefix) } }
                ?? sameName.filter(CallGraph.hasExternalLinkage)
        return candidates.isEmpty ? .external(symbol) : .functions(candidates)
    }
}
