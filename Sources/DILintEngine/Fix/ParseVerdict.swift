import Foundation

/// The re-parse check of a C-family file's edits: which error diagnostics after the edits are
/// new. The diagnostics are compared as a multiset keyed by message and by location, each
/// location after the edits mapped back through them, so an error that only moved is the same
/// error, and a second copy of one is counted. What is left is new only when the headerless
/// parse did not already have it in another shape (see `isKnownShape`); each new error names
/// where it is and the edit whose text holds it (or the nearest edit before it).
struct ParseVerdict {
    /// An error after the edits that the file did not have before.
    struct NewError: Equatable {
        let message: String
        /// 1-based line after the edits (nil: in another file, such as an included header).
        let line: Int?
        /// The other file's name and line (`Bridge.h:3`) when the error is not in the file itself.
        let elsewhere: String?
        /// The edit whose replacement holds the error, or the nearest one above it.
        let edit: TextEdit?
        /// The edit's place in the file as on disk (1-based line).
        let editLine: Int?
        /// The error's offset after the edits (nil: in another file).
        var offset: Int? = nil
        /// Whether the error lies inside the text `edit` wrote (not merely after it).
        var insideEdit = false
        /// The path of the other file the error lies in.
        var elsewherePath: String? = nil

        /// `'X.h' file not found at line 3 (edit at line 2: inserted #import "X.h")`.
        var description: String {
            var text = message
            if let line { text += " at line \(line)" } else if let elsewhere { text += " in \(elsewhere)" }
            if let edit, let editLine { text += " (edit at line \(editLine): \(Self.describe(edit)))" }
            return text
        }

        static func describe(_ edit: TextEdit) -> String {
            let replacement = edit.replacement.trimmingCharacters(in: .whitespacesAndNewlines)
            let shown = replacement.count > 80 ? String(replacement.prefix(77)) + "..." : replacement
            let firstLine =
                shown.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? shown
            let more = shown.contains("\n") ? " ..." : ""
            if edit.range.isEmpty { return "inserted \(firstLine)\(more)" }
            if replacement.isEmpty { return "removed \(edit.range.count) bytes" }
            return "replaced with \(firstLine)\(more)"
        }
    }

    /// The errors after the edits (`edits` of this file, sorted by offset, as applied) that the
    /// file did not have before, in the order of the file. `names`: the identifiers the file
    /// used before the edits (asked for only when a message needs them); `bridgeType`: the
    /// configured bridge type.
    static func newErrors(
        before: [ParseDiagnostic], beforeBuffer: SourceBuffer, after: [ParseDiagnostic], afterBuffer: SourceBuffer,
        edits: [TextEdit], bridgeType: String, names: () -> Set<String>
    ) -> [NewError] {
        // the multiset of the errors before, by message and location (the line of an error in a
        // header is left out of the key: an edit of that header moves it)
        func key(_ message: String, _ offset: Int?) -> ParseDiagnostic {
            ParseDiagnostic(message: message, offset: offset)
        }
        var remaining: [ParseDiagnostic: Int] = [:]
        for d in before { remaining[key(d.message, d.offset), default: 0] += 1 }
        var unmatched: [(index: Int, diagnostic: ParseDiagnostic, edit: Int?)] = []
        // errors of the file itself first, in order, then those elsewhere: each takes the copy at
        // its own place before a copy elsewhere can
        let ordered = after.enumerated().sorted { a, b in
            (a.element.offset ?? Int.max, a.offset) < (b.element.offset ?? Int.max, b.offset)
        }
        for (index, d) in ordered {
            let (old, edit) = d.offset.map { oldOffset(of: $0, through: edits) } ?? (nil, nil)
            let k = key(d.message, d.offset == nil ? nil : old)
            if (d.offset == nil || old != nil), let n = remaining[k], n > 0 {
                remaining[k] = n - 1
            } else {
                unmatched.append((index, d, edit))
            }
        }
        // reported in libclang's order: an error in a header the edits changed comes before the
        // errors it causes further down the file
        unmatched.sort { $0.index < $1.index }
        // what is left before, by message: an error the edits moved into or out of their own text
        // (or that changed its place in a header) is the same error
        var byMessage: [String: Int] = [:]
        for (d, n) in remaining where n > 0 { byMessage[d.message, default: 0] += n }
        var lazyNames: Set<String>?
        func used(_ name: Substring) -> Bool {
            if lazyNames == nil { lazyNames = names() }
            return lazyNames!.contains(String(name))
        }
        // the shapes of the errors before, for errors in the headers an edit brings in (built
        // when such an error is first met: a regular expression per error before)
        var lazyShapes: Set<String>?
        func isShapeBefore(_ message: String) -> Bool {
            if lazyShapes == nil { lazyShapes = Set(before.map { shape($0.message) }) }
            return lazyShapes!.contains(shape(message))
        }
        var new: [NewError] = []
        for (_, d, editIndex) in unmatched {
            if let n = byMessage[d.message], n > 0 {
                byMessage[d.message] = n - 1
                continue
            }
            if isKnownShape(d.message, bridgeType: bridgeType, used: used) { continue }
            // a line the edit repeats (an initializer's signature above the one it delegates
            // to) fails as the original line did: the same message on the same text
            if editIndex != nil, let offset = d.offset,
                repeatsFailingLine(d.message, at: offset, afterBuffer, before: before, beforeBuffer)
            {
                continue
            }
            // in a header (not the file itself), an error the file had before in another shape:
            // the headerless parse's own failing, met again in the header an edit imports
            // (`cannot find interface declaration for 'NSObject', superclass of 'Bridge'`, as the
            // file had it for its own class)
            if d.offset == nil, isShapeBefore(d.message) { continue }
            // in text the edits left as it was, a type name the file already used and no edit
            // removed: the headerless parse never saw its declaration, and now checks code it
            // skipped before (a block's `NSUInteger` parameter, once the send's receiver resolves)
            if let offset = d.offset, editIndex == nil,
                let name = unmaskedName(d.message, at: offset, in: afterBuffer), used(Substring(name)),
                !edits.contains(where: { removes(name, $0, from: beforeBuffer) })
            {
                continue
            }
            let line = d.offset.map { afterBuffer.lineColumn(of: $0).line }
            let edit = editIndex.map { edits[$0] } ?? d.offset.flatMap { offset in nearestEdit(before: offset, edits) }
            new.append(
                NewError(
                    message: d.message, line: line, elsewhere: d.elsewhere, edit: edit,
                    editLine: edit.map {
                        beforeBuffer.lineColumn(of: min($0.range.lowerBound, max(0, beforeBuffer.bytes.count))).line
                    }, offset: d.offset, insideEdit: editIndex != nil, elsewherePath: d.elsewherePath))
        }
        return new
    }

    /// `T` of `unknown type name 'T'`.
    static func unknownTypeName(_ message: String) -> String? {
        let prefix = "unknown type name '"
        guard message.hasPrefix(prefix), message.hasSuffix("'"), message.count > prefix.count + 1 else { return nil }
        return String(message.dropFirst(prefix.count).dropLast())
    }

    /// The name an error in unchanged text is about, when the error says only that the
    /// headerless parse cannot see that name's declaration: `unknown type name 'T'`, `receiver
    /// 'T' for class message is a forward declaration`, or `unexpected '@' in program` at `@w`
    /// where `w` is no Objective-C directive (an unexpanded macro such as `@weakify`).
    static func unmaskedName(_ message: String, at offset: Int, in buffer: SourceBuffer) -> String? {
        if let name = unknownTypeName(message) { return name }
        let receiver = (prefix: "receiver '", suffix: "' for class message is a forward declaration")
        if message.hasPrefix(receiver.prefix), message.hasSuffix(receiver.suffix),
            message.count > receiver.prefix.count + receiver.suffix.count
        {
            return String(message.dropFirst(receiver.prefix.count).dropLast(receiver.suffix.count))
        }
        if message == "unexpected '@' in program", offset < buffer.bytes.count,
            buffer.bytes[offset] == UInt8(ascii: "@")
        {
            let word = buffer.bytes[(offset + 1)...].prefix {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
            }
            let name = String(decoding: word, as: UTF8.self)
            guard let first = name.first, first.isLetter || first == "_", !objcDirectives.contains(name) else {
                return nil
            }
            return name
        }
        return nil
    }

    /// The words that follow `@` in Objective-C.
    static let objcDirectives: Set<String> = [
        "interface", "implementation", "end", "protocol", "class", "property", "synthesize", "dynamic", "selector",
        "encode", "try", "catch", "finally", "throw", "synchronized", "autoreleasepool", "optional", "required",
        "public", "private", "protected", "package", "defs", "compatibility_alias", "available", "import", "YES", "NO",
        "true", "false",
    ]

    /// Whether the text an edit replaces holds the identifier `name` (a declaration of it the
    /// edit could have taken away).
    static func removes(_ name: String, _ edit: TextEdit, from buffer: SourceBuffer) -> Bool {
        guard !edit.range.isEmpty, edit.range.upperBound <= buffer.bytes.count else { return false }
        let removed = String(decoding: buffer.bytes[edit.range], as: UTF8.self)
        let pattern = "(?<![A-Za-z0-9_])" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9_])"
        return removed.range(of: pattern, options: .regularExpression) != nil
    }

    /// Whether an error in an edit's text repeats one the file had: the same message at the same
    /// word (`expected a type` at `NSString`, a type the headerless parse never resolved), or,
    /// where no word starts, on the same line of text (trimmed).
    static func repeatsFailingLine(
        _ message: String, at offset: Int, _ afterBuffer: SourceBuffer, before: [ParseDiagnostic],
        _ beforeBuffer: SourceBuffer
    ) -> Bool {
        func word(_ buffer: SourceBuffer, _ at: Int) -> String {
            var end = at
            while end < buffer.bytes.count,
                buffer.bytes[end] == UInt8(ascii: "_")
                    || buffer.bytes[end] < 0x80
                        && (Character(Unicode.Scalar(buffer.bytes[end])).isLetter
                            || Character(Unicode.Scalar(buffer.bytes[end])).isNumber)
            { end += 1 }
            return buffer.text(at..<end)
        }
        func line(_ buffer: SourceBuffer, _ at: Int) -> String {
            buffer.lineText(buffer.lineColumn(of: at).line).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let name = word(afterBuffer, offset)
        let text = name.isEmpty ? line(afterBuffer, offset) : ""
        guard !name.isEmpty || !text.isEmpty else { return false }
        return before.contains { d in
            guard d.message == message, let o = d.offset, o < beforeBuffer.bytes.count else { return false }
            return name.isEmpty ? line(beforeBuffer, o) == text : word(beforeBuffer, o) == name
        }
    }

    /// A message with each quoted name blanked: `cannot find interface declaration for '_', superclass of '_'`.
    static func shape(_ message: String) -> String {
        message.replacingOccurrences(of: #"'[^']*'"#, with: "'_'", options: .regularExpression)
    }

    /// Where an offset after the edits was before them, and the index of the edit whose
    /// replacement holds it (its old place then unknown: nil).
    static func oldOffset(of offset: Int, through edits: [TextEdit]) -> (offset: Int?, edit: Int?) {
        var shift = 0
        for (i, edit) in edits.enumerated() {
            let start = edit.range.lowerBound + shift
            if offset < start { break }
            let length = edit.replacement.utf8.count
            if offset < start + length { return (nil, i) }
            shift += length - edit.range.count
        }
        return (offset - shift, nil)
    }

    /// The last edit that starts before the offset after the edits, if any.
    private static func nearestEdit(before offset: Int, _ edits: [TextEdit]) -> TextEdit? {
        var shift = 0
        var found: TextEdit?
        for edit in edits {
            if edit.range.lowerBound + shift > offset { break }
            found = edit
            shift += edit.replacement.utf8.count - edit.range.count
        }
        return found
    }

    /// Errors a headerless parse has in another shape once the edit is made. Two families, both
    /// a name the file already used that a headerless parse could not resolve, in code it never
    /// checked before:
    /// - an unresolved container hides the rest of its expression, and the bridge side of a
    ///   rewrite puts the same arguments and selectors into a send that does resolve;
    /// - the bridge's type is only forward-declared (`@class`; a Swift class's `@interface` is in
    ///   the header the Swift compiler generates at build time), so no property of it resolves:
    ///   `property 'svc' cannot be found in forward class object 'BridgeType'` (or of a service's
    ///   type that is only forward-declared, such as another Swift class), and (ARC) a send
    ///   to it, `receiver type 'BridgeType' for instance message is a forward declaration` (the
    ///   send's selector is the container side's, which the file already used).
    /// The edit introduced neither the name nor the missing declaration.
    static func isKnownShape(_ message: String, bridgeType: String, used: (Substring) -> Bool) -> Bool {
        let unresolved = [
            "use of undeclared identifier '", "no known instance method for selector '",
            "no known class method for selector '",
        ]
        let forwardProperty = (prefix: "property '", infix: "' cannot be found in forward class object '")
        if message == "receiver type '\(bridgeType)' for instance message is a forward declaration" { return true }
        // any forward class: a service's type can be a Swift class as well (`bridge.crashReporter.handler`
        // once `finish` drops the fallback whose container side the parse could not type)
        if message.hasPrefix(forwardProperty.prefix), let infix = message.range(of: forwardProperty.infix),
            message.hasSuffix("'")
        {
            return used(
                message[message.index(message.startIndex, offsetBy: forwardProperty.prefix.count)..<infix.lowerBound])
        }
        // a property of a variable whose type the parse could not resolve (`id`), hidden before
        // behind the unresolved container: `property 'stopId' not found on object of type '__strong id'`
        let onId = (prefix: "property '", suffix: "' not found on object of type '__strong id'")
        if message.hasPrefix(onId.prefix), message.hasSuffix(onId.suffix) {
            return used(message.dropFirst(onId.prefix.count).dropLast(onId.suffix.count))
        }
        guard let prefix = unresolved.first(where: message.hasPrefix), message.hasSuffix("'") else { return false }
        return used(message.dropFirst(prefix.count).dropLast().prefix { $0 != ":" })
    }
}
