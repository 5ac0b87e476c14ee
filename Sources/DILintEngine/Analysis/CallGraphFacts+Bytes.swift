import Foundation

/// `CallGraphFacts` as bytes (`ByteWriter`/`ByteReader`): every file's facts are decoded on
/// each run, cached ones included, so this is hand-written (JSON cost a fifth of a warm run on
/// sentry-cocoa). `CallGraphFactsBytesTests` trips when a field is added and not here.
extension CallGraphFacts {
    static let formatVersion: UInt8 = 7

    var encoded: Data {
        var w = ByteWriter()
        // room for every record: no copies while the buffer grows
        var room = 64
        for f in functions { room += 64 * (1 + f.sites.count) }
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
                w.bool(s.onErrorPath)
                w.bool(s.invocation != nil)
                if let invocation = s.invocation { w.list(invocation) { w, t in w.string(t) } }
            }
            w.int(f.unresolvedStatements)
            w.string(f.shimCondition)
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
        w.list(macroDefinitions) { w, m in
            w.string(m.name)
            w.bool(m.parameters != nil)
            if let parameters = m.parameters { w.list(parameters) { w, p in w.string(p) } }
            w.bool(m.variadic)
            w.list(m.body) { w, t in w.string(t) }
        }
        w.list(includedFiles) { w, s in w.string(s) }
        return Data(w.bytes)
    }

    init(encoded data: Data) throws {
        var r = ByteReader([UInt8](data))
        guard try r.byte() == Self.formatVersion else { throw ByteReader.Malformed() }
        self.init()
        functions = try r.list { r in
            FunctionFact(
                symbol: try r.symbol(), position: try r.position(),
                sites: try r.list { r in
                    CallSite(
                        kind: try r.value(CallSite.Kind.self), target: try r.optionalSymbol(),
                        trait: try r.optionalString().map { raw in
                            guard let trait = CallSite.CalleeTrait(rawValue: raw) else { throw ByteReader.Malformed() }
                            return trait
                        },
                        detail: try r.optionalString(), position: try r.position(), onErrorPath: try r.bool(),
                        invocation: try r.bool() ? try r.list { r in try r.string() } : nil)
                }, unresolvedStatements: try r.int(), shimCondition: try r.optionalString())
        }
        stores = try r.list { r in PointerStore(slot: try r.symbol(), value: try r.optionalSymbol()) }
        registrations = try r.list { r in
            HandlerRegistration(
                handler: try r.symbol(), mechanism: try r.value(HandlerRegistration.Mechanism.self),
                position: try r.position(), throughSlot: try r.bool())
        }
        annotated = try r.list { r in try r.symbol() }
        swiftExports = try r.list { r in try r.string() }
        installingParameters = try r.list { r in
            ParameterUse(
                function: try r.symbol(), index: try r.int(), mechanism: try r.value(HandlerRegistration.Mechanism.self)
            )
        }
        forwards = try r.list { r in
            ParameterForward(
                function: try r.symbol(), parameter: try r.int(), callee: try r.symbol(), argument: try r.int())
        }
        functionArguments = try r.list { r in
            FunctionArgument(
                callee: try r.symbol(), argument: try r.int(), value: try r.symbol(), position: try r.position())
        }
        macros = try r.list { r in try r.string() }
        signalArguments = try r.list { r in
            FunctionArgument(
                callee: try r.symbol(), argument: try r.int(), value: try r.symbol(), position: try r.position())
        }
        macroDefinitions = try r.list { r in
            MacroDefinition(
                name: try r.string(), parameters: try r.bool() ? try r.list { r in try r.string() } : nil,
                variadic: try r.bool(), body: try r.list { r in try r.string() })
        }
        includedFiles = try r.list { r in try r.string() }
        guard r.atEnd else { throw ByteReader.Malformed() }
    }
}

extension CallGraphFacts {
    /// Whether the encoded facts hold anything a handler walk can start from: a registration,
    /// an annotated handler, an installing parameter (wrapper registrations start there) or a
    /// `signal` argument. Reads the layout `init(encoded:)` reads without making its strings;
    /// true also when the bytes do not read as facts, so that callers decode them in full.
    static func mayHoldHandlers(encoded data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var skim = FactsSkim(bytes: buffer)
            return (try? skim.mayHoldHandlers()) ?? true
        }
    }
}

/// Walks `CallGraphFacts` bytes as `ByteReader` reads them, counting the strings it would make
/// (later ones may refer back to them) instead of making them.
private struct FactsSkim {
    let bytes: UnsafeRawBufferPointer
    var at = 0
    var strings = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func mayHoldHandlers() throws -> Bool {
        guard try byte() == CallGraphFacts.formatVersion else { throw ByteReader.Malformed() }
        try list { s in // functions
            try s.symbol()
            try s.position()
            try s.list { s in // sites
                try s.string()
                try s.optionalSymbol()
                try s.optionalString()
                try s.optionalString()
                try s.position()
                _ = try s.byte()
                if try s.byte() != 0 { try s.list { s in try s.string() } } // invocation
            }
            _ = try s.leb()
            try s.optionalString() // shimCondition
        }
        try list { s in
            try s.symbol(); try s.optionalSymbol()
        } // stores
        let registrations = try list { s in
            try s.symbol(); try s.string(); try s.position(); _ = try s.byte()
        }
        let annotated = try list { s in try s.symbol() }
        try list { s in try s.string() } // swiftExports
        let installing = try list { s in
            try s.symbol(); _ = try s.leb(); try s.string()
        }
        try list { s in
            try s.symbol(); _ = try s.leb(); try s.symbol(); _ = try s.leb()
        } // forwards
        try list { s in
            try s.symbol(); _ = try s.leb(); try s.symbol(); try s.position()
        } // functionArguments
        try list { s in try s.string() } // macros
        let signalArguments = try list { s in
            try s.symbol(); _ = try s.leb(); try s.symbol(); try s.position()
        }
        try list { s in // macroDefinitions
            try s.string()
            if try s.byte() != 0 { try s.list { s in try s.string() } }
            _ = try s.byte()
            try s.list { s in try s.string() }
        }
        try list { s in try s.string() } // includedFiles
        guard at == bytes.count else { throw ByteReader.Malformed() }
        return registrations + annotated + installing + signalArguments > 0
    }

    @inline(__always)
    mutating func byte() throws -> UInt8 {
        guard at < bytes.count else { throw ByteReader.Malformed() }
        defer { at += 1 }
        return bytes[at]
    }

    @inline(__always)
    mutating func leb() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw ByteReader.Malformed() }
            value |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }

    mutating func count() throws -> Int {
        let v = try leb()
        guard v <= UInt64(bytes.count - at) else { throw ByteReader.Malformed() }
        return Int(v)
    }

    /// Whether a string is there (nil is not).
    @discardableResult
    @inline(__always)
    mutating func optionalString() throws -> Bool {
        let tag = try leb()
        switch tag {
        case 0:
            return false
        case 1:
            at += try count()
            strings += 1
            return true
        default:
            guard tag - 2 < UInt64(strings) else { throw ByteReader.Malformed() }
            return true
        }
    }

    mutating func string() throws {
        guard try optionalString() else { throw ByteReader.Malformed() }
    }

    mutating func symbol() throws {
        try string()
        try string()
    }

    mutating func optionalSymbol() throws {
        switch try byte() {
        case 0: return
        case 1: try symbol()
        default: throw ByteReader.Malformed()
        }
    }

    mutating func position() throws {
        _ = try leb()
        _ = try leb()
        _ = try leb()
    }

    @discardableResult
    mutating func list(_ element: (inout FactsSkim) throws -> Void) throws -> Int {
        let n = try count()
        for _ in 0..<n { try element(&self) }
        return n
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
        int(p.offset)
    }
}

private extension ByteReader {
    mutating func symbol() throws -> Symbol { Symbol(usr: try string(), name: try string()) }

    mutating func optionalSymbol() throws -> Symbol? { try bool() ? try symbol() : nil }

    mutating func position() throws -> SitePosition {
        SitePosition(line: try int(), column: try int(), offset: try int())
    }
}
