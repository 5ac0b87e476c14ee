/// Classifies container accesses by the bridge check guarding them, on the token stream
/// (guarded code rarely resolves in a headerless parse), and finds accesses made through the bridge.
///
/// An access is a `fallback` when it runs only with no bridge:
/// - the else branch of `b ? b.x : C.shared.x`, or GNU `b ?: C.shared`;
/// - the then branch of `!b ? C.shared.x : b.x`;
/// - the else block of `if (b) {…} else {…}`, or the then block of `if (!b) {…}` / `if (b == nil) …`;
/// - a statement after `if (b) { … return …; }` in the same block (early return);
/// - the right operand of `b || C…` or `!b && C…` (short-circuit evaluation).
/// Anything else — a check of another variable, the then branch of `b ? …` — stays `direct`.
struct AccessClassifier {
    let file: ParsedFile
    /// Names of the injected bridge; `_name` (an ivar) counts too.
    let bridgeNames: Set<String>
    private let t: TokenCursor
    /// Matched brackets and enclosing blocks, so that no lookup walks the file.
    private let brackets: BracketTable
    /// The tokens naming the bridge, in order: every guard names it, so no access before the
    /// first (or in a file that never names it) is guarded, and a condition without one is not a
    /// bridge check (both answered without making the tokens' texts).
    private let bridgeTokens: [Int]
    private var firstBridgeToken: Int { bridgeTokens.first ?? file.tokens.count }
    private let configuration: Configuration

    init(file: ParsedFile, configuration: Configuration) {
        self.file = file
        self.configuration = configuration
        let bridgeNames = configuration.bridgeNamesWithIvars
        self.bridgeNames = bridgeNames
        let t = TokenCursor(file: file)
        self.t = t
        brackets = file.brackets
        let lengths = Set(bridgeNames.map(\.utf8.count))
        bridgeTokens = file.tokens.indices.filter {
            t.isIdentifier($0) && lengths.contains(file.tokens[$0].range.count) && bridgeNames.contains(t.text($0))
        }
    }

    /// Sets each access's kind (fallback, composition root) and adds the accesses made through the bridge.
    static func classify(
        _ accesses: [LocatedAccess], in file: ParsedFile, displayPath: String,
        configuration: Configuration
    ) -> [LocatedAccess] {
        let classifier = AccessClassifier(file: file, configuration: configuration)
        let inRootPath = configuration.isCompositionRootPath(displayPath)
        var result = accesses.map { located -> LocatedAccess in
            var located = located
            let enclosing = located.enclosing
            let inRoot =
                inRootPath
                || enclosing.map { configuration.isCompositionRootFunction($0.name) } == true
                || enclosing?.typeName.map(configuration.isCompositionRootType) == true
                || enclosing.map { classifier.isOwnedBridgeGetter($0) } == true
                || classifier.isHandedToBridgeSetter(located)
            if inRoot {
                located.access.kind = .compositionRoot
            } else if let k = located.tokenIndex, classifier.isFallback(at: k) {
                located.access.kind = .fallback
            }
            return located
        }
        result += classifier.injectedAccesses()
        return result.sorted { $0.offset < $1.offset }
    }

    /// An Objective-C class's getter that builds its own bridge once (`- (B *)bridge`, B the
    /// bridge type, a bridge name): the composition root's read when the config names no composition
    /// root (`fix --phase wire` infers the root and writes this getter).
    func isOwnedBridgeGetter(_ scope: CodeScope) -> Bool {
        // a configured composition root says which classes may build the bridge
        guard !configuration.compositionRootNamesCode, configuration.compositionRoot.paths.isEmpty,
            scope.kind == .objcMethod, scope.typeName != nil, bridgeNames.contains(scope.name),
            let i = tokens.firstIndex(where: { $0.range.lowerBound >= scope.range.lowerBound })
        else { return false }
        return text(i) == "-" && text(i + 1) == "(" && text(i + 2) == configuration.bridgeType && text(i + 3) == "*"
            && text(i + 4) == ")" && text(i + 5) == scope.name && text(i + 6) == "{"
    }

    /// A C accessor's whole result passed to the default bridge global's setter
    /// (`reporter_setBridge(app_container())`): the root handing a plain C file the container's
    /// C table (`CBridgeCType`; `fix --phase wire` writes it where the component starts).
    func isHandedToBridgeSetter(_ located: LocatedAccess) -> Bool {
        guard let global = configuration.cBridgeGlobal, global.infersCType, global.type == nil,
            let k = located.tokenIndex, k >= 2, k + 3 < tokens.count,
            located.access.container == located.access.accessor, text(k) == located.access.container,
            text(k - 1) == "(", text(k + 1) == "(", text(k + 2) == ")", text(k + 3) == ")"
        else { return false }
        let parts = global.setter.components(separatedBy: "{file}")
        let name = text(k - 2)
        guard parts.count == 2, name.hasPrefix(parts[0]), name.hasSuffix(parts[1]),
            name.count > parts[0].count + parts[1].count
        else { return false }
        return true
    }

    private var tokens: [SourceToken] { file.tokens }
    private func text(_ i: Int) -> String { t.text(i) }
    private func isIdentifier(_ i: Int) -> Bool { t.isIdentifier(i) }
    /// The bracket table answers in one read. It pairs brackets by the depth count
    /// `TokenCursor.balancedClose` uses, over the same tokens: a bracket it leaves unpaired has no
    /// partner a scan would find (scanning for one from every unclosed bracket made unbalanced
    /// code cost the square of its length).
    private func matchingClose(forOpenAt open: Int) -> Int? {
        brackets.partner(of: open).flatMap { $0 > open ? $0 : nil }
    }
    private func matchingOpen(forCloseAt close: Int) -> Int? {
        brackets.partner(of: close).flatMap { $0 < close ? $0 : nil }
    }
    private static let opening: Set<String> = ["(", "[", "{"], closing: Set<String> = [")", "]", "}"]

    /// Whether the access at token `k` runs only when no bridge is set.
    func isFallback(at k: Int) -> Bool {
        k > firstBridgeToken && (ternaryGuard(at: k) || blockGuard(at: k) || earlyReturnGuard(at: k))
    }

    // MARK: Bridge checks

    /// `true` for a check that the bridge is present (`b`, `self.bridge`, `b != nil`), `false` for one
    /// that it is absent (`!b`, `b == NULL`), nil when the condition is about something else.
    func bridgePolarity(_ range: Range<Int>) -> Bool? {
        guard namesBridge(range) else { return nil }
        var words = range.map(text)
        while words.first == "(" && words.last == ")" && matches(words) { words = Array(words.dropFirst().dropLast()) }
        var positive = true
        while words.first == "!" {
            positive.toggle()
            words.removeFirst()
            while words.first == "(" && words.last == ")" && matches(words) {
                words = Array(words.dropFirst().dropLast())
            }
        }
        if words.count >= 2, ["nil", "NULL", "nullptr", "0", "Nil", "NO", "false"].contains(words.last!) {
            let op = words[words.count - 2]
            guard op == "!=" || op == "==" else { return nil }
            if op == "==" { positive.toggle() }
            words.removeLast(2)
        }
        return isBridgePath(words) ? positive : nil
    }

    /// Whether a token of the range names the bridge.
    private func namesBridge(_ range: Range<Int>) -> Bool {
        let lo = bridgeTokens.partitionPoint { $0 < range.lowerBound } // the first at or after the range's start
        return lo < bridgeTokens.count && bridgeTokens[lo] < range.upperBound
    }

    /// `bridge`, `self.bridge`, `r->bridge`, `self->_bridge`, `[self bridge]`.
    private func isBridgePath(_ words: [String]) -> Bool {
        guard let last = words.last else { return false }
        if last == "]" && words.first == "[" && words.count == 4 { return bridgeNames.contains(words[2]) }
        guard bridgeNames.contains(last) else { return false }
        // alternate identifier, member operator, identifier, …
        for (i, w) in words.enumerated() {
            let isOperator = w == "." || w == "->"
            if (i % 2 == 1) != isOperator { return false }
        }
        return words.count % 2 == 1
    }

    private func matches(_ words: [String]) -> Bool {
        // the first "(" closes at the very end
        var depth = 0
        for (i, w) in words.enumerated() {
            if Self.opening.contains(w) {
                depth += 1
            } else if Self.closing.contains(w) {
                depth -= 1; if depth == 0 && i < words.count - 1 { return false }
            }
        }
        return depth == 0
    }

    // MARK: Ternaries

    private func ternaryGuard(at k: Int) -> Bool {
        var depth = 0, i = k - 1
        while i >= 0 {
            let w = text(i)
            if Self.closing.contains(w), let open = brackets.partner(of: i) { i = open - 1; continue }
            if Self.closing.contains(w) {
                depth += 1
            } else if Self.opening.contains(w) {
                if depth > 0 { depth -= 1 } else if w == "{" { return false } // else step out of ( or [
            } else if depth == 0 {
                switch w {
                case ";", ",", "=", "return", "{", "}":
                    return false
                case "||":
                    // `b || C…` evaluates the container only without a bridge
                    return bridgePolarity(conditionRange(endingBefore: i)) == true
                case "&&":
                    // `!b && C…` likewise
                    return bridgePolarity(conditionRange(endingBefore: i)) == false
                case "?":
                    // we are in the then branch
                    return bridgePolarity(conditionRange(endingBefore: i)) == false
                case ":":
                    if text(i - 1) == "?" { // GNU b ?: fallback
                        return bridgePolarity(conditionRange(endingBefore: i - 1)) == true
                    }
                    guard let q = questionMark(matchingColonAt: i) else { return false }
                    return bridgePolarity(conditionRange(endingBefore: q)) == true
                default:
                    break
                }
            }
            i -= 1
        }
        return false
    }

    func questionMark(matchingColonAt colon: Int) -> Int? {
        var depth = 0, nested = 0, i = colon - 1
        while i >= 0 {
            let w = text(i)
            if Self.closing.contains(w), let open = brackets.partner(of: i) { i = open - 1; continue }
            if Self.closing.contains(w) {
                depth += 1
            } else if Self.opening.contains(w) {
                if depth == 0 { return nil }
                depth -= 1
            } else if depth == 0 {
                if [";", ",", "=", "return", "{", "}"].contains(w) { return nil }
                if w == ":" && text(i - 1) != "?" { nested += 1 }
                if w == "?" { if nested == 0 { return i }; nested -= 1 }
            }
            i -= 1
        }
        return nil
    }

    /// The condition of a ternary whose `?` is at `end`.
    private func conditionRange(endingBefore end: Int) -> Range<Int> {
        var depth = 0, i = end - 1
        while i >= 0 {
            let w = text(i)
            if Self.closing.contains(w), let open = brackets.partner(of: i) { i = open - 1; continue }
            if Self.closing.contains(w) {
                depth += 1
            } else if Self.opening.contains(w) {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0 && [";", ",", "=", "return", "{", "}", "?", ":"].contains(w) {
                break
            }
            i -= 1
        }
        return (i + 1)..<end
    }

    // MARK: if / else

    /// How many enclosing blocks a guard is looked for in: clang's own bracket-depth limit
    /// (`-fbracket-depth`, 256), past which code does not compile. Unclosed `{`s in a broken file
    /// would otherwise make every access walk through all of them.
    static let maxEnclosingBlocks = 256

    /// Walks out through the enclosing blocks and braceless branches of `k`.
    ///
    /// Past the outermost block the walk steps over whole definitions (`}` to its `{`) to the
    /// start of the file or the last `;` at file scope, which for every access of a file of
    /// definitions with no `;` between them (an `@implementation`, minified code) is a walk over
    /// the file: a 1 MB single line of 8,000 functions took 8 s. The walk's answer from a token it
    /// lands on after stepping over a group depends on the access only through the `if (…)`
    /// closes it compares with `k`, so it is kept for that token (`WalkMemo`) and reused by later
    /// accesses past all of those closes. Unclosed `{`s are walked through at most
    /// `maxEnclosingBlocks` deep (a `false` so reached is not kept: it depends on where the walk began).
    private func blockGuard(at k: Int) -> Bool {
        var depth = 0, i = k - 1, blocks = 0
        // Tokens landed on at depth 0 after stepping over a group, and the closes compared with `k`
        // after each (`after`: how many of those tokens came before the comparison).
        var landed: [Int] = [], closes: [(after: Int, close: Int)] = []
        func compared(_ start: Int) {
            if text(start) == "if", text(start + 1) == "(", let close = matchingClose(forOpenAt: start + 1) {
                closes.append((landed.count, close))
            }
        }
        func finish(_ verdict: Bool) -> Bool {
            var latest = Int.min, c = closes.count - 1
            for j in stride(from: landed.count - 1, through: 0, by: -1) {
                while c >= 0 && closes[c].after > j { latest = max(latest, closes[c].close); c -= 1 }
                if latest < k { walkMemo.verdicts[landed[j]] = (verdict, latest) }
            }
            return verdict
        }
        let (openParen, closeParen, openSquare, closeSquare, openBrace, closeBrace, semicolon) =
            (
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                UInt8(ascii: "}"), UInt8(ascii: ";")
            )
        var jumped = false
        while i >= 0 {
            if jumped && depth == 0 {
                if let known = walkMemo.verdicts[i], known.latestClose < k {
                    if known.latestClose != Int.min { closes.append((landed.count, known.latestClose)) }
                    return finish(known.verdict)
                }
                landed.append(i)
            }
            jumped = false
            let w = brackets.structuralByte(i)
            let isClosing = w == closeBrace || w == closeParen || w == closeSquare
            if isClosing, let open = brackets.partner(of: i) { i = open - 1; jumped = true; continue }
            if isClosing {
                depth += 1
            } else if w == openParen || w == openSquare {
                if depth > 0 { depth -= 1 } // else: stepping out of a call's parentheses
            } else if w == openBrace && depth > 0 {
                depth -= 1
            } else if depth == 0 && (w == openBrace || w == semicolon) {
                // our statement starts after here: a braceless `if (c) stmt;` or `else stmt;`?
                compared(i + 1)
                if let verdict = bracelessVerdict(statementStart: i + 1, access: k) { return finish(verdict) }
                if w == openBrace {
                    if let verdict = branchVerdict(blockStart: i) { return finish(verdict) }
                    blocks += 1
                    if blocks >= Self.maxEnclosingBlocks { return false }
                    i -= 1
                } else {
                    i = enclosingBlockStart(from: i) // skip the earlier statements of this block
                }
                continue
            }
            i -= 1
        }
        compared(0)
        return finish(bracelessVerdict(statementStart: 0, access: k) ?? false)
    }

    /// `blockGuard`'s answers by the token its walk landed on, with the latest `if (…)` close the
    /// walk compared with the access from there (Int.min: none); valid for accesses after it.
    private final class WalkMemo { var verdicts: [Int: (verdict: Bool, latestClose: Int)] = [:] }
    private let walkMemo = WalkMemo()

    /// For a block opened at `open`: true = it runs only without a bridge, false = only with one, nil = unrelated.
    private func branchVerdict(blockStart open: Int) -> Bool? {
        if text(open - 1) == ")", let p = matchingOpen(forCloseAt: open - 1), text(p - 1) == "if" {
            return bridgePolarity((p + 1)..<(open - 1)).map { !$0 }
        }
        if text(open - 1) == "else", let cond = conditionOfIf(whoseThenEndsAt: open - 2) {
            return bridgePolarity(cond)
        }
        return nil
    }

    /// `if (c) stmt;` or `else stmt;` starting at `start`, containing the access at `k`.
    private func bracelessVerdict(statementStart start: Int, access k: Int) -> Bool? {
        if text(start) == "if", text(start + 1) == "(", let close = matchingClose(forOpenAt: start + 1), close < k {
            return bridgePolarity((start + 2)..<close).map { !$0 }
        }
        if text(start) == "else", let cond = conditionOfIf(whoseThenEndsAt: start - 1) {
            return bridgePolarity(cond)
        }
        return nil
    }

    /// The condition range of the `if` whose then-part ends at token `end` (`}` or `;`).
    private func conditionOfIf(whoseThenEndsAt end: Int) -> Range<Int>? {
        var thenStart: Int
        if text(end) == "}" {
            guard let open = matchingOpen(forCloseAt: end) else { return nil }
            thenStart = open
        } else {
            // braceless then: walk back to the `)` of `if (…)` at depth 0
            thenStart = end
            var depth = 0
            while thenStart > 0 {
                thenStart -= 1
                let w = text(thenStart)
                if w == ")" && depth == 0, let p = matchingOpen(forCloseAt: thenStart), text(p - 1) == "if" {
                    return (p + 1)..<thenStart
                }
                if Self.closing.contains(w) { depth += 1 } else if Self.opening.contains(w) { depth -= 1 }
                if depth < 0 || (depth == 0 && (w == ";" || w == "{" || w == "}")) { return nil }
            }
            return nil
        }
        guard text(thenStart - 1) == ")", let p = matchingOpen(forCloseAt: thenStart - 1), text(p - 1) == "if" else {
            return nil
        }
        return (p + 1)..<(thenStart - 1)
    }

    /// The unbalanced `{` enclosing token `i` (or -1): the start of its block.
    private func enclosingBlockStart(from i: Int) -> Int {
        brackets.enclosingBlock(of: i)
    }

    // MARK: Early return

    /// `if (b) { … return …; }` (no else) earlier in the same block makes the rest of the block bridge-less.
    private func earlyReturnGuard(at k: Int) -> Bool {
        let blockOpen = enclosingBlockStart(from: k)
        guard blockOpen >= 0, text(blockOpen) == "{" else { return false }
        return earlyReturnEnd(inBlockAt: blockOpen) < k
    }

    /// The end of the first `if (b) { … return …; }` (no else) among the statements of the block
    /// opened at `blockOpen` (Int.max when there is none): everything after it runs without a
    /// bridge. Worked out once per block.
    private func earlyReturnEnd(inBlockAt blockOpen: Int) -> Int {
        if let known = brackets.earlyReturnEnd[blockOpen] { return known }
        let limit = brackets.partner(of: blockOpen) ?? tokens.count
        var result = Int.max
        var i = blockOpen + 1
        while i < limit {
            let w = text(i)
            if w == "if", text(i + 1) == "(", let close = matchingClose(forOpenAt: i + 1), close < limit {
                let polarity = bridgePolarity((i + 2)..<close)
                let bodyStart = close + 1
                let bodyEnd: Int?
                if text(bodyStart) == "{" {
                    bodyEnd = matchingClose(forOpenAt: bodyStart)
                } else {
                    bodyEnd = statementEnd(from: bodyStart)
                }
                guard let end = bodyEnd else { break }
                if polarity == true, text(end + 1) != "else",
                    (bodyStart...end).contains(where: { text($0) == "return" })
                {
                    result = end
                    break
                }
                i = end + 1
                continue
            }
            if Self.opening.contains(w), let close = matchingClose(forOpenAt: i) { i = close + 1; continue }
            i += 1
        }
        brackets.earlyReturnEnd[blockOpen] = result
        return result
    }

    private func statementEnd(from i: Int) -> Int? {
        var depth = 0, j = i
        while j < tokens.count {
            let w = text(j)
            if Self.opening.contains(w) { depth += 1 } else if Self.closing.contains(w) { depth -= 1 }
            if depth == 0 && w == ";" { return j }
            if depth < 0 { return nil }
            j += 1
        }
        return nil
    }

    // MARK: Injected accesses

    /// Bridge members that are plumbing rather than services (the C bridge's `context` pointer).
    static let plumbing: Set<String> = ["context"]

    /// Services reached through the bridge: `bridge.x`, `self.bridge.x`, `r->bridge->x(…)`, `[self.bridge x]`.
    /// A name in the `bridge` list counts only where it is a bridge: see `declaredAsBridge`.
    func injectedAccesses() -> [LocatedAccess] {
        var found: [LocatedAccess] = []
        let declarations = bridgeDeclarations()
        for i in tokens.indices where isIdentifier(i) && bridgeNames.contains(text(i)) {
            var service: String?
            var start = i
            while start >= 2 && (text(start - 1) == "." || text(start - 1) == "->") && isIdentifier(start - 2) {
                start -= 2
            }
            if (text(i + 1) == "." || text(i + 1) == "->") && isIdentifier(i + 2) {
                service = text(i + 2)
            } else if text(start - 1) == "[" && isIdentifier(i + 1) && (text(i + 2) == "]" || text(i + 2) == ":") {
                service = text(i + 1)
                start -= 1
            } else if text(start - 1) == "[" && text(start) == "self" && text(i + 1) == "]" {
                continue
            }
            guard let service, !Self.plumbing.contains(service), text(i + 3) != "=" || text(i + 4) == "=" else {
                continue
            }
            guard declaredAsBridge(use: i, declarations: declarations) else { continue }
            let name = text(i).hasPrefix("_") ? String(text(i).dropFirst()) : text(i)
            found.append(
                LocatedAccess(
                    offset: tokens[start].range.lowerBound,
                    range: tokens[start].range.lowerBound..<tokens[i].range.upperBound,
                    access: ContainerAccess(container: name, accessor: name, service: service, kind: .injected),
                    tokenIndex: start))
        }
        return found
    }

    // MARK: Declarations of the bridge names

    /// A declaration of a bridge name in the file: where it is, where it can be seen, and
    /// whether its type is a bridge.
    struct BridgeDeclaration {
        let token: Int
        /// The tokens it can be seen in: the enclosing block, the body after a parameter, or the file.
        let scope: ClosedRange<Int>
        /// A property, an instance variable or a struct field: what `x.bridge`, `x->bridge` and
        /// `[x bridge]` name.
        let isMember: Bool
        let isBridge: Bool
    }

    /// Words that may stand before a declared name as (part of) its type.
    private static let builtinTypeWords: Set<String> = [
        "int", "char", "short", "long", "float", "double", "void", "signed",
        "unsigned", "bool", "_Bool", "const", "volatile",
    ]
    /// Types whose variables may hold anything: a variable of one is taken as a bridge.
    private static let opaqueTypes: Set<String> = [
        "id", "instancetype", "__kindof", "typeof", "__typeof", "__typeof__", "auto",
    ]
    /// Qualifiers between a type and its name that say nothing about the type.
    private static let qualifiers: Set<String> = [
        "const", "volatile", "__strong", "__weak", "__unsafe_unretained", "__autoreleasing",
        "_Nullable", "_Nonnull", "_Null_unspecified", "nullable", "nonnull",
        "__nullable", "__nonnull", "__block", "restrict", "__restrict",
    ]

    /// Every declaration of a bridge name the tokens show: `T *bridge`, `int bridge`,
    /// `id<P> bridge`, `@property (…) T *bridge`, an Objective-C parameter `(T *)bridge`.
    func bridgeDeclarations() -> [BridgeDeclaration] {
        bridgeTokens.compactMap { d in
            let next = text(d + 1)
            guard next == ";" || next == "=" || next == "," || next == ")" || next == "[" || next == ":" || next == "{"
            else { return nil }
            var j = d - 1
            var parameterClose: Int?
            if text(j) == ")", let open = matchingOpen(forCloseAt: j),
                text(open - 1) == ":" || text(open - 1) == "-" || text(open - 1) == "+"
            {
                guard text(open - 1) == ":" else { return nil } // `- (T *)bridge` is a getter, not a variable
                parameterClose = j
                j -= 1
            }
            while j >= 0 && (text(j) == "*" || Self.qualifiers.contains(text(j))) { j -= 1 }
            guard j >= 0, j < d else { return nil }
            var typeWords: [String] = []
            if text(j) == ">", let open = matchingAngleOpen(j) { // `id<P, Q>` / `NSObject<P> *`
                typeWords = (open + 1..<j).map(text).filter { $0 != "," }
                j = open - 1
                if j >= 0 && isIdentifier(j) { typeWords.insert(text(j), at: 0) }
            } else if isIdentifier(j) || Self.builtinTypeWords.contains(text(j)) {
                typeWords = [text(j)]
                if j >= 1 && text(j - 1) == "struct" { typeWords = ["struct " + text(j)] }
            } else {
                return nil
            }
            // `a * bridge;` reads like a declaration of `bridge` with type `a`: only a statement's
            // first words, a parameter list or a property declare.
            let before = j - (typeWords.first?.hasPrefix("struct ") == true ? 2 : 1)
            if parameterClose == nil {
                var k = before
                while k >= 0 && (Self.qualifiers.contains(text(k)) || text(k) == "static" || text(k) == "extern") {
                    k -= 1
                }
                let lead = k >= 0 ? text(k) : ";"
                let startsStatement =
                    lead == ";" || lead == "{" || lead == "}" || lead == "(" || lead == "," || lead == ")"
                    || lead == "property" || (k >= 1 && text(k - 1) == "@")
                guard startsStatement else { return nil }
            }
            let isBridge = typeWords.contains { word in
                let bare = word.hasPrefix("struct ") ? String(word.dropFirst(7)) : word
                return Self.opaqueTypes.contains(bare) || configuration.isBridgeTypeName(bare, snakeCase: true)
            }
            let block = brackets.enclosingBlock(of: d)
            let scope: ClosedRange<Int>
            var isMember = false
            if parameterClose != nil || isInsideParentheses(d) {
                // a parameter: seen in the body that follows
                var k = d
                while k < tokens.count && text(k) != "{" && text(k) != ";" { k += 1 }
                if k < tokens.count && text(k) == "{", let close = matchingClose(forOpenAt: k) {
                    scope = k...close
                } else {
                    scope = d...d
                }
            } else if block < 0 {
                scope = 0...max(0, tokens.count - 1)
                isMember = true // `@property` at @interface level, or a file-scope global
            } else {
                let close = matchingClose(forOpenAt: block) ?? (tokens.count - 1)
                scope = block...close
                let opener = block - 1
                // `struct s {`, `@interface X : Y {`
                isMember = opener >= 0 && text(opener) != ")" && text(opener) != "]"
            }
            return BridgeDeclaration(token: d, scope: scope, isMember: isMember, isBridge: isBridge)
        }
    }

    /// Whether the bridge name used at token `i` names a bridge: its nearest declaration in
    /// scope has a bridge type (the bridge type, a provider or facade type, `id`), or the file
    /// declares it nowhere in reach. A local `NSString *bridge` is not a bridge.
    func declaredAsBridge(use i: Int, declarations: [BridgeDeclaration]) -> Bool {
        guard !declarations.isEmpty else { return true }
        let isMemberUse = text(i - 1) == "." || text(i - 1) == "->" || (text(i - 2) == "[" && text(i - 1) != "[")
        if isMemberUse {
            let members = declarations.filter(\.isMember)
            return members.isEmpty || members.contains(where: \.isBridge)
        }
        if let local = declarations.last(where: { $0.token <= i && !$0.isMember && $0.scope.contains(i) }) {
            return local.isBridge
        }
        let members = declarations.filter(\.isMember)
        return members.isEmpty || members.contains(where: \.isBridge)
    }

    private func isInsideParentheses(_ i: Int) -> Bool {
        var k = i - 1, depth = 0
        while k >= 0 {
            let w = text(k)
            if w == ")" {
                depth += 1
            } else if w == "(" {
                if depth == 0 { return true }; depth -= 1
            } else if w == ";" || w == "{" || w == "}" {
                return false
            }
            k -= 1
        }
        return false
    }

    private func matchingAngleOpen(_ close: Int) -> Int? {
        var k = close - 1, depth = 0
        while k >= 0 && close - k < 64 {
            let w = text(k)
            if w == ">" {
                depth += 1
            } else if w == "<" {
                if depth == 0 { return k }; depth -= 1
            } else if w == ";" || w == "{" || w == "}" {
                return nil
            }
            k -= 1
        }
        return nil
    }
}
