import Foundation

/// Phase `inject` in the service style for C: a function reads the container through what it
/// already receives instead of the global — a parameter of the container's type (`r`), or a field
/// of that type in a struct it gets a pointer to (`wt->repo`, `opt->repo`, one embedded struct
/// deep: `s->s.r`). `the_repository->objects` becomes `wt->repo->objects`,
/// `repo_get_git_dir(the_repository)` becomes `repo_get_git_dir(wt->repo)`.
///
/// The container's type comes from its declaration (a global's `extern struct repository
/// *the_repository;`, an accessor function's return type) in the run or a header it includes;
/// the structs from their definitions there. Unknown, or nothing of that type in reach, or two
/// candidates: the access is left, with the reason. The group is `unsafe`: the field or
/// parameter may hold another instance than the global.
struct CServiceInjection {
    let context: FixContext
    let headers: HeadersInReach

    private var groups: [String: FixGroup] = [:]
    private var order: [String] = []
    private var containerTypes: [String: CType?] = [:]
    private var structTexts: [String]?

    init(context: FixContext, headers: HeadersInReach) {
        self.context = context
        self.headers = headers
    }

    /// The run's C functions' parameters that may be NULL (built on first need).
    private lazy var nullable = CNullableParameters(
        texts: context.runFiles.filter {
            ["c", "h", "m", "mm", "cc", "cpp"].contains(($0 as NSString).pathExtension)
        }.compactMap { path in context.workspace.bytes(path).map { String(decoding: $0, as: UTF8.self) } })

    /// A C type as written, without `const`: `struct repository` and its pointer depth.
    struct CType: Equatable, Hashable {
        var base: String
        var pointers: Int
    }

    /// Takes an access in a C function (after the checks every style shares), or says why not.
    mutating func add(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> ManualReason? {
        guard let function = located.enclosing, let k = located.tokenIndex else { return .outsideFunction }
        let tokens = analysis.tokens
        // a global container is its one token (`the_repository`)
        let global = located.access.accessor.isEmpty && tokens.text(k) == located.access.container ? k...k : nil
        guard let container = global ?? tokens.containerTokens(at: k, located.access) else { return .unrecognisedForm }
        let a = container.lowerBound, b = container.upperBound
        if tokens.text(a - 1) == "&" || ["=", "+=", "-="].contains(tokens.text(b + 1)) { return .assignedTo }
        guard let type = containerType(located.access) else { return .containerTypeUnknown }
        guard let reach = self.reach(type, in: function, tokens: tokens) else { return .noContainerInReach }
        // a pointer the function tests for NULL, or a call in the run passes NULL for, may be
        // NULL where the global is read (`if (!wt)`, `wt_status_check_rebase(NULL, …)`)
        let base = String(reach.prefix { $0 != "-" && $0 != "." })
        let index = Self.parameters(of: function, tokens: tokens).firstIndex { $0.name == base } ?? -1
        if nullable.mayBeNull(function.name, index, testedInBody: Self.testsForNull(base, in: function, tokens: tokens))
        {
            return .reachMayBeNull
        }
        let range = tokens.start(a)..<tokens.end(b)
        let (line, column) = analysis.lineColumn(range.lowerBound)
        let at = analysis.lineColumn(located.offset)
        var target = FixTarget(
            path: context.display(analysis.path), line: line, column: column, expression: tokens.source(a, b),
            range: range, accessLine: at.line, accessColumn: at.column)
        target.reads = reach
        let key = analysis.path + "\u{0}" + function.name
        if groups[key] == nil {
            order.append(key)
            var group = FixGroup(title: "C function \(function.name) reads \(reach)", edits: [], targets: [])
            group.tier = .unsafe
            groups[key] = group
        }
        groups[key]!.edits.append(TextEdit(path: analysis.path, range: range, replacement: reach))
        groups[key]!.targets.append(target)
        return nil
    }

    func groups(into plan: inout FixPlan) {
        plan.groups += order.map { groups[$0]! }
    }

    /// Whether the function compares `name` with NULL or uses it as a truth value (`!wt`,
    /// `wt == NULL`, `if (wt)`, `wt ? … : …`, `wt && …`).
    static func testsForNull(_ name: String, in function: EnclosingDeclaration, tokens: FixTokens) -> Bool {
        let nulls: Set<String> = ["NULL", "0", "nullptr"]
        for i in 0..<tokens.count
        where tokens.start(i) >= function.range.lowerBound && tokens.start(i) < function.range.upperBound {
            guard tokens.text(i) == name, tokens.isIdentifier(i), ![".", "->"].contains(tokens.text(i - 1)) else {
                continue
            }
            let previous = tokens.text(i - 1), next = tokens.text(i + 1)
            if previous == "!" && !["->", ".", "[", "("].contains(next) { return true }
            if ["==", "!="].contains(next) && nulls.contains(tokens.text(i + 2)) { return true }
            if ["==", "!="].contains(previous) && nulls.contains(tokens.text(i - 2)) { return true }
            if previous == "(" && next == ")" && ["if", "while"].contains(tokens.text(i - 2)) { return true }
            if next == "?" || ["&&", "||"].contains(next)
                || (["&&", "||"].contains(previous) && [")", "&&", "||", ";"].contains(next))
            {
                return true
            }
        }
        return false
    }

    // MARK: Types

    /// The texts of the run's C-family files and the headers they include that mention `word`.
    private func texts(mentioning word: String) -> [String] {
        let paths =
            context.runFiles.filter {
                ["c", "h", "m", "mm", "cc", "cpp", "hh", "hpp"].contains(($0 as NSString).pathExtension)
            } + headers.headers()
        return paths.compactMap { path in
            guard let bytes = context.workspace.bytes(path), bytes.withUnsafeBytes({ $0.containsASCII(word) }) else {
                return nil
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The container's type: the declared type of a global, the return type of an accessor function.
    private mutating func containerType(_ access: ContainerAccess) -> CType? {
        let name = access.container
        if let known = containerTypes[name] { return known }
        let type = Self.declaredType(of: name, accessor: access.accessor == name, in: texts(mentioning: name))
        containerTypes[name] = type
        return type
    }

    /// The type `name` is declared with in `texts`: a global's type, or an accessor function's
    /// return type; nil unless exactly one is found.
    static func declaredType(of name: String, accessor: Bool, in texts: [String]) -> CType? {
        let call = accessor ? #"\s*\("# : #"\s*(?:;|=|\[)"#
        let pattern =
            #"(?:^|[;{}\n])\s*(?:extern\s+|static\s+)?(?:const\s+)?((?:struct\s+)?[A-Za-z_][A-Za-z_0-9]*)\s*((?:\*\s*(?:const\s*)?)+)"#
            + NSRegularExpression.escapedPattern(for: name) + call
        var found = Set<CType>()
        if let regex = try? NSRegularExpression(pattern: pattern) {
            for text in texts {
                let ns = text as NSString
                for m in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                    let base = Self.normalized(ns.substring(with: m.range(at: 1)))
                    if ["return", "else", "case"].contains(base) { continue }
                    found.insert(
                        CType(base: base, pointers: ns.substring(with: m.range(at: 2)).filter { $0 == "*" }.count))
                }
            }
        }
        return found.count == 1 ? found.first : nil
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).filter { $0 != "const" }.joined(separator: " ")
    }

    // MARK: Reach

    /// What the function reaches the container through: a parameter of its type, else one field
    /// of its type in the struct a parameter points to (or in a struct embedded there).
    private mutating func reach(_ type: CType, in function: EnclosingDeclaration, tokens: FixTokens) -> String? {
        let parameters = Self.parameters(of: function, tokens: tokens)
        let direct = parameters.filter { $0.type == type }
        if direct.count == 1 { return direct[0].name }
        if direct.count > 1 { return nil }
        var found: [String] = []
        for parameter in parameters where parameter.type.pointers == 1 {
            found += fields(of: parameter.type.base, holding: type, depth: 0).map { parameter.name + "->" + $0 }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// The paths (`repo`, `s.r`) to fields of `type` in the struct `base` (`struct S` or a typedef name).
    private mutating func fields(of base: String, holding type: CType, depth: Int) -> [String] {
        guard depth < 2, let body = structBody(base).map(Self.withoutComments) else { return [] }
        var result: [String] = []
        for declaration in body.split(separator: ";") {
            let words = Self.normalized(String(declaration)).replacingOccurrences(of: "*", with: " * ")
                .split(separator: " ").map(String.init)
            guard let name = words.last, name.first.map({ $0.isLetter || $0 == "_" }) == true,
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { continue }
            let pointers = words.filter { $0 == "*" }.count
            let fieldBase = words.dropLast().filter { $0 != "*" }.joined(separator: " ")
            if CType(base: fieldBase, pointers: pointers) == type {
                result.append(name)
            } else if pointers == 0,
                fieldBase.hasPrefix("struct ")
                    || fieldBase.range(of: "^[A-Za-z_][A-Za-z_0-9]*$", options: .regularExpression) != nil,
                !["int", "char", "unsigned", "long", "short", "float", "double", "size_t"].contains(fieldBase)
            {
                result += fields(of: fieldBase, holding: type, depth: depth + 1).map { name + "." + $0 }
            }
        }
        return result
    }

    /// The text between the braces of the struct's definition (`struct S { … }` or
    /// `typedef struct … { … } S;`), the fields of nested braces left out; nil when there is not
    /// exactly one definition.
    private mutating func structBody(_ base: String) -> String? {
        let isTag = base.hasPrefix("struct ")
        let name = isTag ? String(base.dropFirst("struct ".count)) : base
        let escaped = NSRegularExpression.escapedPattern(for: name)
        var bodies = Set<String>()
        for text in texts(mentioning: name) {
            let bytes = Array(text.utf8)
            let ns = text as NSString
            if isTag, let regex = try? NSRegularExpression(pattern: #"\bstruct\s+"# + escaped + #"\s*\{"#) {
                for m in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                    let open = (ns.substring(to: m.range.upperBound) as String).utf8.count - 1
                    if let body = Self.braced(bytes, open: open) { bodies.insert(body) }
                }
            } else if !isTag, let regex = try? NSRegularExpression(pattern: #"\}\s*"# + escaped + #"\s*;"#) {
                for m in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                    let close = (ns.substring(to: m.range.lowerBound) as String).utf8.count
                    if let open = Self.opening(bytes, close: close), Self.isTypedefStruct(bytes, open: open),
                        let body = Self.braced(bytes, open: open)
                    {
                        bodies.insert(body)
                    }
                }
            }
        }
        return bodies.count == 1 ? bodies.first : nil
    }

    /// The text with its `/* … */` and `// …` comments blanked.
    static func withoutComments(_ text: String) -> String {
        text.replacingOccurrences(of: #"/\*[\s\S]*?\*/|//[^\n]*"#, with: " ", options: .regularExpression)
    }

    /// The text inside the braces opening at `open`, nested braces dropped.
    static func braced(_ bytes: [UInt8], open: Int) -> String? {
        var depth = 0, out: [UInt8] = []
        for i in open..<bytes.count {
            if bytes[i] == UInt8(ascii: "{") { depth += 1; if depth == 1 { continue } }
            if bytes[i] == UInt8(ascii: "}") {
                depth -= 1; if depth == 0 { return String(decoding: out, as: UTF8.self) }
            }
            if depth == 1 { out.append(bytes[i]) }
        }
        return nil
    }

    static func opening(_ bytes: [UInt8], close: Int) -> Int? {
        var depth = 0, i = close
        while i >= 0 {
            if bytes[i] == UInt8(ascii: "}") { depth += 1 }
            if bytes[i] == UInt8(ascii: "{") { depth -= 1; if depth == 0 { return i } }
            i -= 1
        }
        return nil
    }

    static func isTypedefStruct(_ bytes: [UInt8], open: Int) -> Bool {
        let before = String(decoding: bytes[max(0, open - 200)..<open], as: UTF8.self)
        return before.range(of: #"typedef\s+struct(\s+[A-Za-z_][A-Za-z_0-9]*)?\s*$"#, options: .regularExpression)
            != nil
    }

    /// The function's parameters: name and type (`const` dropped).
    static func parameters(of function: EnclosingDeclaration, tokens: FixTokens) -> [(name: String, type: CType)] {
        guard let first = (0..<tokens.count).first(where: { tokens.start($0) >= function.range.lowerBound }) else {
            return []
        }
        var open = first
        while open < tokens.count && tokens.text(open) != "(" && tokens.start(open) < function.range.upperBound {
            open += 1
        }
        guard open < tokens.count, tokens.text(open) == "(", let close = tokens.matchingClose(open) else { return [] }
        var result: [(String, CType)] = []
        var current: [String] = []
        var depth = 0
        for i in (open + 1)...close {
            let w = tokens.text(i)
            if w == "(" || w == "[" { depth += 1 } else if (w == ")" || w == "]") && i != close { depth -= 1 }
            if depth == 0 && (w == "," || i == close) {
                if let name = current.last, tokens.isIdentifier(i - 1), current.count >= 2 {
                    let words = current.dropLast().filter { $0 != "const" && $0 != "restrict" }
                    result.append(
                        (
                            name,
                            CType(
                                base: words.filter { $0 != "*" }.joined(separator: " "),
                                pointers: words.filter { $0 == "*" }.count)
                        ))
                }
                current = []
                continue
            }
            if depth == 0 { current.append(w) } else { current = [] }
        }
        return result
    }
}

/// Which pointer parameters of the run's C functions may be NULL: the function tests the
/// parameter (`if (!wt)`), or a call in the run passes `NULL` (or `0`) there, or passes a
/// parameter of its own function that may be NULL (`wt_status_check_rebase(NULL, …)` makes `wt`
/// of `get_branch(wt, …)` in it one). Read from the text of the run's files: function
/// definitions that open their body after the parameter list, calls by name.
final class CNullableParameters {
    private struct Definition {
        var name: String
        var parameters: [String]
        var body: Range<Int> // UTF-16 offsets in its text
        var text: Int
    }

    private let texts: [NSString]
    private var definitions: [Definition] = []
    private var memo: [String: Bool] = [:]

    init(texts: [String]) {
        self.texts = texts.map { $0 as NSString }
        let header = try? NSRegularExpression(
            pattern:
                #"(?m)^[A-Za-z_][A-Za-z_0-9 \t\*]*?\b([A-Za-z_][A-Za-z_0-9]*)\s*\(([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*)\)\s*\{"#
        )
        for (t, text) in self.texts.enumerated() {
            for m in header?.matches(in: text as String, range: NSRange(location: 0, length: text.length)) ?? [] {
                let name = text.substring(with: m.range(at: 1))
                if ["if", "while", "for", "switch", "return", "sizeof"].contains(name) { continue }
                let open = m.range.upperBound - 1
                let parameters = Self.split(text.substring(with: m.range(at: 2))).map { parameter in
                    parameter.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).last.map(
                        String.init) ?? ""
                }
                definitions.append(
                    Definition(
                        name: name, parameters: parameters, body: open..<(Self.close(text, from: open) ?? text.length),
                        text: t))
            }
        }
    }

    /// Whether parameter `index` of `function` may be NULL (unknown functions: no).
    func mayBeNull(_ function: String, _ index: Int, testedInBody: Bool) -> Bool {
        if testedInBody { return true }
        return callsPassNull(function, index)
    }

    private func callsPassNull(_ function: String, _ index: Int) -> Bool {
        guard index >= 0 else { return false }
        let key = "\(function)#\(index)"
        if let known = memo[key] { return known }
        memo[key] = false // a cycle adds nothing
        var result = false
        let call = try? NSRegularExpression(
            pattern: #"(?<![A-Za-z_0-9\.>])"# + NSRegularExpression.escapedPattern(for: function) + #"\s*\("#)
        outer: for (t, text) in texts.enumerated() {
            for m in call?.matches(in: text as String, range: NSRange(location: 0, length: text.length)) ?? [] {
                let open = m.range.upperBound - 1
                guard let close = Self.close(text, from: open) else { continue }
                // the definition itself, or a declaration, is not a call
                let inside = definitions.last { $0.text == t && $0.body.contains(m.range.location) }
                guard let caller = inside else { continue }
                let arguments = Self.split(text.substring(with: NSRange(location: open + 1, length: close - open - 1)))
                guard index < arguments.count else { continue }
                let argument = arguments[index].trimmingCharacters(in: .whitespacesAndNewlines)
                if ["NULL", "0", "nullptr", "(void *)0", "((void *)0)"].contains(argument) {
                    result = true; break outer
                }
                if let j = caller.parameters.firstIndex(of: argument), j >= 0 {
                    let body = text.substring(
                        with: NSRange(location: caller.body.lowerBound, length: caller.body.count))
                    let tests =
                        body.range(
                            of: #"(!\s*"# + NSRegularExpression.escapedPattern(for: argument)
                                + #"\b(?!\s*(->|\.|\[))|\b"# + NSRegularExpression.escapedPattern(for: argument)
                                + #"\s*(==|!=)\s*(NULL|0)\b)"#, options: .regularExpression) != nil
                    if tests || callsPassNull(caller.name, j) { result = true; break outer }
                }
            }
        }
        memo[key] = result
        return result
    }

    /// The `)` or `}` closing the bracket at `open` (quoted strings and characters skipped).
    static func close(_ text: NSString, from open: Int) -> Int? {
        var depth = 0, i = open, quote: unichar? = nil
        while i < text.length {
            let c = text.character(at: i)
            if let q = quote {
                if c == 92 { i += 2; continue } // backslash
                if c == q { quote = nil }
            } else if c == 34 || c == 39 {
                quote = c
            } else if c == 40 || c == 123 || c == 91 {
                depth += 1
            } else if c == 41 || c == 125 || c == 93 {
                depth -= 1; if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }

    /// Top-level comma-separated parts (brackets and quoted strings kept whole).
    static func split(_ text: String) -> [String] {
        var parts: [String] = [], current = "", depth = 0, quote: Character? = nil, escaped = false
        for c in text {
            if let q = quote {
                current.append(c)
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c; current.append(c)
            case "(", "[", "{": depth += 1; current.append(c)
            case ")", "]", "}": depth -= 1; current.append(c)
            case "," where depth == 0: parts.append(current); current = ""
            default: current.append(c)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty || !parts.isEmpty { parts.append(current) }
        return parts
    }
}
