import Foundation

/// Reads a baseline file in the shape di-lint writes straight from its bytes, without building a
/// JSON tree first: `JSONDecoder` spent most of a million-entry baseline's load in its generic
/// machinery (a value tree, a coding path and a keyed container per entry, retain/release), about
/// 3 s of 5.9 s. Foundation's `JSONSerialization` would still build a dictionary of `Any` values
/// per entry to be cast back (not measured), and no JSON library is among the package's
/// dependencies (adding one to the CI gate for one file was not worth it); the shape is fixed
/// and small (an object of `version`, `tool`, `toolVersion` and `entries`, each entry an object of
/// known string and integer fields), so this is a strict reader of exactly that shape.
///
/// It accepts only a subset of JSON, and gives up (nil) on anything outside it — an unknown or
/// repeated key, a missing field, a value of another type, a number with a fraction or exponent
/// or more than 18 digits, an escaped key, invalid UTF-8, a lone surrogate escape, bad syntax —
/// and `Baseline.load` then decodes the file with `JSONDecoder`, whose errors name the problem.
/// Whatever it accepts, `JSONDecoder` decodes to the same values (the tests compare the two).
///
/// Field values that repeat across entries (rule, path, scope) share one string's storage.
struct BaselineScanner {
    private struct Unexpected: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    /// Strings of the repeating fields, by value (see `shared`).
    private var interned: [String: String] = [:]
    /// The last value of each repeating field, with where its bytes were.
    private var last: [(start: Int, count: Int, value: String)] = Array(repeating: (0, 0, ""), count: 3)

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The file's `version` and `entries`, or nil when the bytes are not in the reader's subset.
    static func read(_ data: [UInt8]) -> (version: Int, entries: [BaselineEntry])? {
        data.withUnsafeBufferPointer { buffer in
            var scanner = BaselineScanner(bytes: buffer)
            return try? scanner.file()
        }
    }

    private enum Key: UInt16 {
        case version = 1, tool = 2, toolVersion = 4, entries = 8
        case fingerprint = 16, rule = 32, path = 64, line = 128, snippet = 256, expression = 512, scope = 1024, scheme = 2048
    }

    private static let keys: [(bytes: [UInt8], key: Key)] = {
        let named: [(String, Key)] = [
            ("version", .version), ("tool", .tool), ("toolVersion", .toolVersion), ("entries", .entries),
            ("fingerprint", .fingerprint), ("rule", .rule), ("path", .path), ("line", .line),
            ("snippet", .snippet), ("expression", .expression), ("scope", .scope), ("scheme", .scheme),
        ]
        return named.map { (Array($0.0.utf8), $0.1) }
    }()

    private mutating func file() throws -> (version: Int, entries: [BaselineEntry]) {
        var version: Int?, entries: [BaselineEntry]?
        var seen: UInt16 = 0
        skipSpace()
        try expect(UInt8(ascii: "{"))
        try members { scanner, key in
            guard seen & key.rawValue == 0 else { throw Unexpected() }
            seen |= key.rawValue
            switch key {
            case .version: version = try scanner.integer()
            case .tool, .toolVersion: _ = try scanner.optionalString(field: nil)
            case .entries: entries = try scanner.entryList()
            default: throw Unexpected()
            }
        }
        skipSpace()
        guard at == bytes.count, let version, let entries else { throw Unexpected() }
        return (version, entries)
    }

    private mutating func entryList() throws -> [BaselineEntry] {
        var entries: [BaselineEntry] = []
        // About 250 bytes of file per entry in di-lint's layout: one allocation, a little over.
        entries.reserveCapacity((bytes.count - at) / 200 + 1)
        try expect(UInt8(ascii: "["))
        skipSpace()
        if peek() == UInt8(ascii: "]") { at += 1; return entries }
        while true {
            skipSpace()
            entries.append(try entry())
            skipSpace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return entries
            default: throw Unexpected()
            }
        }
    }

    private mutating func entry() throws -> BaselineEntry {
        var fingerprint: String?, rule: String?, path: String?, line: Int?
        var snippet: String?, expression: String?, scope: String?, scheme: Int?
        var seen: UInt16 = 0
        try expect(UInt8(ascii: "{"))
        try members { scanner, key in
            guard seen & key.rawValue == 0 else { throw Unexpected() }
            seen |= key.rawValue
            switch key {
            case .fingerprint: fingerprint = try scanner.string(field: nil)
            case .rule: rule = try scanner.string(field: 0)
            case .path: path = try scanner.string(field: 1)
            case .line: line = try scanner.integer()
            case .snippet: snippet = try scanner.optionalString(field: nil)
            case .expression: expression = try scanner.optionalString(field: nil)
            case .scope: scope = try scanner.optionalString(field: 2)
            case .scheme: scheme = try scanner.optionalInteger()
            default: throw Unexpected()
            }
        }
        guard let fingerprint, let rule, let path, let line else { throw Unexpected() }
        return BaselineEntry(fingerprint: fingerprint, rule: rule, path: path, line: line,
                             snippet: snippet, expression: expression, scope: scope, scheme: scheme)
    }

    /// The members of an object whose `{` was read, up to its `}`: `body` reads each value.
    private mutating func members(_ body: (inout BaselineScanner, Key) throws -> Void) throws {
        skipSpace()
        if peek() == UInt8(ascii: "}") { at += 1; return }
        while true {
            skipSpace()
            let key = try self.key()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            try body(&self, key)
            skipSpace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw Unexpected()
            }
        }
    }

    /// A key, which must be one of `keys` written without escapes.
    private mutating func key() throws -> Key {
        try expect(UInt8(ascii: "\""))
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
            guard bytes[at] != UInt8(ascii: "\\") else { throw Unexpected() }
            at += 1
        }
        guard at < bytes.count else { throw Unexpected() }
        let count = at - start
        at += 1
        for (name, key) in Self.keys where name.count == count {
            if name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress! + start, count) == 0 }) { return key }
        }
        throw Unexpected()
    }

    private mutating func optionalString(field: Int?) throws -> String? {
        if try null() { return nil }
        return try string(field: field)
    }

    private mutating func optionalInteger() throws -> Int? {
        if try null() { return nil }
        return try integer()
    }

    /// Reads `null` when it is next.
    private mutating func null() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        guard bytes.count - at >= 4, bytes[at + 1] == UInt8(ascii: "u"), bytes[at + 2] == UInt8(ascii: "l"),
              bytes[at + 3] == UInt8(ascii: "l") else { throw Unexpected() }
        at += 4
        return true
    }

    /// An integer without fraction or exponent, of at most 18 digits (so it fits in an Int).
    private mutating func integer() throws -> Int {
        var negative = false
        if peek() == UInt8(ascii: "-") { negative = true; at += 1 }
        let start = at
        var value = 0
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        let digits = at - start
        guard digits >= 1, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw Unexpected() }
        if let c = peek(), c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { throw Unexpected() }
        return negative ? -value : value
    }

    /// A string value. `field` (0 rule, 1 path, 2 scope) names a field whose values repeat, to
    /// share their storage.
    private mutating func string(field: Int?) throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = at
        while at < bytes.count {
            let c = bytes[at]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard c >= 0x20 else { throw Unexpected() }
            at += 1
        }
        guard at < bytes.count else { throw Unexpected() }
        let count = at - start
        at += 1
        // Strings of up to 15 UTF-8 bytes are held inline; sharing saves nothing.
        guard let field, count > 15 else { return try text(start, count) }
        if last[field].count == count, memcmp(bytes.baseAddress! + last[field].start, bytes.baseAddress! + start, count) == 0 {
            return last[field].value
        }
        let value = try shared(try text(start, count))
        last[field] = (start, count, value)
        return value
    }

    private mutating func shared(_ value: String) throws -> String {
        if let known = interned[value] { return known }
        interned[value] = value
        return value
    }

    private func text(_ start: Int, _ count: Int) throws -> String {
        guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[start ..< start + count]), as: UTF8.self) else {
            throw Unexpected()
        }
        return s
    }

    /// The rest of a string with escapes, from its first byte at `start`.
    private mutating func escapedString(from start: Int) throws -> String {
        var out = Array(UnsafeBufferPointer(rebasing: bytes[start ..< at]))
        while at < bytes.count {
            let c = bytes[at]
            at += 1
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: out, as: UTF8.self) else { throw Unexpected() }
                return s
            }
            guard c >= 0x20 else { throw Unexpected() }
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard let e = next() else { throw Unexpected() }
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800, scalar < 0xDC00 {
                    guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else { throw Unexpected() }
                    let low = try hex4()
                    guard low >= 0xDC00, low < 0xE000 else { throw Unexpected() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00, scalar < 0xE000 {
                    throw Unexpected()
                }
                guard let u = Unicode.Scalar(scalar) else { throw Unexpected() }
                out.append(contentsOf: String(Character(u)).utf8)
            default: throw Unexpected()
            }
        }
        throw Unexpected()
    }

    private mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            guard let c = next() else { throw Unexpected() }
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw Unexpected()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): at += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func next() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    private mutating func expect(_ c: UInt8) throws {
        guard next() == c else { throw Unexpected() }
    }
}
