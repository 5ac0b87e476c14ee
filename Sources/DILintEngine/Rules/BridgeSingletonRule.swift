import CLibClang

/// `bridge-singleton`: the bridge kept as a process-wide singleton: a static or global that is
/// created in place (`dispatch_once`, lazy `if (!b) b = [[B alloc] init]`, a C++ static object,
/// `sharedBridge` accessors built that way). A module static that a setter fills with an
/// injected bridge is fine: only a static that creates its own bridge is reported.
struct BridgeSingletonRule: FileRule {
    let id = "bridge-singleton"

    /// Types whose statics are once-flags, not bridges.
    static let onceTypes: Set<String> = ["dispatch_once_t", "pthread_once_t", "once_flag", "bool", "BOOL", "int", "_Bool", "atomic_bool"]
    /// Calls that create an object.
    static let factorySuffixes = ["_create", "_new", "Create", "_alloc", "_make"]
    static let factories: Set<String> = ["make_shared", "make_unique", "malloc", "calloc"]

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        let t = TokenView(file: context.file)
        let bridgeWords = context.configuration.bridgeNames.map { $0.lowercased() }
        func mentionsBridge(_ s: String) -> Bool { let l = s.lowercased(); return bridgeWords.contains { l.contains($0) } }
        let scopes = context.file.codeScopes()
        let isCxx = context.file.language == .cxx || context.file.language == .objectiveCxx

        var findings: [Finding] = []
        var reported = Set<Int>()
        func report(_ name: String, at index: Int, _ how: String) {
            guard reported.insert(index).inserted else { return }
            var message = "the bridge is a process-wide singleton: static '\(name)' \(how)"
            if enclosingDispatchOnce(t, index) != nil { message += " inside dispatch_once" }
            if let scope = scopes.first(where: { $0.range.contains(t.offset(index)) }) { message += " (in '\(scope.name)')" }
            message += "; let the integration own the bridge and inject it (a module static filled by a setter is fine)"
            findings.append(context.finding(rule: id, offset: t.offset(index), severity: severity, message: message))
        }

        for variable in staticVariables(t) {
            let typeText = t.joined(variable.type.lowerBound, variable.type.upperBound)
            let typeWords = variable.type.filter(t.isIdentifier).map(t.text)
            if typeWords.contains(where: BridgeSingletonRule.onceTypes.contains) { continue }
            let owner = scopes.first { $0.range.contains(t.offset(variable.name)) }?.owner ?? ""
            guard mentionsBridge(t.text(variable.name)) || typeWords.contains(where: mentionsBridge) || mentionsBridge(owner) else { continue }
            let name = t.text(variable.name)
            if let initializer = variable.initializer, isConstruction(t, initializer, mentionsBridge) {
                report(name, at: variable.name, "is created where it is declared")
            } else if isCxx, variable.initializer == nil || variable.directInit, !typeText.contains("*"), !typeText.contains("&"),
                      let last = typeWords.last, mentionsBridge(last), last.first?.isUppercase == true {
                report(name, at: variable.name, "is a C++ object constructed at load time")
            }
            // later assignments: `name = [[Bridge alloc] init];`
            for i in 0..<t.count where t.spells(i, name) && t.spells(i + 1, "=") && i != variable.name
                && !(t.spells(i - 1, ".") || t.spells(i - 1, "->")) {
                guard let end = (i + 2..<t.count).first(where: { t.spells($0, ";") }) else { continue }
                if isConstruction(t, i + 2..<end, mentionsBridge) { report(name, at: i, "is created on first use") }
            }
        }
        return findings
    }

    struct StaticVariable {
        var type: Range<Int>
        var name: Int
        var initializer: Range<Int>?
        /// `Bridge b(args)` / `Bridge b{args}`.
        var directInit = false
    }

    /// `static T name [= init];` anywhere, and file-scope variables (which libclang lists even when their type is unknown).
    private func staticVariables(_ t: TokenView) -> [StaticVariable] {
        var starts: [Int] = []
        for i in 0..<t.count where t.spells(i, "static") { starts.append(i + 1) }
        for c in Cursors.children(clang_getTranslationUnitCursor(t.file.unit)) where c.kind == CXCursor_VarDecl
            && clang_Location_isFromMainFile(clang_getCursorLocation(c)) != 0 {
            if let range = Cursors.offsets(c, in: t.file) {
                let i = t.file.tokenIndex(atOrAfter: range.lowerBound)
                if !t.spells(i, "static") && !t.spells(i, "extern") { starts.append(i) }
            }
        }
        var result: [StaticVariable] = []
        for start in Set(starts).sorted() {
            var j = start
            while j < t.count, !t.spells(j, "=") && !t.spells(j, ";") && !t.spells(j, "(") && !t.spells(j, "{") && !t.spells(j, "[") && !t.spells(j, ",") {
                j += 1
            }
            guard j < t.count, j - 1 > start || (j - 1 == start && t.isIdentifier(start)), t.isIdentifier(j - 1) else { continue }
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
    private func isFunctionDeclaration(_ t: TokenView, _ open: Int) -> Bool {
        guard let close = t.close(from: open) else { return true }
        if t.spells(close + 1, "{") || t.spells(close + 1, "const") || t.spells(close + 1, "noexcept") || t.spells(close + 1, "->") { return true }
        // parameters look like `void`, `int x`, `Type *p`; arguments like `1`, `"x"`, `other`
        let inside = (open + 1..<close)
        if inside.isEmpty { return true }
        return inside.contains { t.spells($0, "void") || (t.isIdentifier($0) && t.isIdentifier($0 + 1)) || t.spells($0, "*") }
    }

    /// Whether the expression creates an object.
    private func isConstruction(_ t: TokenView, _ range: Range<Int>, _ mentionsBridge: (String) -> Bool) -> Bool {
        for i in range {
            let word = t.text(i)
            if word == "alloc" || word == "allocWithZone" || (word == "new" && (t.spells(i + 1, "]") || t.file.tokens[i].kind == .keyword)) {
                return true
            }
            guard t.isIdentifier(i), t.spells(i + 1, "(") || t.spells(i + 1, "{") else { continue }
            if BridgeSingletonRule.factories.contains(word) || BridgeSingletonRule.factorySuffixes.contains(where: word.hasSuffix) { return true }
            if word.first?.isUppercase == true, mentionsBridge(word) { return true } // C++ Bridge(...) / Bridge{...}
        }
        return false
    }

    /// Whether token `i` is inside the parentheses of a `dispatch_once(...)` call.
    private func enclosingDispatchOnce(_ t: TokenView, _ i: Int) -> Int? {
        for j in stride(from: i - 1, through: max(0, i - 400), by: -1) where t.spells(j, "dispatch_once") && t.spells(j + 1, "(") {
            if let close = t.close(from: j + 1), close > i { return j }
        }
        return nil
    }
}
