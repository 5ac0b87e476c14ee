/// The Objective-C method around a token, found in the token stream: in a headerless parse a
/// method whose signature names unresolved types can drop out of the AST, and with it the
/// enclosing declaration the analysis reports.
extension FixTokens {
    func enclosingMethod(at k: Int) -> EnclosingDeclaration? {
        // the innermost `@implementation Name` before k with no `@end` between
        var typeName: String?
        var i = k - 1
        while i >= 0 {
            if let (word, next) = ObjCDeclarations.directive(self, at: i), next <= k {
                if word == "end" { return nil }
                if word == "implementation" { typeName = isIdentifier(next) ? text(next) : nil; break }
            }
            i -= 1
        }
        guard let typeName else { return nil }
        // the last `-` / `+` that starts a line, is followed by `(`, and whose body holds k
        var j = k - 1
        while j > i {
            if (text(j) == "-" || text(j) == "+"), isFirstOnLine(j), text(j + 1) == "(", let returnClose = matchingClose(j + 1) {
                var name = "", body = returnClose + 1, depth = 0
                while body < count && !(depth == 0 && (text(body) == "{" || text(body) == ";")) {
                    let w = text(body)
                    if w == "(" { depth += 1 } else if w == ")" { depth -= 1 }
                    // the first selector piece, then every `piece:` (parameter names are not followed by `:`)
                    if depth == 0 && isIdentifier(body) && (text(body + 1) == ":" || name.isEmpty) {
                        name += w + (text(body + 1) == ":" ? ":" : "")
                    }
                    body += 1
                }
                guard text(body) == "{", let end = matchingClose(body), end > k else { return nil }
                return EnclosingDeclaration(kind: .objcMethod, name: name, typeName: typeName, range: start(j)..<self.end(end), nameOffset: start(j))
            }
            j -= 1
        }
        return nil
    }
}

extension FixTokens {
    /// Whether token `k` lies in a block (`^{ … }`, `^(args) { … }`) that uses a variable the
    /// method declared `__weak` / `__unsafe_unretained` (`weakSelf`): such a block avoids
    /// capturing `self`, and `self.bridge` would capture it strongly.
    func isInBlockAvoidingSelf(_ k: Int, method: EnclosingDeclaration) -> Bool {
        let weak = (0..<count).filter { i in
            start(i) >= method.range.lowerBound && start(i) < method.range.upperBound
                && ["__weak", "__unsafe_unretained"].contains(text(i))
        }.compactMap { i -> String? in
            // `__weak typeof(self) weakSelf = self;` or `__weak Foo *weakSelf = self;`: the identifier before `=`
            var j = i + 1
            while j < count && text(j) != "=" && text(j) != ";" { j += 1 }
            return text(j) == "=" && isIdentifier(j - 1) ? text(j - 1) : nil
        }
        guard !weak.isEmpty else { return false }
        var depth = 0, i = k - 1
        while i >= 0 && start(i) >= method.range.lowerBound {
            let w = text(i)
            if w == "}" { depth += 1 } else if w == "{" {
                if depth > 0 { depth -= 1 } else {
                    // an unbalanced `{`: a block literal's body when `^` opens it
                    var p = i - 1
                    if text(p) == ")", let open = TokenCursor(file: file).balancedOpen(from: p) { p = open - 1 }
                    if isIdentifier(p) && text(p - 1) == "^" { p -= 1 } // ^ReturnType(args) {
                    if text(p) == "^", let close = matchingClose(i),
                       (i...close).contains(where: { weak.contains(text($0)) }) { return true }
                }
            }
            i -= 1
        }
        return false
    }
}
