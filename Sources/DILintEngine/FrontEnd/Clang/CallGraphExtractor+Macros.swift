import CLibClang

/// Macros in code read from the tokens: an invocation is expanded from the `#define` the parse
/// saw (arguments substituted, nested macros followed, `MacroExpander`), and its calls are read
/// at the invocation. The file's own definitions go into its facts, for files of the run whose
/// parse did not see them (`CallGraph` expands those).
extension CallGraphExtractor {
    /// The definition of a macro the parse saw.
    func visibleMacro(_ name: String) -> MacroDefinition? {
        if let known = macroDefinitionsRead[name] { return known }
        var definition: MacroDefinition?
        if let cursor = visibleMacros[name] {
            definition = MacroDefinition(
                spellings: Cursors.tokenSpellings(cursor, unit: file.unit),
                functionLike: clang_Cursor_isMacroFunctionLike(cursor) != 0)
        }
        macroDefinitionsRead[name] = definition
        return definition
    }

    /// The calls of the macro invoked at token `i`, or nil when no macro the parse saw has its
    /// name (or a function-like one is named without `(`). Calls spelled in the invocation's own
    /// arguments are left out: the reader reads them where they are.
    func macroExpansion(_ t: TokenCursor, at i: Int) -> MacroExpander.Result? {
        let name = t.text(i)
        guard visibleMacros[name] != nil, let definition = visibleMacro(name) else { return nil }
        var invocation = [name]
        var argumentCalls = Set<String>()
        if definition.parameters != nil {
            guard t.spells(i + 1, "(") else { return nil }
            guard let close = t.close(from: i + 1), close - i <= MacroExpander.maxTokens else {
                return MacroExpander.Result(calls: [], unexpanded: [name])
            }
            for k in i + 1...close {
                invocation.append(t.text(k))
                if t.isIdentifier(k), t.spells(k + 1, "(") { argumentCalls.insert(t.text(k)) }
            }
        }
        var result = MacroExpander(definition: visibleMacro).calls(of: invocation)
        result.calls.removeAll { argumentCalls.contains($0) }
        return result
    }

    /// A `#define` of the main file, kept in the facts when a call may name it: function-like,
    /// or object-like with a call or a single name in its body (`#define DIE abort()`, `#define LOG log_write`).
    func runMacro(_ cursor: CXCursor, functionLike: Bool) {
        guard facts.macroDefinitions.count < 4096,
            let definition = MacroDefinition(
                spellings: Cursors.tokenSpellings(cursor, unit: file.unit), functionLike: functionLike),
            definition.body.count <= MacroDefinition.maxBodyInFacts
        else { return }
        if !functionLike,
            !(definition.body.contains("(")
                || (definition.body.count == 1 && MacroExpander.isIdentifier(definition.body[0])))
        {
            return
        }
        // a variant for one language (`#ifdef __OBJC__` … `#else` …): the parse saw only its own
        // language's; a file of another language that did not see the header would get the wrong one
        if let at = Cursors.mainFileOffset(clang_getCursorLocation(cursor), file),
            openConditionals(before: at).contains(where: { $0.contains("__OBJC__") || $0.contains("__cplusplus") })
        {
            return
        }
        facts.macroDefinitions.append(definition)
    }

    /// The sites of a call a lost statement makes: `T(args)` or `T{args}` with `T` a class the
    /// parse saw is a construction (its constructors taking that many arguments, then its destructor).
    func lostCallSites(_ call: LostStatementReader.Call, from caller: String) -> [CallSite] {
        let at = position(call.offset)
        if !call.unexpandedMacro, !call.name.contains("::"), let type = visibleClass(call.name) {
            var result = constructors(of: type, arity: call.arguments).map {
                CallSite(kind: .call, target: Cursors.symbol($0), detail: LostStatementReader.detail, position: at)
            }
            for destructor in destructors(of: clang_getCursorType(type)) {
                result.append(
                    CallSite(
                        kind: .call, target: Cursors.symbol(destructor), detail: LostStatementReader.detail,
                        position: at))
            }
            return result
        }
        return [
            CallSite(
                kind: .call, target: lostCallSymbol(call, from: caller), detail: LostStatementReader.detail,
                position: at, invocation: call.unexpandedMacro ? nil : call.invocation)
        ]
    }

    /// The symbol of a call a lost statement makes: a macro that could not be expanded is a
    /// `macro:` symbol (reported as an unknown call, never taken for a function).
    func lostCallSymbol(_ call: LostStatementReader.Call, from caller: String) -> Symbol {
        call.unexpandedMacro ? Symbol(usr: "macro:" + call.name, name: call.name) : boundCall(call.name, from: caller)
    }
}

/// Binding like a linker: what a call by name may bind to in this translation unit.
extension CallGraphExtractor {
    /// The file names of every header the translation unit includes, and of every header the
    /// file's own `#include`/`#import` lines name (found by the parse or not: without the
    /// project's flags a header the build finds may be missing here, its definitions are still
    /// the ones the file sees).
    func includedFileNames() -> [String] {
        var names = Set<String>()
        let buffer = file.buffer
        for i in file.tokens.indices where file.tokens[i].kind == .identifier && i + 1 < file.tokens.count {
            let word = buffer.text(file.tokens[i].range)
            guard word == "include" || word == "import" || word == "include_next", i > 0,
                buffer.spells(file.tokens[i - 1].range, "#")
            else { continue }
            // `"dir/X.h"` is one literal token; `<dir/X.h>` runs to the `>` on the same line
            let line = buffer.lineText(buffer.lineColumn(of: file.tokens[i].range.lowerBound).line)
            guard let open = line.firstIndex(where: { $0 == "\"" || $0 == "<" }) else { continue }
            let rest = line[line.index(after: open)...]
            guard let close = rest.firstIndex(where: { $0 == "\"" || $0 == ">" }) else { continue }
            let spelled = rest[..<close]
            if let name = spelled.split(separator: "/").last, !name.isEmpty { names.insert(String(name)) }
        }
        // the unit's own includes, and those of the header's saved parse it read instead
        for path in ParsedFile.inclusionPaths(file.unit, minimumDepth: 1) + file.savedParseInclusions {
            names.insert(path.split(separator: "/").last.map(String.init) ?? path)
        }
        return names.sorted()
    }

    /// The C functions the translation unit declares at file scope, by name (read on first use).
    func visibleFunction(_ name: String) -> CXCursor? {
        if visibleFunctions == nil {
            var found: [String: CXCursor] = [:]
            for c in Cursors.children(clang_getTranslationUnitCursor(file.unit)) where c.kind == CXCursor_FunctionDecl {
                let spelling = Cursors.spelling(c)
                if found[spelling] == nil || clang_isCursorDefinition(c) != 0 { found[spelling] = c }
            }
            visibleFunctions = found
        }
        return visibleFunctions?[name]
    }

    /// A call read from the tokens by a name the translation unit declares with C linkage binds
    /// to that declaration (libc's `exit` from `<stdlib.h>`, not a `static` stub in a header the
    /// file does not include); otherwise it stays a call by name.
    func boundCall(_ name: String, from caller: String) -> Symbol {
        let symbol = CallGraph.lookup(name, from: caller)
        guard symbol.usr.hasPrefix("name:"), let declaration = visibleFunction(name) else { return symbol }
        let usr = clang_getCursorUSR(declaration).consume()
        // C linkage only: a C++ declaration's USR carries its parameter types, an overload's
        guard usr.hasPrefix("c:"), !usr.contains("#") else { return symbol }
        return Symbol(usr: usr, name: name)
    }
}

extension CallGraphExtractor {
    /// A definition of a function a system header declares (or a C library name di-lint knows)
    /// inside `#if`/`#ifdef`/`#ifndef` blocks that are neither constant nor an include guard, one
    /// of which tests a macro the parse did not see defined before it: a stand-in compiled only
    /// where the platform lacks the real one (`#if !defined(HAVE_SNPRINTF)`), taken here only
    /// because the run lacks the configuration that decides it. Returns those `#if` lines
    /// (outermost first), or nil. Under conditions on macros all defined (`#define NEED_COMPAT`
    /// above `#ifdef NEED_COMPAT`) the parse decided as the compiler would: the project's definition.
    func shimCondition(_ cursor: CXCursor, name: String, at offset: Int) -> String? {
        guard cursor.kind == CXCursor_FunctionDecl, !name.contains("::") else { return nil }
        let first = clang_getCanonicalCursor(cursor)
        let declaredBySystem = clang_Location_isInSystemHeader(clang_getCursorLocation(first)) != 0
        guard
            declaredBySystem || AsyncSignalSafeFunctions.reasons[name] != nil
                || AsyncSignalSafeFunctions.isSafe(name, allow: [])
        else { return nil }
        let open = openConditionals(before: offset)
        let undecided = open.contains { condition in
            CallGraphExtractor.testedMacros(condition).contains { macro in
                guard let definition = visibleMacros[macro] else { return true }
                // a `#define` of the main file counts only above the definition
                if let at = Cursors.mainFileOffset(clang_getCursorLocation(definition), file) { return at > offset }
                return false
            }
        }
        return undecided ? open.joined(separator: ", ") : nil
    }

    /// The macro names an open condition as `conditionalChanges` keeps it tests (`#if
    /// !defined(HAVE_SNPRINTF) || FORCE` → HAVE_SNPRINTF, FORCE).
    static func testedMacros(_ condition: String) -> [String] {
        let notMacros: Set<String> = [
            "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "of", "defined", "__has_include",
            "__has_include_next", "__has_feature", "__has_attribute", "__has_builtin",
        ]
        var names: [String] = []
        var word = ""
        for c in condition.unicodeScalars + [" "] {
            if c == "_" || c.properties.isASCIIHexDigit || ("a"..."z").contains(c) || ("A"..."Z").contains(c) {
                word.unicodeScalars.append(c)
                continue
            }
            if let head = word.unicodeScalars.first, !("0"..."9").contains(head), !notMacros.contains(word) {
                names.append(word)
            }
            word = ""
        }
        return names
    }

    /// The conditions of the `#if` blocks open at a byte offset of the main file, outermost first,
    /// leaving out constant ones and include guards (`#ifndef X` with `#define X` next).
    func openConditionals(before offset: Int) -> [String] {
        let line = file.buffer.lineColumn(of: offset).line
        let changes = conditionalChanges
        // the last change on a line before `line`
        let lo = changes.partitionPoint { $0.line < line }
        return lo == 0 ? [] : changes[lo - 1].open
    }

    /// The open conditions after each directive line that changes them, in line order: one pass
    /// over the file, read on first use.
    static func conditionalChanges(_ buffer: SourceBuffer) -> [(line: Int, open: [String])] {
        var result: [(line: Int, open: [String])] = []
        var open: [String] = []
        var guardCandidate: String?
        let last = buffer.lineColumn(of: max(0, buffer.bytes.count - 1)).line
        var line = 1
        while line <= last {
            var text = buffer.lineText(line)
            var next = line + 1
            while text.hasSuffix("\\"), next <= last {
                text = String(text.dropLast()) + " " + buffer.lineText(next)
                next += 1
            }
            let directiveLine = line
            line = next
            let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.first == "#" else { continue }
            let words = trimmed.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" })
                .map(String.init)
            guard let directive = words.first else { continue }
            let candidate = guardCandidate
            guardCandidate = nil
            // the line as a message shows it: `#if !defined(HAVE_SNPRINTF)`, comments left out
            var shown = String(trimmed.dropFirst())
            for marker in ["//", "/*"] {
                if let comment = shown.range(of: marker) { shown = String(shown[..<comment.lowerBound]) }
            }
            shown = "#" + shown.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            switch directive {
            case "if", "ifdef", "ifndef":
                let condition = words.dropFirst().joined(separator: " ")
                let constant = directive == "if" && ConditionalDirectives.isConstant(condition)
                open.append(constant ? "" : shown)
                if directive == "ifndef", words.count > 1 { guardCandidate = words[1] }
            case "else":
                // the other branch of the same condition (a constant one's or a guard's stays left out)
                guard let top = open.last, !top.isEmpty else { continue }
                open[open.count - 1] = top.hasPrefix("#else of ") ? top : "#else of \(top)"
            case "elif", "elifdef", "elifndef":
                guard let top = open.last, !top.isEmpty else { continue }
                open[open.count - 1] = shown
            case "define":
                guard let name = candidate, words.count > 1, words[1] == name, !open.isEmpty else { continue }
                open[open.count - 1] = ""
            case "endif":
                guard !open.isEmpty else { continue }
                open.removeLast()
            default:
                continue
            }
            result.append((directiveLine, open.filter { !$0.isEmpty }))
        }
        return result
    }
}
