/// Reads the calls of statements clang dropped from the AST (a name in them came from a header
/// the parse could not see): `log_message(LOG_LEVEL_INFO, "…")` with `LOG_LEVEL_INFO` unknown
/// is lost from the AST but still a call to `log_message`. Reads `name(` and `A::name(`, not
/// member calls, keywords, or calls through variables and parameters; a macro is expanded
/// (`expand`) and its calls read at the invocation, or, when it cannot be, read as a call that
/// could not be expanded.
struct LostStatementReader {
    struct Call {
        var name: String
        var offset: Int
        /// A macro the parse expanded here whose expansion di-lint could not read.
        var unexpandedMacro = false
        /// How many arguments it is given (a constructor is chosen by their count).
        var arguments = 0
        /// A call by a plain name: its `(`…`)` tokens (at most `maxInvocation`), with which a
        /// macro another file of the run defines is expanded (`CallSite.invocation`).
        var invocation: [String]?
    }

    /// Tokens of an invocation kept for a run-defined macro's expansion.
    static let maxInvocation = 256

    /// `CallSite.detail` of a call read here.
    static let detail = "read from tokens"

    static let notCalls: Set<String> = [
        "if", "while", "for", "switch", "return", "sizeof", "alignof", "_Alignof", "__alignof__", "typeof",
        "__typeof__",
        "__typeof", "decltype", "defined", "__attribute__", "__attribute", "__declspec", "_Static_assert",
        "static_assert",
        "_Generic", "__extension__", "asm", "__asm__", "__asm", "noexcept", "catch", "throw", "new", "delete", "case",
        "do", "else", "volatile", "__builtin_offsetof", "offsetof", "va_arg", "__builtin_va_arg", "static_cast",
        // <stdarg.h>'s macros over compiler builtins (keepalived's logger read from tokens named them calls)
        "va_start", "va_end", "va_copy", "__va_copy",
        "reinterpret_cast", "const_cast", "dynamic_cast", "__has_include", "__has_feature", "operator",
    ]

    private(set) var calls: [Call] = []
    /// Statements in the range (`;`-terminated or braced at the outer level).
    private(set) var statements = 0

    /// `expand(t, i)`: the calls of the macro invoked at token `i`, nil when no macro the parse saw has its name.
    init(
        file: ParsedFile, range: Range<Int>, macroExpansions: Set<Int>, variables: Set<String>,
        expand: ((TokenCursor, Int) -> MacroExpander.Result?)? = nil, isClass: ((String) -> Bool)? = nil
    ) {
        let t = TokenCursor(file: file)
        let indices = t.indices(in: range)
        var directiveLine = -1
        var pending = false
        var depth = 0
        for i in indices {
            let token = file.tokens[i]
            let line = file.buffer.lineColumn(of: token.range.lowerBound).line
            // preprocessor directives inside a body (`#if`, `#define`) are not statements
            if t.spells(i, "#"), i == indices.lowerBound || file.buffer.lineColumn(of: t.offset(i - 1)).line < line {
                directiveLine = line
            }
            if line == directiveLine { continue }
            let text = t.text(i)
            if t.isOpening(i) { depth += 1 } else if t.isClosing(i) { depth = max(0, depth - 1) }
            if depth == 0 && (text == ";" || text == "}") {
                if pending { statements += 1 }
                pending = false
                continue
            }
            pending = true
            if let expand, token.kind == .identifier, !Self.notCalls.contains(text), !t.isMemberOperator(i - 1),
                !t.spells(i - 1, "::")
            {
                if let expansion = expand(t, i) {
                    calls += expansion.calls.map { Call(name: $0, offset: token.range.lowerBound) }
                    calls += expansion.unexpanded.map {
                        Call(name: $0, offset: token.range.lowerBound, unexpandedMacro: true)
                    }
                    continue
                }
                if macroExpansions.contains(token.range.lowerBound), t.spells(i + 1, "(") {
                    calls.append(Call(name: text, offset: token.range.lowerBound, unexpandedMacro: true))
                    continue
                }
            }
            // `T{args}`: a construction of the class `T`
            if let isClass, token.kind == .identifier, t.spells(i + 1, "{"), !t.isMemberOperator(i - 1),
                !t.spells(i - 1, "::"),
                !["struct", "class", "union", "enum", "namespace", "new"].contains(t.text(i - 1)), isClass(text)
            {
                calls.append(
                    Call(name: text, offset: token.range.lowerBound, arguments: t.arguments(from: i + 1).count))
                continue
            }
            guard token.kind == .identifier, t.spells(i + 1, "("), !Self.notCalls.contains(text),
                !t.isMemberOperator(i - 1), !t.spells(i - 1, "@"), !macroExpansions.contains(token.range.lowerBound)
            else { continue }
            var name = text, j = i
            while t.spells(j - 1, "::"), t.isIdentifier(j - 2) {
                name = t.text(j - 2) + "::" + name
                j -= 2
            }
            if t.spells(j - 1, "::") || t.spells(j - 1, "~") { continue } // `::f(` global scope, destructor
            if name == text && variables.contains(text) { continue }
            var invocation: [String]?
            if name == text, let close = t.close(from: i + 1), close - i <= Self.maxInvocation {
                invocation = (i + 1...close).map { t.text($0) }
            }
            calls.append(
                Call(
                    name: name, offset: token.range.lowerBound, arguments: t.arguments(from: i + 1).count,
                    invocation: invocation))
        }
        if pending { statements += 1 }
    }
}
