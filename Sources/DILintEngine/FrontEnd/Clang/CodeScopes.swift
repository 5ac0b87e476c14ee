import CLibClang

extension ParsedFile {
    /// Function, method and constructor definitions in the main file (C++ classes, namespaces,
    /// Objective-C implementations included), in source order.
    func codeScopes() -> [CodeScope] {
        var result: [CodeScope] = []
        func walk(_ parent: CXCursor, owner: String?) {
            for c in Cursors.children(parent) {
                if Cursors.isContainer(c) && clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0 {
                    continue
                }
                guard Cursors.isContainer(c) || Cursors.isInMainFile(c, self) else { continue }
                let kind: CodeScope.Kind
                switch c.kind {
                case CXCursor_FunctionDecl, CXCursor_FunctionTemplate: kind = .function
                case CXCursor_CXXMethod: kind = .cxxMethod
                case CXCursor_Constructor: kind = .constructor
                case CXCursor_Destructor: kind = .destructor
                case CXCursor_ObjCInstanceMethodDecl, CXCursor_ObjCClassMethodDecl: kind = .objcMethod
                case CXCursor_ObjCImplementationDecl, CXCursor_ObjCCategoryImplDecl:
                    walk(c, owner: implementedClass(c))
                    continue
                case CXCursor_Namespace, CXCursor_LinkageSpec, CXCursor_UnexposedDecl:
                    walk(c, owner: owner)
                    continue
                case CXCursor_ClassDecl, CXCursor_StructDecl, CXCursor_ClassTemplate:
                    walk(c, owner: Cursors.spelling(c))
                    continue
                default:
                    continue
                }
                guard clang_isCursorDefinition(c) != 0, let range = Cursors.offsets(c, in: self),
                    let name = Cursors.mainFileOffset(clang_getCursorLocation(c), self)
                else { continue }
                var scopeOwner = owner
                if kind == .cxxMethod || kind == .constructor || kind == .destructor {
                    scopeOwner = Cursors.spelling(clang_getCursorSemanticParent(c))
                }
                result.append(
                    CodeScope(
                        kind: kind, name: Cursors.spelling(c), typeName: scopeOwner, range: range, nameOffset: name))
            }
        }
        walk(clang_getTranslationUnitCursor(unit), owner: nil)
        return result
    }

    private func implementedClass(_ implementation: CXCursor) -> String {
        if implementation.kind == CXCursor_ObjCCategoryImplDecl,
            let ref = Cursors.children(implementation).first(where: { $0.kind == CXCursor_ObjCClassRef })
        {
            return Cursors.spelling(ref)
        }
        return Cursors.spelling(implementation)
    }
}
