import Foundation

/// Input echoed in a message, cut to a bounded excerpt: an error about a 50 MB fingerprint says
/// what it starts with and how long it is, not the whole of it. Control characters are escaped,
/// so an echoed value cannot break the message's line or drive the terminal.
public enum Excerpt {
    /// Characters of a value kept in a message.
    public static let valueCharacters = 60
    /// Bytes of a whole error message printed (the path and problem); past it the message is cut.
    public static let messageBytes = 4096

    /// `text` in quotes, at most `limit` characters of it, and its size in bytes when cut:
    /// `'abc…' (52428800 bytes)`.
    public static func quoted(_ text: String, limit: Int = valueCharacters) -> String {
        var kept = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return "'\(kept)…' (\(text.utf8.count) bytes)" }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                kept += scalar.escaped(asASCII: true)
            } else {
                kept.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "'\(kept)'"
    }

    /// A message of at most `limit` bytes (whole characters): a longer one is cut, saying how
    /// much was left out.
    public static func message(_ text: String, limit: Int = messageBytes) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
        return String(text[..<end])
            + "… (\(utf8.count - utf8.distance(from: utf8.startIndex, to: end)) more bytes of the message left out)"
    }
}
