import Foundation

extension FixFileAnalysis {
    /// The names the file's `#import` / `#include` lines give that its parse could not find
    /// (`'Parser.h' file not found`: a header of another folder, off a headerless parse's path).
    var unresolvedIncludes: [String] {
        let prefix = "'", suffix = "' file not found"
        return errors.compactMap { message in
            guard message.hasPrefix(prefix), message.hasSuffix(suffix), message.count > prefix.count + suffix.count else { return nil }
            return String(message.dropFirst(prefix.count).dropLast(suffix.count))
        }
    }

    /// Whether the file imports the header at `path` by a name its parse could not find: the
    /// name is the path or a tail of it made of whole components (`Parser.h`, `include/Parser.h`).
    func importsUnresolved(_ path: String) -> Bool {
        unresolvedIncludes.contains { name in path == name || path.hasSuffix("/" + name) }
    }
}

extension FixTokens {
    /// The start of the line after the include in effect at `offset` that is nested deepest, the
    /// last of those: an include counts when every `#if` branch it is in also holds `offset`
    /// (the code sees it). Nil when no include is in effect there.
    func afterIncludeInEffect(at offset: Int) -> Int? {
        var stack: [Int] = [] // one id per open conditional branch
        var nextID = 0
        var best: (index: Int, depth: Int)?
        var includes: [(index: Int, stack: [Int])] = []
        var i = 0
        while i < count && start(i) < offset {
            if text(i) == "#", isFirstOnLine(i) {
                switch text(i + 1) {
                case "if", "ifdef", "ifndef":
                    nextID += 1
                    stack.append(nextID)
                case "elif", "else":
                    if !stack.isEmpty { stack.removeLast() }
                    nextID += 1
                    stack.append(nextID)
                case "endif":
                    if !stack.isEmpty { stack.removeLast() }
                case "import", "include":
                    includes.append((i, stack))
                default: break
                }
            }
            i += 1
        }
        for include in includes where include.stack.count <= stack.count && Array(stack.prefix(include.stack.count)) == include.stack {
            if best == nil || include.stack.count >= best!.depth { best = (include.index, include.stack.count) }
        }
        guard let best else { return nil }
        let line = file.buffer.lineColumn(of: start(best.index)).line
        return line < file.buffer.lineStarts.count ? file.buffer.lineStarts[line] : nil
    }
}

extension Fixer {
    /// Whether an error after the edits is about a property the accepted edits declare in a
    /// header the file imports by a name its parse cannot find (the header is in the run, in
    /// another folder): `property 'bridge' not found on object of type 'Parser *'`, or its ivar
    /// `use of undeclared identifier '_bridge'`. The property is there; this parse cannot see it.
    static func declaredInUnseenHeader(_ message: String, file: FixFileAnalysis, edits: [String: [TextEdit]]) -> Bool {
        let unresolved = file.unresolvedIncludes
        guard !unresolved.isEmpty else { return false }
        var names = Set<String>()
        for (path, list) in edits where ["h", "hh", "hpp"].contains((path as NSString).pathExtension) && file.importsUnresolved(path) {
            for edit in list { names.formUnion(declaredProperties(in: edit.replacement)) }
        }
        return names.contains { name in
            message.hasPrefix("property '\(name)' not found on object of type '") || message == "use of undeclared identifier '_\(name)'"
        }
    }

    /// The names of the `@property` declarations in a text.
    static func declaredProperties(in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"@property\b[^;]*?([A-Za-z_][A-Za-z_0-9]*)\s*;"#) else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range(at: 1)) }
    }
}
