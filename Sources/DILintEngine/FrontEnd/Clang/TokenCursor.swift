/// The one way to walk a parsed file's token stream: for matching that must work on headerless
/// files, where code that does not resolve drops out of libclang's AST but stays in its tokens.
/// Out-of-range indices read as nothing (`text` is empty, `spells` and `isIdentifier` false).
struct TokenCursor {
    let file: ParsedFile
    var count: Int { file.tokens.count }

    func text(_ i: Int) -> String { i >= 0 && i < count ? file.buffer.text(file.tokens[i].range) : "" }
    func spells(_ i: Int, _ word: String) -> Bool {
        i >= 0 && i < count && file.buffer.spells(file.tokens[i].range, word)
    }
    func isIdentifier(_ i: Int) -> Bool { i >= 0 && i < count && file.tokens[i].kind == .identifier }
    func offset(_ i: Int) -> Int { file.tokens[i].range.lowerBound }

    /// Token indices whose tokens start inside the byte range.
    func indices(in range: Range<Int>) -> Range<Int> {
        let lo = file.tokenIndex(atOrAfter: range.lowerBound)
        return lo..<max(lo, file.tokenIndex(atOrAfter: range.upperBound))
    }

    func isMemberOperator(_ i: Int) -> Bool { spells(i, ".") || spells(i, "->") }

    /// An Objective-C `@word` at token `i` (one token, or `@` then the word right after it): the
    /// word and the index after it.
    func directive(at i: Int) -> (word: String, next: Int)? {
        let w = text(i)
        if w == "@", i + 1 < count, offset(i + 1) == file.tokens[i].range.upperBound { return (text(i + 1), i + 2) }
        if w.count > 1, w.hasPrefix("@") { return (String(w.dropFirst()), i + 1) }
        return nil
    }

    /// Whether the byte offset lies on a preprocessor directive line (`#define …`, continued lines included).
    func isInDirective(_ offset: Int) -> Bool {
        let buffer = file.buffer
        var line = buffer.lineColumn(of: offset).line
        while true {
            if buffer.lineText(line).drop(while: { $0 == " " || $0 == "\t" }).first == "#" { return true }
            // continued from the line above?
            guard line > 1, buffer.lineText(line - 1).hasSuffix("\\") else { return false }
            line -= 1
        }
    }

    /// The function-like macro whose `#define` holds token `i`: its name and parameter names.
    func enclosingMacroDefinition(_ i: Int) -> (name: String, parameters: [String])? {
        guard i < count, isInDirective(offset(i)) else { return nil }
        var d = i
        // back to the directive's `#`: the first token of its line
        while d >= 0,
            !(spells(d, "#")
                && (d == 0
                    || file.buffer.lineColumn(of: offset(d - 1)).line < file.buffer.lineColumn(of: offset(d)).line))
        {
            d -= 1
        }
        // `# define NAME(` with `(` right after the name
        guard d >= 0, text(d + 1) == "define", isIdentifier(d + 2), spells(d + 3, "("),
            file.tokens[d + 2].range.upperBound == offset(d + 3), let close = close(from: d + 3), close < i
        else { return nil }
        return (text(d + 2), (d + 4..<close).filter { isIdentifier($0) }.map(text))
    }

    /// The index of the bracket closing the one at `open`, counting only brackets of its kind.
    func close(from open: Int) -> Int? {
        file.brackets.sameKindPartner(of: open).flatMap { $0 > open ? $0 : nil }
    }

    /// The index of the bracket opening the one at `close`, counting only brackets of its kind.
    func open(from close: Int) -> Int? {
        file.brackets.sameKindPartner(of: close).flatMap { $0 < close ? $0 : nil }
    }

    private static let opening: Set<String> = ["(", "[", "{"], closing: Set<String> = [")", "]", "}"]
    func isOpening(_ i: Int) -> Bool { TokenCursor.opening.contains(text(i)) }
    func isClosing(_ i: Int) -> Bool { TokenCursor.closing.contains(text(i)) }

    /// The closer of the bracket at `open`, counting every kind of bracket alike (for code that
    /// may not balance per kind, such as a token range cut out of a macro).
    func balancedClose(from open: Int) -> Int? {
        var depth = 0, j = open
        while j < count {
            if isOpening(j) { depth += 1 } else if isClosing(j) { depth -= 1; if depth == 0 { return j } }
            j += 1
        }
        return nil
    }

    /// The opener of the bracket at `close`, counting every kind of bracket alike.
    func balancedOpen(from close: Int) -> Int? {
        var depth = 0, j = close
        while j >= 0 {
            if isClosing(j) { depth += 1 } else if isOpening(j) { depth -= 1; if depth == 0 { return j } }
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
                let isSubscript =
                    spells(i, "]") && !isMessageStart(o)
                    && (isIdentifier(o - 1) || spells(o - 1, ")") || spells(o - 1, "]"))
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
