/// A macro's definition as token spellings: what `MacroExpander` needs to find the calls an
/// invocation makes. Read by the front end from the `#define`s a parse saw (`Cursors`), and kept in
/// a file's facts for the function-like ones its own file defines (the run's macros).
struct MacroDefinition: Equatable {
    var name: String
    /// The parameter names; nil for an object-like macro. A variadic macro's last one is
    /// `__VA_ARGS__` (`...`) or its own name (`args...`).
    var parameters: [String]?
    var variadic: Bool
    var body: [String]

    /// Longest body kept in a file's facts, in tokens (a longer one is kept without its body: its
    /// invocations are then calls that could not be expanded).
    static let maxBodyInFacts = 1024

    /// The definition from the spellings of a `#define`'s tokens after `define`: the name, then
    /// `(`parameters`)` when `functionLike`, then the body.
    init?(spellings s: [String], functionLike: Bool) {
        guard let first = s.first, MacroExpander.isIdentifier(first) else { return nil }
        name = first
        guard functionLike else {
            parameters = nil
            variadic = false
            body = Array(s.dropFirst())
            return
        }
        guard s.count >= 3, s[1] == "(", let close = s.firstIndex(of: ")") else { return nil }
        var names: [String] = []
        var isVariadic = false
        for k in 2..<close where s[k] != "," {
            if s[k] == "..." {
                isVariadic = true
                if k > 2, s[k - 1] != "," { continue } // `args...`: the name is already in
                names.append("__VA_ARGS__")
            } else {
                names.append(s[k])
            }
        }
        parameters = names
        variadic = isVariadic
        body = Array(s[(close + 1)...])
    }

    init(name: String, parameters: [String]?, variadic: Bool, body: [String]) {
        self.name = name
        self.parameters = parameters
        self.variadic = variadic
        self.body = body
    }
}

/// Expands macros over token spellings as the preprocessor would, far enough to find the calls
/// an invocation makes: arguments substituted (`#` and `##` included, `, ## __VA_ARGS__` and
/// `__VA_OPT__` as GCC and C23 do), the result rescanned, a macro not expanded inside its own
/// expansion. Depth and size are bounded: past them the macro is one that could not be expanded.
struct MacroExpander {
    /// Nested expansions followed.
    static let maxDepth = 16
    /// Tokens produced by one invocation's expansion, all levels together.
    static let maxTokens = 20_000

    struct Result: Equatable {
        /// Names called in the expansion, in order, each once.
        var calls: [String] = []
        /// Macros met in the expansion that could not be expanded (too deep, too large, an
        /// invocation without its arguments' closing parenthesis).
        var unexpanded: [String] = []
    }

    let definition: (String) -> MacroDefinition?

    /// The calls the invocation makes: `tokens` is the macro's name, then `(`arguments`)` for a
    /// function-like macro.
    func calls(of tokens: [String]) -> Result {
        var result = Result()
        var budget = Self.maxTokens
        let expanded = expand(tokens, active: [], depth: 0, result: &result, budget: &budget)
        var seen = Set<String>()
        for (k, token) in expanded.enumerated()
        where k + 1 < expanded.count && expanded[k + 1] == "(" && Self.isIdentifier(token) {
            if k > 0, [".", "->", "::", "~", "@"].contains(expanded[k - 1]) { continue }
            // a macro left in its own expansion (`#define malloc(n) malloc(n)`) names the function
            if LostStatementReader.notCalls.contains(token) || result.unexpanded.contains(token) { continue }
            if seen.insert(token).inserted { result.calls.append(token) }
        }
        return result
    }

    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.utf8.first,
            first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
        else { return false }
        return s.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
                || ($0 >= 48 && $0 <= 57) || $0 >= 0x80
        }
    }

    private func expand(_ input: [String], active: Set<String>, depth: Int, result: inout Result, budget: inout Int)
        -> [String]
    {
        var tokens = input
        var out: [String] = []
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            guard !active.contains(token), Self.isIdentifier(token), let macro = definition(token) else {
                out.append(token)
                i += 1
                continue
            }
            var arguments: [[String]] = []
            var next = i + 1
            if macro.parameters != nil {
                // a function-like macro's name without `(` is no invocation
                guard next < tokens.count, tokens[next] == "(" else {
                    out.append(token)
                    i += 1
                    continue
                }
                guard let (parsed, close) = Self.arguments(tokens, open: next) else {
                    result.unexpanded.append(token)
                    out.append(token)
                    i += 1
                    continue
                }
                arguments = parsed
                next = close + 1
            }
            guard depth < Self.maxDepth, budget > 0 else {
                if !result.unexpanded.contains(token) { result.unexpanded.append(token) }
                i = next
                continue
            }
            let substituted = Self.substitute(macro, arguments)
            budget -= substituted.count
            var body = expand(
                substituted, active: active.union([token]), depth: depth + 1, result: &result, budget: &budget)
            // `#define LOG log_write` then `LOG(x)`: the expansion's last name meets the `(` after it
            if macro.parameters == nil, next < tokens.count, tokens[next] == "(", let last = body.last, last != token,
                Self.isIdentifier(last), definition(last)?.parameters != nil
            {
                body.removeLast()
                out += body
                tokens[next - 1] = last
                i = next - 1
                continue
            }
            out += body
            i = next
        }
        return out
    }

    /// The arguments of the invocation whose `(` is at `open`, split at top-level commas, and
    /// the index of its `)`.
    static func arguments(_ tokens: [String], open: Int) -> ([[String]], Int)? {
        var arguments: [[String]] = [[]]
        var depth = 0
        var k = open + 1
        while k < tokens.count {
            let t = tokens[k]
            if t == "(" || t == "[" || t == "{" {
                depth += 1
            } else if t == ")" || t == "]" || t == "}" {
                if depth == 0 {
                    if t != ")" { return nil }
                    return (arguments.count == 1 && arguments[0].isEmpty ? [] : arguments, k)
                }
                depth -= 1
            }
            if t == ",", depth == 0 { arguments.append([]) } else { arguments[arguments.count - 1].append(t) }
            k += 1
        }
        return nil
    }

    /// The body with the arguments in place of the parameters.
    static func substitute(_ macro: MacroDefinition, _ arguments: [[String]]) -> [String] {
        guard let parameters = macro.parameters else { return macro.body }
        let fixed = macro.variadic ? parameters.count - 1 : parameters.count
        let variadicName = macro.variadic ? parameters.last : nil
        var rest: [String] = []
        if macro.variadic, arguments.count > fixed {
            for (k, a) in arguments[fixed...].enumerated() { rest += (k > 0 ? [","] : []) + a }
        }
        func argument(_ name: String) -> [String]? {
            if name == variadicName { return rest }
            guard let k = parameters.firstIndex(of: name), k < fixed else { return nil }
            return k < arguments.count ? arguments[k] : []
        }
        let body = macro.body
        var out: [String] = []
        var j = 0
        while j < body.count {
            let b = body[j]
            if b == "#", j + 1 < body.count, let a = argument(body[j + 1]) {
                out.append("\"" + a.joined(separator: " ") + "\"")
                j += 2
                continue
            }
            if b == "##", j + 1 < body.count {
                let following = argument(body[j + 1]) ?? [body[j + 1]]
                if body[j + 1] == variadicName, out.last == "," {
                    // GCC's `, ## __VA_ARGS__`: the comma goes when there are no variadic arguments
                    if following.isEmpty { out.removeLast() }
                    out += following
                } else if let last = out.popLast(), let first = following.first {
                    out.append(last + first)
                    out += following.dropFirst()
                } else {
                    out += following
                }
                j += 2
                continue
            }
            if b == "__VA_OPT__", macro.variadic, j + 1 < body.count, body[j + 1] == "(",
                let (inner, close) = Self.arguments(body, open: j + 1)
            {
                if !rest.isEmpty {
                    let content = Array(inner.enumerated().map { k, a in (k > 0 ? [","] : []) + a }.joined())
                    out += substitute(
                        MacroDefinition(name: macro.name, parameters: parameters, variadic: true, body: content),
                        arguments)
                }
                j = close + 1
                continue
            }
            if let a = argument(b) { out += a } else { out.append(b) }
            j += 1
        }
        return out
    }
}
