/// Definitions the AST lost, found in the token stream: the front end's one answer to "which
/// definition holds this offset" where libclang dropped the definition (a parameter type from a
/// missing header, a block under `#if` on a macro the parse does not know, an Objective-C method
/// whose types do not resolve). Computed once per file (`ParsedFile.lostDefinitions`) and read by
/// the accesses' enclosing definitions (so the findings' scopes, which fingerprints use), the call
/// graph (`CallGraphExtractor.definitionsFromTokens`) and fix (`FixTokens.enclosingMethod`).
extension ParsedFile {
    /// C and C++ functions `name(…) {…}` and Objective-C methods `- (T)piece:(T)a … {…}` inside
    /// `@implementation … @end`, outside every definition in `holders` (the AST's), in source order.
    func tokenDefinitions(holders: [Range<Int>]) -> [CodeScope] {
        let t = TokenCursor(file: self)
        let held = HeldOffsets(holders)
        let braces = BranchBraces(t)
        var result: [CodeScope] = []
        let namespaces = namespaceBlocks(t)
        var implementation: String?
        var i = 0
        while i < t.count {
            defer { i += 1 }
            if let (word, next) = t.directive(at: i) {
                if word == "implementation" { implementation = t.isIdentifier(next) ? t.text(next) : nil }
                if word == "end" { implementation = nil }
                i = next - 1
                continue
            }
            if let typeName = implementation, t.spells(i, "-") || t.spells(i, "+"), t.spells(i + 1, "("),
                isFirstOnLine(i, t),
                let method = objcMethod(t, at: i, typeName: typeName, braces: braces)
            {
                if !held.contains(method.scope.nameOffset) { result.append(method.scope) }
                i = method.end
                continue
            }
            guard t.isIdentifier(i), t.spells(i + 1, "("), !t.spells(i - 1, "@"), !t.isMemberOperator(i - 1),
                !LostStatementReader.notCalls.contains(t.text(i)), let close = t.close(from: i + 1)
            else { continue }
            // qualifiers and attribute macros between `)` and `{`: `const`, `KS_KEEP_FUNCTION_IN_STACKTRACE`, `__attribute__((…))`
            var open = close + 1
            while open < close + 8, open < t.count, t.isIdentifier(open) || tokens[open].kind == .keyword {
                open = t.spells(open + 1, "(") ? (t.close(from: open + 1) ?? open) + 1 : open + 1
            }
            guard t.spells(open, "{"), let end = braces.close(from: open) else { continue }
            let offset = t.offset(i)
            // `#define LOG(x) fprintf(…)` before `void f(void) {` is no definition of `fprintf`
            if held.contains(offset) || t.isInDirective(offset) { continue }
            var name = t.text(i), j = i
            while t.spells(j - 1, "::"), t.isIdentifier(j - 2) {
                name = t.text(j - 2) + "::" + name
                j -= 2
            }
            let scope = namespaces.filter { $0.tokens.contains(i) }.map(\.name)
            if !scope.isEmpty { name = (scope + [name]).joined(separator: "::") }
            let typeName = name.range(of: "::", options: .backwards).map { String(name[..<$0.lowerBound]) }
            result.append(
                CodeScope(
                    kind: .function, name: name, typeName: typeName, range: t.offset(j)..<tokens[end].range.upperBound,
                    nameOffset: offset))
            i = end
        }
        return result
    }

    /// The innermost definition (of `kind`, if given), the AST's or one found in the tokens, that holds a byte offset.
    func definition(holding offset: Int, kind: CodeScope.Kind? = nil) -> CodeScope? {
        (scopes + lostDefinitions).filter { $0.range.contains(offset) && (kind == nil || $0.kind == kind) }
            .min { $0.range.count < $1.range.count }
    }

    private func isFirstOnLine(_ i: Int, _ t: TokenCursor) -> Bool {
        i == 0 || buffer.lineColumn(of: t.offset(i - 1)).line < buffer.lineColumn(of: t.offset(i)).line
    }

    /// `- (T)first:(T)a second:(T)b {…}` at token `i`: the selector and the token after the body.
    private func objcMethod(_ t: TokenCursor, at i: Int, typeName: String, braces: BranchBraces) -> (
        scope: CodeScope, end: Int
    )? {
        guard let returnClose = t.close(from: i + 1) else { return nil }
        var name = "", body = returnClose + 1, depth = 0
        while body < t.count && !(depth == 0 && (t.spells(body, "{") || t.spells(body, ";"))) {
            if t.spells(body, "(") { depth += 1 } else if t.spells(body, ")") { depth -= 1 }
            // the first selector piece, then every `piece:` (parameter names are not followed by `:`)
            if depth == 0 && t.isIdentifier(body) && (t.spells(body + 1, ":") || name.isEmpty) {
                name += t.text(body) + (t.spells(body + 1, ":") ? ":" : "")
            }
            body += 1
        }
        guard t.spells(body, "{"), let end = braces.close(from: body) else { return nil }
        return (
            CodeScope(
                kind: .objcMethod, name: name, typeName: typeName, range: t.offset(i)..<tokens[end].range.upperBound,
                nameOffset: t.offset(i)), end
        )
    }

    /// `namespace a::b { … }` blocks in the tokens (named ones), outermost first.
    func namespaceBlocks(_ t: TokenCursor) -> [(name: String, tokens: ClosedRange<Int>)] {
        var result: [(name: String, tokens: ClosedRange<Int>)] = []
        // nine bytes first: no comparison for other tokens
        for i in 0..<t.count where tokens[i].range.count == 9 && t.spells(i, "namespace") {
            guard t.isIdentifier(i + 1) else { continue }
            var name = t.text(i + 1), open = i + 2
            while t.spells(open, "::"), t.isIdentifier(open + 1) {
                name += "::" + t.text(open + 1)
                open += 2
            }
            guard t.spells(open, "{"), let close = t.close(from: open) else { continue }
            result.append((name, open...close))
        }
        return result
    }
}

/// Braces as token-level recovery pairs them: where the branches of an `#if`/`#elif`/`#else`
/// chain open or close braces differently, only the first branch's count (read together, the
/// branches would close a function early or never), the same choice for the whole chain.
struct BranchBraces {
    let t: TokenCursor
    /// Byte ranges of the branches left out, sorted; empty when every chain balances.
    private(set) var leftOut: [Range<Int>] = []
    /// Whether an offset lies in a left-out branch.
    private var inLeftOut = HeldOffsets([])

    init(_ t: TokenCursor) {
        self.t = t
        let buffer = t.file.buffer
        var chains: [(branches: [Int], balance: [Int])] = []
        var found: [Range<Int>] = []
        // the last line of the directive being read (a `#define … {` brace is no code), and the previous token's line
        var directiveEnd = 0, previousLine = 0
        for i in 0..<t.count {
            let line = buffer.lineColumn(of: t.offset(i)).line
            defer { previousLine = line }
            if line <= directiveEnd { continue }
            let isBrace = t.spells(i, "{") || t.spells(i, "}")
            if isBrace {
                guard !chains.isEmpty else { continue }
                chains[chains.count - 1].balance[chains[chains.count - 1].balance.count - 1] +=
                    t.spells(i, "{") ? 1 : -1
                continue
            }
            guard t.spells(i, "#"), i == 0 || previousLine < line else { continue }
            directiveEnd = line
            while Self.continues(buffer, line: directiveEnd) { directiveEnd += 1 }
            switch t.text(i + 1) {
            case "if", "ifdef", "ifndef":
                chains.append(([t.offset(i)], [0]))
            case "elif", "else":
                guard !chains.isEmpty else { continue }
                chains[chains.count - 1].branches.append(t.offset(i))
                chains[chains.count - 1].balance.append(0)
            case "endif":
                guard let chain = chains.popLast() else { continue }
                let bounds = chain.branches + [t.offset(i)]
                // a chain whose braces do not balance in every branch alike: the first branch is read
                if chain.branches.count > 1, chain.balance.contains(where: { $0 != 0 }) {
                    for k in 1..<chain.branches.count { found.append(bounds[k]..<bounds[k + 1]) }
                }
                // the enclosing branch counts this chain's first branch only
                if !chains.isEmpty {
                    chains[chains.count - 1].balance[chains[chains.count - 1].balance.count - 1] += chain.balance[0]
                }
            default:
                continue
            }
        }
        leftOut = found.sorted { $0.lowerBound < $1.lowerBound }
        inLeftOut = HeldOffsets(leftOut)
    }

    /// The index of the first left-out branch starting at or after an offset (a binary search).
    private func firstLeftOut(from offset: Int) -> Int {
        leftOut.partitionPoint { $0.lowerBound < offset }
    }

    /// Whether a 1-based line ends in `\` (the directive goes on).
    private static func continues(_ buffer: SourceBuffer, line: Int) -> Bool {
        guard line < buffer.lineStarts.count else { return false }
        var end = buffer.lineStarts[line] - 1 // the newline
        if end > 0, buffer.bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return end > 0 && buffer.bytes[end - 1] == UInt8(ascii: "\\")
    }

    /// The `}` closing the `{` at token `open`: the bracket table's when no branch is left out
    /// there, else counted over the branches read.
    func close(from open: Int) -> Int? {
        let paired = t.close(from: open)
        guard !leftOut.isEmpty else { return paired }
        let start = t.offset(open)
        // inside a branch left out (its own braces are all it has), or no branch left out
        // between the pair: the bracket table's answer stands
        var k = firstLeftOut(from: start)
        if inLeftOut.contains(start) { return paired }
        if let paired, k == leftOut.count || leftOut[k].lowerBound >= t.offset(paired) { return paired }
        var depth = 0
        var i = open
        while i < t.count {
            let offset = t.offset(i)
            while k < leftOut.count, leftOut[k].upperBound <= offset { k += 1 }
            if k < leftOut.count, leftOut[k].contains(offset) {
                i += 1
                continue
            }
            if t.spells(i, "{") {
                depth += 1
            } else if t.spells(i, "}") {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }
}

/// Whether an offset lies in one of a set of ranges: a binary search over the ranges by start
/// with the furthest end so far, not a scan of every range per offset.
struct HeldOffsets {
    private let holders: [Range<Int>]
    private let furthestEnd: [Int]

    init(_ ranges: [Range<Int>]) {
        holders = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var ends: [Int] = []
        ends.reserveCapacity(holders.count)
        for h in holders { ends.append(max(ends.last ?? Int.min, h.upperBound)) }
        furthestEnd = ends
    }

    func contains(_ offset: Int) -> Bool {
        let lo = holders.partitionPoint { $0.lowerBound <= offset }
        return lo > 0 && furthestEnd[lo - 1] > offset
    }
}
