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
    /// Where the text could define a function (read with the identifiers; nil when it cannot say).
    var sites: DefinitionSites?

    /// Stands in a macro's body for any `SIGXXX` name.
    static let signalName = hash("SIG*")
    /// Stands in a macro's body for `##`: the macro may make names no file spells.
    static let pasting = hash("##")

    /// FNV-1a: two identifiers with one hash only make a file parsed that need not be.
    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    static func hash(_ word: String) -> UInt64 { hash(word.utf8) }

    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24
            || b >= 0x80
    }

    /// `SIG` then capitals and digits, not `SIG_…` (how `CallGraphExtractor.signalArgument` reads a signal's name).
    static func isSignalName<Word: Collection<UInt8>>(_ word: Word) -> Bool {
        guard word.count > 3, word.starts(with: [0x53, 0x49, 0x47]) else { return false }
        return word.dropFirst(3).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// One pass over the bytes: each identifier hashed as it is read (no copy of it), and
    /// looked at again only in a `#define` or when it starts with `SIG`.
    static func scan(_ bytes: [UInt8], identifiers keep: Bool) -> DemandText {
        bytes.withUnsafeBufferPointer { buffer in
            var text = scan(buffer, identifiers: keep)
            if keep { text.sites = DefinitionSites.scan(buffer) }
            return text
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, identifiers keep: Bool) -> DemandText {
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
                var h: UInt64 = 0xcbf2_9ce4_8422_2325 // `hash`, as the word is read
                var j = i
                while j < n {
                    let c = bytes[j]
                    guard isWordByte(c) else { break }
                    h = (h ^ UInt64(c)) &* 0x100_0000_01b3
                    j += 1
                }
                if keep { words.append(h) }
                // `SIG` then a capital or digit may be a signal's name
                let signal =
                    j - i > 3 && b == 0x53 && bytes[i + 1] == 0x49 && bytes[i + 2] == 0x47
                    && isSignalName(bytes[i..<j])
                if directive {
                    directive = false
                    if bytes[i..<j].elementsEqual("define".utf8) { macro = (nil, []) }
                } else if macro != nil && macro!.name == nil {
                    macro!.name = String(decoding: bytes[i..<j], as: UTF8.self)
                } else if macro != nil {
                    macro!.body.append(signal ? signalName : h)
                }
                if signal {
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
            text.identifiers = words.sortedUnique()
        }
        return text
    }

    /// Whether one of `words` is among the file's identifiers.
    func spells(any words: Set<UInt64>) -> Bool {
        if words.count < identifiers.count / 8 {
            return words.contains { identifiers.sortedContains($0) }
        }
        return identifiers.contains { words.contains($0) }
    }

    /// Whether the file may define the function `definition` names (`DefinitionSites`).
    /// `classMacros`: macros whose body spells `class`, `struct` or `union`, which may make a
    /// class head that spells no class name.
    func mayDefine(_ definition: NeededDefinition, classMacros: Set<UInt64>) -> Bool {
        guard identifiers.sortedContains(definition.word) else { return false }
        guard let sites else { return true }
        if definition.reserved { return sites.heads.sortedContains(NeededDefinition.std) }
        guard let scope = definition.scope else { return sites.globalScope.sortedContains(definition.word) }
        return sites.namespaceScope.sortedContains(definition.word) || sites.heads.sortedContains(scope)
            || sites.anonymousClass || (!classMacros.isEmpty && spells(any: classMacros))
    }
}

/// A function the rule looks up by its qualified name (`ns::Type::name`, or `name` for a global
/// one): a held-back file is taken for it only where its text could define it (`DefinitionSites`).
struct NeededDefinition: Hashable, Sendable {
    /// The hash of the name's last identifier.
    var word: UInt64
    /// The hash of the innermost qualifier (the class or namespace); nil for a global name.
    var scope: UInt64?
    /// Under `std`: a program adds to it only specializations, which open `namespace std` or name
    /// it in a class head.
    var reserved: Bool

    static let std = DemandText.hash("std")

    /// A member operator or destructor is found by its class's name (`a::B::operator=` → `B`,
    /// defined in `B`'s body or as `B::operator=`). Nil for a name only its spelling anywhere can
    /// find: an operator outside a class or namespace, a part that is no identifier (a lambda's class).
    init?(qualified name: String) {
        var parts = DemandClosure.parts(of: name)
        guard let last = parts.last else { return nil }
        if last.hasPrefix("operator") || last.hasPrefix("~") {
            guard parts.count > 1 else { return nil }
            parts.removeLast()
            parts.append(parts[parts.count - 1])
        }
        let identifiers = parts.compactMap(DemandClosure.identifier)
        guard identifiers.count == parts.count else { return nil }
        word = DemandText.hash(identifiers[identifiers.count - 1])
        scope = identifiers.count > 1 ? DemandText.hash(identifiers[identifiers.count - 2]) : nil
        reserved = identifiers.count > 1 && identifiers[0] == "std"
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
        let parts = parts(of: name)
        guard let last = parts.last else { return nil }
        if last.hasPrefix("operator") {
            // a member operator's file spells its class; a free one's only `operator`
            return parts.count > 1 ? identifier(parts[parts.count - 2]) ?? "operator" : "operator"
        }
        return identifier(last)
    }

    /// The parts of a qualified name, split at `::` outside template arguments and parentheses.
    static func parts(of name: String) -> [Substring] {
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
        return parts
    }

    /// A part's identifier: without template arguments, parameters or a destructor's `~`.
    static func identifier(_ part: Substring) -> String? {
        let bare = part.drop { $0 == "~" || $0 == " " }.prefix { $0 != "<" && $0 != "(" && $0 != " " }
        guard !bare.isEmpty, bare.utf8.allSatisfy(DemandText.isWordByte) else { return nil }
        return String(bare)
    }

    /// The names the rule's walk may look up over these facts: the handlers and what registers
    /// them (slots, wrappers, undefined installers), then every function reachable from a
    /// handler, what each call of one names, and the macros it expands. `roots`: whether a
    /// handler was found (then the macros that paste names are needed too). `definitions`: the
    /// qualified names of functions the walk looks up only to follow a call (a file matters for
    /// them only where it could define one); every other name in `names`, looked up anywhere.
    static func neededNames(_ facts: [(path: String, facts: CallGraphFacts)], handlers: [String]) -> (
        names: Set<String>, definitions: Set<String>, roots: Bool
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
        var definitions = Set<String>()
        // the qualified names `CallGraph.resolve(function:)` looks a called symbol up by
        func lookedUp(_ symbol: Symbol) {
            definitions.formUnion(CallGraph.scopedNames(of: symbol) ?? [])
            definitions.insert(symbol.name)
        }
        var next = 0
        while next < queue.count {
            let usr = queue[next]
            next += 1
            for definition in graph.definitions[usr] ?? [] {
                lookedUp(definition.function.symbol)
                for site in definition.function.sites {
                    if let target = site.target {
                        if site.kind == .call && !target.usr.hasPrefix("macro:") {
                            lookedUp(target)
                        } else {
                            names.insert(target.name)
                        }
                        expand(target.name)
                    }
                    for resolution in graph.resolve(site, from: definition.path) {
                        switch resolution {
                        case let .functions(usrs):
                            for u in usrs where seen.insert(u).inserted { queue.append(u) }
                        case let .external(symbol):
                            if symbol.usr.hasPrefix("macro:") { names.insert(symbol.name) } else { lookedUp(symbol) }
                            expand(symbol.name)
                        case .unknown:
                            continue
                        }
                    }
                }
            }
        }
        return (names, definitions.subtracting(names), roots)
    }
}

/// The state of a demand-driven run: the files not parsed yet, with their text's identifiers,
/// every file's `#define`s (a macro whose body spells a needed word is needed too), and the files
/// taken for a parse. The parse threads take those as soon as a round names them (`next`): a
/// thread out of work computes the next round from the facts in so far while the others still
/// parse, so no thread waits for a round to end and each keeps its parse worker for the run.
final class DemandRun: @unchecked Sendable {
    private let lock = NSCondition()
    /// Files not parsed yet (indices into the run's files then context files), with their text.
    private(set) var deferred: [Int: DemandText] = [:]
    /// Macro names by the hash of a word their body spells.
    private var macrosByBodyWord: [UInt64: Set<String>] = [:]
    /// Words already looked for among the deferred files.
    private var searched = Set<UInt64>()
    /// Functions already looked for among the deferred files by where they could be defined.
    private var searchedDefinitions = Set<NeededDefinition>()
    /// `class`, `struct`, `union`.
    private static let classKeywords: Set<UInt64> = Set(["class", "struct", "union"].map(DemandText.hash))

    /// Files to record (each once, from the cache or read) before the first round.
    private let expected: Int
    private var recorded = 0
    /// The threads that take files (`next`).
    private let threads: Int
    /// Files taken for a parse, in order; those before `head` are handed out.
    private var pending: [Int] = []
    private var head = 0
    /// Whether a thread is computing a round (the others wait for it).
    private var computing = false
    /// Threads waiting in `next`.
    private var waiting = 0
    /// The run's store count (`WorkQueue.stores`) the last round saw; nil before the first.
    private var seen: Int?
    private var finished = false
    /// Facts decoded so far, by file (only the thread computing a round reads and writes them).
    var decoded: [Int: CallGraphFacts] = [:]
    /// Rounds computed so far, and nanoseconds the threads waited in `next` for another's parse.
    private(set) var rounds = 0
    private(set) var waited: UInt64 = 0
    /// Files the file rules need that are to be parsed without system headers' bodies (held
    /// back with the rest): parsed in full if a round takes them, else handed out for the
    /// cheaper parse once the rounds are over, so that none is parsed twice.
    private var cheapLater = Set<Int>()
    /// Those handed out for the cheaper parse: their facts are not read (they stay held back),
    /// and they are not taken with the rest (a round that needs one still takes it).
    private var handedCheap = Set<Int>()

    /// The run's hand-out order (a header saved for its source before that source), by file.
    private let rank: [Int: Int]

    init(expected: Int, threads: Int, order: [Int]? = nil) {
        self.expected = expected
        self.threads = threads
        rank = Dictionary((order ?? []).enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Records a file's text (nil: unreadable, nothing to record); each file of the run once.
    func record(_ index: Int, _ text: DemandText?, deferred isDeferred: Bool) {
        lock.lock(); defer { lock.unlock() }
        if let text {
            for m in text.macros {
                for w in Set(m.body) { macrosByBodyWord[w, default: []].insert(m.name) }
            }
            if isDeferred {
                var kept = text
                kept.macros = []
                deferred[index] = kept
            }
        }
        recorded += 1
        if recorded == expected { lock.broadcast() }
    }

    /// Holds back a file the file rules need, to be parsed without system headers' bodies unless
    /// a round takes it first (`next`).
    func recordCheapLater(_ index: Int, _ text: DemandText) {
        record(index, text, deferred: true)
        lock.lock(); defer { lock.unlock() }
        cheapLater.insert(index)
    }

    /// Whether `next` handed the file out for the cheaper parse (not taken by a round).
    func isHandedCheap(_ index: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return handedCheap.contains(index)
    }

    /// After a file handed out for the cheaper parse was parsed: when the parse was a full one
    /// after all (libclang's fallback), its facts are read like any other parsed file's.
    func parsedCheap(_ index: Int, skipped: Bool) {
        guard !skipped else { return }
        lock.lock(); defer { lock.unlock() }
        deferred[index] = nil
        handedCheap.remove(index)
    }

    /// The next file to parse, nil once the run needs no more. A thread that finds none taken
    /// computes a round (`round`, given the run's store count now) when facts came in since the
    /// last; it waits while another computes or parses; once every other thread waits and the
    /// last round, over every fact, took nothing, the files held back for the cheaper parse
    /// are handed out (`isHandedCheap`), and after them the run ends.
    /// `handing` is shown the files held back for the cheaper parse just before they are handed out.
    func next(stores: () -> Int, round: (_ first: Bool) -> [Int], handing: ([Int]) -> Void = { _ in }) -> Int? {
        lock.lock(); defer { lock.unlock() }
        while true {
            if head < pending.count {
                head += 1
                return pending[head - 1]
            }
            if finished { return nil }
            if !computing && recorded == expected {
                let now = stores()
                if now != seen {
                    computing = true
                    lock.unlock()
                    let taken = round(seen == nil)
                    lock.lock()
                    computing = false
                    seen = now
                    rounds += 1
                    pending += taken
                    lock.broadcast()
                    continue
                }
                if waiting == threads - 1 {
                    let cheap = cheapLater.filter { deferred[$0] != nil }.sorted {
                        (rank[$0] ?? $0, $0) < (rank[$1] ?? $1, $1)
                    }
                    cheapLater = []
                    if !cheap.isEmpty {
                        handing(cheap)
                        handedCheap.formUnion(cheap)
                        pending += cheap
                        lock.broadcast()
                        continue
                    }
                    finished = true
                    lock.broadcast()
                    return nil
                }
            }
            waiting += 1
            let start = RunBudget.now()
            lock.wait()
            waited += RunBudget.now() - start
            waiting -= 1
        }
    }

    /// Whether a file is still held back (a round may take it).
    var holdsBack: Bool {
        lock.lock(); defer { lock.unlock() }
        return !deferred.isEmpty
    }

    /// The names of the macros whose body spells one of `words` (hashes), or another such macro's
    /// name, by hash (`words` themselves not included).
    func macros(spelling words: Set<UInt64>) -> [UInt64] {
        lock.lock(); defer { lock.unlock() }
        return Array(macros(spellingUnlocked: words))
    }

    private func macros(spellingUnlocked words: Set<UInt64>) -> Set<UInt64> {
        var found = Set<UInt64>()
        var queue = Array(words)
        while let w = queue.popLast() {
            for m in macrosByBodyWord[w] ?? [] where found.insert(DemandText.hash(m)).inserted {
                queue.append(DemandText.hash(m))
            }
        }
        return found.subtracting(words)
    }

    /// The deferred files spelling a word of `names` not looked for before, or a macro whose body
    /// spells one (transitively), or that may define one of `definitions` not looked for before
    /// (`DemandText.mayDefine`); they leave the deferred set. `extra`: hashes that stand for more
    /// than a word (`DemandText.signalName`, `DemandText.pasting`).
    func take(
        spelling names: Set<String>, definitions: Set<NeededDefinition> = [], extra: [UInt64] = [],
        where include: (DemandText) -> Bool = { _ in false }
    ) -> [Int] {
        lock.lock(); defer { lock.unlock() }
        var fresh = Set<UInt64>()
        func search(_ words: [UInt64]) {
            var queue = words
            while let w = queue.popLast() {
                guard searched.insert(w).inserted else { continue }
                fresh.insert(w)
                queue += (macrosByBodyWord[w] ?? []).map(DemandText.hash)
            }
        }
        search(names.map(DemandText.hash) + extra)
        // a name looked for anywhere needs no narrower search; a macro whose body spells one is
        // looked for anywhere (its expansion may define it)
        let freshDefinitions = definitions.filter {
            !searched.contains($0.word) && searchedDefinitions.insert($0).inserted
        }
        search(freshDefinitions.flatMap { (macrosByBodyWord[$0.word] ?? []).map(DemandText.hash) })
        let classMacros =
            freshDefinitions.contains { $0.scope != nil }
            ? macros(spellingUnlocked: Self.classKeywords) : []
        let taken = deferred.filter { _, text in
            include(text) || (!fresh.isEmpty && text.spells(any: fresh))
                || freshDefinitions.contains { text.mayDefine($0, classMacros: classMacros) }
        }.map(\.key).sorted()
        for i in taken { deferred[i] = nil }
        return taken
    }

    /// For the trace: how many files are held back and how many of them `DefinitionSites` cannot
    /// read; each of `words` not looked for before, with how many held-back files spell it; and each
    /// of `definitions` with how many may define it (of how many spell its name).
    func spellers(of words: Set<String>, definitions: [String: NeededDefinition]) -> [String] {
        lock.lock(); defer { lock.unlock() }
        let anywhere = words.filter { !searched.contains(DemandText.hash($0)) }.map { w in
            let h: Set<UInt64> = [DemandText.hash(w)]
            return (w, deferred.values.filter { $0.spells(any: h) }.count, "")
        }
        let defined = definitions.filter {
            !searched.contains($0.value.word) && !searchedDefinitions.contains($0.value)
        }
        .map { name, d in
            let spell = deferred.values.filter { $0.identifiers.sortedContains(d.word) }.count
            return (
                name, deferred.values.filter { $0.mayDefine(d, classMacros: []) }.count, " (of \(spell) spelling it)"
            )
        }
        let unread = deferred.values.filter { $0.sites == nil }.count
        return [
            "\(deferred.count) files held back, \(unread) of them taken for any name they spell (DefinitionSites cannot read them)"
        ]
            + (anywhere + defined).filter { $0.1 > 0 }.sorted { ($0.1, $1.0) > ($1.1, $0.0) }.map {
                "\($0.0): \($0.1) files\($0.2)"
            }
    }

    /// The deferred files below `bound` (the run's own, not context files), once at most
    /// `fraction` of `total` are left: parsed in one go rather than round by round (see
    /// `Linter.restFraction`).
    func takeRest(below bound: Int, fraction: Double, total: Int) -> [Int] {
        lock.lock(); defer { lock.unlock() }
        let rest = deferred.keys.filter { $0 < bound && !handedCheap.contains($0) }
        guard !rest.isEmpty, Double(rest.count) <= fraction * Double(total) else { return [] }
        for i in rest { deferred[i] = nil }
        return rest.sorted()
    }
}

extension DemandRun {
    /// Records the `#define`s of a file taken from the cache (read again for them).
    func record(_ index: Int, path: String, limit: Int) {
        guard let bytes = readFileBytes(path, limit: limit), bytes.firstIndex(of: 0) == nil else {
            return record(index, nil, deferred: false)
        }
        record(index, DemandText.scan(bytes, identifiers: false), deferred: false)
    }
}

extension Linter {
    /// Once at most this fraction of the run's files is still held back, the rest is parsed in
    /// one go: past it the rounds save at most a ninth of the parses (never more than
    /// `--parse-every-file` does), while each round costs a pass over every fact so far and,
    /// on a chain that names one file at a time, leaves the other cores idle.
    static let restFraction = 0.1

    /// The next file a demand-driven run parses, once every file the file rules need is handed
    /// out (nil: none is left). A round takes the files that may install a handler (the first),
    /// then those spelling a name the project rule looks up over the facts so far (`DemandRun`).
    /// A context file needed stays missing (the run is then incomplete, as when the cache lacks
    /// it); one not needed counts as found, with no facts (`finishOnDemand`).
    func nextOnDemand(_ demand: DemandRun, files: [String], all: [String], queue: WorkQueue) -> Int? {
        demand.next(
            stores: { queue.stores },
            round: { first in demandRound(demand, first: first, files: files, all: all, queue: queue) },
            handing: { cheap in
                // the headers most of them begin with, parsed once for all (`SharedPrefixHeader`)
                SharedPrefixHeader.plan(sources: cheap.map { files[$0] }, configuration: configuration)
            })
    }

    /// The context files never needed count as found, with no facts; with `DI_LINT_DEMAND_TRACE`,
    /// the rounds and the time threads waited.
    func finishOnDemand(_ demand: DemandRun, files: [String], queue: WorkQueue) {
        for i in demand.deferred.keys where i >= files.count { queue.replace(FileOutcome(), at: i) }
        if ProcessInfo.processInfo.environment["DI_LINT_DEMAND_TRACE"] != nil {
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "di-lint: demand: %d rounds; threads waited %.3f s for another's parse\n",
                        demand.rounds, Double(demand.waited) / 1e9
                    ).utf8))
        }
    }

    /// One round: the files to parse next, in the order to parse them.
    private func demandRound(_ demand: DemandRun, first: Bool, files: [String], all: [String], queue: WorkQueue)
        -> [Int]
    {
        // nothing held back is left to take: no need to read the facts again
        guard demand.holdsBack else { return [] }
        let start = RunBudget.now()
        let handlers = configuration.options(of: SignalHandlerSafetyRule.self).handlers
        var taken: [Int] = []
        if first {
            // a macro reaching the container (or the bridge) makes an access in the files that
            // expand it, whose text names neither: those are for the file rules
            var seeds = Set(configuration.bridgeNames.flatMap { [$0, $0.capitalizedFirst] }.map(DemandText.hash))
            for spec in configuration.accessSpecs {
                switch spec {
                case let .member(type, _), let .template(type, _):
                    if let w = DemandClosure.word(of: type) { seeds.insert(DemandText.hash(w)) }
                case let .function(name), let .global(name), let .ambient(name), let .propertyWrapper(name):
                    if let w = DemandClosure.word(of: name) { seeds.insert(DemandText.hash(w)) }
                }
            }
            taken = demand.take(
                spelling: DemandClosure.installerWords(handlers: handlers),
                extra: [DemandText.signalName] + demand.macros(spelling: seeds), where: \.signalArgument)
        }
        // a file still held back has no facts the rule may read (one the file rules needed was
        // parsed without system headers' bodies)
        for (i, outcome) in queue.snapshot().enumerated() where demand.decoded[i] == nil && demand.deferred[i] == nil {
            guard let data = outcome?.facts[SignalHandlerSafetyRule.id],
                let facts = try? CallGraphFacts(encoded: data)
            else { continue }
            demand.decoded[i] = facts
        }
        let facts = demand.decoded.sorted { $0.key < $1.key }.map {
            (path: FileCollector.displayPath(all[$0.key]), facts: $0.value)
        }
        let needed = DemandClosure.neededNames(facts, handlers: handlers)
        var words = Set(needed.names.compactMap(DemandClosure.word(of:)))
        var definitions: [String: NeededDefinition] = [:]
        for name in needed.definitions {
            if let d = NeededDefinition(qualified: name) {
                definitions[name] = d
            } else if let w = DemandClosure.word(of: name) {
                words.insert(w)
            }
        }
        let spellers =
            ProcessInfo.processInfo.environment["DI_LINT_DEMAND_TRACE"] == "words"
            ? demand.spellers(of: words, definitions: definitions) : []
        taken += demand.take(
            spelling: words, definitions: Set(definitions.values), extra: needed.roots ? [DemandText.pasting] : [])
        let rest = demand.takeRest(below: files.count, fraction: Self.restFraction, total: files.count)
        let parse = (taken + rest).filter { $0 < files.count }.sorted()
        if ProcessInfo.processInfo.environment["DI_LINT_DEMAND_TRACE"] != nil {
            let unspelled = needed.names.union(needed.definitions).filter { DemandClosure.word(of: $0) == nil }.sorted()
            FileHandle.standardError.write(
                Data(
                    ("di-lint: demand round \(demand.rounds + 1): \(parse.count - rest.count) files to parse"
                        + (rest.isEmpty ? "" : ", then the \(rest.count) held back (at most a tenth of the run)")
                        + ", \(taken.count - (parse.count - rest.count)) context files needed; facts of"
                        + " \(facts.count) files, \(words.count) words needed"
                        + (unspelled.isEmpty ? "" : "; no word in \(unspelled.prefix(20))")
                        + String(format: " (%.1f ms)\n", Double(RunBudget.now() - start) / 1e6)
                        + spellers.map { "di-lint:   \($0)\n" }.joined()).utf8))
        }
        // with header reuse, a header a source begins with is handed out before that source
        guard ClangFrontEnd.headerReuseRequested, parse.count > 1 else { return parse }
        return SharedPrecompiledHeader.order(parse.map { files[$0] }, ahead: 2 * max(1, min(jobs, parse.count))).map {
            parse[$0]
        }
    }
}
