import Foundation

/// `CallGraphFacts` as bytes (`ByteWriter`/`ByteReader`): every file's facts are decoded on
/// each run, cached ones included, so this is hand-written (JSON cost a fifth of a warm run on
/// sentry-cocoa). `CallGraphFactsBytesTests` trips when a field is added and not here.
extension CallGraphFacts {
    static let formatVersion: UInt8 = 3

    var encoded: Data {
        var w = ByteWriter()
        // room for every snippet and a little more per record: no copies while the buffer grows
        // (the snippets are most of the bytes: 50 MB on a 10 MB line of 80,000 functions)
        var room = 64
        for f in functions {
            room += f.position.snippet.utf8.count + 64
            for s in f.sites { room += s.position.snippet.utf8.count + 64 }
        }
        w.bytes.reserveCapacity(room)
        w.bytes.append(Self.formatVersion)
        w.list(functions) { w, f in
            w.symbol(f.symbol)
            w.position(f.position)
            w.list(f.sites) { w, s in
                w.value(s.kind)
                w.optionalSymbol(s.target)
                w.string(s.trait?.rawValue)
                w.string(s.detail)
                w.position(s.position)
            }
            w.int(f.unresolvedStatements)
        }
        w.list(stores) { w, s in
            w.symbol(s.slot)
            w.optionalSymbol(s.value)
        }
        w.list(registrations) { w, r in
            w.symbol(r.handler)
            w.value(r.mechanism)
            w.position(r.position)
            w.bool(r.throughSlot)
        }
        w.list(annotated) { w, s in w.symbol(s) }
        w.list(swiftExports) { w, s in w.string(s) }
        w.list(installingParameters) { w, p in
            w.symbol(p.function)
            w.int(p.index)
            w.value(p.mechanism)
        }
        w.list(forwards) { w, f in
            w.symbol(f.function)
            w.int(f.parameter)
            w.symbol(f.callee)
            w.int(f.argument)
        }
        w.list(functionArguments) { w, a in
            w.symbol(a.callee)
            w.int(a.argument)
            w.symbol(a.value)
            w.position(a.position)
        }
        w.list(macros) { w, s in w.string(s) }
        w.list(signalArguments) { w, a in
            w.symbol(a.callee)
            w.int(a.argument)
            w.symbol(a.value)
            w.position(a.position)
        }
        return Data(w.bytes)
    }

    init(encoded data: Data) throws {
        var r = ByteReader([UInt8](data))
        guard try r.byte() == Self.formatVersion else { throw ByteReader.Malformed() }
        self.init()
        functions = try r.list { r in
            FunctionFact(symbol: try r.symbol(), position: try r.position(), sites: try r.list { r in
                CallSite(kind: try r.value(CallSite.Kind.self), target: try r.optionalSymbol(),
                         trait: try r.optionalString().map { raw in
                             guard let trait = CallSite.CalleeTrait(rawValue: raw) else { throw ByteReader.Malformed() }
                             return trait
                         },
                         detail: try r.optionalString(), position: try r.position())
            }, unresolvedStatements: try r.int())
        }
        stores = try r.list { r in PointerStore(slot: try r.symbol(), value: try r.optionalSymbol()) }
        registrations = try r.list { r in
            HandlerRegistration(handler: try r.symbol(), mechanism: try r.value(HandlerRegistration.Mechanism.self),
                                position: try r.position(), throughSlot: try r.bool())
        }
        annotated = try r.list { r in try r.symbol() }
        swiftExports = try r.list { r in try r.string() }
        installingParameters = try r.list { r in
            ParameterUse(function: try r.symbol(), index: try r.int(), mechanism: try r.value(HandlerRegistration.Mechanism.self))
        }
        forwards = try r.list { r in
            ParameterForward(function: try r.symbol(), parameter: try r.int(), callee: try r.symbol(), argument: try r.int())
        }
        functionArguments = try r.list { r in
            FunctionArgument(callee: try r.symbol(), argument: try r.int(), value: try r.symbol(), position: try r.position())
        }
        macros = try r.list { r in try r.string() }
        signalArguments = try r.list { r in
            FunctionArgument(callee: try r.symbol(), argument: try r.int(), value: try r.symbol(), position: try r.position())
        }
        guard r.atEnd else { throw ByteReader.Malformed() }
    }
}

private extension ByteWriter {
    mutating func symbol(_ s: Symbol) {
        string(s.usr)
        string(s.name)
    }

    mutating func optionalSymbol(_ s: Symbol?) {
        bool(s != nil)
        if let s { symbol(s) }
    }

    mutating func position(_ p: SitePosition) {
        int(p.line)
        int(p.column)
        string(p.snippet)
    }
}

private extension ByteReader {
    mutating func symbol() throws -> Symbol { Symbol(usr: try string(), name: try string()) }

    mutating func optionalSymbol() throws -> Symbol? { try bool() ? try symbol() : nil }

    mutating func position() throws -> SitePosition { SitePosition(line: try int(), column: try int(), snippet: try string()) }
}
