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
        guard end - start > Self.maxSnippetBytes else { return Self.trimmed(lineText(line)) }
        var from = max(start, min(offset, end) - Self.maxSnippetBytes / 3)
        var to = min(end, from + Self.maxSnippetBytes)
        // Whole UTF-8 characters only.
        while from > start, bytes[from] & 0xC0 == 0x80 { from -= 1 }
        while to < end, bytes[to] & 0xC0 == 0x80 { to += 1 }
        // Spaces and tabs trimmed byte by byte, the `…` added, one string made: what the general
        // path below makes, without its three intermediate strings (a snippet per call site).
        var lo = from, hi = to
        while lo < hi, bytes[lo] == UInt8(ascii: " ") || bytes[lo] == UInt8(ascii: "\t") { lo += 1 }
        while hi > lo, bytes[hi - 1] == UInt8(ascii: " ") || bytes[hi - 1] == UInt8(ascii: "\t") { hi -= 1 }
        if lo < hi, bytes[lo] < 0x80, bytes[hi - 1] < 0x80 {
            let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
            var utf8: [UInt8] = []
            utf8.reserveCapacity(hi - lo + 6)
            if from > start { utf8 += ellipsis }
            utf8 += bytes[lo..<hi]
            if to < end { utf8 += ellipsis }
            return String(decoding: utf8, as: UTF8.self)
        }
        let text = Self.trimmed(String(decoding: bytes[from..<to], as: UTF8.self))
        return (from > start ? "…" : "") + text + (to < end ? "…" : "")
    }

    /// `text.trimmingCharacters(in: .whitespaces)`: spaces and tabs cut from both ends byte by
    /// byte, and Foundation's trimming (generic code over UTF-16, a fifth of a run over a long line
    /// of many call sites) only when an end is not ASCII, where a Unicode space may be.
    static func trimmed(_ text: String) -> String {
        let u = text.utf8
        func blank(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        var lo = u.startIndex, hi = u.endIndex
        while lo < hi, blank(u[lo]) { lo = u.index(after: lo) }
        while hi > lo, blank(u[u.index(before: hi)]) { hi = u.index(before: hi) }
        if lo < hi, u[lo] >= 0x80 || u[u.index(before: hi)] >= 0x80 { return text.trimmingCharacters(in: .whitespaces) }
        return String(text[lo..<hi])
    }
}

/// Snippets of findings made after the parse, from offsets (the call-graph facts keep no text):
/// each file read once, each snippet the one the parse would have made of the same bytes.
struct SourceSnippets {
    private var buffers: [String: SourceBuffer?] = [:]

    /// The snippet at `offset` on `line` of `path`; "" when the file cannot be read.
    mutating func snippet(path: String, line: Int, at offset: Int) -> String {
        if buffers[path] == nil {
            buffers[path] = .some((try? InputFile.read(path, limit: Int(Int32.max))).map { SourceBuffer(bytes: $0) })
        }
        return buffers[path]!.map { $0.snippet(line: line, at: offset) } ?? ""
    }
}
