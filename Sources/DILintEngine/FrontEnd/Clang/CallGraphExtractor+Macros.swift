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
            definition = MacroDefinition(spellings: Cursors.tokenSpellings(cursor, unit: file.unit),
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
              let definition = MacroDefinition(spellings: Cursors.tokenSpellings(cursor, unit: file.unit), functionLike: functionLike),
              definition.body.count <= MacroDefinition.maxBodyInFacts else { return }
        if !functionLike, !(definition.body.contains("(") || (definition.body.count == 1 && MacroExpander.isIdentifier(definition.body[0]))) {
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
            if let destructor = destructor(of: clang_getCursorType(type)) {
                result.append(CallSite(kind: .call, target: Cursors.symbol(destructor), detail: LostStatementReader.detail, position: at))
            }
            return result
        }
        return [CallSite(kind: .call, target: lostCallSymbol(call, from: caller), detail: LostStatementReader.detail, position: at)]
    }

    /// The symbol of a call a lost statement makes: a macro that could not be expanded is a
    /// `macro:` symbol (reported as an unknown call, never taken for a function).
    func lostCallSymbol(_ call: LostStatementReader.Call, from caller: String) -> Symbol {
        call.unexpandedMacro ? Symbol(usr: "macro:" + call.name, name: call.name) : boundCall(call.name, from: caller)
    }
}

/// Binding like a linker: what a call by name may bind to in this translation unit.
extension CallGraphExtractor {
    /// The file names of every header the translation unit includes.
    func includedFileNames() -> [String] {
        final class Box { var names = Set<String>() }
        let box = Box()
        clang_getInclusions(file.unit, { included, _, depth, data in
            guard depth > 0, let included else { return }
            let path = clang_getFileName(included).consume()
            let name = path.split(separator: "/").last.map(String.init) ?? path
            Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().names.insert(name)
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.names.sorted()
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
    /// inside `#if`/`#ifdef`/`#ifndef` blocks that are neither constant nor an include guard: a
    /// stand-in compiled only where the platform lacks the real one (`#if !defined(HAVE_SNPRINTF)`).
    func isConditionalShim(_ cursor: CXCursor, name: String, at offset: Int) -> Bool {
        guard cursor.kind == CXCursor_FunctionDecl, !name.contains("::") else { return false }
        let first = clang_getCanonicalCursor(cursor)
        let declaredBySystem = clang_Location_isInSystemHeader(clang_getCursorLocation(first)) != 0
        guard declaredBySystem || AsyncSignalSafeFunctions.reasons[name] != nil || AsyncSignalSafeFunctions.isSafe(name, allow: [])
        else { return false }
        return !openConditionals(before: offset).isEmpty
    }

    /// The conditions of the `#if` blocks open at a byte offset of the main file, outermost first,
    /// leaving out constant ones and include guards (`#ifndef X` with `#define X` next).
    func openConditionals(before offset: Int) -> [String] {
        let buffer = file.buffer
        let last = buffer.lineColumn(of: offset).line
        var open: [(condition: String, guardName: String?)] = []
        var previousWasGuardCandidate: String?
        var line = 1
        while line < last {
            var text = buffer.lineText(line)
            var next = line + 1
            while text.hasSuffix("\\"), next <= last {
                text = String(text.dropLast()) + " " + buffer.lineText(next)
                next += 1
            }
            defer { line = next }
            let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.first == "#" else { continue }
            let words = trimmed.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" }).map(String.init)
            guard let directive = words.first else { continue }
            let guardCandidate = previousWasGuardCandidate
            previousWasGuardCandidate = nil
            switch directive {
            case "if", "ifdef", "ifndef":
                let condition = words.dropFirst().joined(separator: " ")
                let constant = directive == "if" && ConditionalDirectives.isConstant(condition)
                open.append((constant ? "" : "\(directive) \(condition)", nil))
                if directive == "ifndef", words.count > 1 { previousWasGuardCandidate = words[1] }
            case "define":
                if let name = guardCandidate, words.count > 1, words[1] == name, !open.isEmpty { open[open.count - 1].condition = "" }
            case "endif":
                if !open.isEmpty { open.removeLast() }
            default:
                continue
            }
        }
        return open.map(\.condition).filter { !$0.isEmpty }
    }
}
