import CLibClang

/// Small libclang helpers for the call-graph extractor and the lifecycle rules.
enum Cursors {
    /// Direct children of a cursor, in source order.
    static func children(_ cursor: CXCursor) -> [CXCursor] {
        var list: [CXCursor] = []
        withUnsafeMutablePointer(to: &list) { pointer in
            _ = clang_visitChildren(
                cursor,
                { child, _, data in
                    data!.assumingMemoryBound(to: [CXCursor].self).pointee.append(child)
                    return CXChildVisit_Continue
                }, pointer)
        }
        return list
    }

    static func spelling(_ cursor: CXCursor) -> String { clang_getCursorSpelling(cursor).consume() }

    static func isNull(_ cursor: CXCursor) -> Bool { clang_Cursor_isNull(cursor) != 0 }

    /// Byte offsets (in the main file, through macro expansions) of a cursor's extent.
    static func offsets(_ cursor: CXCursor, in file: ParsedFile) -> Range<Int>? {
        let extent = clang_getCursorExtent(cursor)
        guard let lo = mainFileOffset(clang_getRangeStart(extent), file),
            let hi = mainFileOffset(clang_getRangeEnd(extent), file)
        else { return nil }
        return lo..<max(lo, hi)
    }

    static func mainFileOffset(_ location: CXSourceLocation, _ file: ParsedFile) -> Int? {
        var where_: CXFile?
        var offset: UInt32 = 0
        clang_getExpansionLocation(location, &where_, nil, nil, &offset)
        guard let where_, let main = file.file, clang_File_isEqual(where_, main) != 0 else { return nil }
        return Int(offset)
    }

    static let functionKinds: Set<UInt32> = [
        CXCursor_FunctionDecl, CXCursor_CXXMethod, CXCursor_Constructor,
        CXCursor_Destructor, CXCursor_ConversionFunction,
        CXCursor_FunctionTemplate,
    ].map(\.rawValue).asSet

    static func isFunction(_ cursor: CXCursor) -> Bool { functionKinds.contains(cursor.kind.rawValue) }

    static let containerKinds: Set<UInt32> = [
        CXCursor_Namespace, CXCursor_LinkageSpec, CXCursor_UnexposedDecl,
        CXCursor_ClassDecl, CXCursor_StructDecl, CXCursor_UnionDecl,
        CXCursor_ClassTemplate, CXCursor_ObjCImplementationDecl,
        CXCursor_ObjCCategoryImplDecl,
    ].map(\.rawValue).asSet

    /// Declarations that hold other declarations (namespaces, classes, `extern "C"`, implementations).
    static func isContainer(_ cursor: CXCursor) -> Bool { containerKinds.contains(cursor.kind.rawValue) }

    /// Whether a declaration is written in the file's main file (through macro expansions).
    static func isInMainFile(_ cursor: CXCursor, _ file: ParsedFile) -> Bool {
        mainFileOffset(clang_getCursorLocation(cursor), file) != nil
    }

    /// A constructor or destructor the compiler declared: it sits at its class's name.
    static func isImplicitMember(_ cursor: CXCursor) -> Bool {
        guard cursor.kind == CXCursor_Constructor || cursor.kind == CXCursor_Destructor else { return false }
        return clang_equalLocations(
            clang_getCursorLocation(cursor), clang_getCursorLocation(clang_getCursorSemanticParent(cursor))) != 0
    }

    /// `seam::Writer::put` for C++ members and namespaced functions (inline namespaces such as
    /// libc++'s `__1` left out); the plain name for C.
    static func qualifiedName(_ cursor: CXCursor) -> String {
        let name = spelling(cursor)
        var parent = clang_getCursorSemanticParent(cursor)
        // C, and anything at file scope: the name alone (what joining one part gives)
        switch parent.kind {
        case CXCursor_Namespace, CXCursor_ClassDecl, CXCursor_StructDecl, CXCursor_UnionDecl, CXCursor_ClassTemplate,
            CXCursor_ClassTemplatePartialSpecialization:
            break
        default:
            return name
        }
        var parts = [name]
        while !isNull(parent) {
            switch parent.kind {
            case CXCursor_Namespace:
                if clang_Cursor_isInlineNamespace(parent) == 0 && clang_Cursor_isAnonymous(parent) == 0 {
                    parts.append(spelling(parent))
                }
            case CXCursor_ClassDecl, CXCursor_StructDecl, CXCursor_UnionDecl, CXCursor_ClassTemplate,
                CXCursor_ClassTemplatePartialSpecialization:
                parts.append(spelling(parent))
            default:
                return parts.reversed().joined(separator: "::")
            }
            parent = clang_getCursorSemanticParent(parent)
        }
        return parts.reversed().joined(separator: "::")
    }

    static func symbol(_ cursor: CXCursor) -> Symbol {
        let name = qualifiedName(cursor)
        let usr = clang_getCursorUSR(cursor).consume()
        return Symbol(usr: usr.isEmpty ? "name:" + name : usr, name: name)
    }

    /// Skips implicit casts, parentheses, `&`/`*` and C casts down to the expression that names
    /// something. `children` reads a cursor's children (libclang's by default; the call-graph
    /// extractor's from its subtree).
    static func stripped<Kids: RandomAccessCollection<CXCursor>>(_ expression: CXCursor, children: (CXCursor) -> Kids)
        -> CXCursor
    {
        var c = expression
        while true {
            switch c.kind {
            case CXCursor_UnexposedExpr, CXCursor_ParenExpr, CXCursor_UnaryOperator, CXCursor_CStyleCastExpr,
                CXCursor_CXXStaticCastExpr, CXCursor_CXXReinterpretCastExpr, CXCursor_CXXFunctionalCastExpr:
                let kids = children(c).filter { clang_isExpression($0.kind) != 0 }
                guard kids.count == 1 || (c.kind != CXCursor_UnexposedExpr && !kids.isEmpty) else { return c }
                c = kids[kids.count - 1]
            default:
                return c
            }
        }
    }

    static func stripped(_ expression: CXCursor) -> CXCursor { stripped(expression, children: Cursors.children) }

    /// The function an expression names (`f`, `&f`, `(cb_t)f`), if any.
    static func functionReference<Kids: RandomAccessCollection<CXCursor>>(
        _ expression: CXCursor,
        children: (CXCursor) -> Kids
    ) -> CXCursor? {
        let c = stripped(expression, children: children)
        guard c.kind == CXCursor_DeclRefExpr else { return nil }
        let ref = clang_getCursorReferenced(c)
        return isFunction(ref) ? ref : nil
    }

    static func functionReference(_ expression: CXCursor) -> CXCursor? {
        functionReference(expression, children: Cursors.children)
    }

    /// Whether an expression is a null (or other integer) constant: `NULL`, `0`, `nil`, `SIG_DFL`.
    static func isIntegerConstant<Kids: RandomAccessCollection<CXCursor>>(
        _ expression: CXCursor, children: (CXCursor) -> Kids
    ) -> Bool {
        let c = stripped(expression, children: children)
        return c.kind == CXCursor_IntegerLiteral || c.kind == CXCursor_GNUNullExpr
            || c.kind == CXCursor_CXXNullPtrLiteralExpr || c.kind == CXCursor_ObjCBoolLiteralExpr
    }

    static func isIntegerConstant(_ expression: CXCursor) -> Bool {
        isIntegerConstant(expression, children: Cursors.children)
    }

    /// Pointer to function (or block), looking through typedefs.
    static func isFunctionPointer(_ type: CXType) -> Bool {
        let t = clang_getCanonicalType(type)
        if t.kind == CXType_BlockPointer { return true }
        guard t.kind == CXType_Pointer else { return false }
        let pointee = clang_getCanonicalType(clang_getPointeeType(t)).kind
        return pointee == CXType_FunctionProto || pointee == CXType_FunctionNoProto
    }

    /// Whether a variable or parameter may be called by its name: a function or block pointer, a
    /// reference to a function, an object (C++ `operator()`), or a type the parse did not know
    /// (dependent, `auto`). A variable of any other type does not hide a function of its name, nor
    /// does an invalid declaration at file scope (clang 14 makes a stray call `f(A, "x");` one); an
    /// invalid local (`Functor f = …;` with `Functor` from a missing header) may still be called.
    static func isCallable(variable c: CXCursor, invalidIsCallable: Bool) -> Bool {
        guard clang_isInvalidDeclaration(c) == 0 else { return invalidIsCallable }
        let type = clang_getCursorType(c)
        if isFunctionPointer(type) { return true }
        let t = clang_getCanonicalType(type)
        switch t.kind {
        case CXType_Record, CXType_Dependent, CXType_Unexposed, CXType_Auto, CXType_Invalid, CXType_MemberPointer,
            CXType_FunctionProto, CXType_FunctionNoProto, CXType_Elaborated:
            return true
        case CXType_LValueReference, CXType_RValueReference:
            let pointee = clang_getCanonicalType(clang_getPointeeType(t)).kind
            return pointee == CXType_FunctionProto || pointee == CXType_FunctionNoProto || pointee == CXType_Record
                || pointee == CXType_Dependent || pointee == CXType_Unexposed
        default:
            return false
        }
    }

    /// The fields of a record type, in declaration order.
    static func fields(of type: CXType) -> [CXCursor] {
        final class Box { var list: [CXCursor] = [] }
        let box = Box()
        _ = clang_Type_visitFields(
            clang_getCanonicalType(type),
            { field, data in
                Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().list.append(field)
                return CXVisit_Continue
            }, Unmanaged.passUnretained(box).toOpaque())
        return box.list
    }

    /// Spellings of the tokens in a cursor's extent (works for declarations in headers too).
    static func tokenSpellings(_ cursor: CXCursor, unit: CXTranslationUnit) -> [String] {
        var raw: UnsafeMutablePointer<CXToken>?
        var count: UInt32 = 0
        clang_tokenize(unit, clang_getCursorExtent(cursor), &raw, &count)
        guard let raw else { return [] }
        defer { clang_disposeTokens(unit, raw, count) }
        return (0..<Int(count)).map { clang_getTokenSpelling(unit, raw[$0]).consume() }
    }
}

extension Array where Element: Hashable {
    var asSet: Set<Element> { Set(self) }
}

extension ParsedFile {
    /// Index of the first code token starting at or after `offset`.
    func tokenIndex(atOrAfter offset: Int) -> Int {
        tokens.partitionPoint { $0.range.lowerBound < offset }
    }

    /// `tokenIndex(atOrAfter:)`, searched within `hint` (token indices) when the answer lies
    /// there, as it does for an offset inside the code `hint` covers: a search over a few tokens
    /// rather than over every token of the file (for each statement of a large file).
    func tokenIndex(atOrAfter offset: Int, within hint: Range<Int>) -> Int {
        let lo = max(0, hint.lowerBound), hi = min(tokens.count, hint.upperBound)
        guard lo <= hi, lo == 0 || tokens[lo - 1].range.lowerBound < offset,
            hi == tokens.count || tokens[hi].range.lowerBound >= offset
        else { return tokenIndex(atOrAfter: offset) }
        var l = lo, h = hi
        while l < h {
            let mid = (l + h) / 2
            if tokens[mid].range.lowerBound < offset { l = mid + 1 } else { h = mid }
        }
        return l
    }

    /// Code tokens starting inside `range`.
    func tokens(in range: Range<Int>) -> ArraySlice<SourceToken> {
        let lo = tokenIndex(atOrAfter: range.lowerBound)
        var end = lo
        while end < tokens.count && tokens[end].range.lowerBound < range.upperBound { end += 1 }
        return tokens[lo..<end]
    }
}
