import Foundation

extension FixFileAnalysis {
    /// The names the file's `#import` / `#include` lines give that its parse could not find
    /// (`'Parser.h' file not found`: a header of another folder, off a headerless parse's path).
    var unresolvedIncludes: [String] {
        let prefix = "'", suffix = "' file not found"
        return errors.compactMap { error in
            let message = error.message
            guard message.hasPrefix(prefix), message.hasSuffix(suffix), message.count > prefix.count + suffix.count
            else { return nil }
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
        for include in includes
        where include.stack.count <= stack.count && Array(stack.prefix(include.stack.count)) == include.stack {
            if best == nil || include.stack.count >= best!.depth { best = (include.index, include.stack.count) }
        }
        guard let best else { return nil }
        let line = file.buffer.lineColumn(of: start(best.index)).line
        return line < file.buffer.lineStarts.count ? file.buffer.lineStarts[line] : nil
    }
}

extension Fixer {
    /// Whether an error after the edits comes from what a headerless parse cannot see, not from
    /// the edit: the file imports the header declaring the class by a name its parse cannot find
    /// (a header of another folder of the run, or off the parse's path), so
    /// - `class extension has no primary class` when the edits add a class extension, or a
    ///   property to one, while the file imports the class's header `X.h` unresolved;
    /// - `property 'p' not found on object of type 'X *'` or its ivar `use of undeclared
    ///   identifier '_p'`, for a property `p` the edits declare (in such a header, or in the
    ///   file while `X.h` is unresolved): the property is there, this parse cannot see it;
    /// - `prefix attribute must be followed by an interface, protocol, or implementation` where
    ///   the edits add a forward declaration after the includes (an unresolved header's macro);
    /// - `unknown type name 'T'` for the type of the property and getter the edits add;
    /// - `receiver type 'T' for instance message is a forward declaration` for a type the edits
    ///   forward-declare (`@class T;`, a service's type: the file sent that message to the
    ///   container's value of that type, whose `@interface` the real build imports).
    static func hiddenFromHeaderlessParse(_ message: String, file: FixFileAnalysis, edits: [String: [TextEdit]]) -> Bool
    {
        let unresolved = file.unresolvedIncludes
        guard !unresolved.isEmpty else { return false }
        let unresolvedNames = Set(unresolved.map { ($0 as NSString).lastPathComponent })
        let own = edits[file.path] ?? []
        if message == "class extension has no primary class" {
            // the edits add a class extension, or a property to one, of a class whose header is unresolved
            let extended = ObjCDeclarations(tokens: file.tokens, bridgeNames: []).blocks.filter {
                $0.kind == .classExtension
            }.map(\.className)
            return extended.contains { unresolvedNames.contains("\($0).h") }
                && own.contains {
                    !addedExtensions(in: $0.replacement).isEmpty || !declaredProperties(in: $0.replacement).isEmpty
                }
        }
        if message == "prefix attribute must be followed by an interface, protocol, or implementation" {
            // a macro of an unresolved header left an attribute before the forward declaration the edits add
            return own.contains { $0.replacement.hasPrefix("@class ") || $0.replacement.hasPrefix("@protocol ") }
        }
        if message.hasPrefix("unknown type name '"), message.hasSuffix("'") {
            // the service's type, in the property and getter the edits add: the file read the
            // container's property of that type, so the real build sees its declaration
            let type = String(message.dropFirst("unknown type name '".count).dropLast())
            return own.contains {
                $0.replacement.hasPrefix("@property (nonatomic, strong) \(type) *")
                    || $0.replacement.hasPrefix("- (\(type) *)")
            }
        }
        if message.hasPrefix("receiver type '"), message.hasSuffix("' for instance message is a forward declaration") {
            let type = message.dropFirst("receiver type '".count).prefix { $0 != "'" }
            return edits.values.contains {
                $0.contains { $0.replacement.trimmingCharacters(in: .whitespacesAndNewlines) == "@class \(type);" }
            }
        }
        var names = Set<String>()
        for (path, list) in edits
        where ["h", "hh", "hpp"].contains((path as NSString).pathExtension) && file.importsUnresolved(path) {
            for edit in list { names.formUnion(declaredProperties(in: edit.replacement)) }
        }
        let prefix = "property '", infix = "' not found on object of type '"
        if message.hasPrefix(prefix), let middle = message.range(of: infix) {
            let name = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<middle.lowerBound])
            let type = message[middle.upperBound...].prefix { $0 != " " && $0 != "'" }
            if names.contains(name) { return true }
            return unresolvedNames.contains("\(type).h")
                && own.contains { declaredProperties(in: $0.replacement).contains(name) }
        }
        let undeclared = "use of undeclared identifier '_"
        if message.hasPrefix(undeclared), message.hasSuffix("'") {
            let name = String(message.dropFirst(undeclared.count).dropLast())
            return names.contains(name) || own.contains { declaredProperties(in: $0.replacement).contains(name) }
        }
        return false
    }

    /// The classes of the class extensions (`@interface X ()`) a text declares.
    static func addedExtensions(in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"@interface\s+([A-Za-z_][A-Za-z_0-9]*)\s*\(\s*\)"#) else {
            return []
        }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
        }
    }

    /// The names of the `@property` declarations in a text.
    static func declaredProperties(in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: #"@property\b[^;]*?([A-Za-z_][A-Za-z_0-9]*)\s*;"#) else {
            return []
        }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
        }
    }
}
