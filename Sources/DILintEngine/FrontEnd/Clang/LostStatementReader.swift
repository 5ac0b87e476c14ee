/// Reads the calls of statements clang dropped from the AST (a name in them came from a header
/// the parse could not see): `log_message(LOG_LEVEL_INFO, "…")` with `LOG_LEVEL_INFO` unknown
/// is lost from the AST but still a call to `log_message`. Reads `name(` and `A::name(`, not
/// member calls, keywords, macro expansions, or calls through variables and parameters.
struct LostStatementReader {
    /// `CallSite.detail` of a call read here.
    static let detail = "read from tokens"

    static let notCalls: Set<String> = [
        "if", "while", "for", "switch", "return", "sizeof", "alignof", "_Alignof", "__alignof__", "typeof", "__typeof__",
        "__typeof", "decltype", "defined", "__attribute__", "__attribute", "__declspec", "_Static_assert", "static_assert",
        "_Generic", "__extension__", "asm", "__asm__", "__asm", "noexcept", "catch", "throw", "new", "delete", "case",
        "do", "else", "volatile", "__builtin_offsetof", "offsetof", "va_arg", "__builtin_va_arg", "static_cast",
        // <stdarg.h>'s macros over compiler builtins (keepalived's logger read from tokens named them calls)
        "va_start", "va_end", "va_copy", "__va_copy",
        "reinterpret_cast", "const_cast", "dynamic_cast", "__has_include", "__has_feature", "operator",
    ]

    private(set) var calls: [(name: String, offset: Int)] = []
    /// Statements in the range (`;`-terminated or braced at the outer level).
    private(set) var statements = 0

    init(file: ParsedFile, range: Range<Int>, macroExpansions: Set<Int>, variables: Set<String>) {
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
            calls.append((name, token.range.lowerBound))
        }
        if pending { statements += 1 }
    }
}
