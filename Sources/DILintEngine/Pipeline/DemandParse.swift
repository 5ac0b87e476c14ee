import Foundation

/// What a file's text says, read without a parse, for the demand-driven parse of a run with a
/// project rule: the identifiers it spells anywhere (code, comments, strings) and its `#define`s.
/// A file whose text holds no container access is parsed only when one of the words the project
/// rule needs is among its identifiers (`DemandClosure`).
struct DemandText: Sendable {
    /// Hashes of every identifier in the file (`DemandText.hash`), sorted, each once.
    var identifiers: [UInt64] = []
    /// Each `#define`: the macro's name and the hashes of the identifiers of its body (with
    /// `DemandText.signalName` for a `SIGXXX` name, `DemandText.pasting` for `##`).
    var macros: [(name: String, body: [UInt64])] = []
    /// A `SIGXXX` name then `,` (`pqsignal(SIGTERM, h)` may register `h`).
    var signalArgument = false

    /// Stands in a macro's body for any `SIGXXX` name.
    static let signalName = hash(Array("SIG*".utf8)[...])
    /// Stands in a macro's body for `##`: the macro may make names no file spells.
    static let pasting = hash(Array("##".utf8)[...])

    /// FNV-1a: two identifiers with one hash only make a file parsed that need not be.
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    static func hash(_ word: String) -> UInt64 { hash(Array(word.utf8)[...]) }

    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24
            || b >= 0x80
    }

    /// `SIG` then capitals and digits, not `SIG_…` (how `CallGraphExtractor.signalArgument` reads a signal's name).
    static func isSignalName(_ word: ArraySlice<UInt8>) -> Bool {
        guard word.count > 3, word.starts(with: [0x53, 0x49, 0x47]) else { return false }
        return word.dropFirst(3).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// One pass over the bytes.
    static func scan(_ bytes: [UInt8], identifiers keep: Bool) -> DemandText {
        var text = DemandText()
        var words: [UInt64] = []
        let n = bytes.count
        var i = 0
        var lineStart = true // only blanks since the last newline
        // inside a `#define`'s logical line: its name and body so far
        var macro: (name: String?, body: [UInt64])?
        var directive = false // after `#` at a line's start, before its first word
        func endLine() {
            if let m = macro, let name = m.name { text.macros.append((name, m.body)) }
            macro = nil
            directive = false
            lineStart = true
        }
        while i < n {
            let b = bytes[i]
            if b == 0x0A {
                endLine()
                i += 1
                continue
            }
            if b == 0x5C, i + 1 < n, bytes[i + 1] == 0x0A || (bytes[i + 1] == 0x0D && i + 2 < n && bytes[i + 2] == 0x0A)
            {
                i += bytes[i + 1] == 0x0A ? 2 : 3 // a continued line: the directive goes on
                continue
            }
            if isWordByte(b) {
                var j = i + 1
                while j < n && isWordByte(bytes[j]) { j += 1 }
                let word = bytes[i..<j]
                let h = hash(word)
                if keep { words.append(h) }
                if directive {
                    directive = false
                    if word.elementsEqual("define".utf8) { macro = (nil, []) }
                } else if macro != nil && macro!.name == nil {
                    macro!.name = String(decoding: word, as: UTF8.self)
                } else if macro != nil {
                    macro!.body.append(isSignalName(word) ? signalName : h)
                }
                if isSignalName(word) {
                    var k = j
                    while k < n && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
                    if k < n && bytes[k] == 0x2C { text.signalArgument = true }
                }
                lineStart = false
                i = j
                continue
            }
            if b == 0x23 {
                if lineStart {
                    directive = true
                } else if macro != nil, i + 1 < n, bytes[i + 1] == 0x23 {
                    macro!.body.append(pasting)
                }
            }
            if b != 0x20 && b != 0x09 && b != 0x0D && b != 0x0C && b != 0x0B { lineStart = false }
            i += 1
        }
        endLine()
        if keep {
            words.sort()
            var unique: [UInt64] = []
            unique.reserveCapacity(words.count)
            for w in words where unique.last != w { unique.append(w) }
            text.identifiers = unique
        }
        return text
    }

    /// Whether one of `words` is among the file's identifiers.
    func spells(any words: Set<UInt64>) -> Bool {
        if words.count < identifiers.count / 8 {
            return words.contains { w in
                var lo = 0, hi = identifiers.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if identifiers[mid] < w { lo = mid + 1 } else { hi = mid }
                }
                return lo < identifiers.count && identifiers[lo] == w
            }
        }
        return identifiers.contains { words.contains($0) }
    }
}

/// The names `signal-handler-safety` looks up across the run, from the facts of the files parsed
/// so far: every name a finding can depend on. A file that spells none of them adds nothing the
/// rule reads (its definitions, stores, macros and registrations are all under names it spells),
/// so it need not be parsed.
enum DemandClosure {
    /// The words of a file that may install a handler: the installers, the fields of `struct
    /// sigaction`, the configured handlers' names (`SIGXXX,` and `di-lint:` are read apart).
    static func installerWords(handlers: [String]) -> Set<String> {
        var words = CallGraphExtractor.signalInstallers.union(CallGraphExtractor.sigactionFields)
        words.formUnion(["sigaction", "set_terminate"])
        for h in handlers { if let w = word(of: h) { words.insert(w) } }
        return words
    }

    /// The identifier a file defining or storing into `name` must spell: the last part of a
    /// qualified name, without template arguments, a destructor's `~` or an operator's symbol
    /// (`a::B<int>::~B` → `B`; `a::B::operator<<` → `B`; `operator<<` → `operator`).
    static func word(of name: String) -> String? {
        var parts: [Substring] = []
        var depth = 0
        var start = name.startIndex
        var i = name.startIndex
        while i < name.endIndex {
            let c = name[i]
            if c == "<" || c == "(" || c == "[" {
                depth += 1
            } else if c == ">" || c == ")" || c == "]" {
                depth = max(0, depth - 1)
            } else if c == ":", depth == 0, name[name.index(after: i)...].hasPrefix(":") {
                parts.append(name[start..<i])
                i = name.index(i, offsetBy: 2)
                start = i
                continue
            }
            i = name.index(after: i)
        }
        parts.append(name[start...])
        func identifier(_ part: Substring) -> String? {
            let bare = part.drop { $0 == "~" || $0 == " " }.prefix { $0 != "<" && $0 != "(" && $0 != " " }
            guard !bare.isEmpty, bare.utf8.allSatisfy(DemandText.isWordByte) else { return nil }
            return String(bare)
        }
        guard let last = parts.last else { return nil }
        if last.hasPrefix("operator") {
            // a member operator's file spells its class; a free one's only `operator`
            return parts.count > 1 ? identifier(parts[parts.count - 2]) ?? "operator" : "operator"
        }
        return identifier(last)
    }

    /// The names the rule's walk may look up over these facts: the handlers and what registers
    /// them (slots, wrappers, undefined installers), then every function reachable from a
    /// handler, what each call of one names, and the macros it expands. `roots`: whether a
    /// handler was found (then the macros that paste names are needed too).
    static func neededNames(_ facts: [(path: String, facts: CallGraphFacts)], handlers: [String]) -> (
        names: Set<String>, roots: Bool
    ) {
        var names = Set(handlers)
        var installing = Set<String>()
        var macroBodies: [String: [String]] = [:]
        for (_, f) in facts {
            for r in f.registrations { names.insert(r.handler.name) }
            for a in f.annotated { names.insert(a.name) }
            for p in f.installingParameters { installing.insert(p.function.name) }
            for a in f.signalArguments { names.formUnion([a.callee.name, a.value.name]) }
            for m in f.macroDefinitions { macroBodies[m.name, default: []] += m.body }
        }
        // wrappers: functions that install a parameter, or pass one to a function that does
        let forwards = facts.flatMap(\.facts.forwards)
        var grown = true
        while grown {
            grown = false
            for fw in forwards where installing.contains(fw.callee.name) && !installing.contains(fw.function.name) {
                installing.insert(fw.function.name)
                grown = true
            }
        }
        names.formUnion(installing)
        for (_, f) in facts {
            for a in f.functionArguments where installing.contains(a.callee.name) { names.insert(a.value.name) }
        }
        let graph = CallGraph(facts: facts)
        var queue: [String] = []
        var seen = Set<String>()
        func resolve(_ symbol: Symbol) {
            let site = CallSite(kind: .call, target: symbol, position: SitePosition(line: 0, column: 0, offset: 0))
            for case let .functions(usrs) in graph.resolve(site) {
                for usr in usrs where seen.insert(usr).inserted { queue.append(usr) }
            }
        }
        for r in graph.registrations { resolve(r.registration.handler) }
        for a in graph.annotated { resolve(a) }
        for h in handlers {
            for usr in graph.definitions(named: h) where seen.insert(usr).inserted { queue.append(usr) }
        }
        let roots = !queue.isEmpty
        var expanded = Set<String>()
        func expand(_ macro: String) {
            guard expanded.insert(macro).inserted, let body = macroBodies[macro] else { return }
            for token in body where token.utf8.first.map(DemandText.isWordByte) == true {
                names.insert(token)
                expand(token)
            }
        }
        var next = 0
        while next < queue.count {
            let usr = queue[next]
            next += 1
            for definition in graph.definitions[usr] ?? [] {
                names.insert(definition.function.symbol.name)
                for site in definition.function.sites {
                    if let target = site.target {
                        names.insert(target.name)
                        expand(target.name)
                    }
                    for resolution in graph.resolve(site, from: definition.path) {
                        switch resolution {
                        case let .functions(usrs):
                            for u in usrs where seen.insert(u).inserted { queue.append(u) }
                        case let .external(symbol):
                            names.insert(symbol.name)
                            expand(symbol.name)
                        case .unknown:
                            continue
                        }
                    }
                }
            }
        }
        return (names, roots)
    }
}

/// The state of a demand-driven run: the files not parsed yet, with their text's identifiers,
/// and every file's `#define`s (a macro whose body spells a needed word is needed too).
final class DemandRun: @unchecked Sendable {
    private let lock = NSLock()
    /// Files not parsed yet (indices into the run's files then context files), with their text.
    private(set) var deferred: [Int: DemandText] = [:]
    /// Macro names by the hash of a word their body spells.
    private var macrosByBodyWord: [UInt64: Set<String>] = [:]
    /// Words already looked for among the deferred files.
    private var searched = Set<UInt64>()

    func record(_ index: Int, _ text: DemandText, deferred isDeferred: Bool) {
        lock.lock(); defer { lock.unlock() }
        for m in text.macros {
            for w in Set(m.body) { macrosByBodyWord[w, default: []].insert(m.name) }
        }
        if isDeferred {
            var kept = text
            kept.macros = []
            deferred[index] = kept
        }
    }

    /// The names of the macros whose body spells one of `words` (hashes), or another such macro's
    /// name, by hash (`words` themselves not included).
    func macros(spelling words: Set<UInt64>) -> [UInt64] {
        lock.lock(); defer { lock.unlock() }
        var found = Set<UInt64>()
        var queue = Array(words)
        while let w = queue.popLast() {
            for m in macrosByBodyWord[w] ?? [] where found.insert(DemandText.hash(m)).inserted {
                queue.append(DemandText.hash(m))
            }
        }
        return Array(found.subtracting(words))
    }

    /// The deferred files spelling a word of `names` not looked for before, or a macro whose body
    /// spells one (transitively); they leave the deferred set. `extra`: hashes that stand for
    /// more than a word (`DemandText.signalName`, `DemandText.pasting`).
    func take(spelling names: Set<String>, extra: [UInt64] = [], where include: (DemandText) -> Bool = { _ in false })
        -> [Int]
    {
        lock.lock(); defer { lock.unlock() }
        var fresh = Set<UInt64>()
        var queue = names.map(DemandText.hash) + extra
        while let w = queue.popLast() {
            guard searched.insert(w).inserted else { continue }
            fresh.insert(w)
            queue += (macrosByBodyWord[w] ?? []).map(DemandText.hash)
        }
        let taken = deferred.filter { _, text in include(text) || (!fresh.isEmpty && text.spells(any: fresh)) }.map(
            \.key
        ).sorted()
        for i in taken { deferred[i] = nil }
        return taken
    }
}

extension DemandRun {
    /// Records the `#define`s of a file taken from the cache (read again for them).
    func record(_ index: Int, path: String, limit: Int) {
        guard let bytes = readFileBytes(path, limit: limit), bytes.firstIndex(of: 0) == nil else { return }
        record(index, DemandText.scan(bytes, identifiers: false), deferred: false)
    }
}

extension Linter {
    /// The rounds of a demand-driven run, once every file the file rules need is in: the files
    /// that may install a handler, then, round by round, those spelling a name the project rule
    /// looks up over the facts so far, until no file is left that spells one. A context file
    /// needed stays missing (the run is then incomplete, as when the cache lacks it); one not
    /// needed counts as found, with no facts.
    func parseOnDemand(
        _ demand: DemandRun, files: [String], all: [String], queue: WorkQueue, handshake: [UInt8]?, budget: RunBudget?
    ) {
        let handlers = configuration.options(of: SignalHandlerSafetyRule.self).handlers
        let trace = ProcessInfo.processInfo.environment["DI_LINT_DEMAND_TRACE"] != nil
        // a macro reaching the container (or the bridge) makes an access in the files that expand
        // it, whose text names neither: those are for the file rules
        var seeds = Set(configuration.bridgeNames.flatMap { [$0, $0.capitalizedFirst] }.map(DemandText.hash))
        for spec in configuration.accessSpecs {
            switch spec {
            case let .member(type, _), let .template(type, _):
                if let w = DemandClosure.word(of: type) { seeds.insert(DemandText.hash(w)) }
            case let .function(name), let .global(name), let .ambient(name), let .propertyWrapper(name):
                if let w = DemandClosure.word(of: name) { seeds.insert(DemandText.hash(w)) }
            }
        }
        var round = demand.take(
            spelling: DemandClosure.installerWords(handlers: handlers),
            extra: [DemandText.signalName] + demand.macros(spelling: seeds), where: \.signalArgument)
        var decoded: [Int: CallGraphFacts] = [:]
        var number = 0
        while true {
            let parse = round.filter { $0 < files.count }
            number += 1
            if trace {
                FileHandle.standardError.write(
                    Data(
                        "di-lint: demand round \(number): \(parse.count) files parsed, \(round.count - parse.count) context files needed\n"
                            .utf8))
            }
            if !parse.isEmpty { parseRound(parse, files: files, queue: queue, handshake: handshake, budget: budget) }
            // a file still held back has no facts the rule may read (one the file rules needed
            // was parsed without system headers' bodies)
            for (i, outcome) in queue.results.enumerated() where decoded[i] == nil && demand.deferred[i] == nil {
                guard let data = outcome?.facts[SignalHandlerSafetyRule.id],
                    let facts = try? CallGraphFacts(encoded: data)
                else { continue }
                decoded[i] = facts
            }
            let facts = decoded.sorted { $0.key < $1.key }.map {
                (path: FileCollector.displayPath(all[$0.key]), facts: $0.value)
            }
            let needed = DemandClosure.neededNames(facts, handlers: handlers)
            let words = Set(needed.names.compactMap(DemandClosure.word(of:)))
            if trace {
                let unspelled = needed.names.filter { DemandClosure.word(of: $0) == nil }.sorted()
                FileHandle.standardError.write(
                    Data(
                        "di-lint: demand: \(words.count) words needed\(unspelled.isEmpty ? "" : "; no word in \(unspelled.prefix(20))")\n"
                            .utf8))
            }
            round = demand.take(spelling: words, extra: needed.roots ? [DemandText.pasting] : [])
            if round.isEmpty { break }
        }
        for i in demand.deferred.keys where i >= files.count { queue.replace(FileOutcome(), at: i) }
    }

    /// Parses the files at `indices` on the worker threads, each outcome replacing its file's.
    private func parseRound(
        _ indices: [Int], files: [String], queue: WorkQueue, handshake: [UInt8]?, budget: RunBudget?
    ) {
        let workers = max(1, min(jobs, indices.count))
        let order =
            ClangFrontEnd.headerReuseRequested
            ? SharedPrecompiledHeader.order(indices.map { files[$0] }, ahead: 2 * workers) : nil
        let round = WorkQueue(count: indices.count, order: order)
        ParseThreads.run(workers) { [self] in
            var frontEnd: ClangFrontEnd?
            var worker: WorkerProcess?
            while case let .file(k)? = round.take() {
                let path = files[indices[k]]
                let outcome: FileOutcome
                if let bytes = readFileBytes(path, limit: configuration.maxFileSize) {
                    outcome = parse(
                        path, bytes: bytes, frontEnd: &frontEnd, worker: &worker, handshake: handshake, budget: budget)
                } else {
                    outcome = failure(path, "cannot read it (\(String(cString: strerror(errno))))")
                }
                queue.replace(outcome, at: indices[k])
            }
            worker?.stop()
        }
    }
}
