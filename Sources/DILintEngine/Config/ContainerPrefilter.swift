/// Whether a file's text may hold a container access, decided on its bytes before any parse:
/// each spec's words in the shape an access has (`Type` then `.`, `::` or a space, then the
/// accessor as a whole identifier; a function or global as a whole identifier; `@Wrapper`),
/// not configured words anywhere as substrings (an accessor named `get` is in most C++ files).
/// The type may end a longer name (`SubContainer sharedInstance`, `MyModule.Container.shared`);
/// Swift's `Self.shared` counts, and a file declaring a `typealias` passes when it names the type.
struct ContainerPrefilter {
    private struct Shape {
        var types: [[UInt8]]
        /// nil: any identifier (`Type.*`).
        var accessor: [UInt8]?
    }

    private var shapes: [Shape] = []
    private var words: [[UInt8]] = []
    /// Type names a `typealias` may rename.
    private var typeNames: [[UInt8]] = []

    init(specs: [ContainerSpec]) {
        for spec in specs {
            switch spec {
            case let .member(type, accessor), let .template(type, accessor):
                let piece = accessor.prefix { $0 != ":" }
                shapes.append(
                    Shape(
                        types: [Array(type.utf8), Array("Self".utf8)], accessor: piece == "*" ? nil : Array(piece.utf8))
                )
                typeNames.append(Array(type.utf8))
            case let .function(name), let .global(name), let .ambient(name):
                words.append(Array(name.utf8))
            case let .propertyWrapper(name):
                words.append(Array(("@" + name).utf8))
            }
        }
    }

    func mayContainAccess(_ raw: UnsafeRawBufferPointer) -> Bool {
        for w in words where find(w, in: raw, wholeLeft: true) { return true }
        for shape in shapes {
            for type in shape.types where hasShape(type, shape.accessor, raw) { return true }
        }
        if !typeNames.isEmpty, raw.containsASCII("typealias") {
            for t in typeNames where find(t, in: raw, wholeLeft: true) { return true }
        }
        return false
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
    }
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// Each occurrence of `needle` ending at an identifier boundary (and starting at one when `wholeLeft`).
    private func occurrences(_ needle: [UInt8], in raw: UnsafeRawBufferPointer, wholeLeft: Bool, _ body: (Int) -> Bool)
        -> Bool
    {
        guard let first = needle.first, needle.count <= raw.count else { return false }
        var i = 0
        let last = raw.count - needle.count
        while i <= last {
            if raw[i] == first {
                var j = 1
                while j < needle.count && raw[i + j] == needle[j] { j += 1 }
                let end = i + needle.count
                if j == needle.count, end == raw.count || !Self.isWordByte(raw[end]),
                    !wholeLeft || i == 0 || !Self.isWordByte(raw[i - 1]) || needle[0] == UInt8(ascii: "@"),
                    body(end)
                {
                    return true
                }
            }
            i += 1
        }
        return false
    }

    private func find(_ needle: [UInt8], in raw: UnsafeRawBufferPointer, wholeLeft: Bool) -> Bool {
        occurrences(needle, in: raw, wholeLeft: wholeLeft) { _ in true }
    }

    /// `Type` (ending a name) then optional `<…>`, then `.`, `::` or spaces, then the accessor.
    private func hasShape(_ type: [UInt8], _ accessor: [UInt8]?, _ raw: UnsafeRawBufferPointer) -> Bool {
        occurrences(type, in: raw, wholeLeft: false) { end in
            var k = end
            func skipSpaces() { while k < raw.count && Self.isSpace(raw[k]) { k += 1 } }
            skipSpaces()
            if k < raw.count && raw[k] == UInt8(ascii: "<") { // Container<Foo>.shared, getService<T>
                var depth = 0
                while k < raw.count && k < end + 256 {
                    if raw[k] == UInt8(ascii: "<") {
                        depth += 1
                    } else if raw[k] == UInt8(ascii: ">") {
                        depth -= 1; if depth == 0 { k += 1; break }
                    }
                    k += 1
                }
                skipSpaces()
            }
            if k < raw.count && raw[k] == UInt8(ascii: ".") {
                k += 1
            } else if k + 1 < raw.count && raw[k] == UInt8(ascii: ":") && raw[k + 1] == UInt8(ascii: ":") {
                k += 2
            } else if k == end {
                return false
            }
            skipSpaces()
            guard let accessor else { return k < raw.count && Self.isWordByte(raw[k]) }
            guard k + accessor.count <= raw.count else { return false }
            for (n, b) in accessor.enumerated() where raw[k + n] != b { return false }
            let after = k + accessor.count
            return after == raw.count || !Self.isWordByte(raw[after])
        }
    }
}
