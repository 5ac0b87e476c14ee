/// The Objective-C `@interface … @end` and `@implementation` blocks of a file, from its tokens.
struct ObjCDeclarations {
    enum Kind: Equatable { case primary, classExtension, category, implementation }

    struct Block {
        var kind: Kind
        var className: String
        /// Token index of the `@` (or `@interface`) starting the block, and of its `@end`.
        var start: Int
        var end: Int?
        /// Token index of the bridge property's name, when the block declares it.
        var bridgeProperty: Int?
    }

    let blocks: [Block]
    /// Token index of the first `@interface`, `@implementation` or `@class` in the file.
    let firstDeclaration: Int?
    /// Every identifier the file names before each token index (to know whether a type is declared).
    private let tokens: FixTokens

    init(tokens: FixTokens, bridgeNames: Set<String>) {
        self.tokens = tokens
        var blocks: [Block] = []
        var first: Int?
        var i = 0
        while i < tokens.count {
            guard let (word, next) = Self.directive(tokens, at: i) else { i += 1; continue }
            switch word {
            case "interface", "implementation":
                if first == nil { first = i }
                guard tokens.isIdentifier(next) else { i = next; continue }
                let name = tokens.text(next)
                var kind: Kind = word == "implementation" ? .implementation : .primary
                if word == "interface", tokens.text(next + 1) == "(" {
                    kind = tokens.text(next + 2) == ")" ? .classExtension : .category
                }
                var j = next + 1, end: Int?, property: Int?
                while j < tokens.count {
                    if let (w, after) = Self.directive(tokens, at: j) {
                        if w == "end" { end = j; break }
                        if w == "property" {
                            // @property (…) Type *name;  — the name is the identifier before `;`
                            var k = after
                            while k < tokens.count && tokens.text(k) != ";" { k += 1 }
                            if bridgeNames.contains(tokens.text(k - 1)) { property = k - 1 }
                        }
                        if w == "interface" || w == "implementation" { break }
                        j = after
                        continue
                    }
                    j += 1
                }
                blocks.append(Block(kind: kind, className: name, start: i, end: end, bridgeProperty: property))
                i = (end ?? j) + 1
            case "class", "protocol":
                if first == nil && word == "class" { first = i }
                i = next
            default:
                i = next
            }
        }
        self.blocks = blocks
        firstDeclaration = first
    }

    /// `@word` at token `i` (one token or `@` then a word): the word and the index after it.
    static func directive(_ tokens: FixTokens, at i: Int) -> (String, Int)? {
        TokenCursor(file: tokens.file).directive(at: i)
    }

    /// The interface blocks of a class (primary, class extensions, categories).
    func interfaces(of className: String) -> [Block] {
        blocks.filter { $0.className == className && $0.kind != .implementation }
    }

    func implementation(of className: String) -> Block? {
        blocks.first { $0.className == className && $0.kind == .implementation }
    }

    /// Whether the file names `identifier` in its code before token `limit`.
    func names(_ identifier: String, before limit: Int) -> Bool {
        (0..<min(limit, tokens.count)).contains { tokens.text($0) == identifier }
    }
}

extension ObjCDeclarations {
    /// The `@end` token of the class's own `@implementation` (not a category's), if the file has it.
    func classImplementation(of className: String) -> Int? {
        blocks.first { block in
            guard block.kind == .implementation, block.className == className,
                let (_, name) = Self.directive(tokens, at: block.start)
            else { return false }
            return tokens.text(name + 1) != "("
        }?.end
    }

    /// Whether the class's blocks in this file define or declare a method `name`, or name the
    /// ivar `_name` (a member of that name is there already), ignoring case (`modelDAO` holds
    /// the service `modelDao` already).
    func definesMember(_ name: String, in className: String) -> Bool {
        let name = name.lowercased()
        for block in blocks where block.className == className {
            let end = block.end ?? tokens.count
            for i in block.start..<end {
                if tokens.isIdentifier(i) && tokens.text(i).lowercased() == "_\(name)" { return true }
                // - (Type)name  or  + (Type)name, the whole selector
                if ["-", "+"].contains(tokens.text(i)), tokens.isFirstOnLine(i), tokens.text(i + 1) == "(",
                    let close = tokens.matchingClose(i + 1), tokens.text(close + 1).lowercased() == name,
                    [";", "{"].contains(tokens.text(close + 2))
                {
                    return true
                }
            }
        }
        return false
    }
}

extension ObjCDeclarations {
    /// Whether an `@interface` block of the class declares a property named `name`, ignoring case.
    func declaresProperty(_ name: String, in className: String) -> Bool {
        let name = name.lowercased()
        for block in interfaces(of: className) {
            var i = block.start
            while i < (block.end ?? tokens.count) {
                if let (word, after) = Self.directive(tokens, at: i), word == "property" {
                    var k = after
                    while k < tokens.count && tokens.text(k) != ";" && tokens.text(k) != "@" { k += 1 }
                    if tokens.text(k - 1).lowercased() == name { return true }
                    i = k
                }
                i += 1
            }
        }
        return false
    }
}
