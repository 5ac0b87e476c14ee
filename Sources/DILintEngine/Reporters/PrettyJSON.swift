import Foundation

/// Writes JSON as `JSONEncoder` with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`
/// writes it, for the findings of a report: encoding a hundred thousand findings through
/// `Codable` took longer than linting them. The caller writes the keys of each object in sorted
/// order; strings `JSONEncoder` might escape otherwise than `\"` and `\\` (control characters,
/// DEL, the line and paragraph separators) are encoded by `JSONEncoder` itself. `splice` moves the
/// bytes written into the result's text a megabyte at a time, so the two are not both whole.
/// `ReportFastPathTests` compares the two writers.
struct PrettyJSON {
    private(set) var bytes: [UInt8] = []
    /// When set (`splice`), the text of `bytes` moved out at element boundaries, a megabyte at a
    /// time: a report of a million stale entries is never held as bytes and as text at once.
    private var flushed: String?
    private var indent: Int
    /// Whether the object or array being written has had a member yet.
    private var started: [Bool] = []

    /// A writer of an array's elements, the array's `[` written at `indent` (elements at indent + 2).
    init(arrayAt indent: Int, capacity: Int = 0) {
        self.indent = indent + 2
        started = [false]
        bytes.reserveCapacity(capacity)
    }

    /// The newline and indentation before a member, with the comma after the previous one.
    private mutating func member() {
        if started[started.count - 1] { bytes.append(UInt8(ascii: ",")) }
        started[started.count - 1] = true
        newline()
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    private mutating func newline() {
        bytes.append(0x0A)
        if indent <= PrettyJSON.spaces.count {
            bytes.append(contentsOf: PrettyJSON.spaces[..<indent])
        } else {
            for _ in 0..<indent { bytes.append(0x20) }
        }
    }

    mutating func key(_ name: StaticString) {
        member()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\" : ".utf8)
    }

    mutating func key(_ name: String) {
        member()
        string(name)
        bytes.append(contentsOf: " : ".utf8)
    }

    /// An array element's place.
    mutating func element() {
        if flushed != nil, bytes.count >= 1 << 20 {
            flushed!.append(String(decoding: bytes, as: UTF8.self))
            bytes.removeAll(keepingCapacity: true)
        }
        member()
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        started.append(false)
        indent += 2
    }

    private mutating func close(_ bracket: UInt8) {
        indent -= 2
        // an empty container is written `[`, two newlines, the indentation, `]`
        if !started.removeLast() { bytes.append(0x0A) }
        newline()
        bytes.append(bracket)
    }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    mutating func string(_ value: String) {
        var value = value
        let mark = bytes.count
        let plain: Bool = value.withUTF8 { b in
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            var i = 0
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<i]))
                    bytes.append(UInt8(ascii: "\\"))
                    start = i
                } else if c < 0x20 || c == 0x7F {
                    return false
                    // U+2028, U+2029
                } else if c == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 {
                    return false
                }
                i += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[start...]))
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain {
            bytes.removeSubrange(mark...)
            bytes.append(contentsOf: PrettyJSON.encoded(value))
        }
    }

    /// `value` as `JSONEncoder` writes a string.
    static func encoded(_ value: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try! encoder.encode(value))
    }

    /// `text` (`JSONEncoder` output) with the empty array `[\n\n<indent>]` that follows
    /// `\n<indent>"<key>" : ` replaced by `[`, the elements `write` writes, `\n<indent>]`; nil
    /// when `text` has no such array. One buffer is built, and checked as UTF-8 once.
    static func splice(_ text: String, key: String, indent: Int, capacity: Int, write: (inout PrettyJSON) -> Void)
        -> String?
    {
        let pad = String(repeating: " ", count: indent)
        let empty = Array("\n\(pad)\"\(key)\" : [\n\n\(pad)]".utf8)
        var text = text
        return text.withUTF8 { b -> String? in
            guard b.count >= empty.count else { return nil }
            var at: Int?
            var i = 0
            while i + empty.count <= b.count {
                if b[i] == empty[0] && empty.indices.allSatisfy({ b[i + $0] == empty[$0] }) { at = i; break }
                i += 1
            }
            guard let at else { return nil }
            let head = empty.count - indent - 3 // through `[`
            var w = PrettyJSON(arrayAt: indent, capacity: min(b.count + capacity, 2 << 20))
            w.flushed = ""
            w.flushed!.reserveCapacity(b.count + capacity)
            w.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[..<(at + head)]))
            write(&w)
            w.bytes.append(0x0A)
            w.bytes.append(contentsOf: pad.utf8)
            w.bytes.append(UInt8(ascii: "]"))
            w.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: b[(at + empty.count)...]))
            var text = w.flushed!
            w.flushed = nil // `text` holds the only reference: appended to in place
            text.append(String(decoding: w.bytes, as: UTF8.self))
            return text
        }
    }
}
