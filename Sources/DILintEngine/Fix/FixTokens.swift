import Foundation

/// Token-level navigation over a parsed file, for the rewriters.
struct FixTokens {
    let file: ParsedFile

    var count: Int { file.tokens.count }
    func text(_ i: Int) -> String { i >= 0 && i < count ? file.buffer.text(file.tokens[i].range) : "" }
    func isIdentifier(_ i: Int) -> Bool { i >= 0 && i < count && file.tokens[i].kind == .identifier }
    func start(_ i: Int) -> Int { file.tokens[i].range.lowerBound }
    func end(_ i: Int) -> Int { file.tokens[i].range.upperBound }
    /// Source text from the start of token `a` to the end of token `b`.
    func source(_ a: Int, _ b: Int) -> String { file.buffer.text(start(a)..<end(b)) }

    static let opening: Set<String> = ["(", "[", "{"], closing: Set<String> = [")", "]", "}"]

    /// The token closing the bracket opened at `open` (the classifier's walk).
    func matchingClose(_ open: Int) -> Int? {
        TokenCursor(file: file).balancedClose(from: open)
    }

    /// The token range `[a, b]` of the container part of an access starting at token `k`:
    /// `[C accessor]`, `C.accessor`, `C.accessor()`, `container_fn(…)`.
    func containerTokens(at k: Int, _ access: ContainerAccess) -> ClosedRange<Int>? {
        if text(k) == "[", text(k + 1) == access.container, text(k + 2) == access.accessor, text(k + 3) == "]" {
            return k...(k + 3)
        }
        if access.container == access.accessor, text(k) == access.container, text(k + 1) == "(",
            let close = matchingClose(k + 1)
        {
            return k...close
        }
        if text(k) == access.container, text(k + 1) == ".", text(k + 2) == access.accessor {
            return text(k + 3) == "(" && text(k + 4) == ")" ? k...(k + 4) : k...(k + 2)
        }
        return nil
    }

    /// Whether the byte offset lies on a preprocessor directive line (`#define …`, continued lines included).
    func isInDirective(_ offset: Int) -> Bool { TokenCursor(file: file).isInDirective(offset) }

    /// The line ending the file mostly uses (`\r\n` when most lines end so).
    var lineEnding: String {
        // the line feeds found with memchr (a byte-by-byte walk was a fiftieth of a fix run's CPU
        // on a tree where every file is edited: the planners ask for it per edit)
        var crlf = 0, lf = 0
        file.buffer.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var i = 0
            while i < bytes.count, let hit = memchr(base + i, Int32(UInt8(ascii: "\n")), bytes.count - i) {
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if at > 0 && bytes[at - 1] == UInt8(ascii: "\r") { crlf += 1 } else { lf += 1 }
                i = at + 1
            }
        }
        return crlf > lf ? "\r\n" : "\n"
    }

    /// Byte offset of the start of the line holding `offset`.
    func lineStart(_ offset: Int) -> Int { file.buffer.lineStart(offset) }

    /// The spaces and tabs that begin the line holding `offset`.
    func indentation(_ offset: Int) -> String { file.buffer.indentation(offset) }

    /// Whether token `i` is the first thing on its line.
    func isFirstOnLine(_ i: Int) -> Bool { lineStart(start(i)) + indentation(start(i)).utf8.count == start(i) }
}

extension FixTokens {
    /// Where to insert whole lines before token `d`: the start of its line, moved up over the
    /// comment lines right above it (a doc comment stays with the declaration it documents).
    func lineStart(above d: Int) -> Int {
        var at = lineStart(start(d))
        let comments = file.comments
        while let c = comments.last(where: { $0.range.upperBound <= at }),
            file.buffer.lineColumn(of: c.range.upperBound).line + 1 == file.buffer.lineColumn(of: at).line,
            indentation(c.range.lowerBound).utf8.count + lineStart(c.range.lowerBound) == c.range.lowerBound
        {
            at = lineStart(c.range.lowerBound)
        }
        return at
    }

    /// The start of the line after the last `#import` / `#include` before token `limit`, at the
    /// outermost `#if` level any include has (a header guard is level ground; an include under
    /// `#if FEATURE` is passed over), if any.
    func afterLastInclude(before limit: Int) -> Int? {
        lineAfterLast(before: limit) { text($0) == "#" && ["import", "include"].contains(text($0 + 1)) }
    }

    /// The same for the last token before `limit` that `matches`.
    func lineAfterLast(before limit: Int, _ matches: (Int) -> Bool) -> Int? {
        var found: [(index: Int, depth: Int)] = []
        var depth = 0
        for i in 0..<min(limit, count) {
            if text(i) == "#" {
                switch text(i + 1) {
                case "if", "ifdef", "ifndef": depth += 1
                case "endif": depth -= 1
                default: break
                }
            }
            if matches(i) { found.append((i, depth)) }
        }
        guard let level = found.map(\.depth).min(), let last = found.last(where: { $0.depth == level })?.index else {
            return nil
        }
        let line = file.buffer.lineColumn(of: start(last)).line
        return line < file.buffer.lineStarts.count ? file.buffer.lineStarts[line] : nil
    }
}

extension SourceBuffer {
    /// Byte offset of the start of the line holding `offset`.
    func lineStart(_ offset: Int) -> Int { lineStarts[lineColumn(of: offset).line - 1] }

    /// The spaces and tabs that begin the line holding `offset`.
    func indentation(_ offset: Int) -> String {
        let start = lineStart(offset)
        var end = start
        while end < bytes.count && (bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t")) { end += 1 }
        return text(start..<end)
    }
}
