/// A file's bytes with a line table; offsets and columns are in bytes, as clang counts them.
public struct SourceBuffer: Sendable {
    public let bytes: [UInt8]
    /// Offset of the first byte of each line.
    public let lineStarts: [Int]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
    }

    /// 1-based line and column of a byte offset.
    public func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        let lo = max(0, lineStarts.partitionPoint { $0 <= offset } - 1)
        return (lo + 1, offset - lineStarts[lo] + 1)
    }

    /// The text of a 1-based line, without its newline.
    public func lineText(_ line: Int) -> String {
        guard line >= 1 && line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The text of a byte range, clamped to the buffer (an empty string for a range outside it).
    public func text(_ range: Range<Int>) -> String {
        let lower = min(max(0, range.lowerBound), bytes.count)
        return String(decoding: bytes[lower..<max(lower, min(bytes.count, range.upperBound))], as: UTF8.self)
    }

    /// Whether the bytes at `range` spell `word` exactly (false where `range` leaves the file).
    public func spells(_ range: Range<Int>, _ word: String) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
        var i = range.lowerBound
        for b in word.utf8 {
            guard i < range.upperBound, bytes[i] == b else { return false }
            i += 1
        }
        return i == range.upperBound
    }
}

/// A lexical token from libclang's token stream.
public struct SourceToken: Sendable {
    public enum Kind: Sendable { case punctuation, keyword, identifier, literal, comment }
    public let kind: Kind
    public let range: Range<Int>
}
