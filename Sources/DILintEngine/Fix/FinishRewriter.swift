import Foundation

/// Phase `finish` for one fallback access: the whole guarded construct becomes its bridge side.
/// - `b ? X : C…` (or `!b ? C… : X`) → `X`, with parentheses around the ternary dropped when `X` is a postfix expression;
/// - `b ?: C…` → `b`, and `b || C…` → `b != nil` (`NULL` in C);
/// - `if (b) { X } else { C… }` (or `if (!b) { C… } else { X }`, braced or not) → `X`, re-indented;
/// - `if (b) { …; return …; }` followed by the fallback statements → the body, the rest of the block removed.
struct FinishRewriter {
    let tokens: FixTokens
    let classifier: AccessClassifier

    init(analysis: FixFileAnalysis, configuration: Configuration) {
        tokens = analysis.tokens
        classifier = AccessClassifier(file: analysis.file, configuration: configuration)
    }

    func rewrite(at k: Int) -> InjectRewriter.Rewrite? {
        ternary(at: k) ?? ifElse(at: k) ?? earlyReturn(at: k)
    }

    private func text(_ i: Int) -> String { tokens.text(i) }

    private func rewrite(_ a: Int, _ b: Int, keep: String) -> InjectRewriter.Rewrite {
        InjectRewriter.Rewrite(
            range: tokens.start(a)..<tokens.end(b), replacement: keep, expression: tokens.source(a, b))
    }

    // MARK: Expressions

    private static let stops: Set<String> = [";", ",", "=", "return", "{", "}"]

    private func ternary(at k: Int) -> InjectRewriter.Rewrite? {
        var depth = 0, i = k - 1
        while i >= 0 {
            let w = text(i)
            if FixTokens.closing.contains(w) {
                depth += 1
            } else if FixTokens.opening.contains(w) {
                if depth > 0 { depth -= 1 } else if w == "{" { return nil }
            } else if depth == 0 {
                if Self.stops.contains(w) { return nil }
                if w == "||" || w == "&&" || w == "?" || w == ":" { return operatorForm(at: i, access: k) }
            }
            i -= 1
        }
        return nil
    }

    private func operatorForm(at op: Int, access k: Int) -> InjectRewriter.Rewrite? {
        let w = text(op)
        if w == "||" || (w == ":" && text(op - 1) == "?") {
            let condition = conditionStart(before: w == ":" ? op - 1 : op)
            guard let end = expressionEnd(from: k),
                classifier.bridgePolarity(condition..<(w == ":" ? op - 1 : op)) == true
            else { return nil }
            let bridge = tokens.source(condition, w == ":" ? op - 2 : op - 1)
            guard w == "||" else { return wrapped(condition, end, keep: bridge) }
            // `b || C…` is a truth value: with the bridge always set it is `b`'s (`b != NULL` stays as written)
            let compares = (condition..<op).contains { ["!=", "=="].contains(text($0)) }
            let objc = ["m", "mm"].contains((tokens.file.path as NSString).pathExtension)
            return wrapped(condition, end, keep: compares ? bridge : "\(bridge) != \(objc ? "nil" : "NULL")")
        }
        // a ternary: find its `?` and `:`
        let question: Int, colon: Int
        if w == ":" {
            guard let q = classifier.questionMark(matchingColonAt: op) else { return nil }
            question = q; colon = op
        } else if w == "?" {
            guard let c = colonAfter(question: op) else { return nil }
            question = op; colon = c
        } else {
            return nil
        }
        let condition = conditionStart(before: question)
        guard let polarity = classifier.bridgePolarity(condition..<question), let end = expressionEnd(from: colon + 1)
        else { return nil }
        let inElse = k > colon
        guard polarity == inElse else { return nil }
        let keep = polarity ? tokens.source(question + 1, colon - 1) : tokens.source(colon + 1, end)
        return wrapped(condition, end, keep: keep)
    }

    /// Replaces tokens `a…b` with `keep`, taking the parentheses around them too when `keep` needs none.
    private func wrapped(_ a: Int, _ b: Int, keep: String) -> InjectRewriter.Rewrite {
        if text(a - 1) == "(", text(b + 1) == ")", tokens.matchingClose(a - 1) == b + 1, isPostfix(keep) {
            let before = text(a - 2)
            let isCall =
                tokens.isIdentifier(a - 2) || before == ")" || before == "]"
                || tokens.file.tokens.indices.contains(a - 2) && tokens.file.tokens[a - 2].kind == .keyword
                    && before != "return"
            if !isCall { return rewrite(a - 1, b + 1, keep: keep) }
        }
        return rewrite(a, b, keep: keep)
    }

    /// `self.bridge.svc`, `[self.bridge svc:x]`, `r->bridge->svc(a, b)`: nothing that binds looser than a member access.
    private func isPostfix(_ source: String) -> Bool {
        var depth = 0
        for c in source {
            if "([{".contains(c) {
                depth += 1
            } else if ")]}".contains(c) {
                depth -= 1
            } else if depth == 0 && !(c.isLetter || c.isNumber || c == "_" || c == "." || c == "-" || c == ">") {
                return false
            }
        }
        return depth == 0 && !source.hasPrefix("-")
    }

    private func conditionStart(before end: Int) -> Int {
        var depth = 0, i = end - 1
        while i >= 0 {
            let w = text(i)
            if FixTokens.closing.contains(w) {
                depth += 1
            } else if FixTokens.opening.contains(w) {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0 && (Self.stops.contains(w) || w == "?" || w == ":" || w == "||" || w == "&&") {
                break
            }
            i -= 1
        }
        return i + 1
    }

    /// The last token of the expression starting at `start` (before `;`, `,`, or an unbalanced closer).
    private func expressionEnd(from start: Int) -> Int? {
        var depth = 0, i = start
        while i < tokens.count {
            let w = text(i)
            if FixTokens.opening.contains(w) {
                depth += 1
            } else if FixTokens.closing.contains(w) {
                if depth == 0 { return i - 1 }
                depth -= 1
            } else if depth == 0 && (w == ";" || w == "," || w == "?" || w == ":") {
                return i - 1
            }
            i += 1
        }
        return nil
    }

    private func colonAfter(question: Int) -> Int? {
        var depth = 0, nested = 0, i = question + 1
        while i < tokens.count {
            let w = text(i)
            if FixTokens.opening.contains(w) {
                depth += 1
            } else if FixTokens.closing.contains(w) {
                if depth == 0 { return nil }
                depth -= 1
            } else if depth == 0 {
                if w == ";" { return nil }
                if w == "?" { nested += 1 }
                if w == ":" { if nested == 0 { return i }; nested -= 1 }
            }
            i += 1
        }
        return nil
    }

    // MARK: Statements

    /// `if (cond) then else otherwise` around the access.
    private func ifElse(at k: Int) -> InjectRewriter.Rewrite? {
        var i = k - 1
        while i >= 0 {
            guard text(i) == "if", text(i + 1) == "(", let close = tokens.matchingClose(i + 1),
                let polarity = classifier.bridgePolarity((i + 2)..<close),
                let thenEnd = statementEnd(from: close + 1), text(thenEnd + 1) == "else",
                let elseEnd = statementEnd(from: thenEnd + 2)
            else { i -= 1; continue }
            guard k > close, k <= elseEnd else { i -= 1; continue }
            let inElse = k > thenEnd
            guard polarity == inElse else { return nil }
            let (from, to) = polarity ? (close + 1, thenEnd) : (thenEnd + 2, elseEnd)
            return rewrite(i, elseEnd, keep: body(from, to, indentOf: i))
        }
        return nil
    }

    /// `if (b) { …; return …; }` then the fallback statements up to the end of the block.
    private func earlyReturn(at k: Int) -> InjectRewriter.Rewrite? {
        var open = k - 1, depth = 0
        while open >= 0 {
            let w = text(open)
            if w == "}" { depth += 1 } else if w == "{" { if depth == 0 { break }; depth -= 1 }
            open -= 1
        }
        guard open >= 0, let blockEnd = tokens.matchingClose(open) else { return nil }
        var i = open + 1
        while i < k {
            if text(i) == "if", text(i + 1) == "(", let close = tokens.matchingClose(i + 1), close < k,
                let thenEnd = statementEnd(from: close + 1), thenEnd < k, text(thenEnd + 1) != "else"
            {
                if classifier.bridgePolarity((i + 2)..<close) == true, endsWithReturn(close + 1, thenEnd) {
                    return rewrite(i, blockEnd - 1, keep: body(close + 1, thenEnd, indentOf: i))
                }
                i = thenEnd + 1
                continue
            }
            if FixTokens.opening.contains(text(i)), let c = tokens.matchingClose(i) { i = c + 1; continue }
            i += 1
        }
        return nil
    }

    private func endsWithReturn(_ from: Int, _ to: Int) -> Bool {
        let last = text(to) == "}" ? to - 1 : to // the final `;`
        var j = last - 1, depth = 0
        while j >= from {
            let w = text(j)
            if FixTokens.closing.contains(w) {
                depth += 1
            } else if FixTokens.opening.contains(w) {
                depth -= 1; if depth < 0 { break }
            }
            if depth == 0 && (w == ";" || w == "{") { break }
            j -= 1
        }
        return text(j + 1) == "return"
    }

    /// The last token of the statement starting at `start`: a braced block or up to its `;`.
    private func statementEnd(from start: Int) -> Int? {
        if text(start) == "{" { return tokens.matchingClose(start) }
        var depth = 0, j = start
        while j < tokens.count {
            let w = text(j)
            if FixTokens.opening.contains(w) {
                depth += 1
            } else if FixTokens.closing.contains(w) {
                depth -= 1; if depth < 0 { return nil }
            }
            if depth == 0 && w == ";" { return j }
            j += 1
        }
        return nil
    }

    /// A branch's statements, out of their braces and one level less indented, placed where `if` stood.
    private func body(_ from: Int, _ to: Int, indentOf statement: Int) -> String {
        guard text(from) == "{" else { return tokens.source(from, to) }
        guard from + 1 <= to - 1 else { return "" }
        let buffer = tokens.file.buffer
        let inner = buffer.text(tokens.start(from + 1)..<tokens.end(to - 1))
        let eol = tokens.lineEnding
        let base = tokens.indentation(tokens.start(statement))
        let innerIndent = tokens.indentation(tokens.start(from + 1))
        let lines = inner.components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        var out: [String] = []
        for (n, line) in lines.enumerated() {
            if n == 0 { out.append(line); continue }
            if line.hasPrefix(innerIndent) {
                out.append(base + line.dropFirst(innerIndent.count))
            } else {
                out.append(line)
            }
        }
        return out.joined(separator: eol)
    }
}
