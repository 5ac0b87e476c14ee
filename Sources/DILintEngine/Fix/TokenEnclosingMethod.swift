/// The Objective-C method around a token, found in the token stream: in a headerless parse a
/// method whose signature names unresolved types can drop out of the AST, and with it the
/// enclosing declaration the analysis reports. The front end's `lostDefinitions` answer it, as
/// they answer lint's scopes and the call graph.
extension FixTokens {
    func enclosingMethod(at k: Int) -> EnclosingDeclaration? {
        guard k >= 0, k < count else { return nil }
        let offset = start(k)
        return file.definition(holding: offset, kind: .objcMethod)
    }
}

extension FixTokens {
    /// Whether token `k` lies in a block (`^{ … }`, `^(args) { … }`) that uses a variable the
    /// method declared `__weak` / `__unsafe_unretained` (`weakSelf`): such a block avoids
    /// capturing `self`, and `self.bridge` would capture it strongly.
    func isInBlockAvoidingSelf(_ k: Int, method: EnclosingDeclaration) -> Bool {
        // the method's tokens only (tokens are in source order: `firstToken(atOrAfter:)`), not a
        // walk of the whole file per access
        let first = firstToken(atOrAfter: method.range.lowerBound)
        var end = first
        while end < count && start(end) < method.range.upperBound { end += 1 }
        let weak = (first..<end).filter { i in
            ["__weak", "__unsafe_unretained"].contains(text(i))
        }.compactMap { i -> String? in
            // `__weak typeof(self) weakSelf = self;` or `__weak Foo *weakSelf = self;`: the identifier before `=`
            var j = i + 1
            while j < count && text(j) != "=" && text(j) != ";" { j += 1 }
            return text(j) == "=" && isIdentifier(j - 1) ? text(j - 1) : nil
        }
        guard !weak.isEmpty else { return false }
        // an unbalanced `{` before k: a block literal's body when `^` opens it
        return unbalancedOpens(before: k, while: { $0 >= 0 && start($0) >= method.range.lowerBound }).contains { i in
            opensBlockLiteral(i) && matchingClose(i).map { (i...$0).contains { weak.contains(text($0)) } } == true
        }
    }
}

extension FixTokens {
    /// Whether `self.bridge` may be read at token `k` of a `-dealloc`: under ARC, the body of
    /// `-dealloc` still sees every property (ARC releases the ivars after it returns), so the bridge
    /// set after `-init` is still set there — provided that
    /// - the method is not manual reference counting (`[super dealloc]`: an ivar may be released
    ///   before the access, and self is gone after it),
    /// - the body does not touch the bridge itself (`self.bridge = nil`, `_bridge = nil`,
    ///   `[_bridge release]`: before the access it would make `finish`'s `self.bridge.x` nil),
    /// - the access is not in a block literal (a block may run after `-dealloc` returned, when
    ///   self is freed; the container it read before outlives self).
    /// (`-init` stays refused: the bridge is set on the object after `-init` returns.)
    func deallocKeepsBridge(at k: Int, method: EnclosingDeclaration, bridgeNames: Set<String>) -> Bool {
        var i = 0
        while i < count && start(i) < method.range.lowerBound { i += 1 }
        var first = i
        while first < count && text(first) != "{" && start(first) < method.range.upperBound { first += 1 }
        while i < count && start(i) < method.range.upperBound {
            let w = text(i)
            if bridgeNames.contains(w) { return false }
            if w == "super", text(i + 1) == "dealloc" { return false }
            i += 1
        }
        // an unbalanced `{` between the body's own `{` and k opens a block literal or a statement's body;
        // a block literal is one that `^` (with its optional return type and parameters) opens
        return !unbalancedOpens(before: k, while: { $0 > first }).contains(where: opensBlockLiteral)
    }

    /// The `{` tokens before token `k` left open at `k` (going back while `going` holds), innermost first.
    private func unbalancedOpens(before k: Int, while going: (Int) -> Bool) -> [Int] {
        var opens: [Int] = []
        var depth = 0, i = k - 1
        while going(i) {
            if text(i) == "}" {
                depth += 1
            } else if text(i) == "{" {
                if depth > 0 { depth -= 1 } else { opens.append(i) }
            }
            i -= 1
        }
        return opens
    }

    /// Whether the `{` at token `k` opens a block literal's body: `^` (with its optional return
    /// type and parameters, `^ReturnType(args) {`) before it.
    private func opensBlockLiteral(_ k: Int) -> Bool {
        var p = k - 1
        if text(p) == ")", let open = TokenCursor(file: file).balancedOpen(from: p) { p = open - 1 }
        if isIdentifier(p) && text(p - 1) == "^" { p -= 1 }
        return text(p) == "^"
    }
}
