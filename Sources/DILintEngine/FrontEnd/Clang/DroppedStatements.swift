import CLibClang

/// Statements libclang dropped from the AST: a statement in which a name did not resolve has no
/// node, but its tokens stay. Read by the call-graph extractor (which reads calls from them) and
/// by fix's verdict (an error such a statement hid before the edits).
extension ParsedFile {
    /// The token ranges of the compound statement `{ … }` with extent `compound` (braces left
    /// out) that none of its statements covers (`covered`: the extents of its children, sorted
    /// by start). `hint`: token indices the answers lie in, searched first (see
    /// `tokenIndex(atOrAfter:within:)`).
    func droppedStatements(compound: Range<Int>, covered: [Range<Int>], hint: Range<Int> = 0..<0) -> [Range<Int>] {
        let lo = tokenIndex(atOrAfter: compound.lowerBound, within: hint)
        var hi = lo
        while hi < tokens.count && tokens[hi].range.lowerBound < compound.upperBound { hi += 1 }
        guard hi - lo > 2 else { return [] }
        var result: [Range<Int>] = []
        var start = lo + 1
        let end = hi - 1
        let body = lo..<hi
        for r in covered {
            let next = tokenIndex(atOrAfter: r.lowerBound, within: body)
            if next > start {
                result.append(tokens[start].range.lowerBound..<tokens[min(next, end) - 1].range.upperBound)
            }
            start = max(start, tokenIndex(atOrAfter: r.upperBound, within: body))
        }
        if end > start {
            result.append(tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound)
        }
        return result
    }

    /// The dropped statements (`droppedStatements(compound:covered:)`) of any compound statement
    /// of the file that hold one of `offsets`, in the order of the file. Only the cursors whose
    /// extent holds one of the offsets are visited (an error lies in the statement it drops).
    func droppedStatements(holding offsets: [Int]) -> [Range<Int>] {
        precondition(!unitDisposed, "the AST of \(path) was asked for after its translation unit was freed")
        let sorted = offsets.sorted()
        guard !sorted.isEmpty else { return [] }
        func holdsOne(_ range: Range<Int>) -> Bool {
            let lo = sorted.partitionPoint { $0 < range.lowerBound }
            return lo < sorted.count && sorted[lo] < range.upperBound
        }
        var result: [Range<Int>] = []
        var pending = [clang_getTranslationUnitCursor(unit)]
        // each cursor once (a tree): its children with their extents
        while let cursor = pending.popLast() {
            let children = Cursors.children(cursor).compactMap { c in Cursors.offsets(c, in: self).map { (c, $0) } }
            if cursor.kind == CXCursor_CompoundStmt, let range = Cursors.offsets(cursor, in: self) {
                let covered = children.map(\.1).sorted { $0.lowerBound < $1.lowerBound }
                result += droppedStatements(compound: range, covered: covered).filter(holdsOne)
            }
            pending += children.filter { holdsOne($0.1) }.map(\.0)
        }
        return result.sorted { $0.lowerBound < $1.lowerBound }
    }
}
