import Foundation

/// Errors a headerless re-parse reports after the edits that follow from what the parse could
/// not see before them, not from the edit. Each is tied to its cause by place:
/// - an error in another file the run edits (a header whose `@property` the edits add): that file
///   is checked by its own before/after parse in the same round, under its own flags, and its
///   groups are refused there when the error is new;
/// - a property the edits declare with a type `T` the parse cannot see (`unknown type name 'T'`
///   in the same parse): clang reads the property as `int *`, so the property itself is
///   "property with 'retain (or strong)' attribute must be of object type", and a member of
///   its read (`self.dao.region`, `[self.dao region]`) is "member reference base type 'int *' is
///   not a structure or union" / "bad receiver type 'int *'" right at the read the edit wrote;
/// - `expected a type` exactly at `T` in a getter `- (T *)name` the edits add, `T` being the
///   service's type from the container's declaration;
/// - `unexpected '@' in program` or `'@end' must appear in an Objective-C context` at an `@end`
///   that the parse before the edits already found outside any Objective-C block (in either
///   words, or `expected method body` there), or at a `@property` the edits insert into such a block (the parse never saw the
///   block's `@interface`, behind a macro of an unresolved header such as `NS_SWIFT_NAME(…)`);
/// - `property 'x' not found on object of type 'id'` on a read `self.s` whose getter `- (T *)s`
///   the edits add with a type `T` this parse cannot see (the getter's type falls back to `id`);
/// - `use of undeclared identifier '_p'` in the getter `- (T *)p` the edits add, for a property
///   `p` of a type `T` the parse cannot see that the edits declare (the parse dropped it).
/// An error the edit's own text causes in any other way stays new.
enum HeaderlessCascade {
    /// Whether `error`, new in `path` after `edits` (all files, by real path), is one of the
    /// cascades above. `afterErrors`: every error of the parse after the edits (the file's and
    /// other files'); `before`: the errors and bytes of the file before the edits.
    static func explains(
        _ error: ParseVerdict.NewError, path: String, edits: [String: [TextEdit]], afterErrors: [ParseDiagnostic],
        before: [ParseDiagnostic], beforeBytes: [UInt8], afterBytes: [UInt8]
    ) -> Bool {
        if let other = error.elsewherePath {
            let real = FixWorkspace.realPath(other)
            return real != path && edits[real] != nil
        }
        guard let offset = error.offset else { return false }
        let own = (edits[path] ?? []).sorted { ($0.range.lowerBound, $0.order) < ($1.range.lowerBound, $1.order) }
        var unknown = Set(afterErrors.compactMap { ParseVerdict.unknownTypeName($0.message) })
        // a getter's type that this parse reports `expected a type` at
        for (edit, range) in afterRanges(own) {
            let lead = edit.replacement.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }.count
            let getter = String(decoding: edit.replacement.utf8.dropFirst(lead), as: UTF8.self)
            if let type = getterType(getter),
                afterErrors.contains(where: {
                    $0.message == "expected a type" && $0.offset == range.lowerBound + lead + 3
                })
            {
                unknown.insert(type)
            }
        }
        let message = error.message
        let outOfContext: Set<String> = ["unexpected '@' in program", "'@end' must appear in an Objective-C context"]
        if outOfContext.contains(message), !error.insideEdit {
            // an `@end` the parse before the edits already found outside any Objective-C block
            guard afterBytes.count >= offset + 4, Array(afterBytes[offset..<offset + 4]) == Array("@end".utf8),
                let old = ParseVerdict.oldOffset(of: offset, through: own).offset
            else { return false }
            // (`expected method body` there: a method declaration outside any block ran into it)
            return before.contains {
                (outOfContext.contains($0.message) || $0.message == "expected method body") && $0.offset == old
            }
        }
        if message.hasPrefix("property '"), message.hasSuffix("' not found on object of type 'id'") {
            // a member of the read the edit wrote, whose getter (added by the edits) has a type this
            // parse cannot see: the getter's type fell back to `id`
            guard
                let (edit, _) = afterRange(touching: offset, in: own, inclusiveEnd: true)
                    ?? afterRange(touching: offset - 1, in: own, inclusiveEnd: true),
                let name = readName(edit.replacement)
            else { return false }
            return own.contains { getter in
                let text = getter.replacement.drop { $0 == " " || $0 == "\n" }
                guard let type = getterType(String(text)) else { return false }
                return text.hasPrefix("- (\(type) *)\(name)") && unknown.contains(type)
            }
        }
        if message == "property with 'retain (or strong)' attribute must be of object type" {
            guard error.insideEdit, let edit = error.edit else { return false }
            return propertyTypes(in: edit.replacement).contains { unknown.contains($0.type) }
        }
        if message == "member reference base type 'int *' is not a structure or union"
            || message == "bad receiver type 'int *'"
        {
            // the read the edit wrote ends where the member reference starts, or holds the receiver
            guard let (edit, _) = afterRange(touching: offset, in: own, inclusiveEnd: true),
                let name = readName(edit.replacement)
            else { return false }
            let declared = edits.values.joined().flatMap { propertyTypes(in: $0.replacement) }
            return declared.contains { $0.name == name && unknown.contains($0.type) }
        }
        if message == "expected a type" {
            guard error.insideEdit, let (edit, range) = afterRange(touching: offset, in: own, inclusiveEnd: false)
            else { return false }
            let lead = edit.replacement.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }.count
            let getter = String(decoding: edit.replacement.utf8.dropFirst(lead), as: UTF8.self)
            guard let type = getterType(getter), !type.isEmpty else { return false }
            return offset == range.lowerBound + lead + 3
        }
        let ivar = "use of undeclared identifier '_"
        if message.hasPrefix(ivar), message.hasSuffix("'") {
            // the ivar of a property the edits declare with a type this parse cannot see, read in
            // the getter the edits add (`- (T *)p { return _p ?: … }`): the parse dropped the property
            let name = String(message.dropFirst(ivar.count).dropLast())
            guard error.insideEdit, let (edit, _) = afterRange(touching: offset, in: own, inclusiveEnd: false)
            else { return false }
            let getter = edit.replacement.drop { $0 == " " || $0 == "\n" }
            guard let type = getterType(String(getter)), getter.hasPrefix("- (\(type) *)\(name)") else { return false }
            let declared = edits.values.joined().flatMap { propertyTypes(in: $0.replacement) }
            return unknown.contains(type) && declared.contains { $0.name == name && $0.type == type }
        }
        if outOfContext.contains(message) {
            // a `@property` the edits insert into a block whose `@end` the parse before the edits
            // already found outside any Objective-C block
            guard error.insideEdit, let edit = error.edit, edit.range.isEmpty,
                edit.replacement.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("@property")
            else { return false }
            guard let end = firstEnd(in: beforeBytes, from: edit.range.lowerBound) else { return false }
            return before.contains { outOfContext.contains($0.message) && $0.offset == end }
        }
        return false
    }

    /// The edit (of one file, sorted) whose text after the edits holds `offset`, with that text's
    /// range; `inclusiveEnd`: also the offset just past it.
    static func afterRange(touching offset: Int, in edits: [TextEdit], inclusiveEnd: Bool) -> (TextEdit, Range<Int>)? {
        var shift = 0
        for edit in edits {
            let start = edit.range.lowerBound + shift
            let length = edit.replacement.utf8.count
            if offset < start { return nil }
            if offset < start + length || (inclusiveEnd && offset == start + length) {
                return (edit, start..<start + length)
            }
            shift += length - edit.range.count
        }
        return nil
    }

    /// Each edit (of one file, sorted) with the range of its text after the edits.
    static func afterRanges(_ edits: [TextEdit]) -> [(TextEdit, Range<Int>)] {
        var shift = 0
        return edits.map { edit in
            let start = edit.range.lowerBound + shift
            shift += edit.replacement.utf8.count - edit.range.count
            return (edit, start..<start + edit.replacement.utf8.count)
        }
    }

    /// `(name, T)` of each `@property (…) T *name;` in a text.
    static func propertyTypes(in text: String) -> [(name: String, type: String)] {
        let pattern = #"@property\s*(?:\([^)]*\))?\s*([A-Za-z_][A-Za-z_0-9]*)\s*\*\s*([A-Za-z_][A-Za-z_0-9]*)\s*;"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            (ns.substring(with: $0.range(at: 2)), ns.substring(with: $0.range(at: 1)))
        }
    }

    /// `name` of a read `self.name` (the whole replacement).
    static func readName(_ replacement: String) -> String? {
        let text = replacement.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("self."), text.count > 5 else { return nil }
        let name = text.dropFirst(5)
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return String(name)
    }

    /// `T` of a getter `- (T *)name`.
    static func getterType(_ replacement: String) -> String? {
        guard replacement.hasPrefix("- (") else { return nil }
        let rest = replacement.dropFirst(3)
        let type = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return rest.dropFirst(type.count).hasPrefix(" *)") ? String(type) : nil
    }

    /// The offset of the first `@end` at or after `offset`.
    static func firstEnd(in bytes: [UInt8], from offset: Int) -> Int? {
        let needle = Array("@end".utf8)
        var i = max(0, offset)
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], Array(bytes[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }
}
