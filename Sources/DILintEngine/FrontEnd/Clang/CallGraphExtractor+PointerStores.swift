import CLibClang

/// Function-pointer stores: assignments, initializers, address-taken slots, null-tested parameters.
extension CallGraphExtractor {
    // MARK: Function-pointer stores

    /// The slot an expression designates: a variable, a field, or an array's variable.
    func slot(of expression: CXCursor) -> CXCursor? {
        var c = stripped(expression)
        while c.kind == CXCursor_ArraySubscriptExpr, let base = kids(c).first {
            c = stripped(base)
        }
        guard c.kind == CXCursor_DeclRefExpr || c.kind == CXCursor_MemberRefExpr else { return nil }
        let ref = clang_getCursorReferenced(c)
        switch ref.kind {
        case CXCursor_VarDecl, CXCursor_FieldDecl, CXCursor_ParmDecl: return ref
        default: return nil
        }
    }

    func assignment(_ c: CXCursor) {
        let kids = kids(c)
        guard kids.count == 2, let lhsRange = offsets(kids[0]),
            let op = firstToken(from: lhsRange.upperBound),
            file.buffer.spells(op.range, "="),
            Cursors.isFunctionPointer(clang_getCursorType(kids[0])),
            let slot = slot(of: kids[0])
        else { return }
        store(into: slot, value: kids[1], at: c)
    }

    func store(into slot: CXCursor, value: CXCursor, at site: CXCursor) {
        if isIntegerConstant(value) { return }
        let target = functionReference(value)
        let slotSymbol = Cursors.symbol(slot)
        facts.stores.append(PointerStore(slot: slotSymbol, value: target.map(Cursors.symbol)))
        guard slot.kind == CXCursor_FieldDecl, CallGraphExtractor.sigactionFields.contains(Cursors.spelling(slot))
        else { return }
        if let target {
            facts.registrations.append(
                HandlerRegistration(
                    handler: Cursors.symbol(target), mechanism: .sigaction, position: position(of: site)))
        } else if let index = parameterIndex(value) {
            // a wrapper: `void install(int sig, handler_t h) { sa.sa_handler = h; … }`; not where `h` is null
            // (`if (h) sa.sa_handler = trampoline; else sa.sa_handler = h;` installs SIG_DFL, never `h`)
            guard !nullParameters.contains(clang_getCursorUSR(clang_getCursorReferenced(stripped(value))).consume())
            else { return }
            facts.installingParameters.append(ParameterUse(function: current!, index: index, mechanism: .sigaction))
        } else if let source = self.slot(of: value), source.kind != CXCursor_ParmDecl {
            // a table: `sa.sa_handler = entry->handler` registers every function stored into `handler`
            facts.registrations.append(
                HandlerRegistration(
                    handler: Cursors.symbol(source), mechanism: .sigaction,
                    position: position(of: site), throughSlot: true))
        }
    }

    /// `if (h) … else …`, `if (!h)`, `if (h == NULL)` on a parameter `h`: visits each branch
    /// knowing whether `h` is null there. False (nothing visited) for any other `if`.
    func ifTestingAParameterForNull(_ c: CXCursor) -> Bool {
        let kids = kids(c)
        guard kids.count >= 2, let (usr, nullWhenTrue) = nullTest(kids[0]) else { return false }
        visit(kids[0])
        for (i, branch) in kids.dropFirst().prefix(2).enumerated() {
            let saved = nullParameters
            if (i == 0) == nullWhenTrue { nullParameters.insert(usr) }
            visit(branch)
            nullParameters = saved
        }
        return true
    }

    /// The parameter a condition tests for null, and whether the condition holds when it is null.
    func nullTest(_ condition: CXCursor) -> (usr: String, nullWhenTrue: Bool)? {
        guard current != nil, let range = offsets(condition) else { return nil }
        func parameter(_ e: CXCursor) -> String? {
            let ref = clang_getCursorReferenced(stripped(e))
            return ref.kind == CXCursor_ParmDecl && stripped(e).kind == CXCursor_DeclRefExpr
                ? clang_getCursorUSR(ref).consume() : nil
        }
        let inner = stripped(condition)
        if inner.kind == CXCursor_BinaryOperator {
            let kids = kids(inner)
            guard kids.count == 2, let lhs = offsets(kids[0]), let op = firstToken(from: lhs.upperBound),
                file.buffer.spells(op.range, "==") || file.buffer.spells(op.range, "!=")
            else { return nil }
            let equal = file.buffer.spells(op.range, "==")
            if isIntegerConstant(kids[1]), let usr = parameter(kids[0]) { return (usr, equal) }
            if isIntegerConstant(kids[0]), let usr = parameter(kids[1]) { return (usr, equal) }
            return nil
        }
        guard let usr = parameter(condition), let first = firstToken(from: range.lowerBound) else { return nil }
        return (usr, file.buffer.spells(first.range, "!"))
    }

    /// The index of the current function's parameter an expression names, if it names one.
    func parameterIndex(_ expression: CXCursor) -> Int? {
        guard current != nil else { return nil }
        let c = stripped(expression)
        guard c.kind == CXCursor_DeclRefExpr else { return nil }
        let ref = clang_getCursorReferenced(c)
        return ref.kind == CXCursor_ParmDecl ? parameters[clang_getCursorUSR(ref).consume()] : nil
    }

    /// Functions and the current function's parameters passed as arguments: what makes a call of
    /// a wrapper a registration.
    func arguments(of call: CXCursor, callee: CXCursor) {
        let count = Int(clang_Cursor_getNumArguments(call))
        guard count > 0 else { return }
        let symbol = Cursors.symbol(callee)
        for i in 0..<count {
            let argument = clang_Cursor_getArgument(call, UInt32(i))
            if let function = functionReference(argument) {
                facts.functionArguments.append(
                    FunctionArgument(
                        callee: symbol, argument: i, value: Cursors.symbol(function),
                        position: position(of: call)))
            } else if Cursors.isFunctionPointer(clang_getCursorType(argument)), let index = parameterIndex(argument),
                let current
            {
                facts.forwards.append(
                    ParameterForward(function: current, parameter: index, callee: symbol, argument: i))
            }
        }
    }

    func variable(_ c: CXCursor) {
        guard let initializer = kids(c).last(where: { clang_isExpression($0.kind) != 0 }) else { return }
        ownValue(initializer)
        stores(from: initializer, slot: c, type: clang_getCursorType(c))
        visitInitializer(initializer)
    }

    /// Calls and messages inside a local variable's initializer still belong to the function.
    func visitInitializer(_ initializer: CXCursor) {
        guard initializer.kind != CXCursor_InitListExpr else {
            for child in kids(initializer) { visitInitializer(child) }
            return
        }
        visit(initializer)
    }

    /// Stores made by an initializer: `cb_t p = f`, `cb_t table[] = {f, g}`, `struct ops o = {f}`,
    /// `{ .run = f }`, `{ [SIGSEGV] = f }`, nested.
    func stores(from expression: CXCursor, slot: CXCursor?, type: CXType) {
        let canonical = clang_getCanonicalType(type)
        guard expression.kind == CXCursor_InitListExpr else {
            if let slot, Cursors.isFunctionPointer(type) { store(into: slot, value: expression, at: expression) }
            return
        }
        let values = kids(expression).filter { clang_isExpression($0.kind) != 0 }
        switch canonical.kind {
        case CXType_ConstantArray, CXType_IncompleteArray, CXType_VariableArray:
            let element = clang_getArrayElementType(canonical)
            for value in values { stores(from: designatedValue(value) ?? value, slot: slot, type: element) }
        case CXType_Record:
            let fields = Cursors.fields(of: canonical)
            var next = 0
            for value in values {
                if let (field, inner) = designatedField(value) {
                    stores(from: inner, slot: field, type: clang_getCursorType(field))
                    next = (fields.firstIndex { clang_equalCursors($0, field) != 0 } ?? next) + 1
                } else if next < fields.count {
                    stores(from: value, slot: fields[next], type: clang_getCursorType(fields[next]))
                    next += 1
                }
            }
        default:
            if let first = values.first { stores(from: first, slot: slot, type: type) }
        }
    }

    /// `.a.b = value` inside an initializer list: the last field named, and the value.
    func designatedField(_ c: CXCursor) -> (CXCursor, CXCursor)? {
        guard c.kind == CXCursor_UnexposedExpr else { return nil }
        let kids = kids(c)
        guard let member = kids.last(where: { $0.kind == CXCursor_MemberRef }), let value = kids.last,
            clang_isExpression(value.kind) != 0
        else { return nil }
        let field = clang_getCursorReferenced(member)
        return field.kind == CXCursor_FieldDecl ? (field, value) : nil
    }

    /// `[index] = value` inside an array initializer.
    func designatedValue(_ c: CXCursor) -> CXCursor? {
        guard c.kind == CXCursor_UnexposedExpr else { return nil }
        let kids = kids(c).filter { clang_isExpression($0.kind) != 0 }
        return kids.count >= 2 ? kids.last : nil
    }

    /// `&slot` hands the slot to code that may write anything into it.
    func addressTaken(_ c: CXCursor) {
        guard let range = offsets(c), let first = tokens(in: range).first,
            file.buffer.spells(first.range, "&"),
            let operand = kids(c).first, Cursors.isFunctionPointer(clang_getCursorType(operand)),
            let slot = slot(of: operand)
        else { return }
        facts.stores.append(PointerStore(slot: Cursors.symbol(slot), value: nil))
    }
}
