import Foundation

/// A unified diff (`git apply` and `patch -p1` read it) of a file before and after its edits,
/// with three lines of context; bytes are kept as they are (CRLF lines stay CRLF, bytes that are
/// not UTF-8 stay those bytes), and a name with special bytes is quoted as git quotes it.
enum UnifiedDiff {
    static let context = 3

    /// The diff of one file, `a/PATH` → `b/PATH`; empty when the edits change nothing.
    static func diff(path: String, old: [UInt8], edits: [TextEdit]) -> [UInt8] {
        let oldLines = lines(old)
        var starts: [Int] = []
        var offset = 0
        for line in oldLines { starts.append(offset); offset += line.count }
        func lineIndex(_ offset: Int) -> Int { max(0, starts.partitionPoint { $0 <= offset } - 1) }
        // Regions of whole old lines the edits touch, merged when they share or adjoin a line.
        var regions: [(first: Int, last: Int, edits: [TextEdit])] = []
        for edit in edits {
            let first = lineIndex(edit.range.lowerBound)
            let last = max(first, lineIndex(max(edit.range.lowerBound, edit.range.upperBound - 1)))
            if let r = regions.last, first <= r.last + 1 {
                regions[regions.count - 1] = (r.first, max(r.last, last), r.edits + [edit])
            } else {
                regions.append((first, last, [edit]))
            }
        }
        // Each region's old and new lines, with the lines both share at either end left as context.
        var changes: [(oldStart: Int, oldCount: Int, new: [[UInt8]])] = []
        for r in regions {
            let base = oldLines.isEmpty ? 0 : starts[r.first]
            let end = oldLines.isEmpty ? 0 : starts[r.last] + oldLines[r.last].count
            let shifted = r.edits.map {
                TextEdit(
                    path: $0.path, range: ($0.range.lowerBound - base)..<($0.range.upperBound - base),
                    replacement: $0.replacement, order: $0.order)
            }
            var before = oldLines.isEmpty ? [] : Array(oldLines[r.first...r.last])
            var after = lines(EditApplication.apply(shifted, to: Array(old[base..<end])))
            var start = r.first
            while let a = before.first, let b = after.first, a == b {
                before.removeFirst(); after.removeFirst(); start += 1
            }
            while let a = before.last, let b = after.last, a == b { before.removeLast(); after.removeLast() }
            if !before.isEmpty || !after.isEmpty { changes.append((start, before.count, after)) }
        }
        guard !changes.isEmpty else { return [] }
        // as git writes them: a name with a blank ends in a tab (GNU patch reads the name up to it)
        let tab = path.utf8.contains(UInt8(ascii: " ")) ? "\t" : ""
        var out = Array("--- \(quoted("a/" + path))\(tab)\n+++ \(quoted("b/" + path))\(tab)\n".utf8)
        var delta = 0 // new line number minus old, before the current hunk
        var i = 0
        while i < changes.count {
            var j = i
            while j + 1 < changes.count
                && changes[j + 1].oldStart - (changes[j].oldStart + changes[j].oldCount) <= 2 * context
            { j += 1 }
            let hunkStart = max(0, changes[i].oldStart - context)
            let hunkEnd = min(oldLines.count, changes[j].oldStart + changes[j].oldCount + context) // exclusive
            var body: [UInt8] = []
            var oldCount = 0, newCount = 0
            var cursor = hunkStart
            func emit(_ prefix: UInt8, _ line: [UInt8]) {
                body.append(prefix)
                body += line
                if line.last != UInt8(ascii: "\n") { body += Array("\n\\ No newline at end of file\n".utf8) }
            }
            var hunkDelta = 0
            for c in changes[i...j] {
                while cursor < c.oldStart {
                    emit(UInt8(ascii: " "), oldLines[cursor]); cursor += 1; oldCount += 1; newCount += 1
                }
                for k in 0..<c.oldCount { emit(UInt8(ascii: "-"), oldLines[c.oldStart + k]) }
                for line in c.new { emit(UInt8(ascii: "+"), line) }
                cursor += c.oldCount
                oldCount += c.oldCount
                newCount += c.new.count
                hunkDelta += c.new.count - c.oldCount
            }
            while cursor < hunkEnd {
                emit(UInt8(ascii: " "), oldLines[cursor]); cursor += 1; oldCount += 1; newCount += 1
            }
            let oldFirst = oldCount == 0 ? hunkStart : hunkStart + 1
            let newFirst = newCount == 0 ? hunkStart + delta : hunkStart + delta + 1
            out += Array("@@ -\(oldFirst),\(oldCount) +\(newFirst),\(newCount) @@\n".utf8)
            out += body
            delta += hunkDelta
            i = j + 1
        }
        return out
    }

    /// A file name as git's diff writes it (`quote_c_style`, with `core.quotePath` at its
    /// default): as it is unless it holds a control byte, a double quote, a backslash or a byte
    /// of 0x7F or more; then in double quotes, with C escapes (`\t`, `\n`, `\"`…) and the other
    /// such bytes in octal (`ü` is `\303\274`).
    static func quoted(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
        else { return name }
        var out = "\""
        for b in bytes {
            switch b {
            case 0x07: out += "\\a"
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0B: out += "\\v"
            case 0x0C: out += "\\f"
            case 0x0D: out += "\\r"
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case let b where b < 0x20 || b >= 0x7F: out += String(format: "\\%03o", b)
            default: out.unicodeScalars.append(UnicodeScalar(b))
            }
        }
        return out + "\""
    }

    /// Lines with their terminators (the last may have none).
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        bytes.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            var start = 0
            while start < p.count {
                // each line through glibc's memchr, its newline kept
                let end =
                    memchr(base + start, Int32(UInt8(ascii: "\n")), p.count - start).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) + 1
                    } ?? p.count
                result.append(Array(p[start..<end]))
                start = end
            }
        }
        return result
    }
}
