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
    private(set) var registrations: [(path: String, registration: HandlerRegistration)] = []
    private(set) var annotated: [Symbol] = []
    private(set) var swiftExports: Set<String> = []

    init(facts: [(path: String, facts: CallGraphFacts)]) {
        for (path, f) in facts {
            for function in f.functions {
                definitions[function.symbol.usr, default: []].append(Definition(path: path, function: function))
                usrsByName[function.symbol.name, default: []].append(function.symbol.usr)
            }
            for s in f.stores { stores[s.slot.usr, default: []].append(s.value) }
            registrations += f.registrations.map { (path, $0) }
            annotated += f.annotated
            swiftExports.formUnion(f.swiftExports)
        }
        for (name, usrs) in usrsByName { usrsByName[name] = Array(Set(usrs)).sorted() }
    }

    /// Clang gives file-local (static) entities a USR that starts with the file name (`c:util.c@F@f`).
    static func hasExternalLinkage(_ usr: String) -> Bool {
        usr.hasPrefix("c:@") || usr.hasPrefix("name:")
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

    func resolve(_ site: CallSite) -> [Resolution] {
        switch site.kind {
        case .call:
            guard let target = site.target else { return [] }
            return [resolve(function: target)]
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

    private func resolve(function symbol: Symbol) -> Resolution {
        if definitions[symbol.usr] != nil { return .functions([symbol.usr]) }
        let sameName = usrsByName[symbol.name] ?? []
        // external names match external definitions; a file-local one matches the same file's
        // (a name found only in tokens may be either)
        let candidates = symbol.usr.hasPrefix("name:") && !sameName.contains(where: CallGraph.hasExternalLinkage) ? sameName
            : CallGraph.filePrefix(symbol.usr).map { prefix in sameName.filter { $0.hasPrefix(prefix) } }
            ?? sameName.filter(CallGraph.hasExternalLinkage)
        return candidates.isEmpty ? .external(symbol) : .functions(candidates)
    }
}
