/// Whether a C function has the bridge in reach: a parameter named like the bridge (`bridge`),
/// or a parameter whose bridge field the function already uses (`r->bridge`, `r.bridge`).
struct CBridgeReach {
    let tokens: FixTokens
    let bridgeNames: [String]

    /// The expression reaching the bridge in the function, or nil.
    func bridge(in function: EnclosingDeclaration) -> String? {
        guard let first = (0..<tokens.count).first(where: { tokens.start($0) >= function.range.lowerBound }) else {
            return nil
        }
        var open = first
        while open < tokens.count && tokens.text(open) != "(" && tokens.start(open) < function.range.upperBound {
            open += 1
        }
        guard open < tokens.count, tokens.text(open) == "(", let close = tokens.matchingClose(open) else { return nil }
        // parameter names: the identifier before each top-level `,` and the closing `)`
        var parameters: [String] = []
        var depth = 0
        for i in (open + 1)...close {
            let w = tokens.text(i)
            if w == "(" || w == "[" { depth += 1 } else if (w == ")" || w == "]") && i != close { depth -= 1 }
            if depth == 0 && (w == "," || i == close) && tokens.isIdentifier(i - 1) {
                parameters.append(tokens.text(i - 1))
            }
        }
        if let direct = parameters.first(where: bridgeNames.contains) { return direct }
        var i = close + 1
        while i + 2 < tokens.count && tokens.start(i) < function.range.upperBound {
            let op = tokens.text(i + 1)
            if parameters.contains(tokens.text(i)), op == "->" || op == ".", bridgeNames.contains(tokens.text(i + 2)),
                tokens.text(i - 1) != "." && tokens.text(i - 1) != "->"
            {
                return tokens.text(i) + op + tokens.text(i + 2)
            }
            i += 1
        }
        return nil
    }
}
