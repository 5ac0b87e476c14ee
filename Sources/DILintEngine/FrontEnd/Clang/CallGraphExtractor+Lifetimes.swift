import CLibClang

/// C++ object lifetimes (implicit destructor calls of locals and temporaries) and error paths
/// (the branch an `if` takes when an async-signal-safe call failed).
extension CallGraphExtractor {
    // MARK: Destructors

    /// The destructors that run when an object of a class type dies (looking through typedefs):
    /// its own when declared and not defaulted, else, as the implicit one does, those of its
    /// bases and fields of class type (arrays of them included), four levels deep.
    func destructors(of type: CXType, depth: Int = 0) -> [CXCursor] {
        var canonical = clang_getCanonicalType(type)
        while canonical.kind == CXType_ConstantArray {
            canonical = clang_getCanonicalType(clang_getArrayElementType(canonical))
        }
        guard canonical.kind == CXType_Record, depth < 4 else { return [] }
        let declaration = clang_getTypeDeclaration(canonical)
        guard !Cursors.isNull(declaration) else { return [] }
        let usr = clang_getCursorUSR(declaration).consume()
        if let known = destructorsByType[usr] { return known }
        destructorsByType[usr] = [] // a class holding itself through a field is no recursion
        var found: [CXCursor] = []
        let children = Cursors.children(declaration)
        if let own = children.first(where: { $0.kind == CXCursor_Destructor }), clang_CXXMethod_isDefaulted(own) == 0 {
            found = [own]
        } else if file.language == .cxx || file.language == .objectiveCxx {
            for base in children where base.kind == CXCursor_CXXBaseSpecifier {
                found += destructors(of: clang_getCursorType(base), depth: depth + 1)
            }
            for field in Cursors.fields(of: canonical) {
                found += destructors(of: clang_getCursorType(field), depth: depth + 1)
            }
        }
        destructorsByType[usr] = found
        return found
    }

    /// A local of class type: its destructor runs when the function leaves its scope.
    func localDestructor(_ variable: CXCursor) {
        guard current != nil else { return }
        for destructor in destructors(of: clang_getCursorType(variable)) {
            sites.append(CallSite(kind: .call, target: Cursors.symbol(destructor), position: position(of: variable)))
        }
    }

    /// A call or construction whose value is a temporary of class type (not a variable's
    /// initializer, not returned): its destructor runs at the end of the full expression.
    func temporaryDestructor(_ expression: CXCursor) {
        guard current != nil, !ownedValues.contains(clang_hashCursor(expression)) else { return }
        for destructor in destructors(of: clang_getCursorType(expression)) {
            sites.append(CallSite(kind: .call, target: Cursors.symbol(destructor), position: position(of: expression)))
        }
    }

    /// The expression that gives a variable or a `return` its value, with the casts around it:
    /// the object it makes is no temporary.
    func ownValue(_ expression: CXCursor) {
        var c = expression
        for _ in 0..<8 {
            ownedValues.insert(clang_hashCursor(c))
            guard
                c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_CXXFunctionalCastExpr
                    || c.kind == CXCursor_ParenExpr, let inner = kids(c).first
            else { break }
            c = inner
        }
    }

    // MARK: Constructions the AST lost

    /// The constructors of a class that take `arity` arguments (all of them when none does:
    /// default arguments are not counted).
    func constructors(of declaration: CXCursor, arity: Int) -> [CXCursor] {
        let all = Cursors.children(declaration).filter { $0.kind == CXCursor_Constructor }
        let matching = all.filter { Int(clang_Cursor_getNumArguments($0)) == arity }
        return matching.isEmpty ? all : matching
    }

    /// `T x(args);` / `T x{args};` whose initializer clang dropped (an argument did not resolve):
    /// a call of `T`'s constructors taking that many arguments, and the function is read partly.
    func lostConstruction(_ variable: CXCursor) {
        guard current != nil, !kids(variable).contains(where: { clang_isExpression($0.kind) != 0 }),
            let range = offsets(variable)
        else { return }
        let t = TokenCursor(file: file)
        let open = tokenIndex(atOrAfter: range.upperBound)
        guard t.spells(open, "(") || t.spells(open, "{"), let close = t.close(from: open) else { return }
        let type = clang_getCanonicalType(clang_getCursorType(variable))
        guard type.kind == CXType_Record else { return }
        let declaration = clang_getTypeDeclaration(type)
        for constructor in constructors(of: declaration, arity: t.arguments(from: open).count) {
            sites.append(
                CallSite(
                    kind: .call, target: Cursors.symbol(constructor), detail: LostStatementReader.detail,
                    position: position(t.offset(open))))
        }
        _ = close
        recoveredWithoutCalls += 1
    }

    /// A class the parse saw at file scope (or in a namespace, `extern "C"`), by name, read on first use.
    func visibleClass(_ name: String) -> CXCursor? {
        guard file.language == .cxx || file.language == .objectiveCxx else { return nil }
        if visibleClasses == nil {
            var found: [String: CXCursor] = [:]
            func walk(_ parent: CXCursor, depth: Int) {
                for c in Cursors.children(parent) {
                    switch c.kind {
                    case CXCursor_ClassDecl, CXCursor_StructDecl:
                        if clang_isCursorDefinition(c) != 0 { found[Cursors.spelling(c)] = c }
                    case CXCursor_Namespace, CXCursor_LinkageSpec:
                        if depth < 4, clang_Location_isInSystemHeader(clang_getCursorLocation(c)) == 0 {
                            walk(c, depth: depth + 1)
                        }
                    default:
                        continue
                    }
                }
            }
            walk(clang_getTranslationUnitCursor(file.unit), depth: 0)
            visibleClasses = found
        }
        return visibleClasses?[name]
    }

    // MARK: Error paths

    /// `if (safe(…) == -1)`, `if (safe(…) < 0)`, `if (safe(…) != 0)`, `if (safe(…) == SIG_ERR)`,
    /// `if (safe(…))` with `safe` async-signal-safe: the byte range of the branch taken on failure.
    func failureBranch(_ ifStatement: CXCursor) -> Range<Int>? {
        let kids = kids(ifStatement)
        guard kids.count >= 2, let branch = offsets(kids[1]) else { return nil }
        let condition = stripped(kids[0])
        func safeCall(_ e: CXCursor) -> Bool {
            let c = stripped(e)
            guard c.kind == CXCursor_CallExpr else { return false }
            let ref = clang_getCursorReferenced(c)
            return Cursors.isFunction(ref) && AsyncSignalSafeFunctions.isSafe(Cursors.spelling(ref), allow: [])
        }
        if safeCall(condition) { return branch }
        guard condition.kind == CXCursor_BinaryOperator else { return nil }
        let sides = self.kids(condition)
        guard sides.count == 2, let lhs = offsets(sides[0]), let op = firstToken(from: lhs.upperBound) else {
            return nil
        }
        let failure: Bool
        if file.buffer.spells(op.range, "==") {
            // `== -1`, `== SIG_ERR`, `== MAP_FAILED`: the failure value (not `== 0`, success for most)
            guard let rhs = offsets(sides[1]) else { return nil }
            let text = file.buffer.text(rhs).filter { !$0.isWhitespace }
            failure =
                text == "-1" || text.hasSuffix("_ERR") || text.hasSuffix("_FAILED") || text.hasSuffix(")-1)")
                || text.hasSuffix(")-1")
        } else if file.buffer.spells(op.range, "<") || file.buffer.spells(op.range, "!=") {
            failure = isIntegerConstant(sides[1]) && offsets(sides[1]).map { file.buffer.text($0) == "0" } == true
        } else {
            return nil
        }
        return failure && safeCall(sides[0]) ? branch : nil
    }

    /// Marks the current function's sites inside its failure branches.
    func markErrorPaths() {
        guard !errorBranches.isEmpty else { return }
        for k in sites.indices where errorBranches.contains(where: { $0.contains(sites[k].position.offset) }) {
            sites[k].onErrorPath = true
        }
    }
}
