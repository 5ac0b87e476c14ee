/// The shapes of a Swift file that swift-syntax's parser cannot take in bounded time and stack,
/// measured in one linear pass over the bytes before the parser sees them.
///
/// - Nesting: `(`, `[`, `{`, generic `<`, `#if` and string interpolation. The parser recurses a
///   few frames per level, and its lookahead (types, generic arguments) does not count levels at
///   all, so very deep nesting overflows a thread's stack.
/// - `[` lookahead: the type lookahead that tells `[x]` from `[Int]` and `[3 of Int]` (swift-syntax
///   602/603, `canParseCollectionTypeBody`) walks the first element of a `[` twice, and so a `[`
///   nested first in another twice per level: time doubles with each level (16 nested `[` take
///   8 s in a debug build, 10 nested `[` around a 1,000-link member chain 22 s). Estimated as
///   twice the first element's tokens per `[` (a nested `[` there counting as its own estimate),
///   summed over the file.
/// - Chains: prefix keywords (`try try …`), postfix links (`a?.b?.c…`, `.map { }.map { }…`),
///   `else if` and `->` chains are parsed recursively without a nesting level; the longest chain
///   of one expression or statement is counted. An `if` statement's `else` links are counted
///   on their own, over its conditions (`else if x == 1 {`, `else if let y = z {`): the chain
///   goes on while the next token after a block's `}` is `else`.
///
/// The scan skips comments and string text (but not interpolations, which are code). It
/// over-estimates rather than under-estimates: a `<` right after a name counts as a generic
/// argument list until `>`, `;`, `=`, `{` or a closing bracket.
struct SwiftNesting {
    /// Deepest nesting of brackets, generic `<`, `#if` and interpolations.
    private(set) var depth = 0
    /// Deepest `[` nesting.
    private(set) var squareDepth = 0
    /// Estimated steps of the parser's `[` lookahead, saturating.
    private(set) var squareCost = 0
    /// Code tokens (roughly: names, literals and punctuation bytes).
    private(set) var tokens = 0
    /// The longest chain of prefix keywords, postfix links, `else` and `->` in one expression.
    private(set) var chain = 0

    /// Deepest nesting the parser is asked to take (its `maximumNestingLevel`, the same in debug
    /// and release builds; swift-syntax's own default is 20 in debug and 256 in release builds).
    static let maxDepth = 128
    /// The most `[` lookahead steps per file: four per token (a flat literal costs two per token
    /// at most) plus 2^16 (16 nested `[` around one name, or 10 around a 30-token element).
    var maxSquareCost: Int { 4 * tokens + (1 << 16) }
    /// Longest chain parsed.
    static let maxChain = 1000

    /// Why the parser must not see the file, or nil.
    var problem: String? {
        if depth > Self.maxDepth {
            return
                "Swift brackets, generic arguments, #if blocks or string interpolations nest \(depth) deep; swift-syntax's parser recurses per level, so di-lint does not parse Swift nested past \(Self.maxDepth)"
        }
        if squareCost > maxSquareCost {
            return
                "Swift square brackets nest \(squareDepth) deep; swift-syntax's lookahead doubles its time with each '[' nested first in another, an estimated \(squareCost) steps, over di-lint's limit of \(maxSquareCost) for this file (4 per token + 65536)"
        }
        if chain > Self.maxChain {
            return
                "a Swift expression chains \(chain) prefix keywords, member or call links, 'else' or '->'; swift-syntax's parser recurses per link, so di-lint does not parse chains longer than \(Self.maxChain)"
        }
        return nil
    }

    private enum Kind: UInt8 { case file, paren, square, brace, angle, conditional, interpolation }
    private struct Frame {
        var kind: Kind
        /// The chain at this level so far.
        var links = 0
        /// For an interpolation: the string it sits in (its `#` count and whether it is multi-line).
        var hashes = 0
        var multiline = false
        /// For a `[`: whether its first element is being read, and the lookahead steps estimated for it.
        var first = true
        var work = 0
        /// The `else` links of the `if` statement at this level so far, and whether the last
        /// token at this level was a `}` (after which only `else` goes on with the statement).
        var elses = 0
        var afterBlock = false
    }

    private static let chainWords: Set<String> = [
        "try", "await", "else", "as", "is", "some", "any", "consume", "copy", "each",
        "repeat", "inout", "borrowing", "consuming", "throws", "rethrows", "async",
    ]

    init(bytes: [UInt8]) {
        var stack = [Frame(kind: .file)]
        var squares: [Int] = [] // indices of the `[` frames
        var string: (hashes: Int, multiline: Bool)? = nil
        /// The last code byte that is not white space (0 at a line's start after a newline).
        var previous: UInt8 = 0
        var newline = false
        let n = bytes.count
        var i = 0

        func isIdentifier(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b == 0x5f || b == 0x24
                || b >= 0x80
        }
        func at(_ k: Int) -> UInt8 { k < n ? bytes[k] : 0 }
        func link() {
            stack[stack.count - 1].links += 1
            chain = max(chain, stack[stack.count - 1].links)
        }
        func push(_ frame: Frame) {
            stack.append(frame)
            depth = max(depth, stack.count - 1)
            if frame.kind == .square {
                squares.append(stack.count - 1)
                squareDepth = max(squareDepth, squares.count)
            }
        }
        let saturated = 1 << 50
        func pop() {
            guard stack.count > 1 else { return }
            let frame = stack.removeLast()
            guard frame.kind == .square else { return }
            squares.removeLast()
            // the lookahead walks the first element twice (as an InlineArray, then as a type)
            let steps = min(saturated, 2 * (frame.work + 1))
            squareCost = min(saturated, squareCost + steps)
            if let outer = squares.last, stack[outer].first {
                stack[outer].work = min(saturated, stack[outer].work + steps)
            }
        }
        /// One code token: part of the first element of the innermost `[`, if it is still read.
        func token() {
            tokens += 1
            if let s = squares.last, stack[s].first { stack[s].work += 1 }
        }
        func popAngles() { while stack.count > 1 && stack[stack.count - 1].kind == .angle { pop() } }
        /// Pops down to the innermost frame of `kind` (kept when there is none: stray closers).
        func close(_ kind: Kind) -> Frame? {
            guard let k = stack.lastIndex(where: { $0.kind == kind }), k > 0 else { return nil }
            var last: Frame? = nil
            while stack.count > k { last = stack[stack.count - 1]; pop() }
            return last
        }

        while i < n {
            let c = bytes[i]
            if let s = string {
                // string text: look for its end and for interpolations
                if c == UInt8(ascii: "\\") {
                    var k = i + 1, h = 0
                    while h < s.hashes && at(k) == UInt8(ascii: "#") { h += 1; k += 1 }
                    if h < s.hashes {
                        i += 1 // a backslash in a raw string
                    } else if at(k) == UInt8(ascii: "(") {
                        push(Frame(kind: .interpolation, hashes: s.hashes, multiline: s.multiline))
                        string = nil
                        previous = UInt8(ascii: "(")
                        i = k + 1
                    } else {
                        i = k + 1 // an escaped character
                    }
                    continue
                }
                if c == UInt8(ascii: "\n") && !s.multiline {
                    string = nil; i += 1; newline = true; previous = 0; continue
                }
                if c == UInt8(ascii: "\"")
                    && (!s.multiline || (at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\"")))
                {
                    var k = i + (s.multiline ? 3 : 1), h = 0
                    while h < s.hashes && at(k) == UInt8(ascii: "#") { h += 1; k += 1 }
                    if h == s.hashes { string = nil; previous = UInt8(ascii: "\""); i = k; continue }
                }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
                continue
            case UInt8(ascii: "\n"):
                newline = true
                previous = 0
                i += 1
                continue
            case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "/"):
                while i < n && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                var level = 0
                while i < n {
                    if bytes[i] == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") {
                        level += 1; i += 2
                    } else if bytes[i] == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/") {
                        level -= 1; i += 2; if level == 0 { break }
                    } else {
                        i += 1
                    }
                }
                continue
            default:
                break
            }
            // A code byte after a newline: a new statement unless it continues the chain.
            var word: String? = nil
            var end = i + 1
            if isIdentifier(c) {
                while end < n && isIdentifier(bytes[end]) { end += 1 }
                if end - i <= 10 { word = String(decoding: bytes[i..<end], as: UTF8.self) }
            }
            // an `if` statement's `else` links: a token after a block's `}` other than `else` starts another statement
            let top = stack.count - 1
            if word == "else" {
                stack[top].elses += 1
                chain = max(chain, stack[top].elses)
            } else if stack[top].afterBlock {
                stack[top].elses = 0
            }
            stack[top].afterBlock = false
            if newline {
                newline = false
                let continues =
                    c == UInt8(ascii: ".") || c == UInt8(ascii: "?") || c == UInt8(ascii: "!")
                    || c == UInt8(ascii: "-") || word.map { Self.chainWords.contains($0) } == true
                if !continues { stack[stack.count - 1].links = 0 }
            }
            let afterOperand =
                isIdentifier(previous) || previous == UInt8(ascii: ")") || previous == UInt8(ascii: "]")
                || previous == UInt8(ascii: "}") || previous == UInt8(ascii: "?") || previous == UInt8(ascii: "!")
                || previous == UInt8(ascii: ">")
            if !isIdentifier(c) && c != UInt8(ascii: "\"") && c != UInt8(ascii: "#") { token() }
            switch c {
            case _ where isIdentifier(c):
                token()
                if let word, Self.chainWords.contains(word) { link() }
                previous = bytes[end - 1]
                i = end
                continue
            case UInt8(ascii: "`"):
                var k = i + 1
                while k < n && bytes[k] != UInt8(ascii: "`") && bytes[k] != UInt8(ascii: "\n") { k += 1 }
                previous = UInt8(ascii: "a")
                i = k + 1
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "#"):
                var k = i, h = 0
                while at(k) == UInt8(ascii: "#") { h += 1; k += 1 }
                if at(k) == UInt8(ascii: "\"") {
                    token()
                    let multiline = at(k + 1) == UInt8(ascii: "\"") && at(k + 2) == UInt8(ascii: "\"")
                    string = (h, multiline)
                    i = k + (multiline ? 3 : 1)
                    continue
                }
                if h == 1 {
                    var e = k
                    while e < n && isIdentifier(bytes[e]) { e += 1 }
                    let directive = String(decoding: bytes[k..<e], as: UTF8.self)
                    if directive == "if" {
                        push(Frame(kind: .conditional))
                    } else if directive == "endif" {
                        _ = close(.conditional)
                    }
                    previous = 0
                    i = max(e, k)
                    continue
                }
                previous = c
                i = k
                continue
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                if afterOperand { link() }
                if c == UInt8(ascii: "{") { popAngles() }
                push(Frame(kind: c == UInt8(ascii: "(") ? .paren : c == UInt8(ascii: "[") ? .square : .brace))
            case UInt8(ascii: ")"):
                popAngles()
                if let frame = stack.last, frame.kind == .interpolation {
                    pop()
                    string = (frame.hashes, frame.multiline)
                    i += 1
                    continue
                }
                _ = close(.paren)
            case UInt8(ascii: "]"):
                popAngles(); _ = close(.square)
            case UInt8(ascii: "}"):
                popAngles()
                if close(.brace) != nil { stack[stack.count - 1].afterBlock = true }
            case UInt8(ascii: "<"):
                let next = at(i + 1)
                if (isIdentifier(previous) || previous == UInt8(ascii: ">"))
                    && (isIdentifier(next) || next == UInt8(ascii: "(")
                        || next == UInt8(ascii: "[") || next == UInt8(ascii: "<") || next == UInt8(ascii: "@"))
                    && next != UInt8(ascii: "=")
                {
                    push(Frame(kind: .angle))
                }
            case UInt8(ascii: ">"):
                if previous == UInt8(ascii: "-") { link() } else if stack.last?.kind == .angle { pop() }
            case UInt8(ascii: ";"), UInt8(ascii: "="):
                popAngles()
                stack[stack.count - 1].links = 0
            case UInt8(ascii: ","):
                if stack.last?.kind != .angle { stack[stack.count - 1].links = 0 }
                if stack.last?.kind == .square { stack[stack.count - 1].first = false }
            case UInt8(ascii: "."):
                if isIdentifier(at(i + 1)) && previous != UInt8(ascii: ".") { link() }
            case UInt8(ascii: "?"), UInt8(ascii: "!"):
                if afterOperand { link() }
            default:
                break
            }
            previous = c
            i += 1
        }
        while stack.count > 1 { pop() }
    }
}
