import Foundation

/// Phase `inject` in the service style for reads inside an Objective-C designated initializer
/// (one that calls `[super init…]`): the service becomes a parameter of a new initializer, the
/// old one delegating to it with the container read, so behaviour is kept:
///
/// ```objc
/// - (instancetype)initWithName:(NSString *)name
/// {
///     return [self initWithName:name clock:Container.sharedInstance.clock];
/// }
///
/// - (instancetype)initWithName:(NSString *)name clock:(Clock *)clock
/// {
///     if (self = [super init]) {
///         _name = name;
///         _start = [clock now];
///     }
///     return self;
/// }
/// ```
///
/// `init` gets `initWithClock:`. The new initializer is declared next to the old one (a
/// `NS_DESIGNATED_INITIALIZER` moves to it), else in the class's `@interface` in a header every
/// implementation file includes, else its class extension. The run's constructions
/// `[[C alloc] initWithName:n]` pass what they have in reach (a parameter of the service's type,
/// their class's property of that name and type); the others keep calling the old initializer.
/// A group whose callers pass a value is `unsafe` (the value they hold may be another object
/// than the container's); with none it is `safe`. Every service read in one initializer goes in
/// one group (one new initializer).
struct ObjCInitializerInjection {
    let context: FixContext
    let types: ObjCServiceTypes

    private struct Read {
        var analysis: FixFileAnalysis
        var located: LocatedAccess
        var rewrite: InjectRewriter.Rewrite
        var target: FixTarget
        var name: String
        var type: ObjCServiceTypes.Declared
    }

    private var reads: [String: [Read]] = [:]
    private var order: [String] = []

    init(context: FixContext, types: ObjCServiceTypes) {
        self.context = context
        self.types = types
    }

    /// Takes a read in an `init…` instance method, or says why not.
    mutating func add(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> ManualReason? {
        guard let service = located.access.service else { return .noService }
        guard let method = located.enclosing, method.kind == .objcMethod, method.isInitializer,
            method.typeName != nil, let k = located.tokenIndex
        else { return .initializerOrDealloc }
        if Self.isDelegationFallback(located, in: analysis) { return .serviceInitializerFallback }
        let name = ObjCServiceInjection.propertyName(service)
        let rewrite: InjectRewriter.Rewrite
        switch InjectRewriter(tokens: analysis.tokens).rewriteToService(located, at: k, reading: name) {
        case let .failure(reason): return reason
        case let .success(r): rewrite = r
        }
        guard let type = types.declared(service, of: located.access.container) else { return .serviceTypeUnknown }
        guard type.isObject else { return .serviceNotObject }
        let key = analysis.path + "\u{0}" + String(method.range.lowerBound)
        if reads[key] == nil { order.append(key) }
        let (line, column) = analysis.lineColumn(rewrite.range.lowerBound)
        let at = analysis.lineColumn(located.offset)
        var target = FixTarget(
            path: context.display(analysis.path), line: line, column: column, expression: rewrite.expression,
            range: rewrite.range, accessLine: at.line, accessColumn: at.column)
        target.reads = name
        reads[key, default: []].append(
            Read(analysis: analysis, located: located, rewrite: rewrite, target: target, name: name, type: type))
        return nil
    }

    /// The read an old initializer passes to the one taking the service (what this style
    /// writes): `return [self initWith…:… svc:<read>];` as the whole body.
    static func isDelegationFallback(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> Bool {
        guard let method = located.enclosing, method.isInitializer, let k = located.tokenIndex else { return false }
        let tokens = analysis.tokens
        let m0 = tokens.firstToken(atOrAfter: method.range.lowerBound)
        guard let signature = ObjCMethodSignature.parse(tokens, at: m0), tokens.text(signature.terminator) == "{",
            let end = tokens.matchingClose(signature.terminator)
        else { return false }
        let b = signature.terminator
        guard tokens.text(b + 1) == "return", tokens.text(b + 2) == "[", tokens.text(b + 3) == "self",
            tokens.text(b + 4).hasPrefix("init"), let close = tokens.matchingClose(b + 2), tokens.text(close + 1) == ";",
            close + 2 == end
        else { return false }
        return (b + 4)..<close ~= k
    }

    func groups(into plan: inout FixPlan) {
        let constructions = ObjCConstructions(context: context, types: types)
        for key in order {
            let list = reads[key]!
            switch group(list, constructions) {
            case let .failure(why):
                for read in list {
                    plan.manual.append(
                        context.manual(
                            read.located, in: read.analysis, why.reason,
                            detail: why.detail.map { "\($0); in \(read.located.enclosing?.name ?? "")" }))
                }
            case let .success(group):
                plan.groups.append(group)
            }
        }
    }

    private struct Why: Error {
        var reason: ManualReason
        var detail: String?
    }

    private func group(_ list: [Read], _ constructions: ObjCConstructions) -> Result<FixGroup, Why> {
        let analysis = list[0].analysis, tokens = analysis.tokens
        let method = list[0].located.enclosing!
        let className = method.typeName!
        let m0 = tokens.firstToken(atOrAfter: method.range.lowerBound)
        guard let signature = ObjCMethodSignature.parse(tokens, at: m0), signature.isInstance,
            tokens.text(signature.terminator) == "{", let bodyEnd = tokens.matchingClose(signature.terminator)
        else { return .failure(Why(reason: .objcInitializerForm, detail: nil)) }
        let oldSelector = signature.selector(tokens)
        // designated: calls [super init…], never [self init…]
        var callsSuper = false
        for i in signature.terminator..<bodyEnd where tokens.text(i) == "[" {
            let receiver = tokens.text(i + 1), message = tokens.text(i + 2)
            guard message.hasPrefix("init") else { continue }
            if receiver == "self" {
                return .failure(Why(reason: .objcConvenienceInitializer, detail: "-\(oldSelector) calls [self \(message)…]"))
            }
            if receiver == "super" { callsSuper = true }
        }
        guard callsSuper else { return .failure(Why(reason: .objcInitializerForm, detail: "-\(oldSelector) calls no [super init…]")) }
        // the services, in order of first read; the parameters' names must be free in the method
        var services: [(name: String, type: ObjCServiceTypes.Declared, read: String)] = []
        for read in list where !services.contains(where: { $0.name == read.name }) {
            let expression = read.rewrite.expression.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
                .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            services.append((read.name, read.type, expression))
        }
        for service in services {
            let taken = (signature.start...bodyEnd).contains { i in
                tokens.isIdentifier(i) && tokens.text(i) == service.name
                    && !list.contains { $0.rewrite.range.contains(tokens.start(i)) }
            }
            if taken {
                return .failure(Why(reason: .objcInitializerNameTaken, detail: "-\(oldSelector) names \(service.name) already"))
            }
        }
        let unary = signature.pieces.count == 1 && signature.pieces[0].name == nil
        func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
        var added: [String] = [] // ` clock:(Clock *)clock`, the first of a unary selector `WithClock:(Clock *)clock`
        for (i, service) in services.enumerated() {
            let label = i == 0 && unary ? tokens.text(signature.pieces[0].keyword) + "With" + capitalized(service.name) : service.name
            added.append("\(label):(\(service.type.returnType))\(service.name)")
        }
        let newSelector =
            (unary ? "" : oldSelector)
            + added.map { String($0.prefix { $0 != ":" }) + ":" }.joined()
        // the new selector is the class's already?
        for path in Set(context.filesDeclaring(className)).union([analysis.path]).sorted() {
            guard let other = context.analysis(path) else { continue }
            let declarations = ObjCDeclarations(tokens: other.tokens, bridgeNames: [])
            if ObjCMethodSignature.methods(of: className, in: other.tokens, declarations).contains(where: {
                $0.selector(other.tokens) == newSelector
            }) {
                return .failure(Why(reason: .objcInitializerNameTaken, detail: "-\(newSelector) exists"))
            }
        }
        var edits: [TextEdit] = []
        let eol = tokens.lineEnding
        // the new initializer: the old one's selector extended, its reads the parameters
        let lastPiece = signature.pieces.last!
        if unary {
            let k = lastPiece.keyword
            edits.append(
                TextEdit(path: analysis.path, range: tokens.start(k)..<tokens.end(k), replacement: added.joined(separator: " ")))
        } else {
            let at = tokens.end(lastPiece.name!)
            edits.append(TextEdit(path: analysis.path, range: at..<at, replacement: " " + added.joined(separator: " ")))
        }
        // a NS_DESIGNATED_INITIALIZER on the definition moves with it (it stays where it is)
        edits += list.map { TextEdit(path: analysis.path, range: $0.rewrite.range, replacement: $0.name) }
        // the old initializer, delegating, above it
        guard tokens.isFirstOnLine(signature.start) else { return .failure(Why(reason: .objcInitializerForm, detail: nil)) }
        let bodyIndent = Self.bodyIndentation(tokens, open: signature.terminator, close: bodyEnd)
        let arguments = signature.argumentNames(tokens)
        var call = ""
        if unary {
            call = services.enumerated().map { i, s in
                (i == 0 ? tokens.text(signature.pieces[0].keyword) + "With" + capitalized(s.name) : s.name) + ":" + s.read
            }.joined(separator: " ")
        } else {
            call = zip(signature.pieces, arguments).map { tokens.text($0.0.keyword) + ":" + $0.1 }.joined(separator: " ")
                + " " + services.map { "\($0.name):\($0.read)" }.joined(separator: " ")
        }
        let header = tokens.file.buffer.text(tokens.start(signature.start)..<tokens.start(signature.terminator))
            .replacingOccurrences(of: " NS_DESIGNATED_INITIALIZER", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let old =
            header + (tokens.isFirstOnLine(signature.terminator) ? eol + "{" : " {") + eol
            + bodyIndent + "return [self \(call)];" + eol + "}" + eol + eol
        let above = tokens.lineStart(above: signature.start)
        edits.append(TextEdit(path: analysis.path, range: above..<above, replacement: tokens.indentation(tokens.start(signature.start)) + old, order: 0))
        // the declaration
        switch declaration(
            className: className, oldSelector: oldSelector, oldPieces: Self.piecesText(tokens, signature), added: added,
            unary: unary,
            services: services.map(\.type), in: analysis)
        {
        case let .failure(why): return .failure(why)
        case let .success(more): edits += more
        }
        // the callers
        var notes: [String] = []
        var passing = 0
        let (sites, _) = constructions.sites(of: className)
        for site in sites where site.selector == oldSelector {
            let values = services.map { constructions.inReach($0.type, named: $0.name, at: site.open, in: site.analysis) }
            let (line, column) = site.analysis.lineColumn(site.analysis.tokens.start(site.open))
            let place = "\(context.display(site.analysis.path)):\(line):\(column)"
            guard values.allSatisfy({ $0 != nil }) else {
                notes.append("\(place): note: keeps calling -\(oldSelector) (nothing of the service's type in reach there)")
                continue
            }
            let st = site.analysis.tokens
            passing += 1
            if unary {
                let k = site.keywords[0]
                let text = zip(services, values).enumerated().map { i, pair in
                    (i == 0 ? st.text(k) + "With" + capitalized(pair.0.name) : pair.0.name) + ":" + pair.1!
                }.joined(separator: " ")
                edits.append(TextEdit(path: site.analysis.path, range: st.start(k)..<st.end(k), replacement: text))
            } else {
                let at = st.end(site.close - 1)
                let text = zip(services, values).map { " \($0.0.name):\($0.1!)" }.joined()
                edits.append(TextEdit(path: site.analysis.path, range: at..<at, replacement: text))
            }
            notes.append("\(place): note: passes \(values.map { $0! }.joined(separator: ", ")) to -\(newSelector)")
        }
        var group = FixGroup(
            title: "Objective-C class \(className) initializer -\(oldSelector) takes \(services.map(\.name).joined(separator: ", "))",
            edits: edits, targets: list.map(\.target))
        group.tier = passing > 0 ? .unsafe : .safe
        group.notes = notes.isEmpty ? nil : notes
        return .success(group)
    }

    /// The indentation of the body's first statement (four spaces for an empty body).
    private static func bodyIndentation(_ tokens: FixTokens, open: Int, close: Int) -> String {
        guard open + 1 < close, tokens.isFirstOnLine(open + 1) else { return "    " }
        return tokens.indentation(tokens.start(open + 1))
    }

    /// The new initializer's declaration: after the old one's in the class's `@interface` (its
    /// `NS_DESIGNATED_INITIALIZER` moved along), else in the interface a header every file of the
    /// class sees, else its class extension; with the forward declarations its types need.
    private func declaration(
        className: String, oldSelector: String, oldPieces: String, added: [String], unary: Bool,
        services: [ObjCServiceTypes.Declared], in main: FixFileAnalysis
    ) -> Result<[TextEdit], Why> {
        for path in Set(context.filesDeclaring(className)).union([main.path]).sorted() {
            guard let analysis = context.analysis(path) else { continue }
            let tokens = analysis.tokens
            let declarations = ObjCDeclarations(tokens: tokens, bridgeNames: [])
            for block in declarations.interfaces(of: className) {
                var i = block.start
                while i < (block.end ?? tokens.count) {
                    defer { i += 1 }
                    guard ["-"].contains(tokens.text(i)), tokens.isFirstOnLine(i),
                        let signature = ObjCMethodSignature.parse(tokens, at: i), tokens.text(signature.terminator) == ";",
                        signature.selector(tokens) == oldSelector
                    else { continue }
                    var edits: [TextEdit] = []
                    let eol = tokens.lineEnding
                    let returnType = tokens.source(signature.returnOpen, signature.returnClose)
                    var selectorText: String
                    if unary {
                        selectorText = added.joined(separator: " ")
                    } else {
                        selectorText = Self.piecesText(tokens, signature) + " " + added.joined(separator: " ")
                    }
                    let trailing = signature.trailing.map(tokens.text)
                    var suffix = ""
                    if trailing.contains("NS_DESIGNATED_INITIALIZER") {
                        suffix = " NS_DESIGNATED_INITIALIZER"
                        // the old one delegates now: it is not designated any more
                        let d = signature.trailing.first { tokens.text($0) == "NS_DESIGNATED_INITIALIZER" }!
                        let from = d > signature.trailing.lowerBound ? tokens.end(d - 1) : tokens.end(signature.pieces.last!.name ?? signature.pieces.last!.keyword)
                        edits.append(TextEdit(path: path, range: from..<tokens.end(d), replacement: ""))
                    }
                    let line = "- " + returnType + selectorText + suffix + ";"
                    let at = tokens.lineStart(tokens.end(signature.terminator))
                    let next = tokens.file.buffer.lineColumn(of: at).line
                    let insertAt = next < tokens.file.buffer.lineStarts.count ? tokens.file.buffer.lineStarts[next] : tokens.file.buffer.bytes.count
                    edits.append(
                        TextEdit(
                            path: path, range: insertAt..<insertAt,
                            replacement: tokens.indentation(tokens.start(i)) + line + eol))
                    edits += forwardDeclarations(services, in: analysis, declarations, before: block.start)
                    return .success(edits)
                }
            }
        }
        // not declared: in the class's interface (a header every implementation file sees, else the .m)
        let placer = BridgePropertyPlacer(
            context: context,
            property: BridgePropertyPlacer.PlacedProperty(
                declaration: "- (instancetype)\(unary ? "" : oldPieces + " ")\(added.joined(separator: " "));",
                names: [], forward: services[0].forward))
        var edits = placer.edits(for: className, implementationFiles: [main])
        guard !edits.isEmpty else {
            return .failure(Why(reason: .objcInitializerNoInterface, detail: nil))
        }
        // the first service's forward declaration came with the placement; the others'
        if services.count > 1, let path = edits.last?.path, let analysis = context.analysis(path) {
            let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: [])
            if let block = declarations.interfaces(of: className).first {
                edits += forwardDeclarations(Array(services.dropFirst()), in: analysis, declarations, before: block.start)
            }
        }
        return .success(edits)
    }

    /// `initWithName:(NSString *)name other:(T)o`, each piece as written, on one line.
    private static func piecesText(_ tokens: FixTokens, _ signature: ObjCMethodSignature) -> String {
        signature.pieces.map { tokens.file.buffer.text(tokens.start($0.keyword)..<tokens.end($0.name ?? $0.keyword)) }
            .joined(separator: " ").split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    private func forwardDeclarations(
        _ services: [ObjCServiceTypes.Declared], in analysis: FixFileAnalysis, _ declarations: ObjCDeclarations,
        before limit: Int
    ) -> [TextEdit] {
        var seen = Set<String>()
        return services.flatMap { type -> [TextEdit] in
            guard let forward = type.forward, seen.insert(forward.name).inserted else { return [] }
            let placer = BridgePropertyPlacer(
                context: context,
                property: BridgePropertyPlacer.PlacedProperty(declaration: "", names: [], forward: forward))
            return placer.forwardDeclaration(in: analysis, declarations, before: limit)
        }
    }
}
