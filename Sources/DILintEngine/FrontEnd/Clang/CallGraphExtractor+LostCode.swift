import CLibClang

/// Code the AST lost (statements, initializers, whole definitions), read from the tokens.
extension CallGraphExtractor {
    /// statements clang dropped because a name in them did not resolve.
    func uncovered(_ compound: CXCursor, children: CursorList) {
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
    static func isTemplated(_ cursor: CXCursor) -> Bool {
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
    func recoveryRange(_ c: CXCursor, children: () -> CursorList) -> Range<Int>? {
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
    func lostInitializers(_ declStmt: CXCursor, children: CursorList) {
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
    func callsFromLostTokens() -> Int {
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

    /// Function definitions the AST lost (a parameter type from a missing header, a block under
    /// `#if` on a macro the parse does not know): `name(…) {…}` outside every definition the AST
    /// holds. Their bodies are read from the tokens, as lost statements are.
    func definitionsFromTokens() {
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
}
