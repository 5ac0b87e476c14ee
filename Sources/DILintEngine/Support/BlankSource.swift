/// Whether a source holds no code at all: only whitespace and comments (and no `di-lint:`
/// directive, which the suppression rules read). Such a file has nothing any rule can find, so
/// it is not parsed: a tree of many tiny files (generated stubs, placeholders) was spending a
/// libclang parse, some milliseconds, on each.
enum BlankSource {
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), newline = UInt8(ascii: "\n")
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C {
                i += 1
            } else if b == slash, i + 1 < n, bytes[i + 1] == slash {
                let start = i
                while i < n, bytes[i] != newline { i += 1 }
                // A line comment ending in a backslash goes on to the next line: not worth following.
                if i > start,
                    bytes[i - 1] == UInt8(ascii: "\\")
                        || (bytes[i - 1] == 0x0D && i > start + 1 && bytes[i - 2] == UInt8(ascii: "\\"))
                {
                    return false
                }
                if mentionsDirective(bytes[start..<i]) { return false }
            } else if b == slash, i + 1 < n, bytes[i + 1] == star {
                let start = i
                i += 2
                while i + 1 < n, !(bytes[i] == star && bytes[i + 1] == slash) {
                    if bytes[i] == slash && bytes[i + 1] == star { return false } // Swift nests block comments
                    i += 1
                }
                guard i + 1 < n else { return false }
                i += 2
                if mentionsDirective(bytes[start..<i]) { return false }
            } else {
                return false
            }
        }
        return true
    }

    private static func mentionsDirective(_ comment: ArraySlice<UInt8>) -> Bool {
        let word = Array("di-lint".utf8)
        guard comment.count >= word.count else { return false }
        var i = comment.startIndex
        while i + word.count <= comment.endIndex {
            if comment[i..<(i + word.count)].elementsEqual(word) { return true }
            i += 1
        }
        return false
    }
}
