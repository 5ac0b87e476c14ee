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
            tokens.text(b + 4).hasPrefix("init"), let close = tokens.matchingClose(b + 2),
            tokens.text(close + 1) == ";",
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
                return .failure(
                    Why(reason: .objcConvenienceInitializer, detail: "-\(oldSelector) calls [self \(message)…]"))
            }
            if receiver == "super" { callsSuper = true }
        }
        guard callsSuper else {
            return .failure(Why(reason: .objcInitializerForm, detail: "-\(oldSelector) calls no [super init…]"))
        }
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
                return .failure(
                    Why(reason: .objcInitializerNameTaken, detail: "-\(oldSelector) names \(service.name) already"))
            }
        }
        let unary = signature.pieces.count == 1 && signature.pieces[0].name == nil
        func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
        var added: [String] = [] // ` clock:(Clock *)clock`, the first of a unary selector `WithClock:(Clock *)clock`
        for (i, service) in services.enumerated() {
            let label =
                i == 0 && unary
                ? tokens.text(signature.pieces[0].keyword) + "With" + capitalized(service.name) : service.name
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
                TextEdit(
                    path: analysis.path, range: tokens.start(k)..<tokens.end(k),
                    replacement: added.joined(separator: " ")))
        } else {
            let at = tokens.end(lastPiece.name!)
            edits.append(TextEdit(path: analysis.path, range: at..<at, replacement: " " + added.joined(separator: " ")))
        }
        // the reads become the parameters (a NS_DESIGNATED_INITIALIZER on the definition stays on it: the new one)
        edits += list.map { TextEdit(path: analysis.path, range: $0.rewrite.range, replacement: $0.name) }
        // the old initializer, delegating, above it
        guard tokens.isFirstOnLine(signature.start) else {
            return .failure(Why(reason: .objcInitializerForm, detail: nil))
        }
        let bodyIndent = Self.bodyIndentation(tokens, open: signature.terminator, close: bodyEnd)
        let arguments = signature.argumentNames(tokens)
        var call = ""
        if unary {
            call = services.enumerated().map { i, s in
                (i == 0 ? tokens.text(signature.pieces[0].keyword) + "With" + capitalized(s.name) : s.name) + ":"
                    + s.read
            }.joined(separator: " ")
        } else {
            call =
                zip(signature.pieces, arguments).map { tokens.text($0.0.keyword) + ":" + $0.1 }.joined(separator: " ")
                + " " + services.map { "\($0.name):\($0.read)" }.joined(separator: " ")
        }
        let header = tokens.file.buffer.text(tokens.start(signature.start)..<tokens.start(signature.terminator))
            .replacingOccurrences(of: " NS_DESIGNATED_INITIALIZER", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let old =
            header + (tokens.isFirstOnLine(signature.terminator) ? eol + "{" : " {") + eol
            + bodyIndent + "return [self \(call)];" + eol + "}" + eol + eol
        let above = tokens.lineStart(above: signature.start)
        edits.append(
            TextEdit(
                path: analysis.path, range: above..<above,
                replacement: tokens.indentation(tokens.start(signature.start)) + old, order: 0))
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
            let values = services.map {
                constructions.inReach($0.type, named: $0.name, at: site.open, in: site.analysis)
            }
            let (line, column) = site.analysis.lineColumn(site.analysis.tokens.start(site.open))
            let place = "\(context.display(site.analysis.path)):\(line):\(column)"
            guard values.allSatisfy({ $0 != nil }) else {
                notes.append(
                    "\(place): note: keeps calling -\(oldSelector) (nothing of the service's type in reach there)")
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
            title:
                "Objective-C class \(className) initializer -\(oldSelector) takes \(services.map(\.name).joined(separator: ", "))",
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
                        let signature = ObjCMethodSignature.parse(tokens, at: i),
                        tokens.text(signature.terminator) == ";",
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
                        let from =
                            d > signature.trailing.lowerBound
                            ? tokens.end(d - 1)
                            : tokens.end(signature.pieces.last!.name ?? signature.pieces.last!.keyword)
                        edits.append(TextEdit(path: path, range: from..<tokens.end(d), replacement: ""))
                    }
                    let line = "- " + returnType + selectorText + suffix + ";"
                    let at = tokens.lineStart(tokens.end(signature.terminator))
                    let next = tokens.file.buffer.lineColumn(of: at).line
                    let insertAt =
                        next < tokens.file.buffer.lineStarts.count
                        ? tokens.file.buffer.lineStarts[next] : tokens.file.buffer.bytes.count
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
                edits += forwardDeclarations(
                    Array(services.dropFirst()), in: analysis, declarations, before: block.start)
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

/// Phase `finish` of an old initializer `inject` left delegating with the container read
/// (`return [self initWithName:name clock:<read>];`): every call of it in the run,
/// `[[C alloc] initWithName:n]`, calls the initializer taking the service instead, passing what
/// it has in reach (a parameter of the service's type, its class's property of that name and
/// type), else the read itself (it moves to the caller, where lint reports it unless that is the
/// composition root); the old initializer and its declaration go. `unsafe`: callers outside the
/// run lose it. Left, with the reason: an old `-init` (removing it would expose `NSObject`'s), a
/// class the run builds in ways not followed (a subclass, `[[self alloc] …]`), another
/// initializer of the class calling the old one, a Swift file of the run naming the class.
struct ObjCDelegationFinish {
    let context: FixContext
    let types: ObjCServiceTypes
    private var items: [(analysis: FixFileAnalysis, located: LocatedAccess)] = []
    private var seen = Set<String>()

    init(context: FixContext, types: ObjCServiceTypes) {
        self.context = context
        self.types = types
    }

    mutating func add(_ located: LocatedAccess, in analysis: FixFileAnalysis) {
        items.append((analysis, located))
    }

    func groups(into plan: inout FixPlan) {
        // one group per old initializer (it may pass several reads)
        var byMethod: [String: [(FixFileAnalysis, LocatedAccess)]] = [:]
        var order: [String] = []
        for (analysis, located) in items {
            let key = analysis.path + "\u{0}" + String(located.enclosing?.range.lowerBound ?? 0)
            if byMethod[key] == nil { order.append(key) }
            byMethod[key, default: []].append((analysis, located))
        }
        let constructions = ObjCConstructions(context: context, types: types)
        for key in order {
            let list = byMethod[key]!
            switch group(list, constructions) {
            case let .failure(detail):
                for (analysis, located) in list {
                    plan.manual.append(
                        context.manual(located, in: analysis, .serviceInitializerFallback, detail: detail.why))
                }
            case let .success(group):
                plan.groups.append(group)
            }
        }
    }

    private struct Refusal: Error { var why: String }

    private func group(_ list: [(FixFileAnalysis, LocatedAccess)], _ constructions: ObjCConstructions) -> Result<
        FixGroup, Refusal
    > {
        let (analysis, first) = list[0]
        let tokens = analysis.tokens
        guard let method = first.enclosing, let className = method.typeName else {
            return .failure(Refusal(why: "no class"))
        }
        let m0 = tokens.firstToken(atOrAfter: method.range.lowerBound)
        guard let old = ObjCMethodSignature.parse(tokens, at: m0), tokens.isFirstOnLine(m0),
            let bodyEnd = tokens.matchingClose(old.terminator), let close = tokens.matchingClose(old.terminator + 2),
            let (newSelector, keywords) = ObjCConstructions.message(tokens, from: old.terminator + 4, to: close)
        else { return .failure(Refusal(why: "the old initializer is not the form inject writes")) }
        let oldSelector = old.selector(tokens)
        if old.pieces.count == 1 && old.pieces[0].name == nil {
            return .failure(Refusal(why: "-\(oldSelector) stays (removing it would expose NSObject's -init)"))
        }
        // the send passes the old arguments through, then one read per service
        let names = old.argumentNames(tokens)
        guard keywords.count > names.count else {
            return .failure(Refusal(why: "the old initializer passes no service"))
        }
        for (i, name) in names.enumerated() {
            let end = i + 1 < keywords.count ? keywords[i + 1] : close
            guard tokens.text(keywords[i]) == tokens.text(old.pieces[i].keyword), end == keywords[i] + 3,
                tokens.text(keywords[i] + 2) == name
            else { return .failure(Refusal(why: "the old initializer is not the form inject writes")) }
        }
        var services: [(name: String, read: String)] = []
        for i in names.count..<keywords.count {
            let end = i + 1 < keywords.count ? keywords[i + 1] - 1 : close - 1
            services.append((tokens.text(keywords[i]), tokens.source(keywords[i] + 2, end)))
        }
        // who else may call it
        let (sites, unknown) = constructions.sites(of: className)
        if let place = unknown.first { return .failure(Refusal(why: "\(place): its callers are not all followed")) }
        if let swift = context.swiftFilesMentioning(className).first {
            return .failure(
                Refusal(why: "\(context.display(swift)) names \(className) (a Swift caller is not followed)"))
        }
        let firstKeyword = tokens.text(old.pieces[0].keyword)
        for i in 0..<tokens.count
        where tokens.text(i) == "[" && ["self", "super"].contains(tokens.text(i + 1))
            && tokens.text(i + 2) == firstKeyword && !(m0...bodyEnd).contains(i)
        {
            let (line, _) = analysis.lineColumn(tokens.start(i))
            return .failure(
                Refusal(why: "\(context.display(analysis.path)):\(line) sends -\(oldSelector) to \(tokens.text(i + 1))")
            )
        }
        let calls = sites.filter { $0.selector == oldSelector }
        // a send of it the run holds in another form
        for path in context.runFiles where ["m", "mm"].contains((path as NSString).pathExtension) {
            guard let bytes = context.workspace.bytes(path) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let sends = text.components(separatedBy: firstKeyword + ":").count - 1
            // in its own file: the class's method signatures of that first keyword and the delegating send
            let own =
                path == analysis.path
                ? ObjCMethodSignature.methods(
                    of: className, in: tokens, ObjCDeclarations(tokens: tokens, bridgeNames: [])
                ).filter { tokens.text($0.pieces[0].keyword) == firstKeyword && $0.pieces[0].name != nil }.count + 1
                : 0
            let followed = sites.filter {
                $0.analysis.path == path && $0.analysis.tokens.text($0.keywords[0]) == firstKeyword
            }.count
            if sends - own > followed {
                return .failure(Refusal(why: "\(context.display(path)) sends -\(oldSelector) in a form not followed"))
            }
        }
        var edits: [TextEdit] = []
        var notes: [String] = []
        var importsAdded = Set<String>()
        var callers: [FixCaller] = []
        for site in calls {
            let st = site.analysis.tokens
            let (line, column) = site.analysis.lineColumn(st.start(site.open))
            let place = "\(context.display(site.analysis.path)):\(line):\(column)"
            var text = ""
            for service in services {
                let access = list.map(\.1.access).first {
                    $0.service.map(ObjCServiceInjection.propertyName) == service.name
                }
                let type = access.flatMap { a in a.service.flatMap { types.declared($0, of: a.container) } }
                let value = type.flatMap {
                    constructions.inReach($0, named: service.name, at: site.open, in: site.analysis)
                }
                text += " \(service.name):\(value ?? service.read)"
                notes.append(
                    "\(place): note: -\(newSelector) given \(value ?? service.read)\(value == nil ? " (the container read moves here)" : "")"
                )
            }
            let at = st.end(site.close - 1)
            let edit = TextEdit(path: site.analysis.path, range: at..<at, replacement: text)
            edits.append(edit)
            let moved = text.components(separatedBy: first.access.container).count - 1
            if moved > 0 {
                // the read moved here: a composition-root read there, else a direct access lint reports
                let display = context.display(site.analysis.path)
                var caller = FixCaller(
                    path: display, line: line, column: column, call: "[[\(className) alloc] \(oldSelector)…]",
                    argument: text.trimmingCharacters(in: .whitespaces), explicitDefault: true, reads: moved,
                    edit: edit,
                    argumentOffset: 0)
                caller.movedKinds = Array(
                    repeating: context.configuration.isCompositionRootPath(display)
                        ? AccessKind.compositionRoot.rawValue : AccessKind.direct.rawValue, count: moved)
                callers.append(caller)
            }
            if text.contains(first.access.container), let line = containerImport(analysis, first.access.container),
                !site.analysis.file.buffer.text(0..<site.analysis.file.buffer.bytes.count).contains(line),
                !importsAdded.contains(site.analysis.path)
            {
                // the read moved here needs the container's declaration, imported as the old initializer's file does
                importsAdded.insert(site.analysis.path)
                let at = st.afterLastInclude(before: st.count) ?? 0
                edits.append(
                    TextEdit(path: site.analysis.path, range: at..<at, replacement: line + st.lineEnding, order: 0))
            }
        }
        // the old initializer goes, and its declaration
        let range = ObjCDelegationFinish.linesRange(tokens, from: m0, through: bodyEnd)
        edits.append(TextEdit(path: analysis.path, range: range, replacement: ""))
        for path in Set(context.filesDeclaring(className)).union([analysis.path]).sorted() {
            guard let other = context.analysis(path) else { continue }
            let ot = other.tokens
            let declarations = ObjCDeclarations(tokens: ot, bridgeNames: [])
            for signature in ObjCMethodSignature.methods(of: className, in: ot, declarations)
            where ot.text(signature.terminator) == ";" && signature.selector(ot) == oldSelector {
                let lines = ObjCDelegationFinish.linesRange(
                    ot, from: signature.start, through: signature.terminator, blank: false)
                edits.append(TextEdit(path: path, range: lines, replacement: ""))
            }
        }
        let (line, column) = analysis.lineColumn(range.lowerBound)
        let targets = list.map { (_, located) -> FixTarget in
            let at = analysis.lineColumn(located.offset)
            var target = FixTarget(
                path: context.display(analysis.path), line: line, column: column, expression: located.access.expression,
                range: range, accessLine: at.line, accessColumn: at.column)
            target.reads = services.map(\.name).joined(separator: ", ")
            return target
        }
        var group = FixGroup(
            title: "finish Objective-C class \(className) initializer -\(oldSelector) (callers call -\(newSelector))",
            edits: edits, targets: targets)
        group.tier = .unsafe
        group.notes = notes.isEmpty ? nil : notes
        group.callers = callers
        return .success(group)
    }

    /// The `#import "…"` line of a file that brings in the container's declaration (a header
    /// of the run or in reach declaring `@interface Container`), trimmed.
    private func containerImport(_ analysis: FixFileAnalysis, _ container: String) -> String? {
        let declaring = Set(
            (context.filesDeclaring(container) + types.headers.headers()).filter { path in
                context.workspace.bytes(path).map { bytes in
                    ObjCServiceTypes.declaresInterface(container, in: String(decoding: bytes, as: UTF8.self))
                } == true
            }.map { ($0 as NSString).lastPathComponent })
        let buffer = analysis.file.buffer
        for n in 1...max(1, buffer.lineStarts.count) {
            let line = buffer.lineText(n).trimmingCharacters(in: .whitespacesAndNewlines)
            guard line.hasPrefix("#import") || line.hasPrefix("#include"),
                let open = line.firstIndex(where: { $0 == "\"" || $0 == "<" })
            else { continue }
            let name = line[line.index(after: open)...].prefix { $0 != "\"" && $0 != ">" }
            if declaring.contains((String(name) as NSString).lastPathComponent) { return line }
        }
        return nil
    }

    /// The bytes of whole lines from token `from`'s line through token `through`'s, and (with
    /// `blank`) the blank line after them.
    static func linesRange(_ tokens: FixTokens, from: Int, through: Int, blank: Bool = true) -> Range<Int> {
        let buffer = tokens.file.buffer
        let start = tokens.lineStart(above: from)
        var to = tokens.end(through)
        while to < buffer.bytes.count, buffer.bytes[to] == UInt8(ascii: " ") || buffer.bytes[to] == UInt8(ascii: "\t") {
            to += 1
        }
        for _ in 0..<(blank ? 2 : 1) {
            if to < buffer.bytes.count, buffer.bytes[to] == UInt8(ascii: "\r") { to += 1 }
            if to < buffer.bytes.count, buffer.bytes[to] == UInt8(ascii: "\n") { to += 1 } else { break }
        }
        return start..<to
    }
}
