import Foundation

/// `signal-handler-safety`: follows every crash-time handler (sigaction, signal,
/// std::set_terminate, configured or annotated) through the project-wide call graph and reports
/// what it reaches that is not async-signal-safe, with the call chain.
struct SignalHandlerSafetyRule: ProjectRule {
    static let id = "signal-handler-safety"

    struct Options: RuleOptions {
        /// More functions to treat as crash-time handlers.
        var handlers: [String]
        /// Functions to accept as async-signal-safe on top of the built-in list (`name` or `prefix*`).
        var allow: [String]
        /// POSIX's list only: the functions safe in practice on Linux/glibc are reported too.
        var strict: Bool
        init(_ options: RuleOptionReader) throws {
            handlers = try options.strings("handlers")
            allow = try options.strings("allow")
            strict = try options.bool("strict")
        }
    }

    /// The file's call-graph facts (C-family functions and calls; Swift `@_cdecl` exports).
    func collect(_ file: FileModel) -> Data? {
        file.callGraphFacts?.encoded
    }

    func finish(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool) -> [Finding] {
        finishReport(facts: facts, options: options, severity: severity, complete: complete).findings
    }

    /// The findings, and how many functions the handlers reach were read only partly (from the
    /// tokens): where a finding's chain runs through one, its message says so; the count says it
    /// for the handlers with no finding too, whose silence is then no proof.
    func finishReport(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool) -> ProjectRuleReport {
        // With no handler anywhere (none registered, annotated or configured, no function that
        // installs its parameter) the walks have no root: nothing is reached, nothing reported.
        // Telling so from the bytes spares decoding every file's facts and building the graph.
        if options.handlers.isEmpty && !facts.contains(where: { CallGraphFacts.mayHoldHandlers(encoded: $0.facts) }) {
            return ProjectRuleReport(findings: [], handlerFunctionsReadPartly: 0)
        }
        let decoded = facts.compactMap { item in
            (try? CallGraphFacts(encoded: item.facts)).map { (path: item.path, facts: $0) }
        }
        let graph = CallGraph(facts: decoded)
        // Signal handlers first: code reached from both kinds is judged by the stricter rules.
        var seen = Set<String>()
        var violations: [HandlerWalk.Violation] = []
        var partlyRead = Set<String>()
        for context in [HandlerWalk.Context.signal, .terminate] {
            var walk = HandlerWalk(graph: graph, context: context, allow: options.allow, strict: options.strict, complete: complete)
            walk.run(configuredHandlers: options.handlers)
            violations += walk.violations.filter { seen.insert("\($0.path):\($0.position.line):\($0.position.column)").inserted }
            partlyRead.formUnion(walk.reachedReadPartly)
        }
        var sources = SourceSnippets()
        let findings = violations.map { v in
            Finding(rule: id, path: v.path, line: v.position.line, column: v.position.column, severity: severity,
                    message: v.message, snippet: sources.snippet(path: v.path, line: v.position.line, at: v.position.offset))
        }
        return ProjectRuleReport(findings: findings, handlerFunctionsReadPartly: partlyRead.count)
    }
}

/// A breadth-first walk from every handler of one context at once: each function is reached
/// once, by its shortest chain from the first handler (in name order) that reaches it.
private struct HandlerWalk {
    /// Signal handlers interrupt arbitrary code. A std::terminate handler runs synchronously on
    /// the thread whose exception escaped, with the C++ runtime consistent: there it may also
    /// inspect the current exception (rethrow it inside `try`, `what()`, the type's name).
    enum Context {
        case signal, terminate
    }

    struct Root {
        var symbol: Symbol
        var how: String
    }

    struct Violation {
        var path: String
        var position: SitePosition
        var message: String
        /// The function whose site this is: other handlers reaching it are named after the walk.
        var caller: String
    }

    let graph: CallGraph
    let context: Context
    let allow: [String]
    /// Whether the functions safe in practice on Linux/glibc are reported.
    let strict: Bool
    /// Whether every project file's facts are in the graph; if not, a function with no
    /// definition may be defined in a file the run did not see, and is not reported.
    let complete: Bool
    private(set) var violations: [Violation] = []
    /// How each reached function was reached: its caller's USR (nil for a root) and its root.
    private var reachedFrom: [String: (caller: String?, root: Root)] = [:]
    /// The functions each reached function leads into (the walk's edges).
    private var edges: [String: [String]] = [:]
    /// The walk's roots in order, each with its handler's name.
    private var rootOrder: [(usr: String, name: String)] = []

    init(graph: CallGraph, context: Context, allow: [String], strict: Bool, complete: Bool) {
        self.graph = graph
        self.context = context
        self.allow = allow
        self.strict = strict
        self.complete = complete
    }

    mutating func run(configuredHandlers: [String]) {
        var queue: [String] = []
        for (usr, root) in roots(configuredHandlers: configuredHandlers) {
            rootOrder.append((usr, root.symbol.name))
            guard reachedFrom[usr] == nil else { continue }
            reachedFrom[usr] = (nil, root)
            queue.append(usr)
        }
        var next = 0
        let trace = ProcessInfo.processInfo.environment["DI_LINT_TRACE_HANDLERS"] != nil
        while next < queue.count {
            let usr = queue[next]
            next += 1
            if trace { FileHandle.standardError.write(Data("di-lint: reached \(chain(to: usr).joined(separator: " → "))\n".utf8)) }
            for definition in graph.definitions[usr] ?? [] {
                for site in definition.function.sites {
                    let callees = examine(site, in: definition, caller: usr)
                    edges[usr, default: []] += callees
                    for callee in callees where reachedFrom[callee] == nil {
                        reachedFrom[callee] = (usr, reachedFrom[usr]!.root)
                        queue.append(callee)
                    }
                }
            }
        }
        nameOtherHandlers()
    }

    /// The reached functions whose bodies were read only partly, by USR.
    var reachedReadPartly: [String] { reachedFrom.keys.filter { graph.unresolvedStatements[$0] != nil } }

    /// A site is reported once, with the chain from the first handler that reaches it; the
    /// message also names the other handlers that reach it (the maintainers' chain may start there).
    private mutating func nameOtherHandlers() {
        guard rootOrder.count > 1, !violations.isEmpty else { return }
        var handlersReaching: [String: [String]] = [:] // function USR → handler names, in root order
        for root in rootOrder {
            var seen: Set<String> = [root.usr], queue = [root.usr], next = 0
            while next < queue.count {
                let usr = queue[next]
                next += 1
                if handlersReaching[usr]?.last != root.name { handlersReaching[usr, default: []].append(root.name) }
                for callee in edges[usr] ?? [] where seen.insert(callee).inserted { queue.append(callee) }
            }
        }
        for i in violations.indices {
            let first = reachedFrom[violations[i].caller]?.root.symbol.name
            var others: [String] = []
            for name in handlersReaching[violations[i].caller] ?? [] where name != first && !others.contains(name) { others.append(name) }
            guard !others.isEmpty else { continue }
            let shown = others.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            violations[i].message += "; also reached from \(shown)\(others.count > 5 ? " and \(others.count - 5) more" : "")"
        }
    }

    /// Handlers with a definition in the run, sorted for a deterministic walk.
    private func roots(configuredHandlers: [String]) -> [(String, Root)] {
        var result: [(String, Root)] = []
        for (path, r, via) in graph.registrations where (r.mechanism == .terminate) == (context == .terminate) {
            let where_ = "\(r.mechanism.rawValue)\(via.map { " " + $0 } ?? "") at \((path as NSString).lastPathComponent):\(r.position.line)"
            let kind = r.mechanism == .terminate ? "terminate handler" : "signal handler"
            // a handler named in the tokens is the registering file's own `static` one where it has one
            let usrs = resolve(r.handler)
            let own = usrs.filter { usr in CallGraph.filePrefix(usr) != nil && graph.definitions[usr]?.contains { $0.path == path } == true }
            for usr in own.isEmpty ? usrs : own { result.append((usr, Root(symbol: r.handler, how: "\(kind) '\(r.handler.name)' (\(where_))"))) }
        }
        guard context == .signal else { return result.sorted { ($0.1.symbol.name, $0.0) < ($1.1.symbol.name, $1.0) } }
        for symbol in graph.annotated {
            for usr in resolve(symbol) { result.append((usr, Root(symbol: symbol, how: "handler '\(symbol.name)' (annotated di-lint:signal-handler)"))) }
        }
        for name in configuredHandlers {
            for usr in graph.definitions(named: name) {
                let symbol = graph.definitions[usr]![0].function.symbol
                result.append((usr, Root(symbol: symbol, how: "handler '\(name)' (configured)")))
            }
        }
        return result.sorted { ($0.1.symbol.name, $0.0) < ($1.1.symbol.name, $1.0) }
    }

    private func resolve(_ symbol: Symbol) -> [String] {
        let site = CallSite(kind: .call, target: symbol, position: SitePosition(line: 0, column: 0, offset: 0))
        guard case let .functions(usrs)? = graph.resolve(site).first else { return [] }
        return usrs
    }

    /// Records the site's violation, if any; returns the definitions it leads into.
    private mutating func examine(_ site: CallSite, in definition: CallGraph.Definition, caller: String) -> [String] {
        var into: [String] = []
        let problem: (what: String, step: String)?
        switch site.kind {
        case .call, .pointerCall:
            for resolution in graph.resolve(site) {
                switch resolution {
                case let .functions(usrs): into += usrs
                case let .external(symbol):
                    if var p = externalProblem(symbol, trait: site.kind == .call ? site.trait : nil) {
                        if site.detail == LostStatementReader.detail { p += " [call read from the tokens of a statement that did not resolve]" }
                        report(p, step: symbol.name, site: site, in: definition, caller: caller)
                    }
                case .unknown: continue
                }
            }
            return into
        case .objcMessage:
            problem = ("Objective-C message '\(site.detail ?? "?")': the runtime may take locks and allocate", "[\(site.detail ?? "?")]")
        case .objcRuntime:
            problem = ("Objective-C '\(site.detail ?? "?")': the runtime allocates and takes locks", site.detail ?? "@")
        case .cxxNew:
            problem = ("C++ 'new' allocates", "new")
        case .cxxDelete:
            problem = ("C++ 'delete' frees through the allocator", "delete")
        case .cxxThrow:
            if site.detail == "rethrow" {
                problem = context == .terminate ? nil : ("C++ rethrow unwinds through the unwinder, which takes locks", "throw")
            } else {
                problem = ("C++ 'throw' allocates the exception and unwinds", "throw")
            }
        case .container:
            problem = ("container access '\(site.detail ?? "?")': copy what the handler needs into C globals at install", site.detail ?? "container")
        case .bridge:
            problem = ("bridge access ('\(site.detail ?? "bridge")'): the bridge is a Swift/Objective-C object; read it at install, not at crash time", site.detail ?? "bridge")
        }
        if let problem { report(problem.what, step: problem.step, site: site, in: definition, caller: caller) }
        return into
    }

    private func externalProblem(_ symbol: Symbol, trait: CallSite.CalleeTrait?) -> String? {
        let name = symbol.name
        if trait == .swift || AsyncSignalSafeFunctions.isSwiftMangled(name) || graph.swiftExports.contains(name) {
            return "'\(name)' is Swift code; the Swift runtime is not async-signal-safe"
        }
        if trait == .systemInline || AsyncSignalSafeFunctions.isSafe(name, allow: allow) { return nil }
        if graph.macros.contains(name) { return nil } // a macro the parse could not expand, not a call
        if !strict && SafeInPracticeFunctions.reasons[name] != nil { return nil }
        if context == .terminate && AsyncSignalSafeFunctions.exceptionInspection.contains(name) { return nil }
        if let reason = AsyncSignalSafeFunctions.reasons[name] { return "'\(name)' is not async-signal-safe (\(reason))" }
        guard complete else { return nil } // maybe defined in a file outside the run
        return "'\(name)' is not on the async-signal-safe list (no definition in the run; add it to 'allow' if it is safe)"
    }

    private mutating func report(_ what: String, step: String, site: CallSite, in definition: CallGraph.Definition, caller: String) {
        let how = reachedFrom[caller]?.root.how ?? "a handler"
        var message = "\(what); reached from \(how): \((chain(to: caller) + [step]).joined(separator: " → "))"
        let partly = chainUSRs(to: caller).compactMap { usr in
            graph.unresolvedStatements[usr].map { "'\(name(usr))' (\($0) statement\($0 == 1 ? "" : "s"))" }
        }
        if !partly.isEmpty {
            message += ". Note: read only partly, from the tokens (names from headers the parse cannot see, or code under #if on an unknown macro): \(partly.joined(separator: ", "))"
        }
        violations.append(Violation(path: definition.path, position: site.position, message: message, caller: caller))
    }

    private func name(_ usr: String) -> String { graph.definitions[usr]?.first?.function.symbol.name ?? usr }

    /// Names from the root to a reached function.
    private func chain(to usr: String) -> [String] { chainUSRs(to: usr).map(name) }

    private func chainUSRs(to usr: String) -> [String] {
        var usrs: [String] = []
        var cursor: String? = usr
        while let u = cursor, let entry = reachedFrom[u] {
            usrs.append(u)
            cursor = entry.caller
        }
        return usrs.reversed()
    }
}
