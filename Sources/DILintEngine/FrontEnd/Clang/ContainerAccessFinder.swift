import CLibClang

/// Finds direct container accesses in a parsed file: through the AST where names resolve
/// (which also sees accesses through macros, subclasses and aliases) and through libclang's
/// token stream where they don't (headerless files, where unresolved code drops out of the AST).
struct ContainerAccessFinder {
    let specs: [ContainerSpec]
    /// Accessors by container type name (`shared`, a selector's first piece with its colon `has:`, or `*`).
    private let accessorsByType: [String: Set<String>]
    /// C++ template accessors by type name: the service is the template argument.
    private let templatesByType: [String: Set<String>]
    private let functions: Set<String>
    private let globals: Set<String>
    /// Ambient properties: `self.databaseStorage`, `[self databaseStorage]`.
    private let ambient: Set<String>
    private let allAccessors: Set<String>

    init(specs: [ContainerSpec]) {
        self.specs = specs
        var byType: [String: Set<String>] = [:], templates: [String: Set<String>] = [:]
        var functions = Set<String>(), globals = Set<String>(), ambient = Set<String>()
        for spec in specs {
            switch spec {
            case let .member(type, accessor): byType[type, default: []].insert(accessor)
            case let .template(type, accessor): templates[type, default: []].insert(accessor)
            case let .function(name): functions.insert(name)
            case let .global(name): globals.insert(name)
            case let .ambient(name): ambient.insert(name)
            case .propertyWrapper: break // Swift only
            }
        }
        accessorsByType = byType
        templatesByType = templates
        self.functions = functions
        self.globals = globals
        self.ambient = ambient
        allAccessors = Set(byType.values.flatMap { $0 } + templates.values.flatMap { $0 })
    }

    /// The accessor a spec of `type` matches for the member `name` (`shared`, `has:` for a
    /// selector `has:` or `has:with:`), or nil: the configured accessor, or the member itself under `*`.
    func accessor(of type: String, member name: String, takesArgument: Bool) -> String? {
        guard let accessors = accessorsByType[type] else { return nil }
        let key = takesArgument ? String(name.prefix { $0 != ":" }) + ":" : name
        if accessors.contains(key) { return key }
        if accessors.contains("*"), !memberWildcardExclusions.contains(String(name.prefix { $0 != ":" })) { return key }
        return nil
    }

    func isTemplateAccessor(type: String, accessor: String) -> Bool {
        templatesByType[type]?.contains(accessor) == true
    }

    func find(in file: ParsedFile) -> [LocatedAccess] {
        let walk = ASTWalk(finder: self, file: file)
        let fromAST = walk.run()
        var result = fromAST
        var ranges = RangeIndex(result.map(\.range))
        for var found in scanTokens(file) {
            // the first access (in `result`'s order) of the same container whose range holds it
            if let i = ranges.containing(found.offset).filter({ result[$0].access.container == found.access.container })
                .min()
            {
                if result[i].access.service == nil { result[i].access.service = found.access.service }
                if result[i].tokenIndex == nil { result[i].tokenIndex = found.tokenIndex }
                continue
            }
            found.access.kind = .direct
            ranges.insert(found.range, id: result.count)
            result.append(found)
        }
        // the AST's definitions, and those it lost found in the tokens (`ParsedFile.lostDefinitions`)
        let declarations = result.isEmpty ? [] : file.scopes + file.lostDefinitions
        let holders = DeclarationScopes.innermost(declarations.map(\.range), holding: result.map(\.offset))
        for i in result.indices {
            result[i].enclosing = holders[i].map { declarations[$0] }
            if result[i].tokenIndex == nil { result[i].tokenIndex = file.tokenIndex(at: result[i].offset) }
        }
        // an ambient name the class itself declares (`@property … databaseStorage;`, `- (…)databaseStorage`) is its own
        if result.contains(where: { $0.access.container == ambientContainerName }) {
            let own = Self.ownMembers(TokenCursor(file: file))
            result.removeAll { located in
                guard located.access.container == ambientContainerName, let type = located.enclosing?.typeName,
                    let service = located.access.service
                else { return false }
                return own[type]?.contains(service) == true
            }
        }
        // the accessor's own definition (`+sharedInstance`, `Container& Container::shared() {…}`) is not an access
        result.removeAll { located in
            guard let scope = located.enclosing, scope.typeName == located.access.container else { return false }
            return scope.name == located.access.accessor
                || scope.name.hasPrefix(located.access.accessor) && located.access.accessor.hasSuffix(":")
        }
        return result.sorted { $0.offset < $1.offset }
    }

    // MARK: Token stream

    private func scanTokens(_ file: ParsedFile) -> [LocatedAccess] {
        let t = TokenCursor(file: file), tokens = file.tokens
        let n = t.count
        func text(_ i: Int) -> String { t.text(i) }
        func spells(_ i: Int, _ word: String) -> Bool { t.spells(i, word) }
        func isIdentifier(_ i: Int) -> Bool { t.isIdentifier(i) }
        func isMemberOperator(_ i: Int) -> Bool { t.isMemberOperator(i) }
        func closingParen(from open: Int) -> Int? { t.close(from: open) }
        /// The member read after token `j` (`.x`, `->x`), or nil.
        func member(after j: Int) -> String? { isMemberOperator(j + 1) && isIdentifier(j + 2) ? text(j + 2) : nil }
        let names = Set(accessorsByType.keys).union(templatesByType.keys).union(functions).union(globals).union(ambient)
        let lengths = Set(names.map(\.utf8.count))
        var found: [LocatedAccess] = []
        func add(_ start: Int, _ end: Int, _ access: ContainerAccess) {
            found.append(
                LocatedAccess(
                    offset: tokens[start].range.lowerBound,
                    range: tokens[start].range.lowerBound..<tokens[end].range.upperBound,
                    access: access, tokenIndex: start))
        }
        /// The first token of `ns::Type` ending at `i`.
        func qualifiedStart(_ i: Int) -> Int {
            var start = i
            while spells(start - 1, "::"), isIdentifier(start - 2) { start -= 2 }
            return start
        }
        for i in 0..<n where tokens[i].kind == .identifier && lengths.contains(tokens[i].range.count) {
            let name = text(i)
            guard names.contains(name) else { continue }
            if accessorsByType[name] != nil {
                if spells(i - 1, "["), isIdentifier(i + 1), spells(i + 2, "]") || spells(i + 2, ":"),
                    let accessor = accessor(of: name, member: text(i + 1), takesArgument: spells(i + 2, ":"))
                {
                    if accessor.hasSuffix(":") {
                        // [Environment hasEnabledOption:x]: the whole message is the access
                        if let close = closingParen(from: i - 1) {
                            add(i - 1, close, ContainerAccess(container: name, accessor: accessor, service: nil))
                        }
                    } else {
                        // [Container sharedInstance], [[Container sharedInstance] service], [Container sharedInstance].service
                        var service: String?
                        if spells(i - 2, "["), isIdentifier(i + 3), spells(i + 4, "]") || spells(i + 4, ":") {
                            service = text(i + 3)
                        } else if isMemberOperator(i + 3), isIdentifier(i + 4) {
                            service = text(i + 4)
                        }
                        add(i - 1, i + 2, ContainerAccess(container: name, accessor: accessor, service: service))
                    }
                } else if spells(i + 1, "."), isIdentifier(i + 2), !(isMemberOperator(i - 1) || spells(i - 1, "::")),
                    let accessor = accessor(of: name, member: text(i + 2), takesArgument: false)
                {
                    // Container.sharedInstance.service, Container.shared().service, [Container.shared service]
                    var j = i + 3
                    if spells(j, "("), spells(j + 1, ")") { j += 2 }
                    var service: String?
                    if isMemberOperator(j), isIdentifier(j + 1) {
                        service = text(j + 1)
                    } else if spells(i - 1, "["), isIdentifier(j), spells(j + 1, "]") || spells(j + 1, ":") {
                        service = text(j)
                    }
                    add(i, i + 2, ContainerAccess(container: name, accessor: accessor, service: service))
                } else if spells(i + 1, "::"), isIdentifier(i + 2), spells(i + 3, "("),
                    let accessor = accessor(of: name, member: text(i + 2), takesArgument: false),
                    let close = closingParen(from: i + 3),
                    !looksLikeDeclaration(t, at: qualifiedStart(i), close: close, qualified: true)
                {
                    // Container::shared().service, ns::Container::shared()
                    add(i, close, ContainerAccess(container: name, accessor: accessor, service: member(after: close)))
                }
            }
            if let templates = templatesByType[name], spells(i + 1, "::"), templates.contains(text(i + 2)) {
                // ServiceLocator::getService<ComponentManager>(): the template argument is the service
                var j = i + 3
                var service: String?
                if spells(j, "<"), let close = templateClose(t, from: j) {
                    service = t.joined(j + 1, close)
                    j = close + 1
                }
                if spells(j, "("), let close = closingParen(from: j),
                    !looksLikeDeclaration(t, at: qualifiedStart(i), close: close, qualified: true)
                {
                    add(
                        i, close,
                        ContainerAccess(
                            container: name, accessor: text(i + 2), service: service.flatMap { $0.isEmpty ? nil : $0 }))
                }
            }
            if functions.contains(name), spells(i + 1, "("), !isMemberOperator(i - 1), !spells(i - 1, "::"),
                let close = closingParen(from: i + 1), !looksLikeDeclaration(t, at: i, close: close)
            {
                // container_shared()->service
                add(i, close, ContainerAccess(container: name, accessor: name, service: member(after: close)))
            }
            if ambient.contains(name) {
                let service = ContainerAccess(container: ambientContainerName, accessor: "", service: name)
                if spells(i - 1, "."), spells(i - 2, "self"), !(spells(i + 1, "=") && !spells(i + 2, "=")) {
                    add(i - 2, i, service) // self.databaseStorage
                } else if spells(i - 1, "self"), spells(i - 2, "["), spells(i + 1, "]") {
                    add(i - 2, i + 1, service) // [self databaseStorage]
                }
            }
            if globals.contains(name), !isMemberOperator(i - 1), !spells(i - 1, "::"), !isGlobalDeclaration(t, at: i) {
                // g_browser_process->profile_manager(), [gContainer service], gContainer.service
                if spells(i + 1, "="), !spells(i + 2, "=") { continue } // set, not read
                var service = member(after: i)
                if service == nil, spells(i - 1, "["), isIdentifier(i + 1), spells(i + 2, "]") || spells(i + 2, ":") {
                    service = text(i + 1)
                }
                add(i, i, ContainerAccess(container: name, accessor: "", service: service))
            }
        }
        return found
    }

    /// Per class, the properties and argument-less instance methods its `@interface` (primary,
    /// class extension, category) and `@implementation` blocks in this file declare.
    static func ownMembers(_ t: TokenCursor) -> [String: Set<String>] {
        var members: [String: Set<String>] = [:]
        var i = 0
        while i < t.count {
            guard let (word, next) = t.directive(at: i), word == "interface" || word == "implementation",
                t.isIdentifier(next)
            else { i += 1; continue }
            let type = t.text(next)
            var j = next + 1
            while j < t.count {
                if let (w, after) = t.directive(at: j) {
                    if w == "end" { break }
                    if w == "property" { // @property (…) Type *name;
                        var k = after
                        while k < t.count, !t.spells(k, ";"), !t.spells(k, "@") { k += 1 }
                        if t.isIdentifier(k - 1) { members[type, default: []].insert(t.text(k - 1)) }
                        j = k
                        continue
                    }
                    j = after
                    continue
                }
                if t.spells(j, "-"),
                    t.spells(j - 1, ";") || t.spells(j - 1, "}") || t.spells(j - 1, "{") || t.spells(j - 1, ")")
                        || j == next + 1,
                    t.spells(j + 1, "("), let close = t.close(from: j + 1), t.isIdentifier(close + 1),
                    !t.spells(close + 2, ":")
                {
                    members[type, default: []].insert(t.text(close + 1)) // - (Type *)name
                    j = close + 2
                    continue
                }
                j += 1
            }
            i = j + 1
        }
        return members
    }

    /// The `>` closing the template argument list opened at `open` (`<`), counting nested `<…>`.
    private func templateClose(_ t: TokenCursor, from open: Int) -> Int? {
        var depth = 0, j = open
        while j < t.count {
            let w = t.text(j)
            if w == "<" { depth += 1 } else if w == ">" { depth -= 1 } else if w == ">>" { depth -= 2 }
            if depth <= 0 { return w == ">" ? j : nil }
            if w == ";" || w == "{" || w == "}" { return nil }
            j += 1
        }
        return nil
    }

    /// `extern Browser *g_browser_process;`, `static Container *gContainer = nil;`, `#define gContainer …`.
    private func isGlobalDeclaration(_ t: TokenCursor, at i: Int) -> Bool {
        var p = i - 1
        while p >= 0, t.spells(p, "*") || t.spells(p, "&") || t.spells(p, "const") { p -= 1 }
        guard p >= 0 else { return false }
        if t.spells(p, "define") { return true }
        let before = t.file.tokens[p]
        return before.kind == .identifier || (before.kind == .keyword && !Self.expressionKeywords.contains(t.text(p)))
            || t.spells(p, ">")
    }

    /// Keywords that can stand right before a call in an expression.
    private static let expressionKeywords: Set<String> = [
        "return", "case", "else", "do", "throw", "sizeof", "co_return", "co_await", "typeof", "__typeof__", "decltype",
        "alignof", "delete",
    ]

    /// `Container *container_shared(void);`, `#define container_shared() ...`: a name being
    /// declared rather than called, as far as tokens tell.
    private func looksLikeDeclaration(_ t: TokenCursor, at i: Int, close: Int, qualified: Bool = false) -> Bool {
        guard i > 0 else { return false }
        var p = i - 1
        while p >= 0, t.spells(p, "*") || t.spells(p, "&") { p -= 1 }
        guard p >= 0 else { return false }
        if t.spells(p, "define") { return true }
        let before = t.file.tokens[p]
        let typeLike =
            before.kind == .identifier || (before.kind == .keyword && !Self.expressionKeywords.contains(t.text(p)))
            || (qualified && t.spells(p, ">")) // `std::unique_ptr<X> Container::make() {…}`
        guard typeLike else { return false }
        // `x = a * container_shared()` is rare; a declaration ends in `;`, `{` or an attribute.
        guard close + 1 < t.count else { return true }
        let next = t.text(close + 1), kind = t.file.tokens[close + 1].kind
        return next == ";" || next == "{" || next == "__attribute__" || next == "," || kind == .keyword
            || kind == .identifier
    }

    // MARK: AST

    /// The container a resolved declaration belongs to, when it is one of the configured accessors.
    fileprivate func match(referenced ref: CXCursor, expression kind: CXCursorKind, names: inout ClassNames)
        -> ContainerAccess?
    {
        let name = clang_getCursorSpelling(ref).consume()
        switch ref.kind {
        case CXCursor_FunctionDecl:
            guard kind == CXCursor_CallExpr, functions.contains(name) else { return nil }
            return ContainerAccess(container: name, accessor: name, service: nil)
        case CXCursor_ObjCClassMethodDecl, CXCursor_ObjCPropertyDecl, CXCursor_CXXMethod, CXCursor_FunctionTemplate:
            let piece = String(name.prefix { $0 != ":" })
            guard allAccessors.contains(piece) || allAccessors.contains(piece + ":") || allAccessors.contains("*")
            else { return nil }
            let isCXX = ref.kind == CXCursor_CXXMethod || ref.kind == CXCursor_FunctionTemplate
            if isCXX && (kind != CXCursor_CallExpr || clang_CXXMethod_isStatic(ref) == 0) { return nil }
            if ref.kind == CXCursor_ObjCPropertyDecl
                && clang_Cursor_getObjCPropertyAttributes(ref, 0) & UInt32(CXObjCPropertyAttr_class.rawValue) == 0
            {
                return nil
            }
            if !isCXX && kind == CXCursor_CallExpr { return nil }
            let owner = clang_getCursorSemanticParent(ref)
            for type in names.lineage(of: owner) {
                if isTemplateAccessor(type: type, accessor: name) {
                    return ContainerAccess(container: type, accessor: name, service: nil)
                }
                if let accessor = accessor(of: type, member: name, takesArgument: name.contains(":")) {
                    return ContainerAccess(container: type, accessor: accessor, service: nil)
                }
            }
            return nil
        default:
            return nil
        }
    }
}

/// Class names with their superclasses / bases, memoized per file.
struct ClassNames {
    private var cache: [String: [String]] = [:]

    mutating func lineage(of declaration: CXCursor) -> [String] {
        var cursor = declaration
        if cursor.kind == CXCursor_ObjCCategoryDecl || cursor.kind == CXCursor_ObjCCategoryImplDecl {
            cursor = firstChild(of: cursor, kind: CXCursor_ObjCClassRef).map(clang_getCursorReferenced) ?? cursor
        }
        let name = clang_getCursorSpelling(cursor).consume()
        if name.isEmpty { return [] }
        if let known = cache[name] { return known }
        cache[name] = [name] // cycle guard
        var result = [name]
        let parentKind: CXCursorKind =
            cursor.kind == CXCursor_ObjCInterfaceDecl || cursor.kind == CXCursor_ObjCImplementationDecl
            ? CXCursor_ObjCSuperClassRef : CXCursor_CXXBaseSpecifier
        var definition = cursor
        if cursor.kind == CXCursor_ObjCImplementationDecl {
            definition = firstChild(of: cursor, kind: CXCursor_ObjCClassRef).map(clang_getCursorReferenced) ?? cursor
        }
        if let superRef = firstChild(of: definition, kind: parentKind) {
            var base = clang_getCursorReferenced(superRef)
            if base.kind == CXCursor_TypeRef || clang_Cursor_isNull(base) != 0 {
                base = clang_getTypeDeclaration(clang_getCursorType(superRef))
            }
            if clang_Cursor_isNull(base) == 0 { result += lineage(of: base) }
        }
        cache[name] = result
        return result
    }
}

func firstChild(of cursor: CXCursor, kind: CXCursorKind) -> CXCursor? {
    final class Box { var kind: CXCursorKind; var found: CXCursor?; init(_ k: CXCursorKind) { kind = k } }
    let box = Box(kind)
    _ = clang_visitChildren(
        cursor,
        { child, _, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            if child.kind == box.kind { box.found = child; return CXChildVisit_Break }
            return CXChildVisit_Continue
        }, Unmanaged.passUnretained(box).toOpaque())
    return box.found
}

/// One walk over the main file's part of the AST.
private final class ASTWalk {
    let finder: ContainerAccessFinder
    let file: ParsedFile
    var names = ClassNames()
    /// Parent of each access's cursor and of the implicit-cast and parenthesis expressions above
    /// it (what `service(after:)` climbs through), as last visited, to find the service an access
    /// goes on to. Only those: a table of every expression was a tenth of a large file's run.
    var parents = CursorTable()
    /// The cursors from the top-level declaration down to the one being visited, each with the
    /// parent it was visited under: where an access's cursor sits when it is found.
    private var path: [(cursor: CXCursor, parent: CXCursor)] = []
    var hits: [(cursor: CXCursor, access: ContainerAccess)] = []
    var macroExpansions: [(range: Range<Int>, name: String)] = []
    private var expansions = MacroExpansionIndex([])

    init(finder: ContainerAccessFinder, file: ParsedFile) {
        self.finder = finder
        self.file = file
    }

    func run() -> [LocatedAccess] {
        let root = clang_getTranslationUnitCursor(file.unit)
        _ = clang_visitChildren(
            root,
            { cursor, parent, data in
                Unmanaged<ASTWalk>.fromOpaque(data!).takeUnretainedValue().visit(cursor, parent)
            }, Unmanaged.passUnretained(self).toOpaque())
        expansions = MacroExpansionIndex(macroExpansions)
        return hits.compactMap(locate)
    }

    func visit(_ cursor: CXCursor, _ parent: CXCursor) -> CXChildVisitResult {
        let kind = cursor.kind
        if parent.kind == CXCursor_TranslationUnit {
            guard clang_Location_isFromMainFile(clang_getCursorLocation(cursor)) != 0 else {
                return CXChildVisit_Continue
            }
            if kind == CXCursor_MacroExpansion {
                let extent = clang_getCursorExtent(cursor)
                let lo = ParsedFile.offset(clang_getRangeStart(extent)),
                    hi = ParsedFile.offset(clang_getRangeEnd(extent))
                macroExpansions.append((lo..<max(hi, lo + 1), clang_getCursorSpelling(cursor).consume()))
                return CXChildVisit_Continue
            }
        }
        // the parent was visited before its children: it is on the path, under what was visited after it
        if parent.kind == CXCursor_TranslationUnit {
            path.removeAll(keepingCapacity: true)
        } else {
            while let top = path.last, clang_equalCursors(top.cursor, parent) == 0 { path.removeLast() }
        }
        path.append((cursor, parent))
        if kind == CXCursor_UnexposedExpr || kind == CXCursor_ParenExpr {
            // visited again under another parent (a shared subexpression): the last visit counts
            parents.replaceIfPresent(cursor, with: parent)
        } else if kind == CXCursor_ObjCMessageExpr || kind == CXCursor_MemberRefExpr || kind == CXCursor_CallExpr {
            let ref = clang_getCursorReferenced(cursor)
            if clang_Cursor_isNull(ref) == 0, let access = matched(ref, kind) {
                parents[cursor] = parent
                // the implicit casts and parentheses it sits in, up to the first other cursor
                var i = path.count - 2
                while i >= 0, path[i].cursor.kind == CXCursor_UnexposedExpr || path[i].cursor.kind == CXCursor_ParenExpr
                {
                    parents[path[i].cursor] = path[i].parent
                    i -= 1
                }
                hits.append((cursor, access))
            }
        }
        return CXChildVisit_Recurse
    }

    /// `finder.match` of each declaration and expression kind, asked once: a file calls the same
    /// few methods many times, and the match reads the declaration's name and class lineage.
    private var matches: [DeclarationUse: ContainerAccess?] = [:]

    private func matched(_ ref: CXCursor, _ kind: CXCursorKind) -> ContainerAccess? {
        let key = DeclarationUse(ref, kind)
        if let known = matches[key] { return known }
        let access = finder.match(referenced: ref, expression: kind, names: &names)
        matches[key] = access
        return access
    }

    private func locate(_ hit: (cursor: CXCursor, access: ContainerAccess)) -> LocatedAccess? {
        let extent = clang_getCursorExtent(hit.cursor)
        let start = clang_getRangeStart(extent)
        var startFile: CXFile?
        clang_getExpansionLocation(start, &startFile, nil, nil, nil)
        guard let startFile, let mainFile = file.file, clang_File_isEqual(startFile, mainFile) != 0 else { return nil }
        var access = hit.access
        // a template accessor's service is its template argument (from the tokens); a selector with arguments has none
        if !finder.isTemplateAccessor(type: access.container, accessor: access.accessor)
            && !access.accessor.hasSuffix(":")
        {
            access.service = service(after: hit.cursor)
        }
        let lo = ParsedFile.offset(start)
        let hi = max(lo + 1, ParsedFile.offset(clang_getRangeEnd(extent)))
        access.viaMacro = expansions.first(containing: lo)
        return LocatedAccess(offset: lo, range: lo..<hi, access: access, tokenIndex: nil)
    }

    /// The member or message the access is the base/receiver of, skipping implicit casts and parens.
    private func service(after cursor: CXCursor) -> String? {
        var child = cursor
        while let parent = parents[child] {
            switch parent.kind {
            case CXCursor_UnexposedExpr, CXCursor_ParenExpr:
                child = parent
                continue
            case CXCursor_MemberRefExpr:
                let member = clang_getCursorSpelling(parent).consume()
                return member.isEmpty ? nil : member // empty when the member did not resolve
            case CXCursor_ObjCMessageExpr:
                guard let receiver = firstExpressionChild(parent),
                    clang_equalRanges(clang_getCursorExtent(receiver), clang_getCursorExtent(child)) != 0
                else { return nil }
                // the selector's first piece; nil when the message did not resolve
                let selector = clang_getCursorSpelling(parent).consume().utf8
                guard let start = selector.firstIndex(where: { $0 != UInt8(ascii: ":") }) else { return nil }
                return String(
                    Substring(
                        selector[start..<(selector[start...].firstIndex(of: UInt8(ascii: ":")) ?? selector.endIndex)]))
            default:
                return nil
            }
        }
        return nil
    }

    private func firstExpressionChild(_ cursor: CXCursor) -> CXCursor? {
        final class Box { var found: CXCursor? }
        let box = Box()
        _ = clang_visitChildren(
            cursor,
            { child, _, data in
                guard clang_isExpression(child.kind) != 0 else { return CXChildVisit_Continue }
                Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().found = child
                return CXChildVisit_Break
            }, Unmanaged.passUnretained(box).toOpaque())
        return box.found
    }
}

/// The main file's macro expansions, for the first one (in visiting order, which is source
/// order) holding an offset, found by a binary search: a scan of every expansion for every
/// access cost a file of many of both the square of its length.
struct MacroExpansionIndex {
    /// Indices into `expansions` by range start (stable), with the furthest end up to each.
    private let expansions: [(range: Range<Int>, name: String)]
    private let order: [Int]
    private let furthestEnd: [Int]

    init(_ expansions: [(range: Range<Int>, name: String)]) {
        self.expansions = expansions
        order = expansions.indices.sorted {
            (expansions[$0].range.lowerBound, $0) < (expansions[$1].range.lowerBound, $1)
        }
        var end = Int.min
        furthestEnd = order.map {
            end = max(end, expansions[$0].range.upperBound); return end
        }
    }

    /// The name of the first expansion holding `offset`, nil when none does.
    func first(containing offset: Int) -> String? {
        // the first in start order whose end lies past the offset: every one before it ends at or before it
        let lo = (0..<order.count).partitionPoint { furthestEnd[$0] <= offset }
        guard lo < order.count else { return nil }
        // the one at `lo` ends past the offset (the furthest end grows there); it holds it when it
        // starts at or before it, and no later one starts earlier
        let e = expansions[order[lo]]
        guard e.range.lowerBound <= offset else { return nil }
        return e.name
    }
}

/// A referenced declaration under the identity `clang_equalCursors` gives it (a declaration
/// cursor's second word is a visiting flag it ignores), with the kind of expression using it.
private struct DeclarationUse: Hashable {
    let kind: UInt32, first: UnsafeRawPointer?, second: UnsafeRawPointer?, third: UnsafeRawPointer?, use: UInt32

    init(_ cursor: CXCursor, _ use: CXCursorKind) {
        kind = cursor.kind.rawValue
        first = cursor.data.0
        second = clang_isDeclaration(cursor.kind) != 0 ? nil : cursor.data.1
        third = cursor.data.2
        self.use = use.rawValue
    }
}

/// Cursors to cursors, as a dictionary keyed by cursor would hold them (equal under
/// `clang_equalCursors`; a later value for an equal cursor replaces the earlier), in an
/// open-addressing table over libclang's hash: a dictionary's hashing and resizing cost a
/// large file's walk more than libclang's own visit.
struct CursorTable {
    private struct Entry {
        var hash: UInt32
        var used: Bool
        var key: CXCursor
        var value: CXCursor
    }

    private var entries: [Entry] = []
    private var count = 0
    /// A bit per hash of the keys, two bits per slot, read before the table itself: most cursors
    /// asked about are no key, and a large table's miss costs a cache miss (rebuilt on growth).
    private var present: [UInt64] = []

    private func presentBit(_ hash: UInt32) -> (word: Int, bit: UInt64) {
        let h = Int(truncatingIfNeeded: (UInt64(hash) &* 0xC2B2_AE3D_27D4_EB4F) >> 32) & (present.count * 64 - 1)
        return (h >> 6, 1 << UInt64(h & 63))
    }

    private func mayHold(_ hash: UInt32) -> Bool {
        let (word, bit) = presentBit(hash)
        return present[word] & bit != 0
    }

    private mutating func markPresent(_ hash: UInt32) {
        let (word, bit) = presentBit(hash)
        present[word] |= bit
    }

    private static func slot(_ hash: UInt32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(hash) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot holding `key`, or the empty slot where it would go (`found` false); the table has room.
    private func probe(_ key: CXCursor, hash: UInt32) -> (slot: Int, found: Bool) {
        let mask = entries.count - 1
        var i = Self.slot(hash, mask)
        while entries[i].used {
            if entries[i].hash == hash && clang_equalCursors(entries[i].key, key) != 0 { return (i, true) }
            i = (i + 1) & mask
        }
        return (i, false)
    }

    subscript(key: CXCursor) -> CXCursor? {
        get {
            guard !entries.isEmpty else { return nil }
            let hash = clang_hashCursor(key)
            guard mayHold(hash) else { return nil }
            let (i, found) = probe(key, hash: hash)
            return found ? entries[i].value : nil
        }
        set {
            guard let newValue else { preconditionFailure("CursorTable holds no removals") }
            if (count + 1) * 2 > entries.count { grow() }
            let hash = clang_hashCursor(key)
            let (i, found) = probe(key, hash: hash)
            if found {
                entries[i].value = newValue
            } else {
                entries[i] = Entry(hash: hash, used: true, key: key, value: newValue)
                count += 1
                markPresent(hash)
            }
        }
    }

    /// Sets the value of a cursor the table holds; does nothing for another.
    mutating func replaceIfPresent(_ key: CXCursor, with value: CXCursor) {
        guard count > 0 else { return }
        let hash = clang_hashCursor(key)
        guard mayHold(hash) else { return }
        let (i, found) = probe(key, hash: hash)
        if found { entries[i].value = value }
    }

    private mutating func grow() {
        let old = entries
        entries = Array(
            repeating: Entry(hash: 0, used: false, key: CXCursor(), value: CXCursor()), count: max(64, old.count * 2))
        present = Array(repeating: 0, count: entries.count / 32)
        let mask = entries.count - 1
        for e in old where e.used {
            var i = Self.slot(e.hash, mask)
            while entries[i].used { i = (i + 1) & mask }
            entries[i] = e
            markPresent(e.hash)
        }
    }
}
