import Foundation

/// A strict, streaming reader of JSON files that di-lint writes and reads back (baselines,
/// `merge`'s shard outputs). The file is read in pieces of a megabyte (a piece grows only to hold
/// one longer string), so reading costs what the caller builds from it and not the file's bytes
/// or a JSON tree as well. Numbers are read digit by digit with overflow checks; nesting is
/// bounded (`maxDepth`). What it refuses it names, with where: bad syntax (line and column), a
/// value of another type, an integer out of range or not whole, a number too large for a double,
/// invalid UTF-8, a lone surrogate escape, a file that ends early. Values echoed in a message are
/// cut (`Excerpt`).
///
/// It reads JSON as `JSONDecoder` reads it: integers may also be written with a fraction or an
/// exponent when they are whole (`2.0`, `1e2`), a UTF-8 byte order mark may start the file, a
/// comma may end an array's or object's members. It is stricter in three ways: every number is
/// checked (`JSONDecoder` checks only those it decodes), a key given twice is refused by the
/// shape readers (`JSONDecoder` takes its first value), and nesting stops at 64 levels (512).
/// The reader of a shape (`BaselineScanner`) walks the values with `members`, `string`,
/// `integer`, `skipValue`; `check` walks any document.
struct JSONScanner {
    /// What is wrong with the file, and where; `description` is the whole message.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Where a value is: a key or an array index.
    enum Component {
        case key(String), index(Int)
    }

    /// Nesting of arrays and objects read.
    static let maxDepth = 64
    /// Bytes read from the file at a time.
    static let pieceSize = 1 << 20

    /// -1 when the bytes are all in the buffer from the start.
    private let fd: Int32
    private let path: String
    private let limit: Int
    /// What the file should be ("a valid baseline"), and what to do about a broken one.
    private let subject: String, remedy: String
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Next byte to read, and the end of the bytes in the buffer.
    var at = 0
    private var end = 0
    /// The file offset of `buffer[0]`, and whether the file's last byte is in.
    private var offset = 0
    private var ended: Bool
    /// Line (1-based) and the file offset of its first byte, for messages.
    private var line = 1, lineStart = 0
    /// Where the value being read is (`entries`, 3, `line`), for messages.
    var place: [Component] = []
    /// The error reading the file met, told when the bytes end early.
    private var failure: Problem?
    /// Strings of repeating fields, by value (see `string(field:)`).
    private var interned: [String: String] = [:]
    /// The last value of each repeating field.
    private var last: [String] = ["", "", ""]

    private init(fd: Int32, path: String, limit: Int, capacity: Int, subject: String, remedy: String) {
        self.fd = fd
        self.path = path
        self.limit = limit
        self.subject = subject
        self.remedy = remedy
        self.capacity = max(capacity, 16)
        buffer = .allocate(capacity: self.capacity)
        ended = fd < 0
        place.reserveCapacity(Self.maxDepth + 2)
    }

    /// Runs `body` on a scanner of the regular file at `path` of at most `limit` bytes, with the
    /// file's size. Throws `InputFile.Refused` for a file that cannot be read.
    static func scan<R>(
        path: String, limit: Int, subject: String, remedy: String,
        _ body: (inout JSONScanner, Int) throws -> R
    ) throws -> R {
        let (fd, size) = try InputFile.open(path, limit: limit)
        defer { close(fd) }
        var scanner = JSONScanner(
            fd: fd, path: path, limit: limit, capacity: min(size + 1, pieceSize), subject: subject, remedy: remedy)
        defer { scanner.buffer.deallocate() }
        try scanner.start()
        return try body(&scanner, size)
    }

    /// Runs `body` on a scanner of `data`.
    static func scan<R>(_ data: [UInt8], subject: String, remedy: String, _ body: (inout JSONScanner, Int) throws -> R)
        throws -> R
    {
        var scanner = JSONScanner(fd: -1, path: "", limit: .max, capacity: data.count, subject: subject, remedy: remedy)
        defer { scanner.buffer.deallocate() }
        data.withUnsafeBufferPointer {
            if let base = $0.baseAddress { scanner.buffer.update(from: base, count: $0.count) }
        }
        scanner.end = data.count
        try scanner.start()
        return try body(&scanner, data.count)
    }

    /// Past a UTF-8 byte order mark and white space, at the document's first value.
    private mutating func start() throws {
        if byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF { at = 3 }
        skipSpace()
        guard peek() != nil else { throw problem("the file is empty; \(remedy)") }
    }

    /// After the document's value: only white space may follow.
    mutating func finish() throws {
        skipSpace()
        guard peek() == nil else { throw invalid("more after the document's value") }
    }

    // MARK: Values

    /// The members of an object, from its `{` to its `}`: `body` reads each value (`place` ends
    /// with its key meanwhile).
    mutating func members(_ body: (inout JSONScanner, String) throws -> Void) throws {
        guard let first = peek() else { throw truncated() }
        guard first == UInt8(ascii: "{") else { throw wrongType("an object") }
        guard place.count < Self.maxDepth else {
            throw invalid("arrays and objects nested deeper than \(Self.maxDepth) levels")
        }
        at += 1
        skipSpace()
        if peek() == UInt8(ascii: "}") { at += 1; return }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else {
                throw peek() == nil ? truncated() : invalid("expected a key in quotes")
            }
            let key = try string(field: nil)
            skipSpace()
            try expect(UInt8(ascii: ":"), "expected ':' after the key \(Excerpt.quoted(key))")
            skipSpace()
            place.append(.key(key))
            try body(&self, key)
            place.removeLast()
            skipSpace()
            switch next() {
            case UInt8(ascii: ","):
                skipSpace()
                if peek() == UInt8(ascii: "}") { at += 1; return } // a trailing comma, as JSONDecoder reads it
            case UInt8(ascii: "}"): return
            case nil: throw truncated()
            default: at -= 1; throw invalid("expected ',' or '}' after a member")
            }
        }
    }

    /// The elements of an array, from its `[` to its `]`: `body` reads each (`place` ends with
    /// its index meanwhile).
    mutating func elements(_ body: (inout JSONScanner, Int) throws -> Void) throws {
        guard let first = peek() else { throw truncated() }
        guard first == UInt8(ascii: "[") else { throw wrongType("an array") }
        guard place.count < Self.maxDepth else {
            throw invalid("arrays and objects nested deeper than \(Self.maxDepth) levels")
        }
        at += 1
        skipSpace()
        if peek() == UInt8(ascii: "]") { at += 1; return }
        var index = 0
        while true {
            skipSpace()
            place.append(.index(index))
            try body(&self, index)
            place.removeLast()
            index += 1
            skipSpace()
            switch next() {
            case UInt8(ascii: ","):
                skipSpace()
                if peek() == UInt8(ascii: "]") { at += 1; return } // a trailing comma, as JSONDecoder reads it
            case UInt8(ascii: "]"): return
            case nil: throw truncated()
            default: at -= 1; throw invalid("expected ',' or ']' after an element")
            }
        }
    }

    mutating func optionalString(field: Int? = nil) throws -> String? {
        try null() ? nil : try string(field: field)
    }

    /// Reads `null` when it is next.
    mutating func null() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws {
        let start = at
        for i in 0..<word.utf8CodeUnitCount {
            guard let c = next() else { throw truncated() }
            guard c == word.utf8Start[i] else { at = start; throw invalid("expected a JSON value") }
        }
    }

    /// A JSON number that is a whole number in `Int`'s range: `12`, `-3`, `2.0`, `1e2`.
    mutating func integer() throws -> Int {
        guard let first = peek() else { throw truncated() }
        guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw wrongType("a number")
        }
        // What di-lint writes: up to 18 digits, in the buffer with the byte after them.
        var i = at, value = 0
        if first == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < end, i - digitsStart < 19, buffer[i] >= UInt8(ascii: "0"), buffer[i] <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int(buffer[i] &- UInt8(ascii: "0"))
            i += 1
        }
        let n = i - digitsStart
        if n >= 1, n <= 18, i < end, n == 1 || buffer[digitsStart] != UInt8(ascii: "0") {
            let c = buffer[i]
            if c != UInt8(ascii: "."), c != UInt8(ascii: "e"), c != UInt8(ascii: "E"),
                c < UInt8(ascii: "0") || c > UInt8(ascii: "9")
            {
                at = i
                return first == UInt8(ascii: "-") ? -value : value
            }
        }
        let number = try self.number()
        if let value = number.integer { return value }
        if number.scale < 0 { throw outOfRange(number, "is not a whole number") }
        throw outOfRange(number, "is out of range (integers here are from \(Int.min) to \(Int.max))")
    }

    /// A JSON number as a `Double`; one past the largest finite double is refused.
    mutating func double() throws -> Double {
        guard let first = peek() else { throw truncated() }
        guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw wrongType("a number")
        }
        let number = try self.number()
        guard let value = number.double else {
            throw outOfRange(number, "is out of range (larger than any double, about 1.8e308)")
        }
        return value
    }

    /// A number read: value = (digits through the last non-zero one) × 10^scale.
    struct Number {
        var negative = false
        /// The first 19 digits after leading zeros, as a number, and how many digits there were.
        var prefix: UInt64 = 0, count = 0
        /// Where the last non-zero digit is (-1: the number is 0), digits after the point, the exponent.
        var lastNonZero = -1, fraction = 0, exponent = 0
        /// The number as written (its first 40 bytes), and where.
        var text: [UInt8] = [], line = 0, column = 0

        var significant: Int { lastNonZero + 1 }
        var scale: Int { exponent - fraction + (count - significant) }

        /// The value as an `Int` when it is whole and in range.
        var integer: Int? {
            guard lastNonZero >= 0 else { return 0 }
            guard scale >= 0, significant + scale <= 19 else { return nil }
            var magnitude = prefix
            for _ in significant..<min(count, 19) { magnitude /= 10 } // `prefix` holds min(count, 19) digits
            for _ in 0..<scale {
                let (m, o) = magnitude.multipliedReportingOverflow(by: 10)
                guard !o else { return nil }
                magnitude = m
            }
            guard magnitude <= (negative ? UInt64(Int.max) + 1 : UInt64(Int.max)) else { return nil }
            return negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude)
        }

        /// The value as a finite `Double`, or nil past the largest one.
        var double: Double? {
            guard lastNonZero >= 0 else { return negative ? -0.0 : 0 }
            // the power of ten of the first significant digit
            let magnitude = count - 1 - fraction + exponent
            if magnitude < -400 { return negative ? -0.0 : 0 }
            if magnitude > 308 { return nil }
            let digits = min(count, 19)
            let value = Double("\(negative ? "-" : "")\(prefix)e\(magnitude - digits + 1)") ?? .infinity
            return value.isFinite ? value : nil
        }

        var written: String { String(decoding: text, as: UTF8.self) + (text.count == 40 ? "…" : "") }
    }

    /// Any JSON number, read exactly, however many digits or how large an exponent.
    private mutating func number() throws -> Number {
        var n = Number(line: line, column: offset + at - lineStart + 1)
        func take(_ c: UInt8) { if n.text.count < 40 { n.text.append(c) } }
        func digit(_ c: UInt8, fractional: Bool) {
            take(c)
            if fractional { n.fraction += 1 }
            if n.count == 0 && c == UInt8(ascii: "0") { return }
            if n.count < 19 { n.prefix = n.prefix * 10 + UInt64(c - UInt8(ascii: "0")) }
            if c != UInt8(ascii: "0") { n.lastNonZero = n.count }
            n.count += 1
        }
        func isDigit(_ c: UInt8?) -> Bool { c.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
        if peek() == UInt8(ascii: "-") { n.negative = true; take(UInt8(ascii: "-")); at += 1 }
        guard isDigit(peek()) else { throw peek() == nil ? truncated() : invalid("expected a digit after '-'") }
        if peek() == UInt8(ascii: "0") {
            digit(UInt8(ascii: "0"), fractional: false)
            at += 1
            if isDigit(peek()) { throw invalid("a number may not start with 0") }
        } else {
            while let c = peek(), isDigit(c) { digit(c, fractional: false); at += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            take(UInt8(ascii: "."))
            at += 1
            guard isDigit(peek()) else { throw peek() == nil ? truncated() : invalid("expected a digit after '.'") }
            while let c = peek(), isDigit(c) { digit(c, fractional: true); at += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            take(e)
            at += 1
            var negative = false
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                take(sign)
                negative = sign == UInt8(ascii: "-")
                at += 1
            }
            guard isDigit(peek()) else {
                throw peek() == nil ? truncated() : invalid("expected a digit in the exponent")
            }
            var exponent = 0
            while let c = peek(), isDigit(c) {
                take(c)
                exponent = min(exponent * 10 + Int(c - UInt8(ascii: "0")), 1 << 40) // past any count of digits
                at += 1
            }
            n.exponent = negative ? -exponent : exponent
        }
        return n
    }

    /// A string value. `field` (0, 1, 2) names a field whose values repeat (a rule, a path), to
    /// share their storage.
    mutating func string(field: Int?) throws -> String {
        guard let first = peek() else { throw truncated() }
        guard first == UInt8(ascii: "\"") else {
            if first == UInt8(ascii: "n"), (try? null()) == true {
                throw problem("not \(subject): \(placeText) is null")
            }
            throw wrongType("a string")
        }
        at += 1
        var start = at
        while true {
            if at == end {
                guard let shift = more(keeping: start) else { throw truncated() }
                start -= shift
            }
            let c = buffer[at]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard c >= 0x20 else { throw invalid("a control character (byte \(c)) in a string; write it as an escape") }
            at += 1
        }
        let count = at - start
        at += 1
        // Strings of up to 15 UTF-8 bytes are held inline; sharing saves nothing.
        guard let field, count > 15 else { return try text(start, count) }
        let bytes = buffer + start
        let same = last[field].utf8.withContiguousStorageIfAvailable { previous in
            previous.count == count && memcmp(previous.baseAddress!, bytes, count) == 0
        }
        if same == true { return last[field] }
        let value = try text(start, count)
        let shared = interned[value] ?? value
        interned[value] = shared
        last[field] = shared
        return shared
    }

    private func text(_ start: Int, _ count: Int) throws -> String {
        guard let s = String(validating: UnsafeBufferPointer(start: buffer + start, count: count), as: UTF8.self) else {
            throw notUTF8()
        }
        return s
    }

    /// The rest of a string with escapes, from its first byte at `start`.
    private mutating func escapedString(from start: Int) throws -> String {
        var out = Array(UnsafeBufferPointer(start: buffer + start, count: at - start))
        while true {
            guard let c = next() else { throw truncated() }
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: out, as: UTF8.self) else { throw notUTF8() }
                return s
            }
            guard c >= 0x20 else {
                at -= 1; throw invalid("a control character (byte \(c)) in a string; write it as an escape")
            }
            guard c == UInt8(ascii: "\\") else { out.append(c); continue }
            guard let e = next() else { throw truncated() }
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
                    guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else {
                        at -= 1; throw invalid("a lone UTF-16 surrogate escape")
                    }
                    let low = try hex4()
                    guard low >= 0xDC00, low < 0xE000 else { throw invalid("a lone UTF-16 surrogate escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00, scalar < 0xE000 {
                    throw invalid("a lone UTF-16 surrogate escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw invalid("a bad \\u escape") }
                out.append(contentsOf: String(Character(u)).utf8)
            default: at -= 1; throw invalid("'\\\(Character(Unicode.Scalar(e)))' is not a JSON escape")
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = next() else { throw truncated() }
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: at -= 1; throw invalid("expected four hexadecimal digits after \\u")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Any JSON value, checked and dropped: numbers as numbers of any size, except under a key
    /// of `integers` (whole, in `Int`'s range) and where `doubles` says (finite doubles).
    mutating func skipValue(integers: Set<String> = [], doubles: Bool = false) throws {
        guard let c = peek() else { throw truncated() }
        switch c {
        case UInt8(ascii: "\""): _ = try string(field: nil)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if case .key(let key)? = place.last, integers.contains(key) {
                _ = try integer()
            } else if doubles {
                _ = try double()
            } else {
                _ = try number()
            }
        case UInt8(ascii: "{"):
            try members { scanner, _ in try scanner.skipValue(integers: integers, doubles: doubles) }
        case UInt8(ascii: "["):
            try elements { scanner, _ in try scanner.skipValue(integers: integers, doubles: doubles) }
        default: throw invalid("expected a JSON value")
        }
    }

    /// Checks that `data` is one JSON document whose integers under the keys `integers` are whole
    /// and in range and whose other numbers are finite doubles; returns its top-level keys (an
    /// object's) or nil (another value).
    static func check(_ data: [UInt8], integers: Set<String>, subject: String, remedy: String) throws -> Set<String>? {
        try scan(data, subject: subject, remedy: remedy) { scanner, _ in
            var keys: Set<String>?
            if scanner.peek() == UInt8(ascii: "{") {
                keys = []
                try scanner.members { scanner, key in
                    keys?.insert(key)
                    try scanner.skipValue(integers: integers, doubles: true)
                }
            } else {
                try scanner.skipValue(integers: integers, doubles: true)
            }
            try scanner.finish()
            return keys
        }
    }

    // MARK: Bytes

    mutating func skipSpace() {
        while true {
            if at == end, more(keeping: at) == nil { return }
            switch buffer[at] {
            case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\t"): at += 1
            case UInt8(ascii: "\n"):
                at += 1
                line += 1
                lineStart = offset + at
            default: return
            }
        }
    }

    /// The byte at `i`, reading as far as it when the file is streamed (only near the start).
    private mutating func byte(_ i: Int) -> UInt8? {
        while end <= i { if more(keeping: 0) == nil { return nil } }
        return buffer[i]
    }

    mutating func peek() -> UInt8? {
        if at == end, more(keeping: at) == nil { return nil }
        return buffer[at]
    }

    mutating func next() -> UInt8? {
        guard let c = peek() else { return nil }
        at += 1
        return c
    }

    private mutating func expect(_ c: UInt8, _ what: @autoclosure () -> String) throws {
        guard let got = peek() else { throw truncated() }
        guard got == c else { throw invalid(what()) }
        at += 1
    }

    /// Reads more of the file after the buffered bytes, keeping those from `keep` on (moved to the
    /// buffer's start; the buffer grows when they fill it). Returns how far the kept bytes moved
    /// back, or nil at the end of the file (or on a read error, kept in `failure`).
    private mutating func more(keeping keep: Int) -> Int? {
        guard !ended else { return nil }
        if keep > 0 {
            let kept = end - keep
            if kept > 0 { memmove(buffer, buffer + keep, kept) }
            offset += keep
            at -= keep
            end = kept
        }
        if end == capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        while true {
            let n = Glibc.read(fd, buffer + end, capacity - end)
            if n < 0 && errno == EINTR { continue }
            if n == 0 { ended = true; return nil }
            guard n > 0 else { return fail("cannot read it (\(String(cString: strerror(errno))))") }
            end += n
            guard offset + end <= limit else { return fail(InputFile.grewPastLimit(path, limit: limit).problem) }
            return keep
        }
    }

    private mutating func fail(_ problem: String) -> Int? {
        failure = Problem(description: problem)
        ended = true
        return nil
    }

    // MARK: Messages

    /// `entries[3].line`: where the value being read is.
    var placeText: String {
        var text = ""
        for component in place {
            switch component {
            case .index(let i): text += "[\(i)]"
            case .key(let key):
                if !text.isEmpty { text += "." }
                text +=
                    key.utf8.count > 40 || key.contains(where: { $0.isWhitespace || $0 == "." })
                    ? Excerpt.quoted(key, limit: 40) : key
            }
        }
        return text
    }

    func problem(_ text: String) -> Problem { Problem(description: text) }

    private var position: String { "line \(line), column \(offset + at - lineStart + 1)" }

    func invalid(_ what: String) -> Problem {
        let place = placeText
        return Problem(
            description: "not valid JSON at \(position): \(what)\(place.isEmpty ? "" : " (in \(place))"); \(remedy)")
    }

    func truncated() -> Problem {
        if let failure { return failure }
        let place = placeText
        return Problem(
            description:
                "not valid JSON: the file ends at \(position)\(place.isEmpty ? "" : ", in \(place)") (truncated?); \(remedy)"
        )
    }

    private func notUTF8() -> Problem {
        let place = placeText
        return Problem(
            description: "not \(subject): \(place.isEmpty ? "a key" : place) is not UTF-8 text, at \(position)")
    }

    private func outOfRange(_ number: Number, _ what: String) -> Problem {
        Problem(
            description:
                "not \(subject): \(placeText): \(number.written) \(what), at line \(number.line), column \(number.column)"
        )
    }

    mutating func wrongType(_ expected: String) -> Problem {
        let found: String
        switch peek() {
        case UInt8(ascii: "\"")?: found = "a string"
        case UInt8(ascii: "{")?: found = "an object"
        case UInt8(ascii: "[")?: found = "an array"
        case UInt8(ascii: "t")?, UInt8(ascii: "f")?: found = "true or false"
        case UInt8(ascii: "n")?: found = "null"
        case UInt8(ascii: "-")?, UInt8(ascii: "0")?, UInt8(ascii: "1")?, UInt8(ascii: "2")?, UInt8(ascii: "3")?,
            UInt8(ascii: "4")?,
            UInt8(ascii: "5")?, UInt8(ascii: "6")?, UInt8(ascii: "7")?, UInt8(ascii: "8")?, UInt8(ascii: "9")?:
            found = "a number"
        case nil: return truncated()
        default: return invalid("expected a JSON value")
        }
        let place = placeText
        return Problem(
            description:
                "not \(subject): \(place.isEmpty ? "the document" : place) should be \(expected), not \(found), at \(position)"
        )
    }
}
