import Foundation

/// Phase `inject` for one Objective-C or C access: the service expression becomes the fallback
/// form, keeping the original's syntax — `self.bridge ? self.bridge.svc : <original>` for a dot
/// access, `self.bridge ? [self.bridge svc:…] : <original>` for a message send (multi-line sends
/// keep their line breaks), `r->bridge ? r->bridge->svc(…) : <original>` in C.
struct InjectRewriter {
    let tokens: FixTokens

    /// An access rewritten: the replaced range and its new text.
    struct Rewrite {
        var range: Range<Int>
        var replacement: String
        var expression: String
    }

    /// Operators after a service that make it a target of assignment (a ternary cannot be one).
    private static let assignments: Set<String> = [
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--",
    ]

    /// Rewrites the access at token `k`, reaching the bridge through `bridge` (`self.bridge`, `r->bridge`).
    func rewrite(_ located: LocatedAccess, at k: Int, bridge: String) -> Result<Rewrite, ManualReason> {
        guard let container = tokens.containerTokens(at: k, located.access) else { return .failure(.unrecognisedForm) }
        let a = container.lowerBound, b = container.upperBound
        var s = a, e = b
        let op = tokens.text(b + 1)
        if (op == "." || op == "->") && tokens.isIdentifier(b + 2) {
            // C.shared.svc, [C shared].svc, container_fn()->svc, container_fn()->svc(args)
            e = b + 2
            if op == "->", tokens.text(e + 1) == "(", let close = tokens.matchingClose(e + 1) { e = close }
        } else if tokens.text(a - 1) == "[", tokens.isIdentifier(b + 1), let close = tokens.matchingClose(a - 1) {
            // [[C shared] svc], [[C shared] svc:arg with:more] (over any number of lines)
            s = a - 1
            e = close
            // [[C shared] setSvc:x]: a setter assigns the service, it does not read it
            let selector = tokens.text(b + 1)
            if tokens.text(b + 2) == ":", selector.count > 3, selector.hasPrefix("set"),
                selector.unicodeScalars.dropFirst(3).first.map(CharacterSet.uppercaseLetters.contains) == true
            {
                return .failure(.assignedTo)
            }
        } else {
            return .failure(.noService)
        }
        if Self.assignments.contains(tokens.text(e + 1)) || tokens.text(s - 1) == "&"
            || ["++", "--"].contains(tokens.text(s - 1))
        {
            return .failure(.assignedTo)
        }
        let original = tokens.source(s, e)
        let before = tokens.file.buffer.text(tokens.start(s)..<tokens.start(a))
        let after = tokens.file.buffer.text(tokens.end(b)..<tokens.end(e))
        let bridged = before + bridge + after
        var replacement = "\(bridge) ? \(bridged) : \(original)"
        // Parentheses unless the expression stands alone: `x = …;`, `return …;`, `f(…)`, `f(a, …)`, a statement.
        let previous = s == 0 ? ";" : tokens.text(s - 1), next = tokens.text(e + 1)
        let alone =
            (["=", "return", "(", ","].contains(previous) && [";", ")", ","].contains(next))
            // not after `}`: the classifier reads a condition across a block
            || ([";", "{"].contains(previous) && next == ";")
        if !alone { replacement = "(\(replacement))" }
        return .success(Rewrite(range: tokens.start(s)..<tokens.end(e), replacement: replacement, expression: original))
    }

    /// The service style: the access (`C.shared.svc`, `[[C shared] svc]`, `[C shared].svc`)
    /// becomes `reading` (`self.svc`), what follows it kept (`.date`, a send to it). A message
    /// with arguments to the container, a setter and an assignment are not reads of the service.
    func rewriteToService(_ located: LocatedAccess, at k: Int, reading: String) -> Result<Rewrite, ManualReason> {
        guard let container = tokens.containerTokens(at: k, located.access) else { return .failure(.unrecognisedForm) }
        let a = container.lowerBound, b = container.upperBound
        var s = a, e = b
        if tokens.text(b + 1) == "." && tokens.isIdentifier(b + 2) {
            e = b + 2
        } else if tokens.text(a - 1) == "[", tokens.isIdentifier(b + 1), let close = tokens.matchingClose(a - 1) {
            guard close == b + 2 else {
                let selector = tokens.text(b + 1)
                if tokens.text(b + 2) == ":", selector.count > 3, selector.hasPrefix("set"),
                    selector.unicodeScalars.dropFirst(3).first.map(CharacterSet.uppercaseLetters.contains) == true
                {
                    return .failure(.assignedTo)
                }
                return .failure(.serviceCallWithArguments)
            }
            s = a - 1
            e = close
        } else {
            return .failure(.noService)
        }
        if Self.assignments.contains(tokens.text(e + 1)) || tokens.text(s - 1) == "&"
            || ["++", "--"].contains(tokens.text(s - 1))
        {
            return .failure(.assignedTo)
        }
        return .success(
            Rewrite(range: tokens.start(s)..<tokens.end(e), replacement: reading, expression: tokens.source(s, e)))
    }
}
