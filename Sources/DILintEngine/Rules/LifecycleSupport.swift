import CLibClang

/// A function, method or constructor definition in a file, as the bridge lifecycle rules see it.
struct CodeScope {
    enum Kind { case function, cxxMethod, constructor, destructor, objcInstanceMethod, objcClassMethod }
    var kind: Kind
    /// Function name or Objective-C selector.
    var name: String
    /// The class an Objective-C method is implemented in, or a C++ method's class.
    var owner: String?
    /// The whole definition, in bytes.
    var range: Range<Int>
    var nameOffset: Int

}

extension ParsedFile {
    /// Function, method and constructor definitions in the main file (C++ classes, namespaces,
    /// Objective-C implementations included), in source order.
    func codeScopes() -> [CodeScope] {
        var result: [CodeScope] = []
        func walk(_ parent: CXCursor, owner: String?) {
            for c in Cursors.children(parent) {
                if Cursors.isContainer(c) && clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0 { continue }
                guard Cursors.isContainer(c) || Cursors.isInMainFile(c, self) else { continue }
                let kind: CodeScope.Kind
                switch c.kind {
                case CXCursor_FunctionDecl, CXCursor_FunctionTemplate: kind = .function
                case CXCursor_CXXMethod: kind = .cxxMethod
                case CXCursor_Constructor: kind = .constructor
                case CXCursor_Destructor: kind = .destructor
                case CXCursor_ObjCInstanceMethodDecl: kind = .objcInstanceMethod
                case CXCursor_ObjCClassMethodDecl: kind = .objcClassMethod
                case CXCursor_ObjCImplementationDecl, CXCursor_ObjCCategoryImplDecl:
                    walk(c, owner: implementedClass(c))
                    continue
                case CXCursor_Namespace, CXCursor_LinkageSpec, CXCursor_UnexposedDecl:
                    walk(c, owner: owner)
                    continue
                case CXCursor_ClassDecl, CXCursor_StructDecl, CXCursor_ClassTemplate:
                    walk(c, owner: Cursors.spelling(c))
                    continue
                default:
                    continue
                }
                guard clang_isCursorDefinition(c) != 0, let range = Cursors.offsets(c, in: self),
                      let name = Cursors.mainFileOffset(clang_getCursorLocation(c), self) else { continue }
                var scopeOwner = owner
                if kind == .cxxMethod || kind == .constructor || kind == .destructor {
                    scopeOwner = Cursors.spelling(clang_getCursorSemanticParent(c))
                }
                result.append(CodeScope(kind: kind, name: Cursors.spelling(c), owner: scopeOwner, range: range, nameOffset: name))
            }
        }
        walk(clang_getTranslationUnitCursor(unit), owner: nil)
        return result
    }

    private func implementedClass(_ implementation: CXCursor) -> String {
        if implementation.kind == CXCursor_ObjCCategoryImplDecl,
           let ref = Cursors.children(implementation).first(where: { $0.kind == CXCursor_ObjCClassRef }) {
            return Cursors.spelling(ref)
        }
        return Cursors.spelling(implementation)
    }
}

/// Token-level matching for rules that must work on headerless files, where code that does not
/// resolve drops out of libclang's AST but stays in its token stream.
struct TokenView {
    let file: ParsedFile
    var count: Int { file.tokens.count }

    func text(_ i: Int) -> String { file.buffer.text(file.tokens[i].range) }
    func spells(_ i: Int, _ word: String) -> Bool { i >= 0 && i < count && file.buffer.spells(file.tokens[i].range, word) }
    func isIdentifier(_ i: Int) -> Bool { i >= 0 && i < count && file.tokens[i].kind == .identifier }
    func offset(_ i: Int) -> Int { file.tokens[i].range.lowerBound }

    /// Token indices whose tokens start inside the byte range.
    func indices(in range: Range<Int>) -> Range<Int> {
        let lo = file.tokenIndex(atOrAfter: range.lowerBound)
        return lo..<max(lo, file.tokenIndex(atOrAfter: range.upperBound))
    }

    private static let pairs: [String: String] = ["(": ")", "[": "]", "{": "}"]

    /// The index of the bracket closing the one at `open`.
    func close(from open: Int) -> Int? {
        guard open < count, let closer = TokenView.pairs[text(open)] else { return nil }
        let opener = text(open)
        var depth = 0
        for j in open..<count {
            if spells(j, opener) { depth += 1 } else if spells(j, closer) { depth -= 1; if depth == 0 { return j } }
        }
        return nil
    }

    /// The index of the bracket opening the one at `close`.
    func open(from close: Int) -> Int? {
        guard close >= 0, close < count, let opener = TokenView.pairs.first(where: { $0.value == text(close) })?.key else { return nil }
        let closer = text(close)
        var depth = 0
        var j = close
        while j >= 0 {
            if spells(j, closer) { depth += 1 } else if spells(j, opener) { depth -= 1; if depth == 0 { return j } }
            j -= 1
        }
        return nil
    }

    /// The first token of the postfix expression ending at `end`: `self.crash`, `r->owner`,
    /// `[a b].c`, `items[2]`, `make()`.
    func expressionStart(endingAt end: Int) -> Int? {
        var i = end
        while i >= 0 {
            var start: Int
            if spells(i, ")") || spells(i, "]") {
                guard let o = open(from: i) else { return nil }
                let isCall = spells(i, ")") && (isIdentifier(o - 1) || spells(o - 1, ")") || spells(o - 1, "]"))
                let isSubscript = spells(i, "]") && !isMessageStart(o) && (isIdentifier(o - 1) || spells(o - 1, ")") || spells(o - 1, "]"))
                if isCall || isSubscript { i = o - 1; continue }
                start = o
            } else if isIdentifier(i) || spells(i, "self") || spells(i, "this") {
                start = i
            } else {
                return nil
            }
            guard spells(start - 1, ".") || spells(start - 1, "->") || spells(start - 1, "::") else { return start }
            i = start - 2
        }
        return nil
    }

    /// Whether the `[` at `i` starts an Objective-C message rather than a subscript.
    func isMessageStart(_ i: Int) -> Bool {
        guard let c = close(from: i) else { return false }
        // `[receiver selector]` / `[receiver selector:arg]`: two terms side by side inside
        var j = i + 1
        var sawTerm = false
        while j < c {
            if spells(j, "(") || spells(j, "[") { j = (close(from: j) ?? c) + 1; sawTerm = true; continue }
            if isIdentifier(j) || file.tokens[j].kind == .keyword {
                if sawTerm && !(spells(j - 1, ".") || spells(j - 1, "->")) { return true }
                sawTerm = true
            }
            j += 1
        }
        return false
    }

    /// Tokens from `lo` to `hi` (exclusive) joined without spaces: a receiver's identity.
    func joined(_ lo: Int, _ hi: Int) -> String {
        var out = ""
        for i in lo..<hi {
            if i > lo, isWord(i - 1), isWord(i) { out += " " }
            out += text(i)
        }
        return out
    }

    private func isWord(_ i: Int) -> Bool { file.tokens[i].kind == .identifier || file.tokens[i].kind == .keyword }

    /// Byte ranges of Objective-C block bodies (`^{…}`, `^(int x){…}`) inside `range`.
    func blockBodies(in range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for i in indices(in: range) where spells(i, "^") {
            var j = i + 1
            if isIdentifier(j) && spells(j + 1, "(") { j += 1 } // ^Type(args)
            if spells(j, "("), let c = close(from: j) { j = c + 1 }
            if spells(j, "{"), let c = close(from: j) { result.append(offset(j)..<file.tokens[c].range.upperBound) }
        }
        return result
    }

    /// The argument tokens of the call whose `(` is at `open`: index ranges split at top-level commas.
    func arguments(from open: Int) -> [Range<Int>] {
        guard let c = close(from: open) else { return [] }
        var result: [Range<Int>] = []
        var start = open + 1, j = open + 1
        while j < c {
            if spells(j, "(") || spells(j, "[") || spells(j, "{") { j = (close(from: j) ?? c) + 1; continue }
            if spells(j, ",") { result.append(start..<j); start = j + 1 }
            j += 1
        }
        if start < c { result.append(start..<c) }
        return result
    }
}

extension String {
    /// `bridge` → `Bridge` (for `setBridge:`).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
