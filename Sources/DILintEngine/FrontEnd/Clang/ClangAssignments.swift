/// Assignments on the token stream, which is all headerless code keeps: every `=` token, with
/// its target read backwards (`name = …`; `base.name = …` and `base->name = …`, the base a
/// postfix expression; anything else, `a[0] = …`, without a name). Tokens do not tell an
/// assignment from a declaration's initial value, so `T *name = …` is one too.
enum ClangAssignments {
    static func all(_ t: TokenCursor) -> [Assignment] {
        var result: [Assignment] = []
        for e in 1..<max(1, t.count) where t.spells(e, "=") {
            let n = e - 1
            let value = t.isIdentifier(e + 1) && t.spells(e + 2, ";") ? t.text(e + 1) : nil
            guard t.isIdentifier(n) else {
                result.append(
                    Assignment(
                        name: nil, isMember: false, base: nil, offset: t.offset(n),
                        nameOffset: t.offset(n), valueName: value))
                continue
            }
            guard t.isMemberOperator(n - 1) else {
                result.append(
                    Assignment(
                        name: t.text(n), isMember: false, base: nil, offset: t.offset(n),
                        nameOffset: t.offset(n), valueName: value))
                continue
            }
            let start = t.expressionStart(endingAt: n - 2)
            result.append(
                Assignment(
                    name: t.text(n), isMember: true, base: start.map { t.joined($0, n - 1) },
                    offset: t.offset(start ?? n), nameOffset: t.offset(n), valueName: value))
        }
        return result
    }
}
