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
        /// POSIX's list only: the functions safe in practice on Linux/glibc are reported too, and
        /// calls on an error path only at the rule's severity (not `warning`).
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

    func finish(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool) -> [Finding]
    {
        finishReport(facts: facts, options: options, severity: severity, complete: complete).findings
    }

    /// The findings, and how many functions the handlers reach were read only partly (from the
    /// tokens): where a finding's chain runs through one, its message says so; the count says it
    /// for the handlers with no finding too, whose silence is then no proof.
    func finishReport(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool)
        -> ProjectRuleReport
    {
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
            var walk = HandlerWalk(
                graph: graph, context: context, allow: options.allow, strict: options.strict, complete: complete)
            walk.run(configuredHandlers: options.handlers)
            violations += walk.violations.filter {
                seen.insert("\($0.path):\($0.position.line):\($0.position.column)").inserted
            }
            partlyRead.formUnion(walk.reachedReadPartly)
        }
        var sources = SourceSnippets()
        let findings = violations.map { v in
            // reached only when an async-signal-safe call failed: a warning unless `strict`
            Finding(
                rule: id, path: v.path, line: v.position.line, column: v.position.column,
                severity: v.errorPath && !options.strict ? min(severity, .warning) : severity,
                message: v.message, snippet: sources.snippet(path: v.path, line: v.position.line, at: v.position.offset)
            )
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

    /// How a function was reached, with what its messages show of the chain, kept per function
    /// so that a message costs the same however long the chain: a chain of 16,000 calls made
    /// each of its 16,000 findings spell all the hops before it (1.3 GB of text).
    struct Reach {
        /// The caller's USR; nil for a root.
        var caller: String?
        var root: Root
        /// Functions from the root to this one, both counted.
        var length: Int
        /// The chain's first `ChainText.headHops` functions (USRs); shared with the callers'.
        var head: [String]
        /// Functions on the chain read only partly, from the tokens: how many, and the first few.
        var partlyCount: Int
        var partlyFirst: [String]
    }

    struct Violation {
        var path: String
        var position: SitePosition
        var message: String
        /// The function whose site this is: other handlers reaching it are named after the walk.
        var caller: String
        /// Reached only under the failure branch of an async-signal-safe call.
        var errorPath = false
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
    /// How each reached function was reached.
    private var reachedFrom: [String: Reach] = [:]
    /// The functions each reached function leads into (the walk's edges).
    private var edges: [String: [String]] = [:]
    /// The walk's roots in order, each with its handler's name.
    private var rootOrder: [(usr: String, name: String)] = []
    /// Functions reached only through calls on an error path (`CallSite.onErrorPath`).
    private var errorPathOnly = Set<String>()

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
            reachedFrom[usr] = reach(usr, caller: nil, root: root)
            queue.append(usr)
        }
        var next = 0
        let trace = ProcessInfo.processInfo.environment["DI_LINT_TRACE_HANDLERS"] != nil
        // Calls on an error path wait until every function reachable without one is reached:
        // what is reached only through them is on an error path only.
        var postponed: [(callee: String, caller: String)] = []
        while true {
            while next < queue.count {
                let usr = queue[next]
                next += 1
                if trace { FileHandle.standardError.write(Data("di-lint: reached \(chainText(to: usr))\n".utf8)) }
                let callerOnErrorPath = errorPathOnly.contains(usr)
                for definition in graph.definitions[usr] ?? [] {
                    for site in definition.function.sites {
                        let onErrorPath = callerOnErrorPath || site.onErrorPath
                        let callees = examine(site, in: definition, caller: usr, errorPath: onErrorPath)
                        edges[usr, default: []] += callees
                        for callee in callees where reachedFrom[callee] == nil {
                            if onErrorPath && !callerOnErrorPath {
                                postponed.append((callee, usr))
                                continue
                            }
                            reachedFrom[callee] = reach(callee, caller: usr, root: reachedFrom[usr]!.root)
                            if callerOnErrorPath { errorPathOnly.insert(callee) }
                            queue.append(callee)
                        }
                    }
                }
            }
            let waiting = postponed.filter { reachedFrom[$0.callee] == nil }
            postponed = []
            guard !waiting.isEmpty else { break }
            for (callee, caller) in waiting where reachedFrom[callee] == nil {
                reachedFrom[callee] = reach(callee, caller: caller, root: reachedFrom[caller]!.root)
                errorPathOnly.insert(callee)
                queue.append(callee)
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
        // function USR → the first handler names reaching it (in root order), how many there are,
        // and the last one counted: the names a message shows, not every handler per function
        var handlersReaching: [String: (names: [String], count: Int, last: String)] = [:]
        for root in rootOrder {
            var seen: Set<String> = [root.usr], queue = [root.usr], next = 0
            while next < queue.count {
                let usr = queue[next]
                next += 1
                if let known = handlersReaching[usr] {
                    // roots are in name order: a name's USRs follow each other
                    if known.last != root.name {
                        handlersReaching[usr] = (
                            known.names.count < 6 ? known.names + [root.name] : known.names, known.count + 1, root.name
                        )
                    }
                } else {
                    handlersReaching[usr] = ([root.name], 1, root.name)
                }
                for callee in edges[usr] ?? [] where seen.insert(callee).inserted { queue.append(callee) }
            }
        }
        for i in violations.indices {
            guard let reaching = handlersReaching[violations[i].caller] else { continue }
            let first = reachedFrom[violations[i].caller]?.root.symbol.name
            let others = reaching.names.filter { $0 != first }
            // the first handler reaches the function (the walk came from it), so it is counted
            let count = reaching.count - (first == nil ? 0 : 1)
            guard count > 0 else { continue }
            let shown = others.prefix(5).map { "'\(ChainText.shown($0))'" }.joined(separator: ", ")
            violations[i].message += "; also reached from \(shown)\(count > 5 ? " and \(count - 5) more" : "")"
        }
    }

    /// Handlers with a definition in the run, sorted for a deterministic walk.
    private func roots(configuredHandlers: [String]) -> [(String, Root)] {
        var result: [(String, Root)] = []
        for (path, r, via) in graph.registrations where (r.mechanism == .terminate) == (context == .terminate) {
            let where_ =
                "\(r.mechanism.rawValue)\(via.map { " " + $0 } ?? "") at \((path as NSString).lastPathComponent):\(r.position.line)"
            let kind = r.mechanism == .terminate ? "terminate handler" : "signal handler"
            // a handler named in the tokens is the registering file's own `static` one where it has one
            let usrs = resolve(r.handler)
            let own = usrs.filter { usr in
                CallGraph.filePrefix(usr) != nil && graph.definitions[usr]?.contains { $0.path == path } == true
            }
            for usr in own.isEmpty ? usrs : own {
                result.append(
                    (usr, Root(symbol: r.handler, how: "\(kind) '\(ChainText.shown(r.handler.name))' (\(where_))")))
            }
        }
        guard context == .signal else { return result.sorted { ($0.1.symbol.name, $0.0) < ($1.1.symbol.name, $1.0) } }
        for symbol in graph.annotated {
            for usr in resolve(symbol) {
                result.append(
                    (
                        usr,
                        Root(
                            symbol: symbol,
                            how: "handler '\(ChainText.shown(symbol.name))' (annotated di-lint:signal-handler)")
                    ))
            }
        }
        for name in configuredHandlers {
            for usr in graph.definitions(named: name) {
                let symbol = graph.definitions[usr]![0].function.symbol
                result.append((usr, Root(symbol: symbol, how: "handler '\(ChainText.shown(name))' (configured)")))
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
    private mutating func examine(
        _ site: CallSite, in definition: CallGraph.Definition, caller: String, errorPath: Bool
    ) -> [String] {
        var into: [String] = []
        let problem: (what: String, step: String)?
        switch site.kind {
        case .call, .pointerCall:
            for resolution in graph.resolve(site, from: definition.path) {
                switch resolution {
                case let .functions(usrs): into += usrs
                case let .external(symbol):
                    if var p = externalProblem(symbol, trait: site.kind == .call ? site.trait : nil) {
                        if site.detail == LostStatementReader.detail {
                            p += " [call read from the tokens of a statement that did not resolve]"
                        }
                        report(
                            p, step: symbol.name, site: site, in: definition, caller: caller, errorPath: errorPath,
                            note: setAsideNote(symbol, from: definition.path))
                    }
                case .unknown: continue
                }
            }
            return into
        case .objcMessage:
            problem = (
                "Objective-C message '\(site.detail ?? "?")': the runtime may take locks and allocate",
                "[\(site.detail ?? "?")]"
            )
        case .objcRuntime:
            problem = ("Objective-C '\(site.detail ?? "?")': the runtime allocates and takes locks", site.detail ?? "@")
        case .cxxNew:
            problem = ("C++ 'new' allocates", "new")
        case .cxxDelete:
            problem = ("C++ 'delete' frees through the allocator", "delete")
        case .cxxThrow:
            if site.detail == "rethrow" {
                problem =
                    context == .terminate
                    ? nil : ("C++ rethrow unwinds through the unwinder, which takes locks", "throw")
            } else {
                problem = ("C++ 'throw' allocates the exception and unwinds", "throw")
            }
        case .container:
            problem = (
                "container access '\(site.detail ?? "?")': copy what the handler needs into C globals at install",
                site.detail ?? "container"
            )
        case .bridge:
            problem = (
                "bridge access ('\(site.detail ?? "bridge")'): the bridge is a Swift/Objective-C object; read it at install, not at crash time",
                site.detail ?? "bridge"
            )
        }
        if let problem {
            report(problem.what, step: problem.step, site: site, in: definition, caller: caller, errorPath: errorPath)
        }
        return into
    }

    /// Says which of the project's definitions of the name the call was not bound to, and why:
    /// the finding keeps the library's meaning and names both.
    private func setAsideNote(_ symbol: Symbol, from path: String) -> String {
        let aside = graph.setAside(symbol, from: path)
        guard !aside.isEmpty else { return "" }
        let name = ChainText.shown(symbol.name)
        let notes = aside.prefix(2).map { d in
            let place = "\((d.path as NSString).lastPathComponent):\(d.function.position.line)"
            if let condition = d.function.shimCondition {
                let under = ChainText.shown(condition)
                return "a project definition of '\(name)' under `\(under)` (\(place)) may replace it"
                    + " (this run cannot tell whether that condition holds)"
            }
            return
                "the project's static '\(name)' (\(place)) is in a file this one does not include, so it does not replace it"
        }
        let more = aside.count > 2 ? " (and \(aside.count - 2) more)" : ""
        return ". Note: \(notes.joined(separator: "; "))\(more)"
    }

    private func externalProblem(_ symbol: Symbol, trait: CallSite.CalleeTrait?) -> String? {
        let name = ChainText.shown(symbol.name)
        if trait == .swift || AsyncSignalSafeFunctions.isSwiftMangled(symbol.name)
            || graph.swiftExports.contains(symbol.name)
        {
            return "'\(name)' is Swift code; the Swift runtime is not async-signal-safe"
        }
        if trait == .systemInline || AsyncSignalSafeFunctions.isSafe(symbol.name, allow: allow) { return nil }
        if symbol.usr.hasPrefix("macro:") {
            return
                "'\(name)' is a macro whose expansion di-lint could not read (nested past \(MacroExpander.maxDepth) levels, too large, or without its closing parenthesis): what it calls is unknown"
        }
        if graph.macros.contains(symbol.name) { return nil } // a declared function the run also defines as a macro
        if !strict && SafeInPracticeFunctions.reasons[symbol.name] != nil { return nil }
        if context == .terminate && AsyncSignalSafeFunctions.exceptionInspection.contains(symbol.name) { return nil }
        if let reason = AsyncSignalSafeFunctions.reasons[symbol.name] {
            return "'\(name)' is not async-signal-safe (\(reason))"
        }
        guard complete else { return nil } // maybe defined in a file outside the run
        return
            "'\(name)' is not on the async-signal-safe list (no definition in the run; add it to 'allow' if it is safe)"
    }

    private mutating func report(
        _ what: String, step: String, site: CallSite, in definition: CallGraph.Definition, caller: String,
        errorPath: Bool, note: String = ""
    ) {
        let how = reachedFrom[caller]?.root.how ?? "a handler"
        var message = "\(what); reached from \(how): \(chainText(to: caller, then: ChainText.shown(step)))\(note)"
        if let reach = reachedFrom[caller], reach.partlyCount > 0 {
            var partly = reach.partlyFirst.map { usr in
                let n = graph.unresolvedStatements[usr] ?? 0
                return "'\(ChainText.shown(name(usr)))' (\(n) statement\(n == 1 ? "" : "s"))"
            }.joined(separator: ", ")
            if reach.partlyCount > reach.partlyFirst.count {
                partly += " and \(ChainText.grouped(reach.partlyCount - reach.partlyFirst.count)) more on the chain"
            }
            message +=
                ". Note: read only partly, from the tokens (names from headers the parse cannot see, or code under #if on an unknown macro): \(partly)"
        }
        if errorPath {
            message +=
                ". On an error path only: reached when an async-signal-safe call failed (reported as an error with 'strict')"
        }
        violations.append(
            Violation(
                path: definition.path, position: site.position, message: message, caller: caller, errorPath: errorPath))
    }

    private func name(_ usr: String) -> String { graph.definitions[usr]?.first?.function.symbol.name ?? usr }

    /// What is known of `usr`'s chain, from its caller's: constant work and (the head shared) space per function.
    private func reach(_ usr: String, caller: String?, root: Root) -> Reach {
        let partly = graph.unresolvedStatements[usr] != nil
        guard let caller, let from = reachedFrom[caller] else {
            return Reach(
                caller: nil, root: root, length: 1, head: [usr], partlyCount: partly ? 1 : 0,
                partlyFirst: partly ? [usr] : [])
        }
        return Reach(
            caller: caller, root: root, length: from.length + 1,
            head: from.head.count < ChainText.headHops ? from.head + [usr] : from.head,
            partlyCount: from.partlyCount + (partly ? 1 : 0),
            partlyFirst: partly && from.partlyFirst.count < ChainText.partlyShown
                ? from.partlyFirst + [usr] : from.partlyFirst)
    }

    /// The chain from the root to `usr` (then `step`), `h → f → g → malloc`; past
    /// `ChainText.wholeUpTo` functions only its first and last few, with the count left out
    /// between them: a message's size does not grow with the chain.
    private func chainText(to usr: String, then step: String? = nil) -> String {
        guard let reach = reachedFrom[usr] else {
            return [ChainText.shown(name(usr)), step].compactMap { $0 }.joined(separator: " → ")
        }
        // the last functions, walking back from `usr` (the whole chain when it is short)
        let whole = reach.length <= ChainText.wholeUpTo
        var tail: [String] = []
        var cursor: String? = usr
        while let u = cursor, let entry = reachedFrom[u], whole || tail.count < ChainText.tailHops {
            tail.append(u)
            cursor = entry.caller
        }
        var hops =
            whole
            ? []
            : reach.head.map { ChainText.shown(name($0)) } + [
                "… (\(ChainText.grouped(reach.length - reach.head.count - tail.count)) more) …"
            ]
        hops += tail.reversed().map { ChainText.shown(name($0)) }
        if let step { hops.append(step) }
        return hops.joined(separator: " → ")
    }
}

/// How the rule's messages show a chain and the names in it, so that a message's size is bounded
/// whatever the input: the JSON of a run stays linear in its sources.
enum ChainText {
    /// A chain of up to this many functions is shown whole; a longer one as its first
    /// `headHops`, the count of those left out, and its last `tailHops`.
    static let wholeUpTo = 8
    static let headHops = 3
    static let tailHops = 3
    /// Functions read only partly that a message names (the others counted).
    static let partlyShown = 3
    /// Longest name shown; a longer one is cut with `…` (a generated 100 KB name in each of a
    /// thousand messages would be 100 MB).
    static let maxName = 256

    static func shown(_ name: String) -> String {
        guard name.utf8.count > maxName else { return name }
        // by scalars: one character may be a base and any number of combining marks
        return String(String.UnicodeScalarView(name.unicodeScalars.prefix(maxName))) + "…"
    }

    /// `15995` as `15,995`.
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 { digits.insert(",", at: i); i -= 3 }
        return String(digits)
    }
}
