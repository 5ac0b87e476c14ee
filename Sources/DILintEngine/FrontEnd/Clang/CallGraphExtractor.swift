import CLibClang

/// Extracts `CallGraphFacts` from one parsed C, C++ or Objective-C file: every function
/// definition with what its body calls, every function stored into a function-pointer slot, and
/// every crash-time handler the file installs.
final class CallGraphExtractor {
    /// Comment marker that names a function as crash-time code.
    static let annotation = "di-lint:signal-handler"
    /// Fields of `struct sigaction` that hold the handler.
    static let sigactionFields: Set<String> = ["sa_handler", "sa_sigaction"]
    static let sigactionFieldLengths = Set(sigactionFields.map(\.utf8.count))
    /// Functions whose second argument becomes a signal handler.
    static let signalInstallers: Set<String> = ["signal", "bsd_signal", "sysv_signal", "sigset"]

    let file: ParsedFile
    let accesses: [LocatedAccess]
    let accessRanges: RangeIndex
    let bridgeNames: Set<String>
    /// Their lengths in bytes: a token of another length is no bridge name (no string made for it).
    let bridgeNameLengths: Set<Int>
    var facts = CallGraphFacts()
    /// Last lines of `di-lint:signal-handler` comments.
    let annotationLines: Set<Int>

    /// Whether each definition's subtree is read from libclang once (`CursorTree`) and token
    /// searches start in the function's tokens; false asks libclang per question and searches
    /// every token, as before: the tests compare the two.
    let readsSubtrees: Bool

    init(file: ParsedFile, accesses: [LocatedAccess], bridgeNames: [String], readsSubtrees: Bool = true) {
        self.file = file
        self.readsSubtrees = readsSubtrees
        self.accesses = accesses.filter { $0.access.kind != .injected }
        accessRanges = RangeIndex(self.accesses.map(\.range))
        self.bridgeNames = Set(bridgeNames)
        bridgeNameLengths = Set(bridgeNames.map(\.utf8.count))
        annotationLines = Set(
            file.comments.compactMap { comment -> Int? in
                guard file.buffer.text(comment.range).contains(CallGraphExtractor.annotation) else { return nil }
                return file.buffer.lineColumn(of: max(comment.range.lowerBound, comment.range.upperBound - 1)).line
            })
    }

    func extract() -> CallGraphFacts {
        preprocessing()
        declarations(in: clang_getTranslationUnitCursor(file.unit))
        definitionsFromTokens()
        registrationsFromTokens()
        if facts.functions.contains(where: { $0.sites.contains { $0.target?.usr.hasPrefix("name:") == true } }) {
            facts.includedFiles = includedFileNames()
        }
        return facts
    }

    /// Offsets in the main file where a macro is expanded: the name there is no call.
    var macroExpansions = Set<Int>()
    /// Names of the main file's file-scope variables: a call through one is no call by name.
    var globalNames = Set<String>()
    /// The macros the parse saw, by name (the last definition): invocations in code read from the
    /// tokens are expanded from them (`macroExpansion(_:at:)`).
    var visibleMacros: [String: CXCursor] = [:]
    /// Their definitions, read on first use (nil: not a definition di-lint can read).
    var macroDefinitionsRead: [String: MacroDefinition?] = [:]
    /// The file-scope C function declarations the parse saw, by name (`visibleFunction(_:)`).
    var visibleFunctions: [String: CXCursor]?

    /// Function-like macros the file defines (facts) and where macros are expanded.
    func preprocessing() {
        for c in Cursors.children(clang_getTranslationUnitCursor(file.unit)) {
            switch c.kind {
            case CXCursor_MacroExpansion:
                if let offset = Cursors.mainFileOffset(clang_getCursorLocation(c), file) {
                    macroExpansions.insert(offset)
                }
            case CXCursor_MacroDefinition:
                // function-like: `(` right after the name
                let name = Cursors.spelling(c)
                visibleMacros[name] = c
                if let at = Cursors.mainFileOffset(clang_getCursorLocation(c), file) {
                    let functionLike = file.buffer.spells(at + name.utf8.count..<at + name.utf8.count + 1, "(")
                    if functionLike { facts.macros.append(name) }
                    runMacro(c, functionLike: functionLike)
                }
            case CXCursor_VarDecl
            where Cursors.isInMainFile(c, file) && Cursors.isCallable(variable: c, invalidIsCallable: false):
                globalNames.insert(Cursors.spelling(c))
            default:
                continue
            }
        }
    }

    // MARK: Declarations

    func declarations(in parent: CXCursor) {
        for c in Cursors.children(parent) {
            let inMainFile = Cursors.isInMainFile(c, file)
            // a namespace opened by a macro (`PLCR_CPP_BEGIN_NS`) is not "from" the main file, its contents are
            guard
                inMainFile
                    || (Cursors.isContainer(c) && clang_Location_isInSystemHeader(clang_getCursorLocation(c)) == 0)
            else { continue }
            switch c.kind {
            case _ where Cursors.isFunction(c) && inMainFile:
                // a definition's subtree read once, for its annotation and its body
                let definition = clang_isCursorDefinition(c) != 0
                if definition && readsSubtrees { tree.load(c) }
                defer { tree.clear() }
                if isAnnotated(c) { facts.annotated.append(Cursors.symbol(c)) }
                if definition { function(c) }
            case CXCursor_VarDecl where inMainFile:
                variable(c)
            case _ where Cursors.isContainer(c):
                declarations(in: c)
            default:
                continue
            }
        }
    }

    func isAnnotated(_ function: CXCursor) -> Bool {
        if kids(function).contains(where: {
            $0.kind == CXCursor_AnnotateAttr && Cursors.spelling($0) == CallGraphExtractor.annotation
        }) {
            return true
        }
        guard !annotationLines.isEmpty, let range = offsets(function) else { return false }
        let line = file.buffer.lineColumn(of: range.lowerBound).line
        return annotationLines.contains(line) || annotationLines.contains(line - 1)
    }

    // MARK: Function bodies

    var sites: [CallSite] = []
    /// The function being read, and its parameters (USR → index).
    var current: Symbol?
    var parameters: [String: Int] = [:]
    /// Names of the current function's parameters and locals: a call through one is no call by name.
    var localNames = Set<String>()
    /// The current function's local variables: their names join `localNames` when a lost
    /// statement needs them (a spelling per variable otherwise made for nothing).
    var locals: [CXCursor] = []
    /// Token ranges of the current body the AST did not cover (statements that did not resolve).
    var lostRanges: [Range<Int>] = []
    /// Whether the function being read is a template or a member of one (dependent types are normal there).
    var insideTemplate = false

    /// The accesses' indices by offset, for `accessIndices(in:)`.
    lazy var accessesByOffset: [Int] = accesses.indices.sorted { accesses[$0].offset < accesses[$1].offset }

    /// Byte ranges of the function definitions the AST holds.
    var definitionRanges: [Range<Int>] = []

    /// `namespace a::b { … }` blocks in the tokens (named ones), outermost first.
    lazy var namespaceBlocks: [(name: String, tokens: ClosedRange<Int>)] = file.namespaceBlocks(TokenCursor(file: file))

    /// Where the main file's `#if` blocks open and close (`openConditionals(before:)`).
    lazy var conditionalChanges: [(line: Int, open: [String])] = CallGraphExtractor.conditionalChanges(file.buffer)
    /// C++ classes the parse saw, by name (`visibleClass(_:)`).
    var visibleClasses: [String: CXCursor]?
    /// Recovery nodes and constructions of the current function clang dropped with no call read from them.
    var recoveredWithoutCalls = 0
    /// The destructors an object of each class type runs, by the type's USR (`destructors(of:)`).
    var destructorsByType: [String: [CXCursor]] = [:]
    /// Hashes of the expressions that initialize a variable or are returned: no temporaries.
    var ownedValues = Set<UInt32>()
    /// Byte ranges of the current function's branches taken when an async-signal-safe call failed.
    var errorBranches: [Range<Int>] = []

    /// Depth of `new` expressions being visited: their constructor calls are part of the `new`.
    var insideNew = 0

    /// USRs of the current function's parameters known to be null where the walk is.
    var nullParameters: Set<String> = []

    // MARK: Positions and tokens

    func position(of cursor: CXCursor) -> SitePosition {
        // the extent's start: the offsets' when both ends are in the main file (cached for the subtree's cursors)
        if let range = offsets(cursor) { return position(range.lowerBound) }
        return position(Cursors.mainFileOffset(clang_getRangeStart(clang_getCursorExtent(cursor)), file) ?? 0)
    }

    func position(_ offset: Int) -> SitePosition {
        let (line, column) = file.buffer.lineColumn(of: offset)
        return SitePosition(line: line, column: column, offset: offset)
    }

    /// Code tokens starting inside `range`.
    func tokens(in range: Range<Int>) -> ArraySlice<SourceToken> {
        let lo = tokenIndex(atOrAfter: range.lowerBound)
        var end = lo
        while end < file.tokens.count && file.tokens[end].range.lowerBound < range.upperBound { end += 1 }
        return file.tokens[lo..<end]
    }

    /// `TokenCursor.indices(in:)`, searched within the current function's tokens.
    func tokenIndices(in range: Range<Int>) -> Range<Int> {
        let lo = tokenIndex(atOrAfter: range.lowerBound)
        return lo..<max(lo, tokenIndex(atOrAfter: range.upperBound))
    }

    func firstToken(from offset: Int) -> SourceToken? {
        let i = tokenIndex(atOrAfter: offset)
        return i < file.tokens.count ? file.tokens[i] : nil
    }

    /// Token indices of the function being read: the searches for its offsets look there first
    /// (`tokenIndex(atOrAfter:within:)` checks the answer lies there; a search of the whole
    /// file's tokens otherwise).
    var hint = 0..<0

    func tokenIndex(atOrAfter offset: Int) -> Int {
        hint.isEmpty ? file.tokenIndex(atOrAfter: offset) : file.tokenIndex(atOrAfter: offset, within: hint)
    }

    // MARK: The subtree of the function being read

    /// The current definition's subtree (empty between definitions).
    let tree = CursorTree()

    /// A cursor's children: from the subtree, else from libclang.
    func kids(_ c: CXCursor) -> CursorList { tree.children(c) }

    /// `Cursors.offsets`, once per cursor of the subtree.
    func offsets(_ c: CXCursor) -> Range<Int>? { tree.offsets(c, in: file) }

    /// `Cursors.stripped` over the subtree.
    func stripped(_ expression: CXCursor) -> CXCursor { Cursors.stripped(expression, children: kids) }

    /// `Cursors.functionReference` over the subtree.
    func functionReference(_ expression: CXCursor) -> CXCursor? {
        Cursors.functionReference(expression, children: kids)
    }

    /// `Cursors.isIntegerConstant` over the subtree.
    func isIntegerConstant(_ expression: CXCursor) -> Bool { Cursors.isIntegerConstant(expression, children: kids) }
}
