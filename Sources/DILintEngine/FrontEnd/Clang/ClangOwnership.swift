/// Declarations with an ownership qualifier, on the token stream (headerless code keeps them):
/// `@property (nonatomic, weak) Bridge *bridge;`, `__weak Bridge *bridge;`,
/// `Bridge * __unsafe_unretained _bridge = b;`.
enum ClangOwnership {
    static let weakAttributes: Set<String> = ["weak", "assign", "unsafe_unretained"]
    static let weakQualifiers: Set<String> = ["__weak", "__unsafe_unretained"]
    private static let qualifierLengths = Set(weakQualifiers.map(\.utf8.count))

    static func declarations(_ t: TokenCursor) -> [QualifiedDeclaration] {
        var found: [QualifiedDeclaration] = []
        let tokens = t.file.tokens
        for i in 0..<t.count {
            let length = tokens[i].range.count
            if length == 8, t.spells(i, "property"), t.spells(i - 1, "@"), t.spells(i + 1, "("),
                let close = t.close(from: i + 1)
            {
                let attributes = (i + 2..<close).map(t.text)
                guard let weak = attributes.first(where: weakAttributes.contains),
                    let end = (close..<t.count).first(where: { t.spells($0, ";") }),
                    let name = declaredName(t, close + 1, end),
                    !(close + 1..<end).contains(where: { t.spells($0, "struct") })
                else { continue }
                found.append(
                    QualifiedDeclaration(
                        form: .objcProperty, name: t.text(name), qualifier: weak,
                        qualifierOffset: t.offset(i + 2 + attributes.firstIndex(of: weak)!)))
                continue
            }
            // a string only for the tokens a qualifier's length (a large file has millions of tokens)
            if qualifierLengths.contains(length), weakQualifiers.contains(t.text(i)) {
                var j = i + 1
                while j < t.count, ![";", "=", ",", ")", "{", "}"].contains(t.text(j)) { j += 1 }
                guard let name = declaredName(t, i + 1, j) else { continue }
                found.append(
                    QualifiedDeclaration(
                        form: .cVariable, name: t.text(name), qualifier: t.text(i), qualifierOffset: t.offset(i)))
            }
        }
        return found
    }

    /// The last identifier of a declaration between `lo` and `hi`, skipping a trailing macro call
    /// such as `NS_SWIFT_NAME(b)`.
    private static func declaredName(_ t: TokenCursor, _ lo: Int, _ hi: Int) -> Int? {
        var j = hi - 1
        while j >= lo {
            if t.spells(j, ")"), let o = t.open(from: j) { j = o - 2; continue }
            if t.isIdentifier(j) { return j }
            j -= 1
        }
        return nil
    }
}
