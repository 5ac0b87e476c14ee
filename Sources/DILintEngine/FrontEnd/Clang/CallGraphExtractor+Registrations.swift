import CLibClang

/// Handler registrations: `signal`/`set_terminate` calls in the AST, stores and calls read from the tokens.
extension CallGraphExtractor {
    /// `x.sa_sigaction = &h;` and `signal(SIG, h)` where the AST lost them (code that does not
    /// resolve without the platform's headers, such as Objective-C methods on Linux).
    func registrationsFromTokens() {
        let t = TokenCursor(file: file)
        let known = Set(facts.registrations.map(\.handler.name))
        // The functions read so far, by name once, not searched for each call (the loop adds none).
        let functionNames = Set(facts.functions.map(\.symbol.name))
        let namespaces = namespaceBlocks
        for i in 0..<t.count where t.isIdentifier(i) {
            // every case below is a call `word(` or a store `.word =`: no string made for other names
            guard t.spells(i + 1, "(") || t.spells(i + 1, "=") else { continue }
            // `word =` without `(` is only `x.sa_handler =` / `x.sa_sigaction =` below: no string made for other stores
            if !t.spells(i + 1, "("),
                !(t.isMemberOperator(i - 1)
                    && CallGraphExtractor.sigactionFieldLengths.contains(file.tokens[i].range.count))
            {
                continue
            }
            let word = t.text(i)
            var handler: Int?
            var mechanism = HandlerRegistration.Mechanism.sigaction
            var name = ""
            if CallGraphExtractor.sigactionFields.contains(word), t.isMemberOperator(i - 1), t.spells(i + 1, "=") {
                // `x.sa_handler = h;`, `= &Known::H,`, `ON_DEBUG(x.sa_handler = h)`
                let j = t.spells(i + 2, "&") ? i + 3 : i + 2
                if let (qualified, end) = qualifiedName(t, from: j),
                    t.spells(end, ";") || t.spells(end, ",") || t.spells(end, ")")
                {
                    (handler, name) = (j, qualified)
                }
            } else if t.spells(i + 1, "("), !t.isMemberOperator(i - 1),
                !CallGraphExtractor.signalInstallers.contains(word),
                !functionNames.contains(word), !facts.macros.contains(word), let (fn, at) = signalArgument(t, call: i)
            {
                // `pqsignal(SIGTERM, h)`: an installer from a header the run does not have
                facts.signalArguments.append(
                    FunctionArgument(
                        callee: Symbol(usr: "name:" + word, name: word), argument: 1,
                        value: scoped(fn, at: at, namespaces), position: position(t.offset(i))))
                continue
            } else if CallGraphExtractor.signalInstallers.contains(word), t.spells(i + 1, "("),
                !t.isMemberOperator(i - 1)
            {
                let arguments = t.arguments(from: i + 1)
                if arguments.count == 2 {
                    let j =
                        t.spells(arguments[1].lowerBound, "&") ? arguments[1].lowerBound + 1 : arguments[1].lowerBound
                    if let (qualified, end) = qualifiedName(t, from: j), end == arguments[1].upperBound {
                        (handler, name, mechanism) = (j, qualified, .signal)
                    }
                }
            }
            guard let handler, !known.contains(name), !known.contains(where: { $0.hasSuffix("::" + name) }),
                !name.hasPrefix("SIG_")
            else { continue }
            if let macro = t.enclosingMacroDefinition(i) {
                // `#define SIGNAL(s, h) do { sa.sa_handler = h; … } while (0)`: every `SIGNAL(SIGHUP, hup)` registers `hup`
                if let index = macro.parameters.firstIndex(of: name) {
                    macroRegistrations(
                        t, macro: macro.name, argument: index, mechanism: mechanism, namespaces: namespaces)
                    continue
                }
            }
            facts.registrations.append(
                HandlerRegistration(
                    handler: scoped(name, at: handler, namespaces), mechanism: mechanism,
                    position: position(t.offset(i))))
        }
    }

    /// `f(SIGNAME, h)` at token `call`: the handler's name and its token, for two arguments only
    /// (`siginterrupt(SIGINT, 1)` and `kill(pid, SIGTERM)` do not match).
    func signalArgument(_ t: TokenCursor, call i: Int) -> (String, Int)? {
        let arguments = t.arguments(from: i + 1)
        guard arguments.count == 2, arguments[0].count == 1, t.isIdentifier(arguments[0].lowerBound) else { return nil }
        let signal = t.text(arguments[0].lowerBound)
        guard signal.hasPrefix("SIG"), !signal.hasPrefix("SIG_"), signal.count > 3,
            signal.dropFirst(3).allSatisfy({ $0.isUppercase || $0.isNumber })
        else { return nil }
        let j = t.spells(arguments[1].lowerBound, "&") ? arguments[1].lowerBound + 1 : arguments[1].lowerBound
        guard let (name, end) = qualifiedName(t, from: j), end == arguments[1].upperBound, !name.hasPrefix("SIG_")
        else { return nil }
        return (name, j)
    }

    /// Registrations made by invoking a function-like macro whose body installs its parameter `argument`.
    func macroRegistrations(
        _ t: TokenCursor, macro: String, argument: Int, mechanism: HandlerRegistration.Mechanism,
        namespaces: [(name: String, tokens: ClosedRange<Int>)]
    ) {
        for i in 0..<t.count where t.spells(i, macro) && t.spells(i + 1, "(") && !t.isInDirective(t.offset(i)) {
            let arguments = t.arguments(from: i + 1)
            guard argument < arguments.count else { continue }
            let j =
                t.spells(arguments[argument].lowerBound, "&")
                ? arguments[argument].lowerBound + 1 : arguments[argument].lowerBound
            guard let (name, end) = qualifiedName(t, from: j), end == arguments[argument].upperBound,
                !name.hasPrefix("SIG_")
            else { continue }
            facts.registrations.append(
                HandlerRegistration(
                    handler: scoped(name, at: j, namespaces), mechanism: mechanism,
                    position: position(t.offset(i))))
        }
    }

    /// A handler named in the tokens: an unqualified name inside `namespace a { … }` is looked up
    /// there first (`&H` in `app::install` is `app::H`), as the compiler would.
    func scoped(_ name: String, at i: Int, _ namespaces: [(name: String, tokens: ClosedRange<Int>)]) -> Symbol {
        let scope = namespaces.filter { $0.tokens.contains(i) }.map(\.name)
        guard !scope.isEmpty, !name.contains("::") else { return Symbol(usr: "name:" + name, name: name) }
        return CallGraph.lookup(name, from: (scope + [name]).joined(separator: "::"))
    }

    /// `A::B::c` starting at token `i`: the name and the index of the token after it.
    func qualifiedName(_ t: TokenCursor, from i: Int) -> (String, Int)? {
        guard t.isIdentifier(i) else { return nil }
        var name = t.text(i), j = i + 1
        while t.spells(j, "::"), t.isIdentifier(j + 1) {
            name += "::" + t.text(j + 1)
            j += 2
        }
        return (name, j)
    }

    // MARK: Registrations

    func registration(call: CXCursor, callee: CXCursor) {
        let name = Cursors.spelling(callee)
        let mechanism: HandlerRegistration.Mechanism
        let argument: Int32
        if CallGraphExtractor.signalInstallers.contains(name) && Cursors.qualifiedName(callee) == name {
            (mechanism, argument) = (.signal, 1)
        } else if name == "set_terminate",
            ["set_terminate", "std::set_terminate"].contains(Cursors.qualifiedName(callee))
        {
            (mechanism, argument) = (.terminate, 0)
        } else {
            return
        }
        guard clang_Cursor_getNumArguments(call) > argument else { return }
        let value = clang_Cursor_getArgument(call, UInt32(argument))
        if mechanism == .signal, let index = parameterIndex(value), let current {
            facts.installingParameters.append(ParameterUse(function: current, index: index, mechanism: .signal))
        }
        guard let handler = functionReference(value) else { return }
        facts.registrations.append(
            HandlerRegistration(handler: Cursors.symbol(handler), mechanism: mechanism, position: position(of: call)))
    }
}
