import CLibClang

/// Statics and globals that create their own bridge-like object, on the token stream and the
/// file-scope variables libclang lists: created in place (`dispatch_once`, lazy
/// `if (!b) b = [[B alloc] init]`, `sharedBridge` accessors built that way), or a C++ static
/// object. A static that a setter fills is not a creation.
struct ClangSingletons {
    /// Types whose statics are once-flags, not bridges.
    static let onceTypes: Set<String> = [
        "dispatch_once_t", "pthread_once_t", "once_flag", "bool", "BOOL", "int", "_Bool", "atomic_bool",
    ]
    /// Calls that create an object.
    static let factorySuffixes = ["_create", "_new", "Create", "_alloc", "_make"]
    static let factories: Set<String> = ["make_shared", "make_unique", "malloc", "calloc"]

    let t: TokenCursor
    let scopes: [CodeScope]
    let assignments: [Assignment]
    let configuration: Configuration
    /// `fileScopeVariables(t)`: what this reads of libclang, read when libclang is free.
    let fileScopeVariables: [Int]

    func creations() -> [SingletonCreation] {
        let mentionsBridge = configuration.mentionsBridge
        let isCxx = t.file.language == .cxx || t.file.language == .objectiveCxx

        var found: [SingletonCreation] = []
        var reported = Set<Int>()
        func report(_ name: String, at index: Int, _ how: SingletonCreation.How) {
            guard reported.insert(index).inserted else { return }
            found.append(
                SingletonCreation(
                    name: name, offset: t.offset(index), how: how,
                    insideDispatchOnce: enclosingDispatchOnce(t, index) != nil,
                    scope: scopes.first(where: { $0.range.contains(t.offset(index)) })?.name))
        }

        for variable in staticVariables(t) {
            let typeText = t.joined(variable.type.lowerBound, variable.type.upperBound)
            let typeWords = variable.type.filter(t.isIdentifier).map(t.text)
            if typeWords.contains(where: ClangSingletons.onceTypes.contains) { continue }
            let owner = scopes.first { $0.range.contains(t.offset(variable.name)) }?.typeName ?? ""
            guard
                mentionsBridge(t.text(variable.name)) || typeWords.contains(where: mentionsBridge)
                    || mentionsBridge(owner)
            else { continue }
            let name = t.text(variable.name)
            if let initializer = variable.initializer, isConstruction(t, initializer, mentionsBridge) {
                report(name, at: variable.name, .createdWhereDeclared)
            } else if isCxx, variable.initializer == nil || variable.directInit, !typeText.contains("*"),
                !typeText.contains("&"),
                let last = typeWords.last, mentionsBridge(last), last.first?.isUppercase == true
            {
                report(name, at: variable.name, .cxxObjectAtLoad)
            }
            // later assignments: `name = [[Bridge alloc] init];`
            for assignment in assignments where !assignment.isMember && assignment.name == name {
                guard let i = t.file.tokenIndex(at: assignment.nameOffset), i != variable.name,
                    let end = (i + 2..<t.count).first(where: { t.spells($0, ";") })
                else { continue }
                if isConstruction(t, i + 2..<end, mentionsBridge) { report(name, at: i, .createdOnFirstUse) }
            }
        }
        return found
    }

    struct StaticVariable {
        var type: Range<Int>
        var name: Int
        var initializer: Range<Int>?
        /// `Bridge b(args)` / `Bridge b{args}`.
        var directInit = false
    }

    /// The first tokens of the main file's file-scope variables libclang lists (even when their
    /// type is unknown) that are neither `static` nor `extern`.
    static func fileScopeVariables(_ t: TokenCursor) -> [Int] {
        var starts: [Int] = []
        for c in Cursors.children(clang_getTranslationUnitCursor(t.file.unit))
        where c.kind == CXCursor_VarDecl
            && clang_Location_isFromMainFile(clang_getCursorLocation(c)) != 0
        {
            if let range = Cursors.offsets(c, in: t.file) {
                let i = t.file.tokenIndex(atOrAfter: range.lowerBound)
                if !t.spells(i, "static") && !t.spells(i, "extern") { starts.append(i) }
            }
        }
        return starts
    }

    /// `static T name [= init];` anywhere, and file-scope variables.
    private func staticVariables(_ t: TokenCursor) -> [StaticVariable] {
        var starts: [Int] = []
        for i in 0..<t.count where t.spells(i, "static") { starts.append(i + 1) }
        starts += fileScopeVariables
        var result: [StaticVariable] = []
        for start in Set(starts).sorted() {
            var j = start
            while j < t.count,
                !t.spells(j, "=") && !t.spells(j, ";") && !t.spells(j, "(") && !t.spells(j, "{") && !t.spells(j, "[")
                    && !t.spells(j, ",")
            {
                j += 1
            }
            guard j < t.count, j - 1 > start || (j - 1 == start && t.isIdentifier(start)), t.isIdentifier(j - 1) else {
                continue
            }
            // `static void f(void) {`, `static int table[]`: functions and arrays are not singletons
            if t.spells(j, "(") && t.spells(j - 2, "*") == false && isFunctionDeclaration(t, j) { continue }
            var v = StaticVariable(type: start..<(j - 1), name: j - 1)
            if t.spells(j, "="), let end = (j + 1..<t.count).first(where: { t.spells($0, ";") }) {
                v.initializer = j + 1..<end
            } else if t.spells(j, "(") || t.spells(j, "{") {
                v.directInit = true
                if let close = t.close(from: j) { v.initializer = j..<close + 1 }
            }
            result.append(v)
        }
        return result
    }

    /// `name(` starting a function declaration or definition rather than a direct initialization.
    private func isFunctionDeclaration(_ t: TokenCursor, _ open: Int) -> Bool {
        guard let close = t.close(from: open) else { return true }
        if t.spells(close + 1, "{") || t.spells(close + 1, "const") || t.spells(close + 1, "noexcept")
            || t.spells(close + 1, "->")
        {
            return true
        }
        // parameters look like `void`, `int x`, `Type *p`; arguments like `1`, `"x"`, `other`
        let inside = (open + 1..<close)
        if inside.isEmpty { return true }
        return inside.contains {
            t.spells($0, "void") || (t.isIdentifier($0) && t.isIdentifier($0 + 1)) || t.spells($0, "*")
        }
    }

    /// Whether the expression creates an object.
    private func isConstruction(_ t: TokenCursor, _ range: Range<Int>, _ mentionsBridge: (String) -> Bool) -> Bool {
        for i in range {
            let word = t.text(i)
            if word == "alloc" || word == "allocWithZone"
                || (word == "new" && (t.spells(i + 1, "]") || t.file.tokens[i].kind == .keyword))
            {
                return true
            }
            guard t.isIdentifier(i), t.spells(i + 1, "(") || t.spells(i + 1, "{") else { continue }
            if ClangSingletons.factories.contains(word)
                || ClangSingletons.factorySuffixes.contains(where: word.hasSuffix)
            {
                return true
            }
            if word.first?.isUppercase == true, mentionsBridge(word) { return true } // C++ Bridge(...) / Bridge{...}
        }
        return false
    }

    /// Whether token `i` is inside the parentheses of a `dispatch_once(...)` call.
    private func enclosingDispatchOnce(_ t: TokenCursor, _ i: Int) -> Int? {
        for j in stride(from: i - 1, through: max(0, i - 400), by: -1)
        where t.spells(j, "dispatch_once") && t.spells(j + 1, "(") {
            if let close = t.close(from: j + 1), close > i { return j }
        }
        return nil
    }
}
