import SwiftSyntax

/// A class, struct or actor declared in a Swift file, with the extensions of it in the same file.
struct SwiftTypeMembers {
    var name: TokenSyntax
    var declaration: DeclSyntax
    /// The type's own member block and those of its extensions in the file.
    var memberBlocks: [MemberBlockSyntax]
    /// Nested type declarations: their members belong to them, not to this type.
    var nestedRanges: [Range<Int>]

    var initializers: [InitializerDeclSyntax] {
        memberBlocks.flatMap { $0.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) } }
    }

    /// Stored properties written in the type's own body (extensions cannot add any).
    var storedProperties: [VariableDeclSyntax] {
        memberBlocks.first?.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }.filter(\.isStored) ?? []
    }

    func contains(_ offset: Int) -> Bool {
        memberBlocks.contains { $0.byteRange.contains(offset) } && !nestedRanges.contains { $0.contains(offset) }
    }

    /// Every class, struct and actor in the file, nested ones included.
    static func all(in tree: SourceFileSyntax) -> [SwiftTypeMembers] {
        final class Collector: SyntaxVisitor {
            var types: [SwiftTypeMembers] = []
            var extensions: [String: [MemberBlockSyntax]] = [:]
            init() { super.init(viewMode: .sourceAccurate) }

            func add(_ name: TokenSyntax, _ decl: some DeclSyntaxProtocol, _ block: MemberBlockSyntax) {
                let nested = block.members.compactMap { item -> Range<Int>? in
                    let d = item.decl
                    return d.is(ClassDeclSyntax.self) || d.is(StructDeclSyntax.self) || d.is(ActorDeclSyntax.self)
                        || d.is(EnumDeclSyntax.self) || d.is(ExtensionDeclSyntax.self) ? d.byteRange : nil
                }
                types.append(
                    SwiftTypeMembers(
                        name: name, declaration: DeclSyntax(decl), memberBlocks: [block], nestedRanges: nested))
            }
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
                add(node.name, node, node.memberBlock); return .visitChildren
            }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
                add(node.name, node, node.memberBlock); return .visitChildren
            }
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
                add(node.name, node, node.memberBlock); return .visitChildren
            }
            override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
                extensions[node.extendedType.trimmedDescription, default: []].append(node.memberBlock)
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.types.map { type in
            var t = type
            t.memberBlocks += collector.extensions[type.name.text] ?? []
            return t
        }
    }
}

extension VariableDeclSyntax {
    func hasModifier(_ names: Set<String>) -> Bool { modifiers.contains { names.contains($0.name.text) } }

    /// A stored instance property: no getter, not static or class.
    var isStored: Bool {
        guard !hasModifier(["static", "class"]) else { return false }
        return bindings.allSatisfy { binding in
            guard let accessors = binding.accessorBlock else { return true }
            if case let .accessors(list) = accessors.accessors {
                return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
            }
            return false
        }
    }

    var names: [TokenSyntax] { bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier } }
}

extension ClosureExprSyntax {
    /// `{ … }()`: runs where it is written.
    var isImmediatelyCalled: Bool {
        guard let call = parent?.as(FunctionCallExprSyntax.self) else { return false }
        return call.calledExpression.id == id
    }
}

/// Closures under `node` that are stored or passed on rather than run in place.
func deferredClosureRanges(in node: some SyntaxProtocol) -> [Range<Int>] {
    let collector = DeferredClosures()
    collector.walk(node)
    return collector.ranges
}

private final class DeferredClosures: SyntaxVisitor {
    var ranges: [Range<Int>] = []
    init() { super.init(viewMode: .sourceAccurate) }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        if node.isImmediatelyCalled { return .visitChildren }
        ranges.append(node.byteRange)
        return .skipChildren
    }
}

extension Assignment {
    /// Every `lhs = rhs` under `node` (swift-syntax leaves operators unfolded: a sequence
    /// expression whose second element is `=`), in source order.
    static func all(in node: some SyntaxProtocol) -> [Assignment] {
        let collector = Assignments()
        collector.walk(node)
        return collector.found
    }

    init(lhs: ExprSyntax, rhs: ExprSyntax) {
        let value = rhs.as(DeclReferenceExprSyntax.self)?.baseName.text
        if let ref = lhs.as(DeclReferenceExprSyntax.self) {
            self.init(
                name: ref.baseName.text, isMember: false, base: nil, offset: lhs.startOffset,
                nameOffset: lhs.startOffset, valueName: value)
        } else if let member = lhs.as(MemberAccessExprSyntax.self) {
            self.init(
                name: member.declName.baseName.text, isMember: true, base: member.base?.trimmedDescription,
                offset: lhs.startOffset, nameOffset: member.declName.startOffset, valueName: value)
        } else {
            self.init(
                name: nil, isMember: false, base: nil, offset: lhs.startOffset, nameOffset: lhs.startOffset,
                valueName: value)
        }
    }
}

private final class Assignments: SyntaxVisitor {
    var found: [Assignment] = []
    init() { super.init(viewMode: .sourceAccurate) }
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) {
            found.append(Assignment(lhs: elements[0], rhs: elements[2]))
        }
        return .visitChildren
    }
}

extension SyntaxProtocol {
    /// The name of the closest enclosing class, struct, actor or enum, or of the type an
    /// enclosing extension extends.
    var enclosingTypeName: String? {
        var node = parent
        while let n = node {
            if let d = n.as(ExtensionDeclSyntax.self) { return d.extendedType.trimmedDescription }
            if let d = n.as(ClassDeclSyntax.self) { return d.name.text }
            if let d = n.as(StructDeclSyntax.self) { return d.name.text }
            if let d = n.as(ActorDeclSyntax.self) { return d.name.text }
            if let d = n.as(EnumDeclSyntax.self) { return d.name.text }
            node = n.parent
        }
        return nil
    }
}
