import Foundation

/// Where the run's Objective-C files build a class (`[[C alloc] init…]`, `[C new]`), and what a
/// place has in reach to give the object a service: a parameter of the service's type, or the
/// enclosing class's own property named like the service, of that type.
struct ObjCConstructions {
    struct Site {
        var analysis: FixFileAnalysis
        /// The outer `[` and its `]`.
        var open: Int
        var close: Int
        /// `init`, `initWithName:`, `new`.
        var selector: String
        /// The keyword tokens of the message (one for a unary selector).
        var keywords: [Int]

        var place: String {
            let (line, column) = analysis.lineColumn(analysis.tokens.start(open))
            return "\(analysis.path):\(line):\(column)"
        }
    }

    let context: FixContext
    let types: ObjCServiceTypes

    /// The sites in the run's Objective-C files, and the places that build the class in a way
    /// not followed (`[[self alloc] …]` in the class, a subclass of it in the run), as
    /// `path:line: why`.
    func sites(of className: String) -> (sites: [Site], unknown: [String]) {
        var sites: [Site] = [], unknown: [String] = []
        let subclass = try? NSRegularExpression(
            pattern: #"@interface\s+\w+\s*:\s*"# + NSRegularExpression.escapedPattern(for: className) + #"\b"#)
        for path in context.runFiles where ["m", "mm", "h"].contains((path as NSString).pathExtension) {
            guard let bytes = context.workspace.bytes(path), bytes.withUnsafeBytes({ $0.containsASCII(className) })
            else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if let m = subclass?.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) {
                let line = (text as NSString).substring(to: m.range.location).filter { $0 == "\n" }.count + 1
                unknown.append("\(context.display(path)):\(line): a subclass of \(className)")
            }
            guard (path as NSString).pathExtension != "h", let analysis = context.analysis(path) else { continue }
            let tokens = analysis.tokens
            for i in 0..<tokens.count where tokens.text(i) == "[" {
                if tokens.text(i + 1) == "[", tokens.text(i + 2) == className, tokens.text(i + 3) == "alloc",
                    tokens.text(i + 4) == "]", let close = tokens.matchingClose(i)
                {
                    if let (selector, keywords) = Self.message(tokens, from: i + 5, to: close) {
                        sites.append(
                            Site(analysis: analysis, open: i, close: close, selector: selector, keywords: keywords))
                    }
                } else if tokens.text(i + 1) == className, tokens.text(i + 2) == "new", tokens.text(i + 3) == "]" {
                    sites.append(Site(analysis: analysis, open: i, close: i + 3, selector: "new", keywords: [i + 2]))
                } else if tokens.text(i + 1) == "[", ["self", "["].contains(tokens.text(i + 2)),
                    let scope = analysis.file.definition(holding: tokens.start(i), kind: .objcMethod),
                    scope.typeName == className, let close = tokens.matchingClose(i + 1),
                    tokens.text(close - 1) == "alloc"
                {
                    let (line, _) = analysis.lineColumn(tokens.start(i))
                    unknown.append("\(context.display(path)):\(line): [[self alloc] …] in \(className)")
                }
            }
        }
        return (sites, unknown)
    }

    /// The selector of a message whose arguments run from token `from` to its `]` at `to`.
    static func message(_ tokens: FixTokens, from: Int, to close: Int) -> (String, [Int])? {
        if close == from + 1, tokens.isIdentifier(from) { return (tokens.text(from), [from]) }
        var keywords: [Int] = []
        var depth = 0
        for j in from..<close {
            let w = tokens.text(j)
            if FixTokens.opening.contains(w) { depth += 1 } else if FixTokens.closing.contains(w) { depth -= 1 }
            if depth == 0, tokens.isIdentifier(j), tokens.text(j + 1) == ":", j == from || tokens.text(j - 1) != "?" {
                keywords.append(j)
            }
        }
        guard !keywords.isEmpty, keywords[0] == from else { return nil }
        return (keywords.map { tokens.text($0) + ":" }.joined(), keywords)
    }

    /// What the place at token `i` has of the service's type: the one parameter of that type of
    /// the enclosing method, else `self.name` when the enclosing instance method's class declares
    /// a property (or getter) `name` of that type. Nil: nothing in reach.
    func inReach(_ type: ObjCServiceTypes.Declared, named name: String, at i: Int, in analysis: FixFileAnalysis)
        -> String?
    {
        let tokens = analysis.tokens
        guard let scope = analysis.file.definition(holding: tokens.start(i)), scope.kind == .objcMethod,
            let signature = ObjCMethodSignature.parse(
                tokens, at: tokens.firstToken(atOrAfter: scope.range.lowerBound))
        else { return nil }
        let parameters = signature.pieces.filter {
            $0.typeOpen.flatMap { ObjCMethodSignature.compactType(tokens, open: $0) } == type.compact
        }
        if parameters.count == 1, let n = parameters[0].name { return tokens.text(n) }
        guard parameters.isEmpty, signature.isInstance, let owner = scope.typeName else { return nil }
        let declared = Set(types.interfaceTexts(of: owner).compactMap { ObjCServiceTypes.find(name, in: $0) })
        // `name` as a local or block variable of the method would shadow nothing `self.` reaches; fine
        return declared == [type] ? "self.\(name)" : nil
    }
}
