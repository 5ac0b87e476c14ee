import CLibClang

/// Function bodies read from the AST: calls, messages, C++ and Objective-C runtime sites.
extension CallGraphExtractor {
    /// The indices of the accesses at offsets in `range`, in `accesses`' order: found by their
    /// offsets rather than by reading every access for every function (a file of many small
    /// functions cost the square of its length: a fifth of a 4 MB single line of 33,000).
    func accessIndices(in range: Range<Int>) -> [Int] {
        var lo = accessesByOffset.partitionPoint { accesses[$0].offset < range.lowerBound }
        var found: [Int] = []
        while lo < accessesByOffset.count, accesses[accessesByOffset[lo]].offset < range.upperBound {
            found.append(accessesByOffset[lo])
            lo += 1
        }
        return found.sorted()
    }

    func function(_ cursor: CXCursor) {
        guard let range = offsets(cursor) else { return }
        if readsSubtrees {
            hint = file.tokenIndex(atOrAfter: range.lowerBound)..<file.tokenIndex(atOrAfter: range.upperBound)
        }
        defer { hint = 0..<0 }
        definitionRanges.append(range)
        sites = []
        lostRanges = []
        errorBranches = []
        ownedValues = []
        recoveredWithoutCalls = 0
        insideTemplate = CallGraphExtractor.isTemplated(cursor)
        let symbol = Cursors.symbol(cursor)
        current = symbol
        parameters = [:]
        localNames = []
        locals = []
        for i in 0..<max(0, Int(clang_Cursor_getNumArguments(cursor))) {
            let parameter = clang_Cursor_getArgument(cursor, UInt32(i))
            parameters[clang_getCursorUSR(parameter).consume()] = i
            localNames.insert(Cursors.spelling(parameter))
        }
        let children = kids(cursor)
        for child in children { visit(child) }
        let unresolved = callsFromLostTokens() + recoveredWithoutCalls
        let body =
            children.last { $0.kind == CXCursor_CompoundStmt }
            .flatMap { offsets($0) } ?? range
        for k in accessIndices(in: body) {
            sites.append(
                CallSite(
                    kind: .container, detail: accesses[k].access.expression, position: position(accesses[k].offset)))
        }
        for token in bridgeNameLengths.isEmpty ? [] : tokens(in: body)
        where token.kind == .identifier && bridgeNameLengths.contains(token.range.count) {
            let text = file.buffer.text(token.range)
            if bridgeNames.contains(text) {
                sites.append(CallSite(kind: .bridge, detail: text, position: position(token.range.lowerBound)))
            }
        }
        markErrorPaths()
        facts.functions.append(
            FunctionFact(
                symbol: symbol, position: position(range.lowerBound),
                sites: onePerLine(sites), unresolvedStatements: unresolved,
                shimCondition: shimCondition(cursor, name: symbol.name, at: range.lowerBound)))
        current = nil
    }

    /// The tokens of a compound statement (braces left out) that none of its statements covers:

    /// Keeps one finding-worthy site per line and kind for messages, bridge and container uses
    /// (`[[A shared] run]` is one problem, not two); calls stay distinct per callee.
    func onePerLine(_ sites: [CallSite]) -> [CallSite] {
        if sites.count <= 8 {
            // a few sites: each compared with those kept (the same keys as the set's below, no set made per function)
            func sameKey(_ a: CallSite, _ b: CallSite) -> Bool {
                guard a.position.line == b.position.line, a.kind == b.kind else { return false }
                switch a.kind {
                case .call, .pointerCall: return (a.target?.usr ?? "") == (b.target?.usr ?? "")
                default: return true
                }
            }
            var kept: [CallSite] = []
            for site in sites where !kept.contains(where: { sameKey($0, site) }) { kept.append(site) }
            return kept
        }
        struct Key: Hashable {
            var line: Int, kind: CallSite.Kind, usr: String?
        }
        var seen = Set<Key>()
        return sites.filter { site in
            switch site.kind {
            case .call, .pointerCall:
                return seen.insert(Key(line: site.position.line, kind: site.kind, usr: site.target?.usr ?? "")).inserted
            default: return seen.insert(Key(line: site.position.line, kind: site.kind, usr: nil)).inserted
            }
        }
    }

    func visit(_ c: CXCursor) {
        if c.kind == CXCursor_CXXNewExpr { insideNew += 1 }
        defer { if c.kind == CXCursor_CXXNewExpr { insideNew -= 1 } }
        // a container access is one finding, not also a call or a message
        if c.kind == CXCursor_CallExpr || c.kind == CXCursor_ObjCMessageExpr || c.kind == CXCursor_MemberRefExpr,
            let start = offsets(c)?.lowerBound,
            accessRanges.contains(start)
        {
            for child in kids(c) { visit(child) }
            return
        }
        // the children, asked of libclang once
        var read: CursorList?
        func children() -> CursorList {
            if let read { return read }
            let list = kids(c)
            read = list
            return list
        }
        if let range = recoveryRange(c, children: children) {
            lostRanges.append(range)
            return
        }
        switch c.kind {
        case CXCursor_CallExpr:
            call(c)
        case CXCursor_ObjCMessageExpr:
            add(.objcMessage, at: c, detail: Cursors.spelling(c))
        case CXCursor_MemberRefExpr:
            let ref = clang_getCursorReferenced(c)
            if ref.kind == CXCursor_ObjCPropertyDecl { add(.objcMessage, at: c, detail: Cursors.spelling(ref)) }
        case CXCursor_CXXNewExpr:
            add(.cxxNew, at: c)
        case CXCursor_CXXDeleteExpr:
            add(.cxxDelete, at: c)
        case CXCursor_CXXThrowExpr:
            add(.cxxThrow, at: c, detail: kids(c).isEmpty ? "rethrow" : nil)
        case CXCursor_ObjCAtThrowStmt:
            add(.objcRuntime, at: c, detail: "@throw")
        case CXCursor_ObjCAtSynchronizedStmt:
            add(.objcRuntime, at: c, detail: "@synchronized")
        case CXCursor_ObjCAtTryStmt:
            add(.objcRuntime, at: c, detail: "@try")
        case CXCursor_ObjCAutoreleasePoolStmt:
            add(.objcRuntime, at: c, detail: "@autoreleasepool")
        case CXCursor_BinaryOperator:
            assignment(c)
        case CXCursor_VarDecl:
            locals.append(c)
            localDestructor(c)
            lostConstruction(c)
            variable(c)
        case CXCursor_CompoundStmt:
            uncovered(c, children: children())
        case CXCursor_DeclStmt:
            lostInitializers(c, children: children())
        case CXCursor_IfStmt:
            if current != nil, let branch = failureBranch(c) { errorBranches.append(branch) }
            if ifTestingAParameterForNull(c) { return }
        case CXCursor_ReturnStmt:
            if let value = children().first { ownValue(value) }
        case CXCursor_UnaryOperator:
            addressTaken(c)
        case CXCursor_InitListExpr:
            // a compound literal `(struct sigaction){ .sa_handler = h }`; variable initializers are read in `variable`
            stores(from: c, slot: nil, type: clang_getCursorType(c))
        case CXCursor_OverloadedDeclRef:
            // C++ call to a name that did not resolve (no declaration visible)
            let name = Cursors.spelling(c)
            if !name.isEmpty {
                sites.append(
                    CallSite(kind: .call, target: Symbol(usr: "name:" + name, name: name), position: position(of: c)))
            }
        default:
            break
        }
        if c.kind == CXCursor_VarDecl { return } // its initializer was read above
        for child in children() { visit(child) }
    }

    func add(_ kind: CallSite.Kind, at cursor: CXCursor, detail: String? = nil) {
        sites.append(CallSite(kind: kind, detail: detail, position: position(of: cursor)))
    }

    func call(_ c: CXCursor) {
        let ref = clang_getCursorReferenced(c)
        if Cursors.isFunction(ref) {
            if isLambdaCall(ref) || Cursors.isImplicitMember(ref) || (insideNew > 0 && ref.kind == CXCursor_Constructor)
            {
                return
            }
            registration(call: c, callee: ref)
            arguments(of: c, callee: ref)
            var target = calleeSymbol(ref)
            if ref.kind == CXCursor_FunctionDecl, clang_isCursorDefinition(ref) == 0,
                clang_equalLocations(clang_getCursorLocation(ref), clang_getCursorLocation(c)) != 0
            {
                // C's implicit declaration (no prototype in sight, declared where it is called):
                // a call by name, which may be a macro of the run the parse did not see
                target = Symbol(usr: "name:" + target.name, name: target.name)
            }
            sites.append(CallSite(kind: .call, target: target, trait: trait(of: ref), position: position(of: c)))
            // after the call: a finding at this place names the call first
            if insideNew == 0 { temporaryDestructor(c) }
            return
        }
        if ref.kind == CXCursor_StructDecl || ref.kind == CXCursor_ClassDecl { return } // implicit constructor
        let callee = kids(c).first.map(stripped)
        let slotCursor: CXCursor
        switch ref.kind {
        case CXCursor_VarDecl, CXCursor_FieldDecl, CXCursor_ParmDecl:
            slotCursor = ref
        default:
            guard let callee, let s = slot(of: callee) else { return }
            slotCursor = s
        }
        // e.g. a saved struct sigaction
        if clang_Location_isInSystemHeader(clang_getCursorLocation(slotCursor)) != 0 { return }
        sites.append(CallSite(kind: .pointerCall, target: Cursors.symbol(slotCursor), position: position(of: c)))
    }

    /// The callee's symbol. A `static` function in a header found as a system header (the run's
    /// header map is searched as one for `<X.h>`, `-idirafter`) has a USR without its file, as a library's
    /// would; the file is put back, as clang writes it for a project header, so that the header's
    /// own definition (linted as its own file) satisfies the call. For a library's helper no
    /// definition of the run has that USR: it stays the library's.
    func calleeSymbol(_ callee: CXCursor) -> Symbol {
        var symbol = Cursors.symbol(callee)
        guard symbol.usr.hasPrefix("c:@"), clang_getCursorLinkage(callee) == CXLinkage_Internal,
            clang_Location_isInSystemHeader(clang_getCursorLocation(callee)) != 0
        else { return symbol }
        var file: CXFile?
        var line: UInt32 = 0, column: UInt32 = 0, offset: UInt32 = 0
        clang_getExpansionLocation(clang_getCursorLocation(callee), &file, &line, &column, &offset)
        guard let file else { return symbol }
        let path = clang_getFileName(file).consume()
        let name = path.split(separator: "/").last.map(String.init) ?? path
        symbol.usr = "c:" + name + symbol.usr.dropFirst(2)
        return symbol
    }

    /// `operator()` of a lambda: its body is part of the enclosing function already.
    func isLambdaCall(_ ref: CXCursor) -> Bool {
        guard ref.kind == CXCursor_CXXMethod, Cursors.spelling(ref) == "operator()" else { return false }
        let owner = clang_getCursorSemanticParent(ref)
        return Cursors.spelling(owner).isEmpty || Cursors.spelling(owner).contains("lambda")
    }

    func trait(of callee: CXCursor) -> CallSite.CalleeTrait? {
        var language = CXString(), definedIn = CXString()
        var generated: UInt32 = 0
        if clang_Cursor_isExternalSymbol(callee, &language, &definedIn, &generated) != 0 {
            let lang = language.consume()
            _ = definedIn.consume()
            if lang == "Swift" { return .swift }
        }
        let declarations = [callee, clang_getCanonicalCursor(callee), clang_getCursorDefinition(callee)].filter {
            !Cursors.isNull($0)
        }
        for declaration in declarations {
            for attribute in Cursors.children(declaration) {
                if attribute.kind == CXCursor_AsmLabelAttr,
                    AsyncSignalSafeFunctions.isSwiftMangled(Cursors.spelling(attribute))
                {
                    return .swift
                }
                if attribute.kind == CXCursor_UnexposedAttr,
                    Cursors.tokenSpellings(attribute, unit: file.unit).contains(where: {
                        $0 == "swift_name" || $0 == "SWIFT_NAME"
                    })
                {
                    return .swift
                }
            }
        }
        let definition = clang_getCursorDefinition(callee)
        if !Cursors.isNull(definition), clang_Location_isInSystemHeader(clang_getCursorLocation(definition)) != 0,
            callee.kind == CXCursor_FunctionDecl, !Cursors.qualifiedName(callee).contains("::")
        {
            return .systemInline
        }
        return nil
    }
}
