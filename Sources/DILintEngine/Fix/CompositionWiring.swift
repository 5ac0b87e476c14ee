import Foundation

/// `fix --phase wire`: each migrated type is given the bridge where the run builds it.
///
/// - Objective-C property injection: after a statement that builds a class with a bridge
///   property (`T *x = [[T alloc] init…];`, `x = [T new];`, `self.x = …`, `_x = …`), the line
///   `x.bridge = B;` — right after the construction, so before the first `lifecycle:` message (or,
///   without that key, any other message) to the object. A bridge set that the body already makes
///   after such a message (the order `bridge-injected-after-install` reports) moves there.
/// - Swift constructor injection: the call passes the bridge (`CompositionWiringSwift`, through
///   `SwiftCallerWiring`, as finish would).
/// - C globals: each setter `CBridgeGlobal` wrote is called at the start of each
///   `composition-root: functions:` function of the run.
///
/// `B` is the bridge in reach (a parameter named like it, `self.bridge` of a class that has one),
/// or a bridge the composing class owns: in a `composition-root` class, a property whose getter
/// builds the bridge once from the container (a stored property, never a global or a singleton).
/// One group per composing class or function; a type the run builds nowhere is a manual item.
struct CompositionWiring {
    let context: FixContext

    private var bridgeName: String { context.bridgeName }
    private var bridgeType: String { context.configuration.bridgeType }

    func plan(_ run: FixRun, into plan: inout FixPlan) {
        // no bridge type (the service style): there is no bridge to wire
        if context.missingBridgeType != nil { return }
        var groups: [String: FixGroup] = [:]
        var order: [String] = []
        func add(_ title: String, _ edits: [TextEdit], notes: [String] = [], tier: FixTier = .safe) {
            if groups[title] == nil {
                order.append(title)
                groups[title] = FixGroup(title: title, edits: [], targets: [], tier: tier)
            }
            if tier == .unsafe { groups[title]!.tier = .unsafe }
            for edit in edits where !groups[title]!.edits.contains(edit) { groups[title]!.edits.append(edit) }
            if !notes.isEmpty { groups[title]!.notes = (groups[title]!.notes ?? []) + notes }
        }
        let migrated = migratedClasses(run.clang)
        var built = Set<String>()
        var owners: [String: [TextEdit]] = [:] // composing class → its owned bridge's edits
        for analysis in run.clang where ["m", "mm"].contains((analysis.path as NSString).pathExtension) {
            let classes = Set(migrated.keys)
            for site in constructions(in: analysis, of: classes) + receipts(in: analysis, of: classes) {
                built.insert(site.className)
                switch wire(site, in: analysis, owners: &owners, run: run) {
                case let .wired(title, edits, note, tier): add(title, edits, notes: note.map { [$0] } ?? [], tier: tier)
                case let .manual(item): plan.manual.append(item)
                case .alreadyWired: break
                }
            }
        }
        var ownedSwift = Set<String>() // Swift composing types given a bridge of their own
        var roots: [CompositionWiringRootOwnsBridge.Candidate] = [] // built nowhere, taking inject's bridge
        CompositionWiringSwift(context: context).plan(
            run.swift, into: &plan, owned: &ownedSwift, roots: &roots, add: { add($0, $1, notes: $2) })
        // objects of the classes a Swift composing type obtains (not builds) and starts
        let subclasses = CompositionWiringSwiftObjC.swiftSubclasses(run.swift, of: Set(migrated.keys), context: context)
        let received = CompositionWiringReceipt(context: context, classes: Set(migrated.keys).union(subclasses.keys))
            .plan(run.swift, into: &plan, owned: &ownedSwift, add: { add($0, $1, notes: $2, tier: $3) })
        built.formUnion(received.map { subclasses[$0] ?? $0 })
        built.formUnion(
            CompositionWiringSwiftObjC(context: context, classes: Set(migrated.keys), received: received).plan(
                run.swift, into: &plan, owned: &ownedSwift, add: { add($0, $1, notes: $2) }))
        // a subclass built counts for its class
        for (className, place) in migrated.sorted(by: { $0.key < $1.key })
        where !built.contains(className) && place.superclass == nil
            && !migrated.contains(where: { $0.value.superclass == className && built.contains($0.key) })
        {
            plan.manual.append(
                ManualItem(
                    path: context.display(place.path), line: place.line, column: place.column, expression: className,
                    reason: .notBuiltInRun,
                    detail:
                        "set '\(bridgeName)' on each new \(className) right after it is built and before \(lifecycleWords)"
                ))
        }
        // a Swift root that composes (wire gave it a group) or is configured owns its bridge
        for root in roots {
            let title = "wire Swift type \(root.typeName)"
            let path = root.initializers[0].file.path
            let composes =
                order.contains { $0 == title || $0.hasPrefix(title + ":") }
                || context.configuration.isCompositionRootType(root.typeName)
                || context.configuration.isCompositionRootPath(context.display(path))
            guard composes, context.mayOwnBridge(type: root.typeName, declaredIn: path) else {
                plan.manual.append(root.manual)
                continue
            }
            switch CompositionWiringRootOwnsBridge(context: context).edits(root) {
            case let .failure(why):
                var item = root.manual
                item.detail = (item.detail ?? "") + " (it may own its \(bridgeName), but: \(why.text))"
                plan.manual.append(item)
            case let .success((edits, note)): add(title, edits, notes: [note])
            }
        }
        wireSetters(run, into: &plan, add: { add($0, $1, notes: $2) })
        plan.groups += order.map { groups[$0]! }
    }

    private var lifecycleWords: String {
        let names = context.configuration.lifecycle
        return names.isEmpty ? "any other message to it" : names.map { "'\($0)'" }.joined(separator: " or ")
    }

    // MARK: Objective-C

    /// Classes of the run with a bridge property (in any `@interface`), by name, with where it is
    /// declared; a class whose `@implementation` defines the bridge's getter owns its bridge (the
    /// composition root's), and is no migrated type.
    private func migratedClasses(_ analyses: [FixFileAnalysis]) -> [String: Migrated] {
        var found: [String: Migrated] = [:]
        var owning = Set<String>()
        var superclasses: [String: (path: String, line: Int, column: Int, superclass: String)] = [:]
        let names = Set(context.configuration.bridgeNames)
        for analysis in analyses.sorted(by: { $0.path < $1.path }) {
            let t = analysis.tokens
            let declarations = ObjCDeclarations(tokens: t, bridgeNames: names)
            for block in declarations.blocks {
                if block.kind == .implementation {
                    if ownsBridge(t, block) { owning.insert(block.className) }
                    continue
                }
                // `@interface Sub : Super`
                if block.kind == .primary,
                    let name = (block.start..<min(block.start + 3, t.count)).first(where: {
                        t.text($0) == block.className
                    }),
                    t.text(name + 1) == ":", t.isIdentifier(name + 2)
                {
                    let (line, column) = analysis.lineColumn(t.start(name))
                    superclasses[block.className] = (analysis.path, line, column, t.text(name + 2))
                }
                guard let property = block.bridgeProperty, found[block.className] == nil,
                    (block.start..<property).contains(where: { t.text($0) == bridgeType })
                else { continue }
                let (line, column) = analysis.lineColumn(t.start(property))
                found[block.className] = Migrated(path: analysis.path, line: line, column: column, superclass: nil)
            }
        }
        // subclasses of migrated classes inherit the property
        var grew = true
        while grew {
            grew = false
            for (name, sub) in superclasses where found[name] == nil && found[sub.superclass] != nil {
                found[name] = Migrated(path: sub.path, line: sub.line, column: sub.column, superclass: sub.superclass)
                grew = true
            }
        }
        return found.filter { !owning.contains($0.key) }
    }

    /// A class with a bridge property: where it is declared, and the migrated class it inherits
    /// the property from (nil: its own).
    private struct Migrated {
        var path: String
        var line: Int
        var column: Int
        var superclass: String?
    }

    /// Whether an `@implementation` defines the bridge's getter (`- (T *)bridge`).
    private func ownsBridge(_ t: FixTokens, _ block: ObjCDeclarations.Block) -> Bool {
        let end = block.end ?? t.count
        return (block.start..<end).contains { i in
            t.text(i) == "-" && t.text(i + 1) == "(" && t.text(i + 2) == bridgeType && t.text(i + 3) == "*"
                && t.text(i + 4) == ")" && t.text(i + 5) == bridgeName && ["{", ";"].contains(t.text(i + 6))
        }
    }

    /// A statement that builds a migrated class and keeps it in a variable or property.
    struct Construction {
        var className: String
        /// The object as written (`reporter`, `self.reporter`, `_reporter`).
        var receiver: String
        /// Token indices: the statement's first token, the construction's `[`, the `;` ending it.
        var statementStart: Int
        var open: Int
        var semicolon: Int
        /// Nil when the construction is kept in a statement of its own; else why it cannot be wired.
        var unwirable: String?
    }

    private func constructions(in analysis: FixFileAnalysis, of classes: Set<String>) -> [Construction] {
        let t = analysis.tokens
        let cursor = TokenCursor(file: t.file)
        var result: [Construction] = []
        for i in 0..<t.count where t.text(i) == "[" {
            // [[T alloc] init…]  or  [T new]
            let className: String
            if t.text(i + 1) == "[", classes.contains(t.text(i + 2)), t.text(i + 3) == "alloc", t.text(i + 4) == "]",
                t.text(i + 5).hasPrefix("init")
            {
                className = t.text(i + 2)
            } else if classes.contains(t.text(i + 1)), t.text(i + 2) == "new", t.text(i + 3) == "]",
                t.text(i - 1) != "["
            {
                className = t.text(i + 1)
            } else {
                continue
            }
            if t.isInDirective(t.start(i)) { continue }
            guard let close = cursor.close(from: i) else { continue }
            var site = Construction(
                className: className, receiver: "", statementStart: i, open: i, semicolon: close + 1, unwirable: nil)
            // the statement: `LHS = [construction];`
            var s = i - 1
            while s >= 0, ![";", "{", "}"].contains(t.text(s)) { s -= 1 }
            site.statementStart = s + 1
            guard t.text(i - 1) == "=", t.text(close + 1) == ";", i - 1 > s + 1 else {
                site.unwirable =
                    "it is built inside a larger expression (no variable holds it before its first message)"
                result.append(site)
                continue
            }
            let lhs = (s + 1)..<(i - 1)
            let words = lhs.map { t.text($0) }
            if words.contains("*") || (words.count == 2 && words[0] == "id") {
                // T *x = …  (qualifiers such as __strong around)
                if t.isIdentifier(lhs.upperBound - 1), words.last != "*" {
                    site.receiver = t.text(lhs.upperBound - 1)
                } else {
                    site.unwirable =
                        "a declaration fix does not read ('\(t.source(lhs.lowerBound, lhs.upperBound - 1))')"
                }
            } else if lhs.allSatisfy({ t.isIdentifier($0) || ["self", ".", "->"].contains(t.text($0)) }),
                t.isIdentifier(lhs.upperBound - 1)
            {
                site.receiver = cursor.joined(lhs.lowerBound, lhs.upperBound)
            } else {
                site.unwirable =
                    "it is kept where fix cannot name it again ('\(t.source(lhs.lowerBound, lhs.upperBound - 1))')"
            }
            result.append(site)
        }
        return result
    }

    /// Statements that keep an object of a migrated class the method obtains rather than builds
    /// (`self.installation = [provider installation];`, `T *x = [factory make];`) and then starts
    /// itself: a `lifecycle:` message (without that key `install` or `start`) to it follows in the
    /// same body. They are wired like constructions: the bridge set right after the statement.
    /// A property's class is read from its `@property (…) T *p;` in the same file.
    private func receipts(in analysis: FixFileAnalysis, of classes: Set<String>) -> [Construction] {
        let t = analysis.tokens
        let cursor = TokenCursor(file: t.file)
        let names = Set(
            context.configuration.lifecycle.isEmpty ? ["install", "start"] : context.configuration.lifecycle)
        func propertyClass(_ name: String) -> String? {
            (0..<t.count).first { j in
                classes.contains(t.text(j)) && t.text(j + 1) == "*" && t.text(j + 2) == name && t.text(j + 3) == ";"
            }.map { t.text($0) }
        }
        var result: [Construction] = []
        for i in 0..<t.count where t.text(i) == "=" && t.text(i + 1) == "[" {
            let open = i + 1
            // constructions are `constructions(in:of:)`'s
            if t.text(open + 1) == "[" && t.text(open + 3) == "alloc" { continue }
            if classes.contains(t.text(open + 1)) && t.text(open + 2) == "new" { continue }
            guard !t.isInDirective(t.start(i)), let close = cursor.close(from: open), t.text(close + 1) == ";",
                let scope = analysis.file.definition(holding: t.start(i)), scope.kind == .objcMethod
            else { continue }
            var s = i - 1
            while s >= 0, ![";", "{", "}"].contains(t.text(s)) { s -= 1 }
            let lhs = (s + 1)..<i
            guard !lhs.isEmpty, t.isIdentifier(lhs.upperBound - 1) else { continue }
            let words = lhs.map { t.text($0) }
            let className: String?
            let receiver: String
            var forms: [String]
            if words.count >= 3, words[words.count - 2] == "*" {
                className = classes.contains(words[words.count - 3]) ? words[words.count - 3] : nil
                receiver = words.last!
                forms = [receiver]
            } else if words.count == 3, words[0] == "self", words[1] == "." {
                className = propertyClass(words[2])
                receiver = "self.\(words[2])"
                forms = [receiver, "_\(words[2])"]
            } else if words.count == 1, words[0].hasPrefix("_") {
                className = propertyClass(String(words[0].dropFirst()))
                receiver = words[0]
                forms = [receiver, "self.\(words[0].dropFirst())"]
            } else {
                continue
            }
            guard let className else { continue }
            // the method starts it after obtaining it
            let end = t.file.tokenIndex(atOrAfter: scope.range.upperBound)
            let starts = (close + 2..<end).contains { j in
                guard t.text(j) == "[" else { return false }
                let k = j + 1
                if forms.contains(t.text(k)), names.contains(t.text(k + 1)) { return true }
                return t.text(k) == "self" && t.text(k + 1) == "." && forms.contains("self.\(t.text(k + 2))")
                    && names.contains(t.text(k + 3))
            }
            guard starts else { continue }
            result.append(
                Construction(
                    className: className, receiver: receiver, statementStart: s + 1, open: open,
                    semicolon: close + 1, unwirable: nil))
        }
        return result
    }

    /// What wiring one construction comes to.
    private enum Outcome {
        /// The group's title, its edits, a note, its tier (`unsafe` when a bridge set moves
        /// before a lifecycle message: that message now runs with the bridge).
        case wired(String, [TextEdit], String?, FixTier)
        case manual(ManualItem)
        case alreadyWired
    }

    /// Why fix cannot do something, in words.
    private struct Refusal: Error { let why: String }

    /// The edits that wire one construction, or why it cannot be wired, or that it is already.
    private func wire(
        _ site: Construction, in analysis: FixFileAnalysis, owners: inout [String: [TextEdit]], run: FixRun
    ) -> Outcome {
        let t = analysis.tokens
        let (line, column) = analysis.lineColumn(t.start(site.open))
        func manual(_ reason: ManualReason, _ why: String) -> Outcome {
            .manual(
                ManualItem(
                    path: context.display(analysis.path), line: line, column: column,
                    expression: t.source(site.open, site.semicolon - 1), reason: reason, detail: why))
        }
        if let why = site.unwirable { return manual(.wiringPlace, why) }
        guard let scope = analysis.file.definition(holding: t.start(site.open)),
            [.objcMethod, .function].contains(scope.kind)
        else { return manual(.wiringPlace, "outside any method or function") }
        let body =
            t.file.tokenIndex(
                atOrAfter: scope.range.lowerBound)..<t.file.tokenIndex(
                atOrAfter: scope.range.upperBound)
        // a bridge set already made on the object in this body: kept when it comes before the
        // first lifecycle message, moved here when it comes after one
        var moved: [TextEdit] = []
        var movedBefore = ""
        if let set = existingSet(site, body: body, t: t) {
            guard let message = firstLifecycleMessage(site, before: set.lowerBound, t: t) else { return .alreadyWired }
            let (l, _) = analysis.lineColumn(t.start(message))
            let start = t.lineStart(t.start(set.lowerBound))
            let end = lineEnd(after: set.upperBound, t: t).map { _ in
                let line = t.file.buffer.lineColumn(of: t.start(set.upperBound)).line
                return line < t.file.buffer.lineStarts.count
                    ? t.file.buffer.lineStarts[line] : t.file.buffer.bytes.count
            }
            guard t.isFirstOnLine(set.lowerBound), let end else {
                return manual(
                    .wiringPlace,
                    "its bridge is set after '\(t.text(message))' (line \(l)), on a line shared with other code")
            }
            moved = [TextEdit(path: analysis.path, range: start..<end, replacement: "")]
            movedBefore = "'\(t.text(message))' (line \(l))"
        }
        // the bridge in reach
        let bridge: String
        var edits: [TextEdit] = []
        var note: String?
        let signature = body.lowerBound..<(body.first { t.text($0) == "{" } ?? body.lowerBound)
        if signature.contains(where: { t.text($0) == bridgeName && t.text($0 - 1) != "(" }) {
            bridge = bridgeName
        } else if scope.kind == .objcMethod, let owner = scope.typeName {
            if hasBridge(owner, run: run) {
                if scope.isInitializer {
                    return manual(
                        .wiringPlace,
                        "built in \(owner) -\(scope.name), before \(owner) has its own bridge (it is set after init)")
                }
                bridge = "self.\(bridgeName)"
            } else if context.mayOwnBridge(type: owner, declaredIn: analysis.path) {
                if owners[owner] == nil {
                    switch ownedBridge(owner, in: analysis, run: run) {
                    case let .success(own): owners[owner] = own
                    case let .failure(refusal): return manual(.noBridgeToWire, refusal.why)
                    }
                    note =
                        "\(context.display(analysis.path)):\(line):\(column): note: \(owner) now owns the \(bridgeName): built once, on first use, from the container"
                }
                edits += owners[owner]!
                bridge = "self.\(bridgeName)"
            } else {
                return manual(
                    .noBridgeToWire,
                    "\(owner) has no \(bridgeName) to pass, and may not build one (\(context.notCompositionRoot(owner)))"
                )
            }
        } else {
            return manual(.noBridgeToWire, "\(scope.name) has no \(bridgeName) parameter to pass")
        }
        if bridge == site.receiver { return .alreadyWired }
        // after the statement, on its own line
        let nl = t.lineEnding
        let indent = t.indentation(t.start(site.statementStart))
        let text = "\(site.receiver).\(bridgeName) = \(bridge);"
        if let end = lineEnd(after: site.semicolon, t: t) {
            edits.append(TextEdit(path: analysis.path, range: end..<end, replacement: nl + indent + text))
        } else {
            edits.append(
                TextEdit(
                    path: analysis.path, range: t.end(site.semicolon)..<t.end(site.semicolon), replacement: " " + text))
        }
        let title = "wire \(scope.typeName.map { "Objective-C class \($0)" } ?? "C function \(scope.name)")"
        if !moved.isEmpty {
            // its own group: behaviour changes (the message now runs with the bridge)
            return .wired(
                "\(title): \(site.receiver)'s \(bridgeName) set moved before \(movedBefore)", edits + moved, note,
                .unsafe)
        }
        return .wired(title, edits, note, .safe)
    }

    /// The offset just before the line break ending the line of token `i`, when only blanks and
    /// comments follow the token on its line; nil when other code does.
    private func lineEnd(after i: Int, t: FixTokens) -> Int? {
        let bytes = t.file.buffer.bytes
        let (line, _) = t.file.buffer.lineColumn(of: t.start(i))
        if i + 1 < t.count, t.file.buffer.lineColumn(of: t.start(i + 1)).line == line { return nil }
        var end = line < t.file.buffer.lineStarts.count ? t.file.buffer.lineStarts[line] : bytes.count
        if end > 0, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        // a line comment after the statement stays on the statement's line: insert after it
        return end
    }

    /// The token range (first token … `;`) of a statement after the construction that sets the
    /// object's bridge (`x.bridge = …;`, `[x setBridge:…];`).
    private func existingSet(_ site: Construction, body: Range<Int>, t: FixTokens) -> ClosedRange<Int>? {
        let receiver = receiverTokens(site, t: t)
        var i = site.semicolon + 1
        while i < body.upperBound {
            if i == 0 || [";", "{", "}"].contains(t.text(i - 1)) {
                let n = receiver.count
                let matches = (0..<n).allSatisfy { t.text(i + $0) == receiver[$0] }
                let setter = "set" + bridgeName.capitalizedFirst
                if (matches && t.text(i + n) == "." && t.text(i + n + 1) == bridgeName && t.text(i + n + 2) == "=")
                    || (t.text(i) == "[" && (0..<n).allSatisfy({ t.text(i + 1 + $0) == receiver[$0] })
                        && t.text(i + 1 + n) == setter && t.text(i + 2 + n) == ":")
                {
                    var end = i
                    while end < body.upperBound, t.text(end) != ";" { end += 1 }
                    return i...end
                }
            }
            i += 1
        }
        return nil
    }

    private func receiverTokens(_ site: Construction, t: FixTokens) -> [String] {
        // the receiver as tokens: `self . x`, `_x`, `x`
        var words: [String] = []
        var current = ""
        for ch in site.receiver {
            if ch == "." || ch == ">" || ch == "-" {
                if !current.isEmpty { words.append(current); current = "" }
                if ch == "." { words.append(".") } else if ch == ">" { words.append("->") }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The first message between the construction and `limit` that the bridge must come before:
    /// one of `lifecycle:` (`[x install]`, `x.install()`), or, without that key, any message or
    /// property use of the object.
    private func firstLifecycleMessage(_ site: Construction, before limit: Int, t: FixTokens) -> Int? {
        let receiver = receiverTokens(site, t: t)
        let n = receiver.count
        let lifecycle = Set(context.configuration.lifecycle)
        var i = site.semicolon + 1
        while i < limit {
            if (0..<n).allSatisfy({ t.text(i + $0) == receiver[$0] }), !t.isIdentifier(i - 1) || t.text(i - 1) == "[",
                t.text(i - 1) != "." && t.text(i - 1) != "->"
            {
                let next = i + n
                let at: Int? =
                    t.text(i - 1) == "[" && t.isIdentifier(next)
                    ? next : (t.text(next) == "." || t.text(next) == "->") ? next + 1 : nil
                if let at, lifecycle.isEmpty || lifecycle.contains(t.text(at)) { return at }
            }
            i += 1
        }
        return nil
    }

    /// Whether the class has a bridge (property or ivar) in the run.
    private func hasBridge(_ className: String, run: FixRun) -> Bool {
        let names = Set(context.configuration.bridgeNames)
        for path in Set(context.filesDeclaring(className)).union(run.clang.map(\.path)).sorted() {
            guard let analysis = context.analysis(path) else { continue }
            let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: names)
            if declarations.interfaces(of: className).contains(where: { $0.bridgeProperty != nil }) { return true }
        }
        return false
    }

    /// The edits giving a composition-root class a bridge of its own: a property, and a getter
    /// that builds it once from the container (`[[T alloc] initWithContainer:[C accessor]]`,
    /// the bridge's one-argument initializer as its `@interface` declares it).
    private func ownedBridge(_ owner: String, in analysis: FixFileAnalysis, run: FixRun) -> Result<[TextEdit], Refusal>
    {
        guard let creation = objcBridgeCreation(run) else {
            return .failure(
                Refusal(
                    why:
                        "\(owner) would own the \(bridgeName), but no @interface \(bridgeType) of the run declares a one-argument init… taking the container"
                ))
        }
        let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: [])
        guard let implementation = declarations.implementation(of: owner), let end = implementation.end else {
            return .failure(Refusal(why: "\(owner)'s @implementation is not in \(context.display(analysis.path))"))
        }
        let placer = BridgePropertyPlacer(
            context: context,
            property: .init(
                declaration: "@property (nonatomic, strong) \(bridgeType) *\(bridgeName);",
                names: Set(context.configuration.bridgeNames), forward: nil))
        let property =
            placer.edits(for: owner, implementationFiles: [analysis])
            + BridgePropertyPlacer(context: context).imports(in: [analysis])
        guard let containerImport = containerImport(into: analysis) else {
            return .failure(
                Refusal(
                    why:
                        "\(owner) would own the \(bridgeName), but \(context.display(analysis.path)) sees no header of the run declaring the container's @interface"
                ))
        }
        guard !property.isEmpty else {
            return .failure(Refusal(why: "fix could not place \(owner)'s \(bridgeName) property"))
        }
        let t = analysis.tokens
        let nl = t.lineEnding
        let getter =
            "- (\(bridgeType) *)\(bridgeName)" + (bracesOnOwnLine(t, implementation) ? nl : " ") + "{" + nl
            + "    if (!_\(bridgeName)) {" + nl
            + "        _\(bridgeName) = \(creation);" + nl + "    }" + nl + "    return _\(bridgeName);" + nl + "}" + nl
            + nl
        let at = t.lineStart(t.start(end))
        return .success(
            property + containerImport + [TextEdit(path: analysis.path, range: at..<at, replacement: getter)])
    }

    /// The container's class, the first `Type.accessor` container spec's.
    private var containerClass: String? {
        context.configuration.containers.lazy.compactMap { spec -> String? in
            if case let .member(type, _) = spec { return type }
            return nil
        }.first
    }

    /// `#import` of a header of the run that declares the container's `@interface`, in this file's
    /// folder or below it, unless the file includes one already: empty; nil when there is none.
    private func containerImport(into analysis: FixFileAnalysis) -> [TextEdit]? {
        guard let container = containerClass else { return nil }
        let headers = context.filesDeclaring(container).filter { ($0 as NSString).pathExtension == "h" }.sorted()
        if headers.contains(where: { FixFileAnalysis.FileKey(path: $0).map(analysis.includes) == true }) { return [] }
        let folder = (analysis.path as NSString).deletingLastPathComponent + "/"
        guard let header = headers.first(where: { $0.hasPrefix(folder) }) else { return nil }
        let t = analysis.tokens
        let at = t.afterLastInclude(before: t.count) ?? 0
        return [
            TextEdit(
                path: analysis.path, range: at..<at,
                replacement: "#import \"\(header.dropFirst(folder.count))\"" + t.lineEnding, order: 0)
        ]
    }

    /// Whether the `@implementation`'s first method opens its body on a line of its own (the
    /// style the getter follows).
    private func bracesOnOwnLine(_ t: FixTokens, _ block: ObjCDeclarations.Block) -> Bool {
        let end = block.end ?? t.count
        guard
            let method = (block.start..<end).first(where: { ["-", "+"].contains(t.text($0)) && t.isFirstOnLine($0) }),
            let brace = (method..<end).first(where: { t.text($0) == "{" || t.text($0) == ";" }), t.text(brace) == "{"
        else { return true }
        return t.isFirstOnLine(brace)
    }

    /// `[[Bridge alloc] initWithX:<container read>]`, from an `@interface` of the bridge type in
    /// the run that declares `- (instancetype)initWithX:(C *)x;`, and the first container spec
    /// of the `Type.accessor` form.
    private func objcBridgeCreation(_ run: FixRun) -> String? {
        guard
            let container = context.configuration.containers.lazy.compactMap({ spec -> String? in
                if case let .member(type, accessor) = spec { return "[\(type) \(accessor)]" }
                return nil
            }).first
        else { return nil }
        for path in context.filesDeclaring(bridgeType) {
            guard let analysis = context.analysis(path) else { continue }
            let t = analysis.tokens
            for block in ObjCDeclarations(tokens: t, bridgeNames: []).interfaces(of: bridgeType) {
                let end = block.end ?? t.count
                for i in block.start..<end
                where t.text(i) == "-" && t.text(i + 1) == "(" && ["instancetype", "id"].contains(t.text(i + 2))
                    && t.text(i + 3) == ")" && t.text(i + 4).hasPrefix("init") && t.text(i + 5) == ":"
                {
                    var j = i + 6, colons = 1
                    while j < end, t.text(j) != ";", t.text(j) != "{" {
                        if t.text(j) == ":" { colons += 1 }
                        j += 1
                    }
                    if colons == 1 { return "[[\(bridgeType) alloc] \(t.text(i + 4)):\(container)]" }
                }
            }
        }
        return nil
    }

    // MARK: C globals

    /// Each setter `CBridgeGlobal` wrote (`void X_setBridge(T *bridge) {…}` in a file with the
    /// global) called at the start of every `composition-root: functions:` function of the run
    /// that does not call it yet, with the bridge in reach there.
    private func wireSetters(_ run: FixRun, into plan: inout FixPlan, add: (String, [TextEdit], [String]) -> Void) {
        guard let global = context.configuration.cBridgeGlobal else { return }
        var setters: [(name: String, path: String, line: Int, column: Int)] = []
        for analysis in run.clang where ["m", "c"].contains((analysis.path as NSString).pathExtension) {
            let name = global.setterName(for: analysis.path)
            let t = analysis.tokens
            for i in 0..<t.count where t.text(i) == name && t.text(i - 1) == "void" && t.text(i + 1) == "(" {
                guard let close = TokenCursor(file: t.file).close(from: i + 1), t.text(close + 1) == "{" else {
                    continue
                }
                let (line, column) = analysis.lineColumn(t.start(i))
                setters.append((name, analysis.path, line, column))
                break
            }
        }
        guard !setters.isEmpty else { return }
        var called = Set<String>()
        var roots = 0
        let inferred = context.infersCompositionRoot ? componentStarts(run) : nil
        if let inferred, inferred.count > 1 {
            // several places start a component: which one the C layer needs first is a choice
            for setter in setters {
                plan.manual.append(
                    ManualItem(
                        path: context.display(setter.path), line: setter.line, column: setter.column,
                        expression: setter.name, reason: .notBuiltInRun,
                        detail:
                            "several methods start the component (\(inferred.map { "-[\($0.owner) \($0.name)]" }.joined(separator: ", "))): name the one that must call \(setter.name)(\(cTable(setter.path) ?? bridgeName)) under composition-root: functions:"
                    ))
            }
            return
        }
        for analysis in run.clang
        where ["m", "mm", "c", "cc", "cpp"].contains((analysis.path as NSString).pathExtension) {
            let t = analysis.tokens
            for scope in analysis.file.scopes + analysis.file.lostDefinitions
            where [.function, .objcMethod].contains(scope.kind)
                && (inferred.map { places in
                    places.contains { $0.path == analysis.path && $0.offset == scope.range.lowerBound }
                } ?? context.configuration.isCompositionRootFunction(scope.name))
            {
                let body =
                    t.file.tokenIndex(
                        atOrAfter: scope.range.lowerBound)..<t.file.tokenIndex(
                        atOrAfter: scope.range.upperBound)
                guard let brace = body.first(where: { t.text($0) == "{" }) else { continue }
                roots += 1
                let (line, column) = analysis.lineColumn(scope.nameOffset)
                let signature = body.lowerBound..<brace
                let bridge: String
                if signature.contains(where: { t.text($0) == bridgeName && t.text($0 - 1) != "(" }) {
                    bridge = bridgeName
                } else if scope.kind == .objcMethod, let owner = scope.typeName, hasBridge(owner, run: run) {
                    bridge = "self.\(bridgeName)"
                } else if setters.allSatisfy({ cTable($0.path) != nil }) {
                    bridge = bridgeName // not passed: every setter takes the container's C table
                } else {
                    plan.manual.append(
                        ManualItem(
                            path: context.display(analysis.path), line: line, column: column, expression: scope.name,
                            reason: .noBridgeToWire,
                            detail:
                                "the composition-root function \(scope.name) has no \(bridgeName) to pass to \(setters.map(\.name).joined(separator: ", "))"
                        ))
                    continue
                }
                var edits: [TextEdit] = []
                let nl = t.lineEnding
                let indent =
                    (body.first { $0 > brace && t.isFirstOnLine($0) }).map { t.indentation(t.start($0)) } ?? "    "
                for setter in setters {
                    if body.contains(where: { t.text($0) == setter.name && t.text($0 + 1) == "(" }) {
                        called.insert(setter.name); continue
                    }
                    if setter.path != analysis.path {
                        guard let include = headerInclude(for: setter, into: analysis) else {
                            plan.manual.append(
                                ManualItem(
                                    path: context.display(analysis.path), line: line, column: column,
                                    expression: setter.name, reason: .noBridgeToWire,
                                    detail:
                                        "\(setter.name) is declared in no header of the run that \(context.display(analysis.path)) could import"
                                ))
                            continue
                        }
                        edits += include
                    }
                    called.insert(setter.name)
                    edits.append(
                        TextEdit(
                            path: analysis.path, range: t.end(brace)..<t.end(brace),
                            replacement: nl + indent + "\(setter.name)(\(cTable(setter.path) ?? bridge));"))
                }
                if !edits.isEmpty { add("wire composition root \(scope.name)", edits, []) }
            }
        }
        for setter in setters where !called.contains(setter.name) {
            plan.manual.append(
                ManualItem(
                    path: context.display(setter.path), line: setter.line, column: setter.column,
                    expression: setter.name,
                    reason: .notBuiltInRun,
                    detail: roots == 0
                        ? "call \(setter.name)(\(cTable(setter.path) ?? bridgeName)) in the composition root (name it under composition-root: functions:)"
                        : "no composition-root function could call it"))
        }
    }

    /// With no composition root configured, where the C setters are called: the instance methods
    /// of the run's Objective-C classes with a bridge of their own (`self.bridge`) that start the
    /// component — a method named by `lifecycle:` (without it, `install`), or one that calls a
    /// C install function (`sentrycrash_install(…)`, a name ending in `install`, not `uninstall`).
    private func componentStarts(_ run: FixRun) -> [(path: String, offset: Int, owner: String, name: String)] {
        let starting = Set(context.configuration.lifecycle.isEmpty ? ["install"] : context.configuration.lifecycle)
        var found: [(path: String, offset: Int, owner: String, name: String)] = []
        for analysis in run.clang where ["m", "mm"].contains((analysis.path as NSString).pathExtension) {
            let t = analysis.tokens
            for scope in analysis.file.scopes + analysis.file.lostDefinitions where scope.kind == .objcMethod {
                guard let owner = scope.typeName, !scope.isInitializer else { continue }
                let body =
                    t.file.tokenIndex(
                        atOrAfter: scope.range.lowerBound)..<t.file.tokenIndex(
                        atOrAfter: scope.range.upperBound)
                guard t.text(body.lowerBound) == "-", let brace = body.first(where: { t.text($0) == "{" }) else {
                    continue
                }
                let callsInstall = (brace..<body.upperBound).contains { i in
                    guard t.isIdentifier(i), t.text(i + 1) == "(", ![".", "->", "["].contains(t.text(i - 1)) else {
                        return false
                    }
                    let name = t.text(i).lowercased()
                    return name.hasSuffix("install") && !name.hasSuffix("uninstall")
                }
                guard starting.contains(scope.name) || callsInstall, hasBridge(owner, run: run) else { continue }
                found.append((analysis.path, scope.range.lowerBound, owner, scope.name))
            }
        }
        return found
    }

    /// `#import "X.h"` for the header of the setter's file (`X.h` beside it, declaring the
    /// setter), unless the file includes it already: empty; nil when there is no such header.
    private func headerInclude(
        for setter: (name: String, path: String, line: Int, column: Int), into analysis: FixFileAnalysis
    )
        -> [TextEdit]?
    {
        let header = ((setter.path as NSString).deletingPathExtension as NSString).appendingPathExtension("h")!
        guard let bytes = context.workspace.bytes(header),
            bytes.withUnsafeBytes({ $0.containsASCII(setter.name) })
        else { return nil }
        if let key = FixFileAnalysis.FileKey(path: header), analysis.includes(key) { return [] }
        let t = analysis.tokens
        let name = (header as NSString).lastPathComponent
        let directive = (analysis.path as NSString).pathExtension == "c" ? "#include" : "#import"
        guard let at = t.afterLastInclude(before: t.count) else { return nil }
        return [
            TextEdit(
                path: analysis.path, range: at..<at, replacement: "\(directive) \"\(name)\"" + t.lineEnding, order: 0)
        ]
    }
}
