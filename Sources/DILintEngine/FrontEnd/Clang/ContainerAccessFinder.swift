import CLibClang

/// Finds direct container accesses in a parsed file: through the AST where names resolve
/// (which also sees accesses through macros, subclasses and aliases) and through libclang's
/// token stream where they don't (headerless files, where unresolved code drops out of the AST).
struct ContainerAccessFinder {
    let specs: [ContainerSpec]
    /// Accessors by container type name.
    private let accessorsByType: [String: Set<String>]
    private let functions: Set<String>
    private let allAccessors: Set<String>

    init(specs: [ContainerSpec]) {
        self.specs = specs
        var byType: [String: Set<String>] = [:]
        var functions = Set<String>()
        for spec in specs {
            switch spec {
            case let .member(type, accessor): byType[type, default: []].insert(accessor)
            case let .function(name): functions.insert(name)
            }
        }
        accessorsByType = byType
        self.functions = functions
        allAccessors = Set(byType.values.flatMap { $0 })
    }

    func find(in file: ParsedFile) -> [LocatedAccess] {
        let walk = ASTWalk(finder: self, file: file)
        let fromAST = walk.run()
        var result = fromAST
        for var found in scanTokens(file) {
            if let i = result.firstIndex(where: { $0.range.contains(found.offset) && $0.access.container == found.access.container }) {
                if result[i].access.service == nil { result[i].access.service = found.access.service }
                if result[i].tokenIndex == nil { result[i].tokenIndex = found.tokenIndex }
                continue
            }
            found.access.kind = .direct
            result.append(found)
        }
        let declarations = result.isEmpty ? [] : file.scopes
        for i in result.indices {
            result[i].enclosing = declarations.filter { $0.range.contains(result[i].offset) }.min { $0.range.count < $1.range.count }
            if result[i].tokenIndex == nil { result[i].tokenIndex = file.tokenIndex(at: result[i].offset) }
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
        let lengths = Set(accessorsByType.keys.map(\.utf8.count) + functions.map(\.utf8.count))
        var found: [LocatedAccess] = []
        for i in 0..<n where tokens[i].kind == .identifier && lengths.contains(tokens[i].range.count) {
            let name = text(i)
            if let accessors = accessorsByType[name] {
                for accessor in accessors {
                    let make = { (start: Int, end: Int, service: String?) in
                        found.append(LocatedAccess(offset: tokens[start].range.lowerBound,
                                                   range: tokens[start].range.lowerBound..<tokens[end].range.upperBound,
                                                   access: ContainerAccess(container: name, accessor: accessor, service: service),
                                                   tokenIndex: start))
                    }
                    if spells(i - 1, "["), spells(i + 1, accessor), spells(i + 2, "]") {
                        // [Container sharedInstance], [[Container sharedInstance] service], [Container sharedInstance].service
                        var service: String?
                        if spells(i - 2, "["), isIdentifier(i + 3), spells(i + 4, "]") || spells(i + 4, ":") {
                            service = text(i + 3)
                        } else if isMemberOperator(i + 3), isIdentifier(i + 4) {
                            service = text(i + 4)
                        }
                        make(i - 1, i + 2, service)
                    } else if spells(i + 1, "."), spells(i + 2, accessor), !(isMemberOperator(i - 1) || spells(i - 1, "::")) {
                        // Container.sharedInstance.service, Container.shared().service, [Container.shared service]
                        var j = i + 3
                        if spells(j, "("), spells(j + 1, ")") { j += 2 }
                        var service: String?
                        if isMemberOperator(j), isIdentifier(j + 1) {
                            service = text(j + 1)
                        } else if spells(i - 1, "["), isIdentifier(j), spells(j + 1, "]") || spells(j + 1, ":") {
                            service = text(j)
                        }
                        make(i, i + 2, service)
                    } else if spells(i + 1, "::"), spells(i + 2, accessor), spells(i + 3, "("), let close = closingParen(from: i + 3) {
                        // Container::shared().service
                        let service = isMemberOperator(close + 1) && isIdentifier(close + 2) ? text(close + 2) : nil
                        make(i, close, service)
                    }
                }
            }
            if functions.contains(name), spells(i + 1, "("), !isMemberOperator(i - 1), !spells(i - 1, "::"),
               let close = closingParen(from: i + 1), !looksLikeDeclaration(t, at: i, close: close) {
                // container_shared()->service
                let service = isMemberOperator(close + 1) && isIdentifier(close + 2) ? text(close + 2) : nil
                found.append(LocatedAccess(offset: tokens[i].range.lowerBound,
                                           range: tokens[i].range.lowerBound..<tokens[close].range.upperBound,
                                           access: ContainerAccess(container: name, accessor: name, service: service),
                                           tokenIndex: i))
            }
        }
        return found
    }

    /// Keywords that can stand right before a call in an expression.
    private static let expressionKeywords: Set<String> = ["return", "case", "else", "do", "throw", "sizeof", "co_return", "co_await", "typeof", "__typeof__", "decltype", "alignof", "delete"]

    /// `Container *container_shared(void);`, `#define container_shared() ...`: a name being
    /// declared rather than called, as far as tokens tell.
    private func looksLikeDeclaration(_ t: TokenCursor, at i: Int, close: Int) -> Bool {
        guard i > 0 else { return false }
        var p = i - 1
        while p >= 0, t.spells(p, "*") || t.spells(p, "&") { p -= 1 }
        guard p >= 0 else { return false }
        if t.spells(p, "define") { return true }
        let before = t.file.tokens[p]
        let typeLike = before.kind == .identifier || (before.kind == .keyword && !Self.expressionKeywords.contains(t.text(p)))
        guard typeLike else { return false }
        // `x = a * container_shared()` is rare; a declaration ends in `;`, `{` or an attribute.
        guard close + 1 < t.count else { return true }
        let next = t.text(close + 1), kind = t.file.tokens[close + 1].kind
        return next == ";" || next == "{" || next == "__attribute__" || next == "," || kind == .keyword || kind == .identifier
    }

    // MARK: AST

    /// The container a resolved declaration belongs to, when it is one of the configured accessors.
    fileprivate func match(referenced ref: CXCursor, expression kind: CXCursorKind, names: inout ClassNames) -> ContainerAccess? {
        let name = clang_getCursorSpelling(ref).consume()
        switch ref.kind {
        case CXCursor_FunctionDecl:
            guard kind == CXCursor_CallExpr, functions.contains(name) else { return nil }
            return ContainerAccess(container: name, accessor: name, service: nil)
        case CXCursor_ObjCClassMethodDecl, CXCursor_ObjCPropertyDecl, CXCursor_CXXMethod:
            guard allAccessors.contains(name) else { return nil }
            if ref.kind == CXCursor_CXXMethod && (kind != CXCursor_CallExpr || clang_CXXMethod_isStatic(ref) == 0) { return nil }
            if ref.kind == CXCursor_ObjCPropertyDecl
                && clang_Cursor_getObjCPropertyAttributes(ref, 0) & UInt32(CXObjCPropertyAttr_class.rawValue) == 0 { return nil }
            if ref.kind != CXCursor_CXXMethod && kind == CXCursor_CallExpr { return nil }
            let owner = clang_getCursorSemanticParent(ref)
            for type in names.lineage(of: owner) {
                if accessorsByType[type]?.contains(name) == true {
                    return ContainerAccess(container: type, accessor: name, service: nil)
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
        let parentKind: CXCursorKind = cursor.kind == CXCursor_ObjCInterfaceDecl || cursor.kind == CXCursor_ObjCImplementationDecl
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
    _ = clang_visitChildren(cursor, { child, _, data in
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
    /// Parent of every expression cursor, to find the service an access goes on to.
    var parents: [CursorKey: CXCursor] = [:]
    var hits: [(cursor: CXCursor, access: ContainerAccess)] = []
    var macroExpansions: [(range: Range<Int>, name: String)] = []

    init(finder: ContainerAccessFinder, file: ParsedFile) {
        self.finder = finder
        self.file = file
    }

    func run() -> [LocatedAccess] {
        let root = clang_getTranslationUnitCursor(file.unit)
        _ = clang_visitChildren(root, { cursor, parent, data in
            Unmanaged<ASTWalk>.fromOpaque(data!).takeUnretainedValue().visit(cursor, parent)
        }, Unmanaged.passUnretained(self).toOpaque())
        return hits.compactMap(locate)
    }

    func visit(_ cursor: CXCursor, _ parent: CXCursor) -> CXChildVisitResult {
        let kind = cursor.kind
        if parent.kind == CXCursor_TranslationUnit {
            guard clang_Location_isFromMainFile(clang_getCursorLocation(cursor)) != 0 else { return CXChildVisit_Continue }
            if kind == CXCursor_MacroExpansion {
                let extent = clang_getCursorExtent(cursor)
                let lo = ParsedFile.offset(clang_getRangeStart(extent)), hi = ParsedFile.offset(clang_getRangeEnd(extent))
                macroExpansions.append((lo..<max(hi, lo + 1), clang_getCursorSpelling(cursor).consume()))
                return CXChildVisit_Continue
            }
        }
        if clang_isExpression(kind) != 0 {
            parents[CursorKey(cursor)] = parent
            if kind == CXCursor_ObjCMessageExpr || kind == CXCursor_MemberRefExpr || kind == CXCursor_CallExpr {
                let ref = clang_getCursorReferenced(cursor)
                if clang_Cursor_isNull(ref) == 0, let access = finder.match(referenced: ref, expression: kind, names: &names) {
                    hits.append((cursor, access))
                }
            }
        }
        return CXChildVisit_Recurse
    }

    private func locate(_ hit: (cursor: CXCursor, access: ContainerAccess)) -> LocatedAccess? {
        let extent = clang_getCursorExtent(hit.cursor)
        let start = clang_getRangeStart(extent)
        var startFile: CXFile?
        clang_getExpansionLocation(start, &startFile, nil, nil, nil)
        guard let startFile, let mainFile = file.file, clang_File_isEqual(startFile, mainFile) != 0 else { return nil }
        var access = hit.access
        access.service = service(after: hit.cursor)
        let lo = ParsedFile.offset(start)
        let hi = max(lo + 1, ParsedFile.offset(clang_getRangeEnd(extent)))
        if let macro = macroExpansions.first(where: { $0.range.contains(lo) }) {
            access.viaMacro = macro.name
        }
        return LocatedAccess(offset: lo, range: lo..<hi, access: access, tokenIndex: nil)
    }

    /// The member or message the access is the base/receiver of, skipping implicit casts and parens.
    private func service(after cursor: CXCursor) -> String? {
        var child = cursor
        while let parent = parents[CursorKey(child)] {
            switch parent.kind {
            case CXCursor_UnexposedExpr, CXCursor_ParenExpr:
                child = parent
                continue
            case CXCursor_MemberRefExpr:
                let member = clang_getCursorSpelling(parent).consume()
                return member.isEmpty ? nil : member // empty when the member did not resolve
            case CXCursor_ObjCMessageExpr:
                guard let receiver = firstExpressionChild(parent),
                      clang_equalRanges(clang_getCursorExtent(receiver), clang_getCursorExtent(child)) != 0 else { return nil }
                let selector = clang_getCursorSpelling(parent).consume()
                return selector.split(separator: ":").first.map(String.init) ?? selector
            default:
                return nil
            }
        }
        return nil
    }

    private func firstExpressionChild(_ cursor: CXCursor) -> CXCursor? {
        final class Box { var found: CXCursor? }
        let box = Box()
        _ = clang_visitChildren(cursor, { child, _, data in
            guard clang_isExpression(child.kind) != 0 else { return CXChildVisit_Continue }
            Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().found = child
            return CXChildVisit_Break
        }, Unmanaged.passUnretained(box).toOpaque())
        return box.found
    }
}

/// CXCursor as a dictionary key.
struct CursorKey: Hashable {
    let cursor: CXCursor
    init(_ cursor: CXCursor) { self.cursor = cursor }
    static func == (a: CursorKey, b: CursorKey) -> Bool { clang_equalCursors(a.cursor, b.cursor) != 0 }
    func hash(into hasher: inout Hasher) { hasher.combine(clang_hashCursor(cursor)) }
}
