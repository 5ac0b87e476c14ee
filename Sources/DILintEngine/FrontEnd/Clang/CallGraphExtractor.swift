import CLibClang

/// Extracts `CallGraphFacts` from one parsed C, C++ or Objective-C file: every function
/// definition with what its body calls, every function stored into a function-pointer slot, and
/// every crash-time handler the file installs.
final class CallGraphExtractor {
    /// Comment marker that names a function as crash-time code.
    static let annotation = "di-lint:signal-handler"
    /// Fields of `struct sigaction` that hold the handler.
    static let sigactionFields: Set<String> = ["sa_handler", "sa_sigaction"]
    static let sigactionFieldLengths = Set(sigactionFields.map(\.utf8.count))
    /// Functions whose second argument becomes a signal handler.
    static let signalInstallers: Set<String> = ["signal", "bsd_signal", "sysv_signal", "sigset"]

    private let file: ParsedFile
    private let accesses: [LocatedAccess]
    private let accessRanges: RangeIndex
    private let bridgeNames: Set<String>
    /// Their lengths in bytes: a token of another length is no bridge name (no string made for it).
    private let bridgeNameLengths: Set<Int>
    private var facts = CallGraphFacts()
    /// Last lines of `di-lint:signal-handler` comments.
    private let annotationLines: Set<Int>

    /// Whether each definition's subtree is read from libclang once (`CursorTree`) and token
    /// searches start in the function's tokens; false asks libclang per question and searches
    /// every token, as before: the tests compare the two.
    private let readsSubtrees: Bool

    init(file: ParsedFile, accesses: [LocatedAccess], bridgeNames: [String], readsSubtrees: Bool = true) {
        self.file = file
        self.readsSubtrees = readsSubtrees
        self.accesses = accesses.filter { $0.access.kind != .injected }
        accessRanges = RangeIndex(self.accesses.map(\.range))
        self.bridgeNames = Set(bridgeNames)
        bridgeNameLengths = Set(bridgeNames.map(\.utf8.count))
        annotationLines = Set(file.comments.compactMap { comment -> Int? in
            guard file.buffer.text(comment.range).contains(CallGraphExtractor.annotation) else { return nil }
            return file.buffer.lineColumn(of: max(comment.range.lowerBound, comment.range.upperBound - 1)).line
        })
    }

    func extract() -> CallGraphFacts {
        preprocessing()
        declarations(in: clang_getTranslationUnitCursor(file.unit))
        definitionsFromTokens()
        registrationsFromTokens()
        return facts
    }

    /// Offsets in the main file where a macro is expanded: the name there is no call.
    private var macroExpansions = Set<Int>()
    /// Names of the main file's file-scope variables: a call through one is no call by name.
    private var globalNames = Set<String>()

    /// Function-like macros the file defines (facts) and where macros are expanded.
    private func preprocessing() {
        for c in Cursors.children(clang_getTranslationUnitCursor(file.unit)) {
            switch c.kind {
            case CXCursor_MacroExpansion:
                if let offset = Cursors.mainFileOffset(clang_getCursorLocation(c), file) { macroExpansions.insert(offset) }
            case CXCursor_MacroDefinition:
                // function-like: `(` right after the name
                let name = Cursors.spelling(c)
                if let at = Cursors.mainFileOffset(clang_getCursorLocation(c), file),
                   file.buffer.spells(at + name.utf8.count..<at + name.utf8.count + 1, "(") {
                    facts.macros.append(name)
                }
            case CXCursor_VarDecl where Cursors.isInMainFile(c, file):
                globalNames.insert(Cursors.spelling(c))
            default:
                continue
            }
        }
    }

    /// `x.sa_sigaction = &h;` and `signal(SIG, h)` where the AST lost them (code that does not
    /// resolve without the platform's headers, such as Objective-C methods on Linux).
    private func registrationsFromTokens() {
        let t = TokenCursor(file: file)
        let known = Set(facts.registrations.map(\.handler.name))
        // The functions read so far, by name once, not searched for each call (the loop adds none).
        let functionNames = Set(facts.functions.map(\.symbol.name))
        let namespaces = namespaceBlocks
        for i in 0..<t.count where t.isIdentifier(i) {
            // every case below is a call `word(` or a store `.word =`: no string made for other names
            guard t.spells(i + 1, "(") || t.spells(i + 1, "=") else { continue }
            // `word =` without `(` is only `x.sa_handler =` / `x.sa_sigaction =` below: no string made for other stores
            if !t.spells(i + 1, "("), !(t.isMemberOperator(i - 1) && CallGraphExtractor.sigactionFieldLengths.contains(file.tokens[i].range.count)) {
                continue
            }
            let word = t.text(i)
            var handler: Int?
            var mechanism = HandlerRegistration.Mechanism.sigaction
            var name = ""
            if CallGraphExtractor.sigactionFields.contains(word), t.isMemberOperator(i - 1), t.spells(i + 1, "=") {
                // `x.sa_handler = h;`, `= &Known::H,`, `ON_DEBUG(x.sa_handler = h)`
                let j = t.spells(i + 2, "&") ? i + 3 : i + 2
                if let (qualified, end) = qualifiedName(t, from: j), t.spells(end, ";") || t.spells(end, ",") || t.spells(end, ")") {
                    (handler, name) = (j, qualified)
                }
            } else if t.spells(i + 1, "("), !t.isMemberOperator(i - 1), !CallGraphExtractor.signalInstallers.contains(word),
                      !functionNames.contains(word), !facts.macros.contains(word), let (fn, at) = signalArgument(t, call: i) {
                // `pqsignal(SIGTERM, h)`: an installer from a header the run does not have
                facts.signalArguments.append(FunctionArgument(callee: Symbol(usr: "name:" + word, name: word), argument: 1,
                                                              value: scoped(fn, at: at, namespaces), position: position(t.offset(i))))
                continue
            } else if CallGraphExtractor.signalInstallers.contains(word), t.spells(i + 1, "("), !t.isMemberOperator(i - 1) {
                let arguments = t.arguments(from: i + 1)
                if arguments.count == 2 {
                    let j = t.spells(arguments[1].lowerBound, "&") ? arguments[1].lowerBound + 1 : arguments[1].lowerBound
                    if let (qualified, end) = qualifiedName(t, from: j), end == arguments[1].upperBound {
                        (handler, name, mechanism) = (j, qualified, .signal)
                    }
                }
            }
            guard let handler, !known.contains(name), !known.contains(where: { $0.hasSuffix("::" + name) }), !name.hasPrefix("SIG_")
            else { continue }
            if let macro = t.enclosingMacroDefinition(i) {
                // `#define SIGNAL(s, h) do { sa.sa_handler = h; … } while (0)`: every `SIGNAL(SIGHUP, hup)` registers `hup`
                if let index = macro.parameters.firstIndex(of: name) {
                    macroRegistrations(t, macro: macro.name, argument: index, mechanism: mechanism, namespaces: namespaces)
                    continue
                }
            }
            facts.registrations.append(HandlerRegistration(handler: scoped(name, at: handler, namespaces), mechanism: mechanism,
                                                           position: position(t.offset(i))))
        }
    }

    /// `f(SIGNAME, h)` at token `call`: the handler's name and its token, for two arguments only
    /// (`siginterrupt(SIGINT, 1)` and `kill(pid, SIGTERM)` do not match).
    private func signalArgument(_ t: TokenCursor, call i: Int) -> (String, Int)? {
        let arguments = t.arguments(from: i + 1)
        guard arguments.count == 2, arguments[0].count == 1, t.isIdentifier(arguments[0].lowerBound) else { return nil }
        let signal = t.text(arguments[0].lowerBound)
        guard signal.hasPrefix("SIG"), !signal.hasPrefix("SIG_"), signal.count > 3,
              signal.dropFirst(3).allSatisfy({ $0.isUppercase || $0.isNumber }) else { return nil }
        let j = t.spells(arguments[1].lowerBound, "&") ? arguments[1].lowerBound + 1 : arguments[1].lowerBound
        guard let (name, end) = qualifiedName(t, from: j), end == arguments[1].upperBound, !name.hasPrefix("SIG_") else { return nil }
        return (name, j)
    }

    /// Registrations made by invoking a function-like macro whose body installs its parameter `argument`.
    private func macroRegistrations(_ t: TokenCursor, macro: String, argument: Int, mechanism: HandlerRegistration.Mechanism,
                                    namespaces: [(name: String, tokens: ClosedRange<Int>)]) {
        for i in 0..<t.count where t.spells(i, macro) && t.spells(i + 1, "(") && !t.isInDirective(t.offset(i)) {
            let arguments = t.arguments(from: i + 1)
            guard argument < arguments.count else { continue }
            let j = t.spells(arguments[argument].lowerBound, "&") ? arguments[argument].lowerBound + 1 : arguments[argument].lowerBound
            guard let (name, end) = qualifiedName(t, from: j), end == arguments[argument].upperBound, !name.hasPrefix("SIG_") else { continue }
            facts.registrations.append(HandlerRegistration(handler: scoped(name, at: j, namespaces), mechanism: mechanism,
                                                           position: position(t.offset(i))))
        }
    }

    /// A handler named in the tokens: an unqualified name inside `namespace a { … }` is looked up
    /// there first (`&H` in `app::install` is `app::H`), as the compiler would.
    private func scoped(_ name: String, at i: Int, _ namespaces: [(name: String, tokens: ClosedRange<Int>)]) -> Symbol {
        let scope = namespaces.filter { $0.tokens.contains(i) }.map(\.name)
        guard !scope.isEmpty, !name.contains("::") else { return Symbol(usr: "name:" + name, name: name) }
        return CallGraph.lookup(name, from: (scope + [name]).joined(separator: "::"))
    }

    /// `A::B::c` starting at token `i`: the name and the index of the token after it.
    private func qualifiedName(_ t: TokenCursor, from i: Int) -> (String, Int)? {
        guard t.isIdentifier(i) else { return nil }
        var name = t.text(i), j = i + 1
        while t.spells(j, "::"), t.isIdentifier(j + 1) {
            name += "::" + t.text(j + 1)
            j += 2
        }
        return (name, j)
    }

    // MARK: Declarations

    private func declarations(in parent: CXCursor) {
        for c in Cursors.children(parent) {
            let inMainFile = Cursors.isInMainFile(c, file)
            // a namespace opened by a macro (`PLCR_CPP_BEGIN_NS`) is not "from" the main file, its contents are
            guard inMainFile || (Cursors.isContainer(c) && clang_Location_isInSystemHeader(clang_getCursorLocation(c)) == 0)
            else { continue }
            switch c.kind {
            case _ where Cursors.isFunction(c) && inMainFile:
                // a definition's subtree read once, for its annotation and its body
                let definition = clang_isCursorDefinition(c) != 0
                if definition && readsSubtrees { tree.load(c) }
                defer { tree.clear() }
                if isAnnotated(c) { facts.annotated.append(Cursors.symbol(c)) }
                if definition { function(c) }
            case CXCursor_VarDecl where inMainFile:
                variable(c)
            case _ where Cursors.isContainer(c):
                declarations(in: c)
            default:
                continue
            }
        }
    }

    private func isAnnotated(_ function: CXCursor) -> Bool {
        if kids(function).contains(where: {
            $0.kind == CXCursor_AnnotateAttr && Cursors.spelling($0) == CallGraphExtractor.annotation
        }) { return true }
        guard !annotationLines.isEmpty, let range = offsets(function) else { return false }
        let line = file.buffer.lineColumn(of: range.lowerBound).line
        return annotationLines.contains(line) || annotationLines.contains(line - 1)
    }

    // MARK: Function bodies

    private var sites: [CallSite] = []
    /// The function being read, and its parameters (USR → index).
    private var current: Symbol?
    private var parameters: [String: Int] = [:]
    /// Names of the current function's parameters and locals: a call through one is no call by name.
    private var localNames = Set<String>()
    /// The current function's local variables: their names join `localNames` when a lost
    /// statement needs them (a spelling per variable otherwise made for nothing).
    private var locals: [CXCursor] = []
    /// Token ranges of the current body the AST did not cover (statements that did not resolve).
    private var lostRanges: [Range<Int>] = []
    /// Whether the function being read is a template or a member of one (dependent types are normal there).
    private var insideTemplate = false

    /// The accesses' indices by offset, for `accessIndices(in:)`.
    private lazy var accessesByOffset: [Int] = accesses.indices.sorted { accesses[$0].offset < accesses[$1].offset }

    /// The indices of the accesses at offsets in `range`, in `accesses`' order: found by their
    /// offsets rather than by reading every access for every function (a file of many small
    /// functions cost the square of its length: a fifth of a 4 MB single line of 33,000).
    private func accessIndices(in range: Range<Int>) -> [Int] {
        var lo = 0, hi = accessesByOffset.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if accesses[accessesByOffset[mid]].offset < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var found: [Int] = []
        while lo < accessesByOffset.count, accesses[accessesByOffset[lo]].offset < range.upperBound {
            found.append(accessesByOffset[lo])
            lo += 1
        }
        return found.sorted()
    }

    private func function(_ cursor: CXCursor) {
        guard let range = offsets(cursor) else { return }
        if readsSubtrees { hint = file.tokenIndex(atOrAfter: range.lowerBound)..<file.tokenIndex(atOrAfter: range.upperBound) }
        defer { hint = 0..<0 }
        definitionRanges.append(range)
        sites = []
        lostRanges = []
        insideTemplate = CallGraphExtractor.isTemplated(cursor)
        let symbol = Cursors.symbol(cursor)
        current = symbol
        parameters = [:]
        localNames = []
        locals = []
        for i in 0..<max(0, Int(clang_Cursor_getNumArguments(cursor))) {
            let parameter = clang_Cursor_getArgument(cursor, UInt32(i))
            parameters[clang_getCursorUSR(parameter).consume()] = i
            localNames.insert(Cursors.spelling(parameter))
        }
        let children = kids(cursor)
        for child in children { visit(child) }
        let unresolved = callsFromLostTokens()
        let body = children.last { $0.kind == CXCursor_CompoundStmt }
            .flatMap { offsets($0) } ?? range
        for k in accessIndices(in: body) {
            sites.append(CallSite(kind: .container, detail: accesses[k].access.expression, position: position(accesses[k].offset)))
        }
        for token in bridgeNameLengths.isEmpty ? [] : tokens(in: body)
        where token.kind == .identifier && bridgeNameLengths.contains(token.range.count) {
            let text = file.buffer.text(token.range)
            if bridgeNames.contains(text) {
                sites.append(CallSite(kind: .bridge, detail: text, position: position(token.range.lowerBound)))
            }
        }
        facts.functions.append(FunctionFact(symbol: symbol, position: position(range.lowerBound),
                                            sites: onePerLine(sites), unresolvedStatements: unresolved))
        current = nil
    }

    /// The tokens of a compound statement (braces left out) that none of its statements covers:
    /// statements clang dropped because a name in them did not resolve.
    private func uncovered(_ compound: CXCursor, children: CursorList) {
        guard let range = offsets(compound) else { return }
        var covered = children.compactMap { offsets($0) }
        covered.sort { $0.lowerBound < $1.lowerBound }
        let inner = tokens(in: range)
        guard inner.count > 2 else { return }
        var start = inner.startIndex + 1
        let end = inner.endIndex - 1
        let body = inner.startIndex..<inner.endIndex
        for r in covered {
            let lo = file.tokenIndex(atOrAfter: r.lowerBound, within: body)
            if lo > start { lostRanges.append(file.tokens[start].range.lowerBound..<file.tokens[min(lo, end) - 1].range.upperBound) }
            start = max(start, file.tokenIndex(atOrAfter: r.upperBound, within: body))
        }
        if end > start { lostRanges.append(file.tokens[start].range.lowerBound..<file.tokens[end - 1].range.upperBound) }
    }

    /// A function template, or a function inside a class template.
    private static func isTemplated(_ cursor: CXCursor) -> Bool {
        var c = cursor
        for _ in 0..<64 {
            if c.kind == CXCursor_FunctionTemplate || c.kind == CXCursor_ClassTemplate
                || c.kind == CXCursor_ClassTemplatePartialSpecialization { return true }
            let parent = clang_getCursorSemanticParent(c)
            if clang_Cursor_isNull(parent) != 0 || parent.kind == CXCursor_TranslationUnit
                || (parent.kind.rawValue >= CXCursor_FirstInvalid.rawValue && parent.kind.rawValue <= CXCursor_LastInvalid.rawValue) {
                return false
            }
            c = parent
        }
        return false
    }

    /// An expression clang kept only as a recovery node because a name in it did not resolve
    /// (`int n = snprintf(buf, size, "%d", state)` with `state`'s type from a missing header; an
    /// `if` condition calling `fputs(…) < LIMIT` with `LIMIT` unknown): a node of dependent type
    /// outside templates, or one with no children at all, whose tokens hold a call. The AST keeps
    /// the statement but not the call, so the call is read from the node's tokens.
    private func recoveryRange(_ c: CXCursor, children: () -> CursorList) -> Range<Int>? {
        guard c.kind == CXCursor_UnexposedExpr, current != nil, !insideTemplate,
              clang_getCursorType(c).kind == CXType_Dependent || children().isEmpty,
              let range = offsets(c) else { return nil }
        let t = TokenCursor(file: file)
        let indices = tokenIndices(in: range)
        guard indices.contains(where: { t.isIdentifier($0) && t.spells($0 + 1, "(") && indices.contains($0 + 1) }) else { return nil }
        return range
    }

    /// `int n = snprintf(buf, size, "%d", state);` with `state` from a missing header: the
    /// declaration stays in the AST but its extent and children end before the initializer,
    /// which clang dropped. The tokens from its end to the next declarator (or the `;`) that
    /// start with `=` and hold a call are read as a lost statement.
    private func lostInitializers(_ declStmt: CXCursor, children: CursorList) {
        guard current != nil, let whole = offsets(declStmt) else { return }
        let declarators = children.filter { $0.kind == CXCursor_VarDecl }
            .compactMap { offsets($0) }.sorted { $0.lowerBound < $1.lowerBound }
        let t = TokenCursor(file: file)
        for (k, r) in declarators.enumerated() {
            let boundary = k + 1 < declarators.count ? declarators[k + 1].lowerBound : whole.upperBound
            guard r.upperBound < boundary else { continue }
            let indices = tokenIndices(in: r.upperBound..<boundary)
            guard let first = indices.first, t.spells(first, "="),
                  indices.contains(where: { t.isIdentifier($0) && indices.contains($0 + 1) && t.spells($0 + 1, "(") })
            else { continue }
            lostRanges.append(r.upperBound..<boundary)
        }
    }

    /// Calls read from the statements the AST lost; returns how many statements that was.
    private func callsFromLostTokens() -> Int {
        var statements = 0
        // a range of nothing but `;` (an expression statement's, which its extent leaves out)
        // holds no statement and no call: no reader for it
        let ranges = lostRanges.filter { range in
            tokenIndices(in: range).contains { !file.buffer.spells(file.tokens[$0].range, ";") }
        }
        if !ranges.isEmpty {
            for c in locals { localNames.insert(Cursors.spelling(c)) }
        }
        for range in ranges {
            let reader = LostStatementReader(file: file, range: range, macroExpansions: macroExpansions,
                                             variables: localNames.union(globalNames))
            statements += reader.statements
            for call in reader.calls {
                sites.append(CallSite(kind: .call, target: CallGraph.lookup(call.name, from: current?.name ?? ""),
                                      detail: LostStatementReader.detail, position: position(call.offset)))
            }
        }
        return statements
    }

    /// Byte ranges of the function definitions the AST holds.
    private var definitionRanges: [Range<Int>] = []

    /// Function definitions the AST lost (a parameter type from a missing header, a block under
    /// `#if` on a macro the parse does not know): `name(…) {…}` outside every definition the AST
    /// holds. Their bodies are read from the tokens, as lost statements are.
    private func definitionsFromTokens() {
        let t = TokenCursor(file: file)
        let known = Set(facts.functions.map(\.symbol.name))
        let holders = definitionRanges.sorted { $0.lowerBound < $1.lowerBound }
        // The furthest end of the holders up to each one: some holder contains an offset when the
        // furthest end among those starting at or before it lies past it (a binary search, not a
        // scan of every definition per candidate).
        var furthestEnd: [Int] = []
        furthestEnd.reserveCapacity(holders.count)
        for h in holders { furthestEnd.append(max(furthestEnd.last ?? Int.min, h.upperBound)) }
        func held(_ offset: Int) -> Bool {
            var lo = 0, hi = holders.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if holders[mid].lowerBound <= offset { lo = mid + 1 } else { hi = mid }
            }
            return lo > 0 && furthestEnd[lo - 1] > offset
        }
        let namespaces = namespaceBlocks
        var i = 0
        while i < t.count {
            defer { i += 1 }
            guard t.isIdentifier(i), t.spells(i + 1, "("), !t.spells(i - 1, "@"), !t.isMemberOperator(i - 1),
                  !LostStatementReader.notCalls.contains(t.text(i)), let close = t.close(from: i + 1) else { continue }
            // qualifiers and attribute macros between `)` and `{`: `const`, `KS_KEEP_FUNCTION_IN_STACKTRACE`, `__attribute__((…))`
            var open = close + 1
            while open < close + 8, open < t.count, t.isIdentifier(open) || file.tokens[open].kind == .keyword {
                open = t.spells(open + 1, "(") ? (t.close(from: open + 1) ?? open) + 1 : open + 1
            }
            guard t.spells(open, "{"), let end = t.close(from: open) else { continue }
            let offset = t.offset(i)
            // `#define LOG(x) fprintf(…)` before `void f(void) {` is no definition of `fprintf`
            if held(offset) || t.isInDirective(offset) { continue }
            var name = t.text(i), j = i
            while t.spells(j - 1, "::"), t.isIdentifier(j - 2) {
                name = t.text(j - 2) + "::" + name
                j -= 2
            }
            let scope = namespaces.filter { $0.tokens.contains(i) }.map(\.name)
            if !scope.isEmpty { name = (scope + [name]).joined(separator: "::") }
            defer { i = end }
            // a compatibility stand-in for a libc function (`sigaction` over `sigvec` under `#if !HAVE_SIGACTION`) is not the one linked
            guard !known.contains(name), !AsyncSignalSafeFunctions.isSafe(name, allow: []) else { continue }
            // parameter names: the identifier before each `,` `)` `[` of the parameter list
            let parameterNames = (i + 2..<close).filter { t.isIdentifier($0) && (t.spells($0 + 1, ",") || t.spells($0 + 1, ")") || t.spells($0 + 1, "[")) }
                .map(t.text)
            let reader = LostStatementReader(file: file, range: t.offset(open + 1)..<file.tokens[end].range.lowerBound,
                                             macroExpansions: macroExpansions, variables: globalNames.union(parameterNames))
            let calls = reader.calls.map { call in
                CallSite(kind: .call, target: CallGraph.lookup(call.name, from: name), detail: LostStatementReader.detail,
                         position: position(call.offset))
            }
            facts.functions.append(FunctionFact(symbol: Symbol(usr: "name:" + name, name: name), position: position(offset),
                                                sites: onePerLine(calls), unresolvedStatements: max(1, reader.statements)))
        }
    }

    /// `namespace a::b { … }` blocks in the tokens (named ones), outermost first.
    private lazy var namespaceBlocks: [(name: String, tokens: ClosedRange<Int>)] = {
        let t = TokenCursor(file: file)
        var result: [(name: String, tokens: ClosedRange<Int>)] = []
        // nine bytes first: no comparison for other tokens
        for i in 0..<t.count where file.tokens[i].range.count == 9 && t.spells(i, "namespace") {
            guard let (name, open) = qualifiedName(t, from: i + 1), t.spells(open, "{"), let close = t.close(from: open) else { continue }
            result.append((name, open...close))
        }
        return result
    }()

    /// Keeps one finding-worthy site per line and kind for messages, bridge and container uses
    /// (`[[A shared] run]` is one problem, not two); calls stay distinct per callee.
    private func onePerLine(_ sites: [CallSite]) -> [CallSite] {
        if sites.count <= 8 {
            // a few sites: each compared with those kept (the same keys as the set's below, no set made per function)
            func sameKey(_ a: CallSite, _ b: CallSite) -> Bool {
                guard a.position.line == b.position.line, a.kind == b.kind else { return false }
                switch a.kind {
                case .call, .pointerCall: return (a.target?.usr ?? "") == (b.target?.usr ?? "")
                default: return true
                }
            }
            var kept: [CallSite] = []
            for site in sites where !kept.contains(where: { sameKey($0, site) }) { kept.append(site) }
            return kept
        }
        struct Key: Hashable {
            var line: Int, kind: CallSite.Kind, usr: String?
        }
        var seen = Set<Key>()
        return sites.filter { site in
            switch site.kind {
            case .call, .pointerCall: return seen.insert(Key(line: site.position.line, kind: site.kind, usr: site.target?.usr ?? "")).inserted
            default: return seen.insert(Key(line: site.position.line, kind: site.kind, usr: nil)).inserted
            }
        }
    }

    /// Depth of `new` expressions being visited: their constructor calls are part of the `new`.
    private var insideNew = 0

    private func visit(_ c: CXCursor) {
        if c.kind == CXCursor_CXXNewExpr { insideNew += 1 }
        defer { if c.kind == CXCursor_CXXNewExpr { insideNew -= 1 } }
        // a container access is one finding, not also a call or a message
        if c.kind == CXCursor_CallExpr || c.kind == CXCursor_ObjCMessageExpr || c.kind == CXCursor_MemberRefExpr,
           let start = offsets(c)?.lowerBound,
           accessRanges.contains(start) {
            for child in kids(c) { visit(child) }
            return
        }
        // the children, asked of libclang once
        var read: CursorList?
        func children() -> CursorList {
            if let read { return read }
            let list = kids(c)
            read = list
            return list
        }
        if let range = recoveryRange(c, children: children) {
            lostRanges.append(range)
            return
        }
        switch c.kind {
        case CXCursor_CallExpr:
            call(c)
        case CXCursor_ObjCMessageExpr:
            add(.objcMessage, at: c, detail: Cursors.spelling(c))
        case CXCursor_MemberRefExpr:
            let ref = clang_getCursorReferenced(c)
            if ref.kind == CXCursor_ObjCPropertyDecl { add(.objcMessage, at: c, detail: Cursors.spelling(ref)) }
        case CXCursor_CXXNewExpr:
            add(.cxxNew, at: c)
        case CXCursor_CXXDeleteExpr:
            add(.cxxDelete, at: c)
        case CXCursor_CXXThrowExpr:
            add(.cxxThrow, at: c, detail: kids(c).isEmpty ? "rethrow" : nil)
        case CXCursor_ObjCAtThrowStmt:
            add(.objcRuntime, at: c, detail: "@throw")
        case CXCursor_ObjCAtSynchronizedStmt:
            add(.objcRuntime, at: c, detail: "@synchronized")
        case CXCursor_ObjCAtTryStmt:
            add(.objcRuntime, at: c, detail: "@try")
        case CXCursor_ObjCAutoreleasePoolStmt:
            add(.objcRuntime, at: c, detail: "@autoreleasepool")
        case CXCursor_BinaryOperator:
            assignment(c)
        case CXCursor_VarDecl:
            locals.append(c)
            variable(c)
        case CXCursor_CompoundStmt:
            uncovered(c, children: children())
        case CXCursor_DeclStmt:
            lostInitializers(c, children: children())
        case CXCursor_IfStmt:
            if ifTestingAParameterForNull(c) { return }
        case CXCursor_UnaryOperator:
            addressTaken(c)
        case CXCursor_InitListExpr:
            // a compound literal `(struct sigaction){ .sa_handler = h }`; variable initializers are read in `variable`
            stores(from: c, slot: nil, type: clang_getCursorType(c))
        case CXCursor_OverloadedDeclRef:
            // C++ call to a name that did not resolve (no declaration visible)
            let name = Cursors.spelling(c)
            if !name.isEmpty { sites.append(CallSite(kind: .call, target: Symbol(usr: "name:" + name, name: name), position: position(of: c))) }
        default:
            break
        }
        if c.kind == CXCursor_VarDecl { return } // its initializer was read above
        for child in children() { visit(child) }
    }

    private func add(_ kind: CallSite.Kind, at cursor: CXCursor, detail: String? = nil) {
        sites.append(CallSite(kind: kind, detail: detail, position: position(of: cursor)))
    }

    private func call(_ c: CXCursor) {
        let ref = clang_getCursorReferenced(c)
        if Cursors.isFunction(ref) {
            if isLambdaCall(ref) || Cursors.isImplicitMember(ref) || (insideNew > 0 && ref.kind == CXCursor_Constructor) { return }
            registration(call: c, callee: ref)
            arguments(of: c, callee: ref)
            sites.append(CallSite(kind: .call, target: Cursors.symbol(ref), trait: trait(of: ref), position: position(of: c)))
            return
        }
        if ref.kind == CXCursor_StructDecl || ref.kind == CXCursor_ClassDecl { return } // implicit constructor
        let callee = kids(c).first.map(stripped)
        let slotCursor: CXCursor
        switch ref.kind {
        case CXCursor_VarDecl, CXCursor_FieldDecl, CXCursor_ParmDecl:
            slotCursor = ref
        default:
            guard let callee, let s = slot(of: callee) else { return }
            slotCursor = s
        }
        if clang_Location_isInSystemHeader(clang_getCursorLocation(slotCursor)) != 0 { return } // e.g. a saved struct sigaction
        sites.append(CallSite(kind: .pointerCall, target: Cursors.symbol(slotCursor), position: position(of: c)))
    }

    /// `operator()` of a lambda: its body is part of the enclosing function already.
    private func isLambdaCall(_ ref: CXCursor) -> Bool {
        guard ref.kind == CXCursor_CXXMethod, Cursors.spelling(ref) == "operator()" else { return false }
        let owner = clang_getCursorSemanticParent(ref)
        return Cursors.spelling(owner).isEmpty || Cursors.spelling(owner).contains("lambda")
    }

    private func trait(of callee: CXCursor) -> CallSite.CalleeTrait? {
        var language = CXString(), definedIn = CXString()
        var generated: UInt32 = 0
        if clang_Cursor_isExternalSymbol(callee, &language, &definedIn, &generated) != 0 {
            let lang = language.consume()
            _ = definedIn.consume()
            if lang == "Swift" { return .swift }
        }
        let declarations = [callee, clang_getCanonicalCursor(callee), clang_getCursorDefinition(callee)].filter { !Cursors.isNull($0) }
        for declaration in declarations {
            for attribute in Cursors.children(declaration) {
                if attribute.kind == CXCursor_AsmLabelAttr, AsyncSignalSafeFunctions.isSwiftMangled(Cursors.spelling(attribute)) {
                    return .swift
                }
                if attribute.kind == CXCursor_UnexposedAttr,
                   Cursors.tokenSpellings(attribute, unit: file.unit).contains(where: { $0 == "swift_name" || $0 == "SWIFT_NAME" }) {
                    return .swift
                }
            }
        }
        let definition = clang_getCursorDefinition(callee)
        if !Cursors.isNull(definition), clang_Location_isInSystemHeader(clang_getCursorLocation(definition)) != 0,
           callee.kind == CXCursor_FunctionDecl, !Cursors.qualifiedName(callee).contains("::") {
            return .systemInline
        }
        return nil
    }

    // MARK: Function-pointer stores

    /// The slot an expression designates: a variable, a field, or an array's variable.
    private func slot(of expression: CXCursor) -> CXCursor? {
        var c = stripped(expression)
        while c.kind == CXCursor_ArraySubscriptExpr, let base = kids(c).first {
            c = stripped(base)
        }
        guard c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_MemberRefExpr else { return nil }
        let ref = clang_getCursorReferenced(c)
        switch ref.kind {
        case CXCursor_VarDecl, CXCursor_FieldDecl, CXCursor_ParmDecl: return ref
        default: return nil
        }
    }

    private func assignment(_ c: CXCursor) {
        let kids = kids(c)
        guard kids.count == 2, let lhsRange = offsets(kids[0]),
              let op = firstToken(from: lhsRange.upperBound),
              file.buffer.spells(op.range, "="),
              Cursors.isFunctionPointer(clang_getCursorType(kids[0])),
              let slot = slot(of: kids[0]) else { return }
        store(into: slot, value: kids[1], at: c)
    }

    private func store(into slot: CXCursor, value: CXCursor, at site: CXCursor) {
        if isIntegerConstant(value) { return }
        let target = functionReference(value)
        let slotSymbol = Cursors.symbol(slot)
        facts.stores.append(PointerStore(slot: slotSymbol, value: target.map(Cursors.symbol)))
        guard slot.kind == CXCursor_FieldDecl, CallGraphExtractor.sigactionFields.contains(Cursors.spelling(slot)) else { return }
        if let target {
            facts.registrations.append(HandlerRegistration(handler: Cursors.symbol(target), mechanism: .sigaction, position: position(of: site)))
        } else if let index = parameterIndex(value) {
            // a wrapper: `void install(int sig, handler_t h) { sa.sa_handler = h; … }`; not where `h` is null
            // (`if (h) sa.sa_handler = trampoline; else sa.sa_handler = h;` installs SIG_DFL, never `h`)
            guard !nullParameters.contains(clang_getCursorUSR(clang_getCursorReferenced(stripped(value))).consume()) else { return }
            facts.installingParameters.append(ParameterUse(function: current!, index: index, mechanism: .sigaction))
        } else if let source = self.slot(of: value), source.kind != CXCursor_ParmDecl {
            // a table: `sa.sa_handler = entry->handler` registers every function stored into `handler`
            facts.registrations.append(HandlerRegistration(handler: Cursors.symbol(source), mechanism: .sigaction,
                                                           position: position(of: site), throughSlot: true))
        }
    }

    /// USRs of the current function's parameters known to be null where the walk is.
    private var nullParameters: Set<String> = []

    /// `if (h) … else …`, `if (!h)`, `if (h == NULL)` on a parameter `h`: visits each branch
    /// knowing whether `h` is null there. False (nothing visited) for any other `if`.
    private func ifTestingAParameterForNull(_ c: CXCursor) -> Bool {
        let kids = kids(c)
        guard kids.count >= 2, let (usr, nullWhenTrue) = nullTest(kids[0]) else { return false }
        visit(kids[0])
        for (i, branch) in kids.dropFirst().prefix(2).enumerated() {
            let saved = nullParameters
            if (i == 0) == nullWhenTrue { nullParameters.insert(usr) }
            visit(branch)
            nullParameters = saved
        }
        return true
    }

    /// The parameter a condition tests for null, and whether the condition holds when it is null.
    private func nullTest(_ condition: CXCursor) -> (usr: String, nullWhenTrue: Bool)? {
        guard current != nil, let range = offsets(condition) else { return nil }
        func parameter(_ e: CXCursor) -> String? {
            let ref = clang_getCursorReferenced(stripped(e))
            return ref.kind == CXCursor_ParmDecl && stripped(e).kind == CXCursor_DeclRefExpr ? clang_getCursorUSR(ref).consume() : nil
        }
        let inner = stripped(condition)
        if inner.kind == CXCursor_BinaryOperator {
            let kids = kids(inner)
            guard kids.count == 2, let lhs = offsets(kids[0]), let op = firstToken(from: lhs.upperBound),
                  file.buffer.spells(op.range, "==") || file.buffer.spells(op.range, "!=") else { return nil }
            let equal = file.buffer.spells(op.range, "==")
            if isIntegerConstant(kids[1]), let usr = parameter(kids[0]) { return (usr, equal) }
            if isIntegerConstant(kids[0]), let usr = parameter(kids[1]) { return (usr, equal) }
            return nil
        }
        guard let usr = parameter(condition), let first = firstToken(from: range.lowerBound) else { return nil }
        return (usr, file.buffer.spells(first.range, "!"))
    }

    /// The index of the current function's parameter an expression names, if it names one.
    private func parameterIndex(_ expression: CXCursor) -> Int? {
        guard current != nil else { return nil }
        let c = stripped(expression)
        guard c.kind == CXCursor_DeclRefExpr else { return nil }
        let ref = clang_getCursorReferenced(c)
        return ref.kind == CXCursor_ParmDecl ? parameters[clang_getCursorUSR(ref).consume()] : nil
    }

    /// Functions and the current function's parameters passed as arguments: what makes a call of
    /// a wrapper a registration.
    private func arguments(of call: CXCursor, callee: CXCursor) {
        let count = Int(clang_Cursor_getNumArguments(call))
        guard count > 0 else { return }
        let symbol = Cursors.symbol(callee)
        for i in 0..<count {
            let argument = clang_Cursor_getArgument(call, UInt32(i))
            if let function = functionReference(argument) {
                facts.functionArguments.append(FunctionArgument(callee: symbol, argument: i, value: Cursors.symbol(function),
                                                                position: position(of: call)))
            } else if Cursors.isFunctionPointer(clang_getCursorType(argument)), let index = parameterIndex(argument), let current {
                facts.forwards.append(ParameterForward(function: current, parameter: index, callee: symbol, argument: i))
            }
        }
    }

    private func variable(_ c: CXCursor) {
        guard let initializer = kids(c).last(where: { clang_isExpression($0.kind) != 0 }) else { return }
        stores(from: initializer, slot: c, type: clang_getCursorType(c))
        visitInitializer(initializer)
    }

    /// Calls and messages inside a local variable's initializer still belong to the function.
    private func visitInitializer(_ initializer: CXCursor) {
        guard initializer.kind != CXCursor_InitListExpr else {
            for child in kids(initializer) { visitInitializer(child) }
            return
        }
        visit(initializer)
    }

    /// Stores made by an initializer: `cb_t p = f`, `cb_t table[] = {f, g}`, `struct ops o = {f}`,
    /// `{ .run = f }`, `{ [SIGSEGV] = f }`, nested.
    private func stores(from expression: CXCursor, slot: CXCursor?, type: CXType) {
        let canonical = clang_getCanonicalType(type)
        guard expression.kind == CXCursor_InitListExpr else {
            if let slot, Cursors.isFunctionPointer(type) { store(into: slot, value: expression, at: expression) }
            return
        }
        let values = kids(expression).filter { clang_isExpression($0.kind) != 0 }
        switch canonical.kind {
        case CXType_ConstantArray, CXType_IncompleteArray, CXType_VariableArray:
            let element = clang_getArrayElementType(canonical)
            for value in values { stores(from: designatedValue(value) ?? value, slot: slot, type: element) }
        case CXType_Record:
            let fields = Cursors.fields(of: canonical)
            var next = 0
            for value in values {
                if let (field, inner) = designatedField(value) {
                    stores(from: inner, slot: field, type: clang_getCursorType(field))
                    next = (fields.firstIndex { clang_equalCursors($0, field) != 0 } ?? next) + 1
                } else if next < fields.count {
                    stores(from: value, slot: fields[next], type: clang_getCursorType(fields[next]))
                    next += 1
                }
            }
        default:
            if let first = values.first { stores(from: first, slot: slot, type: type) }
        }
    }

    /// `.a.b = value` inside an initializer list: the last field named, and the value.
    private func designatedField(_ c: CXCursor) -> (CXCursor, CXCursor)? {
        guard c.kind == CXCursor_UnexposedExpr else { return nil }
        let kids = kids(c)
        guard let member = kids.last(where: { $0.kind == CXCursor_MemberRef }), let value = kids.last,
              clang_isExpression(value.kind) != 0 else { return nil }
        let field = clang_getCursorReferenced(member)
        return field.kind == CXCursor_FieldDecl ? (field, value) : nil
    }

    /// `[index] = value` inside an array initializer.
    private func designatedValue(_ c: CXCursor) -> CXCursor? {
        guard c.kind == CXCursor_UnexposedExpr else { return nil }
        let kids = kids(c).filter { clang_isExpression($0.kind) != 0 }
        return kids.count >= 2 ? kids.last : nil
    }

    /// `&slot` hands the slot to code that may write anything into it.
    private func addressTaken(_ c: CXCursor) {
        guard let range = offsets(c), let first = tokens(in: range).first,
              file.buffer.spells(first.range, "&"),
              let operand = kids(c).first, Cursors.isFunctionPointer(clang_getCursorType(operand)),
              let slot = slot(of: operand) else { return }
        facts.stores.append(PointerStore(slot: Cursors.symbol(slot), value: nil))
    }

    // MARK: Registrations

    private func registration(call: CXCursor, callee: CXCursor) {
        let name = Cursors.spelling(callee)
        let mechanism: HandlerRegistration.Mechanism
        let argument: Int32
        if CallGraphExtractor.signalInstallers.contains(name) && Cursors.qualifiedName(callee) == name {
            (mechanism, argument) = (.signal, 1)
        } else if name == "set_terminate", ["set_terminate", "std::set_terminate"].contains(Cursors.qualifiedName(callee)) {
            (mechanism, argument) = (.terminate, 0)
        } else {
            return
        }
        guard clang_Cursor_getNumArguments(call) > argument else { return }
        let value = clang_Cursor_getArgument(call, UInt32(argument))
        if mechanism == .signal, let index = parameterIndex(value), let current {
            facts.installingParameters.append(ParameterUse(function: current, index: index, mechanism: .signal))
        }
        guard let handler = functionReference(value) else { return }
        facts.registrations.append(HandlerRegistration(handler: Cursors.symbol(handler), mechanism: mechanism, position: position(of: call)))
    }

    // MARK: Positions and tokens

    private func position(of cursor: CXCursor) -> SitePosition {
        // the extent's start: the offsets' when both ends are in the main file (cached for the subtree's cursors)
        if let range = offsets(cursor) { return position(range.lowerBound) }
        return position(Cursors.mainFileOffset(clang_getRangeStart(clang_getCursorExtent(cursor)), file) ?? 0)
    }

    private func position(_ offset: Int) -> SitePosition {
        let (line, column) = file.buffer.lineColumn(of: offset)
        return SitePosition(line: line, column: column, offset: offset)
    }

    /// Code tokens starting inside `range`.
    private func tokens(in range: Range<Int>) -> ArraySlice<SourceToken> {
        let lo = tokenIndex(atOrAfter: range.lowerBound)
        var end = lo
        while end < file.tokens.count && file.tokens[end].range.lowerBound < range.upperBound { end += 1 }
        return file.tokens[lo..<end]
    }

    /// `TokenCursor.indices(in:)`, searched within the current function's tokens.
    private func tokenIndices(in range: Range<Int>) -> Range<Int> {
        let lo = tokenIndex(atOrAfter: range.lowerBound)
        return lo..<max(lo, tokenIndex(atOrAfter: range.upperBound))
    }

    private func firstToken(from offset: Int) -> SourceToken? {
        let i = tokenIndex(atOrAfter: offset)
        return i < file.tokens.count ? file.tokens[i] : nil
    }

    /// Token indices of the function being read: the searches for its offsets look there first
    /// (`tokenIndex(atOrAfter:within:)` checks the answer lies there; a search of the whole
    /// file's tokens otherwise).
    private var hint = 0..<0

    private func tokenIndex(atOrAfter offset: Int) -> Int {
        hint.isEmpty ? file.tokenIndex(atOrAfter: offset) : file.tokenIndex(atOrAfter: offset, within: hint)
    }

    // MARK: The subtree of the function being read

    /// The current definition's subtree (empty between definitions).
    private let tree = CursorTree()


    /// A cursor's children: from the subtree, else from libclang.
    private func kids(_ c: CXCursor) -> CursorList { tree.children(c) }

    /// `Cursors.offsets`, once per cursor of the subtree.
    private func offsets(_ c: CXCursor) -> Range<Int>? { tree.offsets(c, in: file) }

    /// `Cursors.stripped` over the subtree.
    private func stripped(_ expression: CXCursor) -> CXCursor { Cursors.stripped(expression, children: kids) }

    /// `Cursors.functionReference` over the subtree.
    private func functionReference(_ expression: CXCursor) -> CXCursor? { Cursors.functionReference(expression, children: kids) }

    /// `Cursors.isIntegerConstant` over the subtree.
    private func isIntegerConstant(_ expression: CXCursor) -> Bool { Cursors.isIntegerConstant(expression, children: kids) }
}
