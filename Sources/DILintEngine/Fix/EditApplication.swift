/// Applying sorted, non-overlapping edits to a file's bytes, and following ranges through them.
enum EditApplication {
    /// The bytes with the edits applied (`edits` sorted by offset, as `FixPlan.editsByFile` gives them).
    static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.replacement.utf8.count })
        var cursor = 0
        for edit in edits {
            out += bytes[cursor..<edit.range.lowerBound]
            out += Array(edit.replacement.utf8)
            cursor = edit.range.upperBound
        }
        out += bytes[cursor...]
        return out
    }

    /// Where a range replaced by one of the edits lies after them all.
    static func newRange(of replaced: Range<Int>, through edits: [TextEdit]) -> Range<Int>? {
        guard let own = edits.first(where: { $0.range == replaced && !$0.range.isEmpty }) else { return nil }
        var shift = 0
        for edit in edits where edit != own && edit.range.upperBound <= replaced.lowerBound {
            shift += edit.replacement.utf8.count - edit.range.count
        }
        let start = replaced.lowerBound + shift
        return start..<(start + own.replacement.utf8.count)
    }

    /// Pairs of edits that overlap: one starts inside the range another replaces (`edits` sorted
    /// by offset; insertions at one point, or at either end of a replaced range, do not overlap).
    static func overlaps(_ edits: [TextEdit]) -> [(TextEdit, TextEdit)] {
        var result: [(TextEdit, TextEdit)] = []
        for (i, a) in edits.enumerated() {
            for b in edits[(i + 1)...] {
                guard b.range.lowerBound < a.range.upperBound else { break }
                result.append((a, b))
            }
        }
        return result
    }
}
