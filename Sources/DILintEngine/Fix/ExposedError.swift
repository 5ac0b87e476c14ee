import Foundation

/// An error after the edits that the edits exposed, not made. A headerless parse drops a
/// statement whose names do not resolve (`[[App shared].modelService request:^(id data) {…}]`):
/// the statement has no AST node, so nothing in it is type-checked. Once an edit makes the
/// receiver resolve (`[self.modelService request:^(id data) {…}]`), the statement is in the AST and
/// the block literal's body is checked too, where a property whose type the parse cannot see
/// fails (`property 'agencies' not found on object of type 'C *'`). Such an error is exposed when
///   - it lies in text no edit wrote (mapped back through the edits),
///   - that text lay, before the edits, inside a statement libclang dropped, in a function or
///     method that read the container (`FixFileAnalysis.dropped`),
///   - and inside the body `{…}` of a block literal of that statement, in which no edit lies
///     and which names no property the edits declare or read (nor its instance variable).
/// A block's parameter types are written out, so its body's checking does not depend on the
/// receiver's type the edit changed. An error on the send itself (a selector the receiver's new
/// type does not declare) lies outside the body and stays new. So does every error of a file
/// where an edit's read initializes a variable whose type is inferred (`__auto_type s =
/// self.service;`, `auto`, `typeof`): through such a variable the read's type reaches other text.
enum ExposedError {
    /// The words that give a declaration the type of an expression.
    static let inferringWords: Set<String> = ["auto", "__auto_type", "typeof", "__typeof", "__typeof__", "decltype"]

    /// Whether `error` (new after `edits`, this file's edits sorted as applied) is exposed, as
    /// above. `declared`: the round's edits of every file (a property the edits declare in a
    /// header that the body names is not exposed: the body reads what the edit added).
    static func isExposed(
        _ error: ParseVerdict.NewError, edits: [TextEdit], declared: [String: [TextEdit]], before: BeforeEdits
    ) -> Bool {
        guard let offset = error.offset, !error.insideEdit, error.elsewherePath == nil,
            let old = ParseVerdict.oldOffset(of: offset, through: edits).offset,
            let statement = before.dropped.first(where: { $0.contains(old) })
        else { return false }
        // the outermost block body of the statement that holds the error strictly inside its braces
        guard
            let body = before.blockBodies(in: statement)
                .filter({ $0.lowerBound < old && old < $0.upperBound - 1 })
                .max(by: { $0.count < $1.count })
        else { return false }
        // an edit in the body (an insertion right before its `{` counted in) keeps the error new
        guard
            !edits.contains(where: {
                $0.range.lowerBound < body.upperBound
                    && max($0.range.upperBound, $0.range.lowerBound + 1) > body.lowerBound
            }),
            !edits.contains(where: {
                !inferringWords.isDisjoint(with: before.statementWords(before: $0.range.lowerBound))
            })
        else { return false }
        // the body names none of what the edits declare or read (`modelService`, `_modelService`)
        let names = Set(
            declared.values.joined().flatMap { Fixer.declaredProperties(in: $0.replacement) }
                + edits.compactMap { HeaderlessCascade.readName($0.replacement) })
        let named = before.identifiers(in: body)
        return !names.contains { named.contains($0) || named.contains("_" + $0) }
    }
}
