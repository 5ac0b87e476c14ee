/// What `di-lint report` needs of an Objective-C file to count service-style injected accesses
/// (`ServiceInjection`), read from the tokens (a headerless parse keeps them): the typed
/// properties and argument-less methods of each `@interface` and `@protocol`, and in each
/// `@implementation`, reads of a property of the class (`self.tabs`, `[self tabs]`, `_tabs`) and
/// of an `init…` method's parameters (`tabs` in `-initWithTabs:(TabStore *)tabs`).
enum ClangServiceReads {
    /// Words of a declaration that are not its type.
    static let qualifiers: Set<String> = [
        "nullable", "nonnull", "_Nullable", "_Nonnull", "null_unspecified", "_Null_unspecified", "__kindof", "const",
        "__strong", "__weak", "__unsafe_unretained", "__autoreleasing", "volatile", "struct", "IBOutlet",
    ]

    static func facts(tokens t: TokenCursor, displayPath: String, configuration: Configuration)
        -> ServiceInjectionFacts
    {
        var facts = ServiceInjectionFacts()
        let inRootPath = configuration.isCompositionRootPath(displayPath)
        var i = 0
        while i < t.count {
            guard let (word, next) = t.directive(at: i) else { i += 1; continue }
            switch word {
            case "interface", "protocol":
                guard t.isIdentifier(next), !t.spells(next + 1, ";"), !t.spells(next + 1, ",") else {
                    i = next; continue
                }
                let owner = t.text(next)
                let end = endDirective(t, from: next)
                declarations(t, owner: owner, in: next + 1..<end, into: &facts)
                i = end
            case "implementation":
                guard t.isIdentifier(next) else { i = next; continue }
                let owner = t.text(next)
                let end = endDirective(t, from: next)
                if !inRootPath && !configuration.isCompositionRootType(owner) {
                    reads(t, owner: owner, in: next + 1..<end, configuration: configuration, into: &facts)
                }
                i = end
            default:
                i = next
            }
        }
        return facts
    }

    /// The index of the `@end` closing a section (or the end of the tokens).
    private static func endDirective(_ t: TokenCursor, from i: Int) -> Int {
        var j = i
        while j < t.count {
            if let (word, _) = t.directive(at: j), word == "end" { return j }
            j += 1
        }
        return t.count
    }

    /// The type a declaration's tokens name: the first word that is not a qualifier; `id<P>`
    /// is `P`; `instancetype` is the owner.
    private static func typeName(_ t: TokenCursor, _ range: Range<Int>, owner: String) -> String? {
        var j = range.lowerBound
        while j < range.upperBound {
            let word = t.text(j)
            if t.isIdentifier(j) || word == "id" || word == "instancetype" {
                if qualifiers.contains(word) { j += 1; continue }
                if word == "instancetype" { return owner }
                if word == "id" { return t.spells(j + 1, "<") && t.isIdentifier(j + 2) ? t.text(j + 2) : nil }
                return word
            }
            j += 1
        }
        return nil
    }

    /// `@property (…) T *name;` and `- (T *)name;` in an `@interface` or `@protocol`.
    private static func declarations(
        _ t: TokenCursor, owner: String, in range: Range<Int>, into facts: inout ServiceInjectionFacts
    ) {
        var j = range.lowerBound
        while j < range.upperBound {
            if let (word, next) = t.directive(at: j), word == "property" {
                var k = next
                if t.spells(k, "("), let close = t.balancedClose(from: k) { k = close + 1 }
                var semicolon = k
                while semicolon < range.upperBound, !t.spells(semicolon, ";") { semicolon += 1 }
                // the name: the last identifier before `;` that is not a macro call's
                var name = semicolon - 1
                while name > k, !t.isIdentifier(name) || t.spells(name + 1, "(") {
                    if t.spells(name, ")"), let open = t.balancedOpen(from: name) { name = open - 1 } else { name -= 1 }
                }
                if name > k, let type = typeName(t, k..<name, owner: owner) {
                    facts.members.append(.init(owner: owner, name: t.text(name), type: type, isStatic: false))
                }
                j = semicolon + 1
                continue
            }
            if (t.spells(j, "-") || t.spells(j, "+")) && t.spells(j + 1, "("), let close = t.balancedClose(from: j + 1),
                t.isIdentifier(close + 1), t.spells(close + 2, ";") || t.spells(close + 2, "{")
            {
                if let type = typeName(t, j + 2..<close, owner: owner) {
                    facts.members.append(
                        .init(owner: owner, name: t.text(close + 1), type: type, isStatic: t.spells(j, "+")))
                }
                j = close + 2
                continue
            }
            j += 1
        }
    }

    /// Reads in the method bodies of an `@implementation`.
    private static func reads(
        _ t: TokenCursor, owner: String, in range: Range<Int>, configuration: Configuration,
        into facts: inout ServiceInjectionFacts
    ) {
        var j = range.lowerBound
        while j < range.upperBound {
            guard (t.spells(j, "-") || t.spells(j, "+")) && t.spells(j + 1, "(") else { j += 1; continue }
            // the method's header up to its body: the selector's first piece and the parameters
            var open = j + 1
            while open < range.upperBound, !t.spells(open, "{"), !t.spells(open, ";") { open += 1 }
            guard t.spells(open, "{"), let close = t.balancedClose(from: open) else { j = open + 1; continue }
            var parameters: [String: String] = [:]
            var selector = ""
            if let returnClose = t.balancedClose(from: j + 1) {
                selector = t.text(returnClose + 1)
                var k = returnClose + 1
                while k < open {
                    // `piece:(Type *)name`
                    if t.spells(k, ":"), t.spells(k + 1, "("), let typeClose = t.balancedClose(from: k + 1),
                        t.isIdentifier(typeClose + 1)
                    {
                        if let type = typeName(t, k + 2..<typeClose, owner: owner) {
                            parameters[t.text(typeClose + 1)] = type
                        }
                        k = typeClose + 2
                        continue
                    }
                    k += 1
                }
            }
            let inInit = selector.hasPrefix("init") && !t.spells(j, "+")
            if configuration.isCompositionRootFunction(selector) {
                j = close + 1
                continue
            }
            func add(_ at: Int, name: String, type: String?) {
                let (line, column) = t.file.buffer.lineColumn(of: t.offset(at))
                facts.reads.append(
                    .init(line: line, column: column, name: name, type: type, enclosing: [owner], owner: owner))
            }
            var k = open + 1
            while k < close {
                defer { k += 1 }
                guard t.isIdentifier(k) else { continue }
                let word = t.text(k)
                let assigned = t.spells(k + 1, "=") && !t.spells(k + 2, "=")
                if t.spells(k - 1, "."), t.spells(k - 2, "self"), !t.isMemberOperator(k - 3) {
                    if !assigned { add(k - 2, name: word, type: nil) } // self.tabs
                } else if t.spells(k - 1, "self"), t.spells(k - 2, "["), t.spells(k + 1, "]") {
                    add(k - 2, name: word, type: nil) // [self tabs]
                } else if t.isMemberOperator(k - 1) || t.spells(k + 1, ":") {
                    continue // another object's member, a selector piece
                } else if word.hasPrefix("_"), word.count > 1, parameters[word] == nil {
                    if !assigned { add(k, name: String(word.dropFirst()), type: nil) } // _tabs
                } else if inInit, let type = parameters[word], !assigned {
                    // not the store of the parameter: `self.tabs = tabs;`, `_tabs = tabs;`
                    let stored = t.spells(k - 1, "=") && t.spells(k + 1, ";")
                    if !stored { add(k, name: word, type: type) }
                }
            }
            j = close + 1
        }
    }
}
