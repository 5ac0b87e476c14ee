import Foundation

extension SourceBuffer {
    /// Lines up to this many bytes are a finding's snippet whole; longer ones are cut around it.
    static let maxSnippetBytes = 200

    /// The text shown (and, for findings other than accesses, fingerprinted) for a finding at
    /// `offset` on `line`: the line trimmed, or for a long line (generated code, a minified file)
    /// up to 200 bytes around the offset with `…` where it was cut. Copying a 10 MB line into each
    /// of its findings made one such file cost minutes and gigabytes.
    func snippet(line: Int, at offset: Int) -> String {
        guard line >= 1 && line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        let end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        guard end - start > Self.maxSnippetBytes else { return lineText(line).trimmingCharacters(in: .whitespaces) }
        var from = max(start, min(offset, end) - Self.maxSnippetBytes / 3)
        var to = min(end, from + Self.maxSnippetBytes)
        // Whole UTF-8 characters only.
        while from > start, bytes[from] & 0xC0 == 0x80 { from -= 1 }
        while to < end, bytes[to] & 0xC0 == 0x80 { to += 1 }
        let text = String(decoding: bytes[from..<to], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return (from > start ? "…" : "") + text + (to < end ? "…" : "")
    }
}
