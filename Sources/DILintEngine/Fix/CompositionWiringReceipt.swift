import SwiftSyntax

/// `fix --phase wire` at the point of receipt, in Swift: a composing type that OBTAINS an object
/// of a migrated Objective-C class (one with a bridge property, or a Swift subclass of one) from
/// a provider or builder (`self.installation = dependencies.makeInstallation(options)`), a
/// parameter or another property, and that starts it itself (sends it a `lifecycle:` message,
/// without that key `install` or `start`), sets its bridge right after obtaining it:
/// `self.installation?.bridge = bridge` — so before the lifecycle message. The bridge is the
/// type's stored `bridge`, or one it is given once (`private let bridge: T = <default>`, the
/// same owned bridge `CompositionWiringSwiftObjC` gives) when the type is the composition root.
/// A set of that bridge that the same block already makes after the lifecycle message moves up
/// (the order `bridge-injected-after-install` reports); a set made before it is kept.
/// Constructions (`T(…)`) are `CompositionWiringSwiftObjC`'s. An object the type obtains but never
/// starts is left alone: its starter owns the wiring.
struct CompositionWiringReceipt {
    let context: FixContext
    /// The migrated Objective-C classes and their Swift subclasses, by name.
    let classes: Set<String>

    /// Adds each wiring to the group of its composing type; returns the classes wired (as the
    /// receipt names them: a Swift subclass by its own name).
    func plan(
        _ paths: [String], into plan: inout FixPlan, owned: inout Set<String>,
        add: (String, [TextEdit], [String], FixTier) -> Void
    ) -> Set<String> {
        guard !classes.isEmpty else { return [] }
        let bridge = context.bridgeName
        let lifecycle = Set(
            context.configuration.lifecycle.isEmpty ? ["install", "start"] : context.configuration.lifecycle)
        var wired = Set<String>()
        for path in paths where classes.contains(where: { context.swiftFilesMentioning($0).contains(path) }) {
            guard let file = context.swiftFile(path) else { continue }
            let receipts = Receipts(classes: classes)
            receipts.walk(file.source.tree)
            for receipt in receipts.found {
                guard let (member, ownerName) = Self.enclosingMember(receipt.statement) else { continue }
                // a name is a receipt when it is a parameter; a local was obtained where it was set
                if let name = receipt.value.as(DeclReferenceExprSyntax.self)?.baseName.text,
                    !Self.isParameter(name, of: member)
                {
                    continue
                }
                guard let owner = SwiftRunType.find(ownerName, context: context),
                    !owner.declaration.is(EnumDeclSyntax.self)
                else { continue }
                // the type of a property target (`self.p = …`, `p = …` with no local `p`)
                var className = receipt.className
                if className == nil {
                    let name =
                        receipt.receiver.hasPrefix("self.") ? String(receipt.receiver.dropFirst(5)) : receipt.receiver
                    if !receipt.receiver.hasPrefix("self."), SwiftCallerWiring.declares(name, in: member) { continue }
                    className = Self.declaredClass(of: name, in: owner, classes: classes)
                }
                guard let className else { continue }
                let propertyName =
                    receipt.receiver.hasPrefix("self.") ? String(receipt.receiver.dropFirst(5)) : receipt.receiver
                let isProperty = receipt.className == nil
                // the type starts it: a lifecycle message to it in the type (a property) or in the
                // body that obtains it (a local)
                let scope = isProperty ? Syntax(owner.mainBlock) : member
                let starts = Self.lifecycleCalls(to: propertyName, in: scope, names: lifecycle)
                guard !starts.isEmpty else { continue }
                let (line, column) = file.source.buffer.lineColumn(of: receipt.statement.startOffset)
                func manual(_ reason: ManualReason, _ why: String) {
                    plan.manual.append(
                        ManualItem(
                            path: context.display(path), line: line, column: column,
                            expression: receipt.statement.trimmedDescription, reason: reason, detail: why))
                }
                wired.insert(className)
                // a set already in the block: kept before the lifecycle message, moved from after it
                var moved: [TextEdit] = []
                var tier = FixTier.safe
                var note: [String] = []
                var movedBefore = ""
                if let set = Self.laterSet(of: receipt.receiver, bridge: bridge, after: receipt.statement) {
                    let message = starts.first {
                        $0.startOffset > receipt.statement.endOffset && $0.startOffset < set.startOffset
                    }
                    guard let message else { continue } // set before the first message: wired
                    let (l, _) = file.source.buffer.lineColumn(of: message.startOffset)
                    guard let range = Self.lineRange(of: set, in: file) else {
                        manual(
                            .wiringPlace,
                            "its \(bridge) is set after '\(message.trimmedDescription)' (line \(l)), on a line shared with other code"
                        )
                        continue
                    }
                    moved = [TextEdit(path: path, range: range, replacement: "")]
                    tier = .unsafe
                    movedBefore =
                        ": \(receipt.receiver)'s \(bridge) set moved before '\(message.trimmedDescription)' (line \(l))"
                    note = [
                        "\(context.display(path)):\(line):\(column): note: the \(bridge) set moves before '\(message.trimmedDescription)' (line \(l)): that message now runs with the \(bridge)"
                    ]
                }
                if let initializer = member.as(InitializerDeclSyntax.self), owner.hasInheritanceClause,
                    !Self.follows(receipt.statement, superInitIn: initializer)
                {
                    manual(
                        .wiringPlace,
                        "obtained in \(ownerName)'s initializer before super.init: set '\(bridge)' on it after super.init"
                    )
                    continue
                }
                // the bridge: the type's own, or one it is given as the composition root
                var edits: [TextEdit] = moved
                if owner.storedProperty(bridge) == nil && !owned.contains(ownerName) {
                    guard
                        context.mayOwnBridge(type: ownerName, declaredIn: owner.file.path)
                    else {
                        manual(
                            .noBridgeToWire,
                            "\(ownerName) starts it but has no \(bridge) and may not build one (\(context.notCompositionRoot(ownerName)))"
                        )
                        continue
                    }
                    if owner.memberNames.contains(bridge) {
                        manual(.noBridgeToWire, "\(ownerName) already has a member named '\(bridge)'")
                        continue
                    }
                    guard let made = CompositionWiringSwiftObjC.ownedBridgeDefault(context) else {
                        manual(
                            .noBridgeToWire,
                            "\(ownerName) may build the \(bridge), but the config names no swift-bridge-default to build it with"
                        )
                        continue
                    }
                    owned.insert(ownerName)
                    let at = owner.mainBlock.leftBrace.endPosition.utf8Offset
                    edits.append(
                        TextEdit(
                            path: owner.file.path, range: at..<at,
                            replacement: owner.file.newline + owner.memberIndentation.member
                                + "private let \(bridge): \(context.configuration.bridgeType) = \(made)"))
                }
                let inClosure = Self.inClosure(receipt.statement, within: member)
                let value = inClosure || SwiftCallerWiring.declares(bridge, in: member) ? "self.\(bridge)" : bridge
                let optional = CompositionWiringSwiftObjC.declaredOptional(
                    propertyName, around: receipt.statement, member: isProperty)
                let at = receipt.statement.endPositionBeforeTrailingTrivia.utf8Offset
                edits.append(
                    TextEdit(
                        path: path, range: at..<at,
                        replacement: file.newline + file.indentation(at: receipt.statement.startOffset)
                            + "\(receipt.receiver)\(optional ? "?." : ".")\(bridge) = \(value)"))
                // a moved set is a group of its own: behaviour changes (the message now runs with the bridge)
                add("wire Swift type \(ownerName)\(movedBefore)", edits, note, tier)
            }
        }
        return wired
    }

    /// A statement that keeps an object it obtains: `let x: C = e`, `self.p = e`, `p = e`, where
    /// `e` is a call, a member read or a name (no construction of a class, no literal).
    struct Receipt {
        var receiver: String
        /// The class of a local declared with it; nil for a property (looked up in its type).
        var className: String?
        var statement: Syntax
        var value: ExprSyntax
    }

    final class Receipts: SyntaxVisitor {
        let classes: Set<String>
        var found: [Receipt] = []
        init(classes: Set<String>) { self.classes = classes; super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
            if let declaration = node.item.as(VariableDeclSyntax.self), declaration.bindings.count == 1,
                let binding = declaration.bindings.first,
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                let type = binding.typeAnnotation?.type.trimmedDescription.trimmingCharacters(in: ["?", "!"]),
                classes.contains(type), let value = binding.initializer?.value, obtains(value)
            {
                found.append(Receipt(receiver: name, className: type, statement: Syntax(node), value: value))
            } else if let (target, value) = Self.assignment(node), obtains(value) {
                found.append(Receipt(receiver: target, className: nil, statement: Syntax(node), value: value))
            }
            return .visitChildren
        }

        /// `p = e` or `self.p = e` as a statement of its own.
        static func assignment(_ node: CodeBlockItemSyntax) -> (String, ExprSyntax)? {
            var target: ExprSyntax?
            var value: ExprSyntax?
            if let sequence = node.item.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true
            {
                target = sequence.elements.first
                value = sequence.elements.last
            } else if let infix = node.item.as(InfixOperatorExprSyntax.self),
                infix.operator.is(AssignmentExprSyntax.self)
            {
                target = infix.leftOperand
                value = infix.rightOperand
            }
            guard let target, let value,
                target.is(DeclReferenceExprSyntax.self)
                    || (target.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription == "self")
            else { return nil }
            return (target.trimmedDescription, value)
        }

        /// Whether `value` obtains an object built elsewhere: a call that is no construction of
        /// one of the classes, a member read, a name (not `nil`, not a literal).
        func obtains(_ value: ExprSyntax) -> Bool {
            var value = value
            if let unwrapped = value.as(TryExprSyntax.self)?.expression { value = unwrapped }
            if let unwrapped = value.as(AwaitExprSyntax.self)?.expression { value = unwrapped }
            if let call = value.as(FunctionCallExprSyntax.self) {
                var callee = call.calledExpression.trimmedDescription
                if callee.hasSuffix(".init") { callee.removeLast(5) }
                return !classes.contains(callee) && call.calledExpression.is(MemberAccessExprSyntax.self)
            }
            if let member = value.as(MemberAccessExprSyntax.self) { return member.base != nil }
            if let name = value.as(DeclReferenceExprSyntax.self) { return name.baseName.text != "nil" }
            return false
        }
    }

    /// The function, initializer or accessor holding a statement, and the qualified name of its
    /// type; nil in a static member, top-level code or a closure outside any member.
    static func enclosingMember(_ node: Syntax) -> (Syntax, String)? {
        var current = node.parent
        while let n = current {
            if let f = n.as(FunctionDeclSyntax.self) {
                if f.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) { return nil }
                return SwiftRunType.enclosingQualifiedName(of: n).map { (n, $0) }
            }
            if n.is(InitializerDeclSyntax.self) { return SwiftRunType.enclosingQualifiedName(of: n).map { (n, $0) } }
            if n.is(MemberBlockSyntax.self) || n.is(SourceFileSyntax.self) { return nil }
            current = n.parent
        }
        return nil
    }

    /// The class of the stored property `name` of the type (`var p: C?`), when it is one of the classes.
    static func declaredClass(of name: String, in type: SwiftRunType, classes: Set<String>) -> String? {
        for (_, decl) in type.members {
            guard let variable = decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings
            where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                guard let type = binding.typeAnnotation?.type.trimmedDescription.trimmingCharacters(in: ["?", "!"]),
                    classes.contains(type)
                else { return nil }
                return type
            }
        }
        return nil
    }

    /// Calls `x.m(…)`, `x?.m(…)`, `self.x?.m(…)` of a lifecycle message `m` to `name` in `scope`.
    static func lifecycleCalls(to name: String, in scope: Syntax, names: Set<String>) -> [FunctionCallExprSyntax] {
        final class Finder: SyntaxVisitor {
            let name: String
            let names: Set<String>
            var found: [FunctionCallExprSyntax] = []
            init(_ name: String, _ names: Set<String>) {
                self.name = name; self.names = names; super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                    names.contains(member.declName.baseName.text), var base = member.base?.trimmedDescription
                {
                    base = base.trimmingCharacters(in: ["?", "!"])
                    if base.hasPrefix("self.") { base.removeFirst(5) }
                    if base == name { found.append(node) }
                }
                return .visitChildren
            }
        }
        let finder = Finder(name, names)
        finder.walk(scope)
        return finder.found
    }

    /// A later statement of the same block that sets the object's bridge (`x.bridge = …`,
    /// `x?.bridge = …`).
    static func laterSet(of receiver: String, bridge: String, after statement: Syntax) -> Syntax? {
        guard let item = statement.as(CodeBlockItemSyntax.self),
            let list = item.parent?.as(CodeBlockItemListSyntax.self),
            let index = list.firstIndex(where: { $0.id == item.id })
        else { return nil }
        let name = receiver.hasPrefix("self.") ? String(receiver.dropFirst(5)) : receiver
        for later in list[list.index(after: index)...] {
            let text = later.item.trimmedDescription.replacingOccurrences(of: " ", with: "")
            for form in [name, "self.\(name)"]
            where text.hasPrefix("\(form).\(bridge)=") || text.hasPrefix("\(form)?.\(bridge)=") {
                return Syntax(later)
            }
        }
        return nil
    }

    /// The whole lines of a statement alone on them (with its line break), or nil.
    static func lineRange(of statement: Syntax, in file: SwiftFixFile) -> Range<Int>? {
        let buffer = file.source.buffer
        let start = statement.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = statement.endPositionBeforeTrailingTrivia.utf8Offset
        let (first, _) = buffer.lineColumn(of: start)
        let (last, _) = buffer.lineColumn(of: end)
        let lineStart = buffer.lineStarts[first - 1]
        let nextLine = last < buffer.lineStarts.count ? buffer.lineStarts[last] : buffer.bytes.count
        let before = buffer.bytes[lineStart..<start], after = buffer.bytes[end..<nextLine]
        guard before.allSatisfy({ $0 == 0x20 || $0 == 0x09 }),
            after.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        else { return nil }
        return lineStart..<nextLine
    }

    /// Whether `name` is a parameter of the function or initializer.
    static func isParameter(_ name: String, of member: Syntax) -> Bool {
        let clause =
            member.as(FunctionDeclSyntax.self)?.signature.parameterClause
            ?? member.as(InitializerDeclSyntax.self)?.signature.parameterClause
        return clause?.parameters.contains { ($0.secondName ?? $0.firstName).text == name } ?? false
    }

    /// Whether a statement sits in a closure inside `member`.
    static func inClosure(_ node: Syntax, within member: Syntax) -> Bool {
        var current = node.parent
        while let n = current, n.id != member.id {
            if n.is(ClosureExprSyntax.self) { return true }
            current = n.parent
        }
        return false
    }

    /// Whether a statement comes after the initializer's `super.init(…)` call.
    static func follows(_ statement: Syntax, superInitIn initializer: InitializerDeclSyntax) -> Bool {
        guard let body = initializer.body else { return false }
        return body.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.`init`) && token.endPosition <= statement.position
                && token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period
                && token.previousToken(viewMode: .sourceAccurate)?.previousToken(viewMode: .sourceAccurate)?.tokenKind
                    == .keyword(.super)
        }
    }
}
