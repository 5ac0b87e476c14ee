import CLibClang

/// Code the AST lost (statements, initializers, whole definitions), read from the tokens.
extension CallGraphExtractor {
    /// statements clang dropped because a name in them did not resolve (`ParsedFile.droppedStatements`).
    func uncovered(_ compound: CXCursor, children: CursorList) {
        guard let range = offsets(compound) else { return }
        var covered = children.compactMap { offsets($0) }
        covered.sort { $0.lowerBound < $1.lowerBound }
        lostRanges += file.droppedStatements(compound: range, covered: covered, hint: hint)
    }

    /// A function template, or a function inside a class template.
    static func isTemplated(_ cursor: CXCursor) -> Bool {
        var c = cursor
        for _ in 0..<64 {
            if c.kind == CXCursor_FunctionTemplate || c.kind == CXCursor_ClassTemplate
                || c.kind == CXCursor_ClassTemplatePartialSpecialization
            {
                return true
            }
            let parent = clang_getCursorSemanticParent(c)
            if clang_Cursor_isNull(parent) != 0 || parent.kind == CXCursor_TranslationUnit
                || (parent.kind.rawValue >= CXCursor_FirstInvalid.rawValue
                    && parent.kind.rawValue <= CXCursor_LastInvalid.rawValue)
            {
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
        guard c.kind == CXCursor_UnexposedExpr, current != nil, !insideTemplate else { return nil }
        let dependent = clang_getCursorType(c).kind == CXType_Dependent
        guard dependent || children().isEmpty, let range = offsets(c) else { return nil }
        let t = TokenCursor(file: file)
        let indices = tokenIndices(in: range)
        guard
            indices.contains(where: {
                t.isIdentifier($0) && (t.spells($0 + 1, "(") || t.spells($0 + 1, "{")) && indices.contains($0 + 1)
            })
        else {
            // a recovery node with no call in it: what it did is unknown, the function is read partly
            if dependent { recoveredWithoutCalls += 1 }
            return nil
        }
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
            for c in locals where Cursors.isCallable(variable: c, invalidIsCallable: true) {
                localNames.insert(Cursors.spelling(c))
            }
        }
        for range in ranges {
            let reader = LostStatementReader(
                file: file, range: range, macroExpansions: macroExpansions,
                variables: localNames.union(globalNames), expand: macroExpansion,
                isClass: { self.visibleClass($0) != nil })
            statements += reader.statements
            for call in reader.calls { sites += lostCallSites(call, from: current?.name ?? "") }
        }
        return statements
    }

    /// Function definitions the AST lost (a parameter type from a missing header, a block under
    /// `#if` on a macro the parse does not know): the front end's `lostDefinitions` of functions,
    /// outside every definition read here too. Their bodies are read from the tokens, as lost
    /// statements are.
    func definitionsFromTokens() {
        let t = TokenCursor(file: file)
        let known = Set(facts.functions.map(\.symbol.name))
        let held = HeldOffsets(definitionRanges)
        for definition in file.lostDefinitions
        where definition.kind == .function && !held.contains(definition.nameOffset) {
            let name = definition.name
            // a compatibility stand-in for a libc function (`sigaction` over `sigvec` under `#if !HAVE_SIGACTION`) is not the one linked
            guard !known.contains(name), !AsyncSignalSafeFunctions.isSafe(name, allow: []) else { continue }
            let i = file.tokenIndex(atOrAfter: definition.nameOffset)
            // the parameter list after the name; the body: the `{ … }` that ends the definition
            let last = t.indices(in: definition.range).upperBound - 1
            guard let close = t.close(from: i + 1), let open = (close + 1..<last).first(where: { t.spells($0, "{") })
            else { continue }
            // parameter names: the identifier before each `,` `)` `[` of the parameter list
            let parameterNames = (i + 2..<close).filter {
                t.isIdentifier($0) && (t.spells($0 + 1, ",") || t.spells($0 + 1, ")") || t.spells($0 + 1, "["))
            }
            .map(t.text)
            let reader = LostStatementReader(
                file: file, range: t.offset(open + 1)..<file.tokens[last].range.lowerBound,
                macroExpansions: macroExpansions, variables: globalNames.union(parameterNames),
                expand: macroExpansion, isClass: { self.visibleClass($0) != nil })
            let calls = reader.calls.flatMap { lostCallSites($0, from: name) }
            facts.functions.append(
                FunctionFact(
                    symbol: Symbol(usr: "name:" + name, name: name), position: position(definition.nameOffset),
                    sites: onePerLine(calls), unresolvedStatements: max(1, reader.statements)))
        }
    }
}
