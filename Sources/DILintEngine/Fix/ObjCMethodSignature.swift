/// An Objective-C method's signature in the tokens, `- (T)first:(A)a second:(B)b` up to its `{`
/// (a definition) or `;` (a declaration), as the initializer injection reads and writes it.
struct ObjCMethodSignature {
    struct Piece {
        /// The keyword token (`initWithName`), and for a keyword with an argument the `(` of its
        /// type and the argument's name.
        var keyword: Int
        var typeOpen: Int?
        var name: Int?
    }

    /// The `-` or `+` token.
    var start: Int
    var isInstance: Bool
    /// The `(` and `)` around the return type.
    var returnOpen: Int
    var returnClose: Int
    var pieces: [Piece]
    /// The tokens after the last piece and before the terminator (`NS_DESIGNATED_INITIALIZER`).
    var trailing: Range<Int>
    /// The `{` of a definition or the `;` of a declaration.
    var terminator: Int

    /// `init`, `initWithName:`, `initWithName:clock:`.
    func selector(_ tokens: FixTokens) -> String {
        if pieces.count == 1, pieces[0].name == nil { return tokens.text(pieces[0].keyword) }
        return pieces.map { tokens.text($0.keyword) + ":" }.joined()
    }

    /// The argument names, in order.
    func argumentNames(_ tokens: FixTokens) -> [String] { pieces.compactMap { $0.name.map(tokens.text) } }

    /// The signature at token `i` (a `-` or `+` first on its line), or nil for a form it does not
    /// take (an argument without a type, varargs, a C parameter list after the selector).
    static func parse(_ tokens: FixTokens, at i: Int) -> ObjCMethodSignature? {
        guard ["-", "+"].contains(tokens.text(i)), tokens.text(i + 1) == "(", let close = tokens.matchingClose(i + 1)
        else { return nil }
        var pieces: [Piece] = []
        var j = close + 1
        while tokens.isIdentifier(j) {
            if tokens.text(j + 1) == ":" {
                guard tokens.text(j + 2) == "(", let typeClose = tokens.matchingClose(j + 2),
                    tokens.isIdentifier(typeClose + 1)
                else { return nil }
                pieces.append(Piece(keyword: j, typeOpen: j + 2, name: typeClose + 1))
                j = typeClose + 2
            } else {
                guard pieces.isEmpty else { break }
                pieces.append(Piece(keyword: j, typeOpen: nil, name: nil))
                j += 1
                break
            }
        }
        guard !pieces.isEmpty else { return nil }
        // attributes after the selector (identifiers, a macro's parenthesised arguments)
        let after = j
        while j < tokens.count, !["{", ";"].contains(tokens.text(j)) {
            if tokens.text(j) == "(", let c = tokens.matchingClose(j) {
                j = c + 1
            } else if tokens.isIdentifier(j) {
                j += 1
            } else {
                return nil
            }
        }
        guard j < tokens.count else { return nil }
        return ObjCMethodSignature(
            start: i, isInstance: tokens.text(i) == "-", returnOpen: i + 1, returnClose: close, pieces: pieces,
            trailing: after..<j, terminator: j)
    }

    /// The signatures of the methods of a class's blocks (`@interface`s and `@implementation`s) in a file.
    static func methods(of className: String, in tokens: FixTokens, _ declarations: ObjCDeclarations)
        -> [ObjCMethodSignature]
    {
        var result: [ObjCMethodSignature] = []
        for block in declarations.blocks where block.className == className {
            var i = block.start
            let end = block.end ?? tokens.count
            while i < end {
                if ["-", "+"].contains(tokens.text(i)), tokens.isFirstOnLine(i),
                    let signature = parse(tokens, at: i)
                {
                    result.append(signature)
                    i = signature.terminator
                    if tokens.text(i) == "{", let close = tokens.matchingClose(i) { i = close }
                }
                i += 1
            }
        }
        return result
    }

    /// The type of a piece's argument, its tokens joined without spaces and nullability words
    /// (`Clock*` for `(nonnull Clock *)`), to compare with a service's type.
    static func compactType(_ tokens: FixTokens, open: Int) -> String? {
        guard let close = tokens.matchingClose(open) else { return nil }
        let skipped: Set<String> = [
            "nonnull", "nullable", "_Nonnull", "_Nullable", "__nonnull", "__nullable", "null_unspecified",
            "_Null_unspecified", "__strong", "const",
        ]
        return ((open + 1)..<close).map(tokens.text).filter { !skipped.contains($0) }.joined()
    }
}

extension FixTokens {
    /// The first token starting at or after a byte offset.
    func firstToken(atOrAfter offset: Int) -> Int {
        (0..<count).partitionPoint { start($0) < offset }
    }
}

extension ObjCServiceTypes.Declared {
    /// The type as `ObjCMethodSignature.compactType` spells an argument's (`Clock*`, `id<Store>`).
    var compact: String { returnType.filter { $0 != " " } }
}
