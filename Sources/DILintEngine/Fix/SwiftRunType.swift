import SwiftSyntax

/// A Swift class, struct or actor of the run: its one declaration and its extensions in the
/// run's files, with what constructor injection needs to know of its members.
struct SwiftRunType {
    /// The qualified name (`Outer.Inner` for a nested type).
    let name: String
    /// The last component of the name, as the type's own declaration and its callers inside its
    /// outer type spell it.
    var simpleName: String { Self.simpleName(name) }
    /// The declaring file.
    let file: SwiftFixFile
    let declaration: DeclSyntax
    /// The declaration's member block first, then each extension's, with its file.
    let blocks: [(file: SwiftFixFile, block: MemberBlockSyntax)]

    /// The type named `name`, when the run's Swift files declare it exactly once.
    static func find(_ name: String, context: FixContext) -> SwiftRunType? {
        guard let each = findEach(name, context: context), each.count == 1 else { return nil }
        return each[0]
    }

    /// The type named `name` as declared once, or once per clause of one `#if` (`#if X class T {…}
    /// #else class T {…} #endif`): one value per declaration, each with its own member block first
    /// and then every extension's. Nil when the run declares it otherwise (not at all, twice in one
    /// build configuration, in nested or different `#if`s, in several files).
    /// A type is named by its qualified name (`LargeOmniBarState.HomeEmptyEditingState`), so two
    /// nested types of one simple name in different outer types are two types; a simple name
    /// that names no top-level type finds a nested type of that name (when there is one).
    static func findEach(_ name: String, context: FixContext) -> [SwiftRunType]? {
        var declarations: [(SwiftFixFile, DeclSyntax, MemberBlockSyntax)] = []
        var extensions: [(file: SwiftFixFile, block: MemberBlockSyntax)] = []
        for bySimpleName in name.contains(".") ? [false] : [false, true] where declarations.isEmpty {
            extensions = []
            for path in context.swiftFilesMentioning(simpleName(name)) {
                guard let file = context.swiftFile(path) else { continue }
                let collector = TypeDeclarations(name: name, bySimpleName: bySimpleName)
                collector.walk(file.source.tree)
                declarations += collector.declarations.map { (file, $0.0, $0.1) }
                extensions += collector.extensions.map { (file, $0) }
            }
        }
        guard !declarations.isEmpty else { return nil }
        if declarations.count > 1 {
            // one per clause of the same `#if`, in one file
            let clauses = declarations.map { Self.clause(of: $0.1) }
            guard Set(declarations.map(\.0.path)).count == 1, clauses.allSatisfy({ $0 != nil }),
                Set(clauses.map { $0!.id }).count == clauses.count,
                Set(clauses.map { $0!.parent?.parent?.id }).count == 1
            else { return nil }
        }
        return declarations.map { file, declaration, block in
            SwiftRunType(name: name, file: file, declaration: declaration, blocks: [(file, block)] + extensions)
        }
    }

    static func simpleName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The name a class, struct, actor or enum declaration declares, or an extension extends.
    static func declaredName(_ node: Syntax) -> String? {
        node.asProtocol(DeclGroupSyntax.self).flatMap { SwiftAccessForms.declaredTypeName($0) }
    }

    /// The qualified name of a type declaration or extension: the names of the types (and the
    /// extension) it is nested in, outermost first, then its own (`Outer.Inner`).
    static func qualifiedName(of declaration: Syntax) -> String? {
        guard var name = declaredName(declaration) else { return nil }
        var node = declaration.is(ExtensionDeclSyntax.self) ? nil : declaration.parent
        while let n = node {
            if let outer = declaredName(n) {
                name = outer + "." + name
                if n.is(ExtensionDeclSyntax.self) { break }
            }
            node = n.parent
        }
        return name
    }

    /// The qualified name of the innermost type declaration or extension holding `node`.
    static func enclosingQualifiedName(of node: Syntax) -> String? {
        var current = node.parent
        while let n = current {
            if declaredName(n) != nil { return qualifiedName(of: n) }
            current = n.parent
        }
        return nil
    }

    /// The `#if` clause a declaration is directly in (a statement of it, or a member).
    static func clause(of declaration: DeclSyntax) -> IfConfigClauseSyntax? {
        declaration.parent?.parent?.parent?.as(IfConfigClauseSyntax.self)
    }

    /// One value standing for every clause's declaration: the first's, with all their member blocks.
    static func merged(_ each: [SwiftRunType]) -> SwiftRunType {
        let own = each.map { ($0.file, $0.mainBlock) }
        return SwiftRunType(
            name: each[0].name, file: each[0].file, declaration: each[0].declaration,
            blocks: own + each[0].blocks.dropFirst())
    }

    var mainBlock: MemberBlockSyntax { blocks[0].block }
    var isStruct: Bool { declaration.is(StructDeclSyntax.self) }
    var hasInheritanceClause: Bool { declaration.as(ClassDeclSyntax.self)?.inheritanceClause != nil }
    var attributes: AttributeListSyntax? {
        declaration.as(ClassDeclSyntax.self)?.attributes ?? declaration.as(StructDeclSyntax.self)?.attributes
            ?? declaration.as(ActorDeclSyntax.self)?.attributes
    }

    /// The names in the inheritance clauses of the declaration and its extensions.
    var inheritedNames: [String] {
        var clauses = [
            declaration.as(ClassDeclSyntax.self)?.inheritanceClause,
            declaration.as(StructDeclSyntax.self)?.inheritanceClause,
            declaration.as(ActorDeclSyntax.self)?.inheritanceClause,
        ]
        clauses += blocks.dropFirst().map { $0.block.parent?.as(ExtensionDeclSyntax.self)?.inheritanceClause }
        return clauses.compactMap { $0 }.flatMap { $0.inheritedTypes.map { $0.type.trimmedDescription } }
    }

    /// Visits the protocols named `names`, and those they inherit from, declared in the run's
    /// Swift files or the project's (`--types-from`) (each name once, 64 at most), until `visit` returns true; the name it stopped at.
    @discardableResult
    static func walkProtocols(
        _ names: [String], context: FixContext, _ visit: (String, ProtocolDeclSyntax) -> Bool
    ) -> String? {
        var queue = names, seen = Set<String>()
        while let name = queue.first {
            queue.removeFirst()
            guard seen.insert(name).inserted, seen.count < 64 else { continue }
            for tree in context.declarationTrees(of: name, mentioning: "protocol \(name)") {
                let protocols = Protocols(name: name)
                protocols.walk(tree)
                for decl in protocols.found {
                    if visit(name, decl) { return name }
                    queue += decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
                }
            }
        }
        return nil
    }

    /// The first protocol among `names` (or those they inherit from), declared in the run's Swift
    /// files, that requires an initializer.
    static func protocolRequiringInit(_ names: [String], context: FixContext) -> String? {
        walkProtocols(names, context: context) { _, decl in
            decl.memberBlock.members.contains(where: { $0.decl.is(InitializerDeclSyntax.self) })
        }
    }

    /// The type a protocol among `names` (or those they inherit from), declared in the run's
    /// Swift files, gives its property requirement `property` (`var showClear: Bool { get }`):
    /// the one type they agree on, nil when none declares it or they differ.
    static func protocolPropertyType(_ property: String, in names: [String], context: FixContext) -> String? {
        var types = Set<String>()
        walkProtocols(names, context: context) { _, decl in
            for member in decl.memberBlock.members {
                guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings
                where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == property {
                    if let type = binding.typeAnnotation?.type.trimmedDescription { types.insert(type) }
                }
            }
            return false
        }
        return types.count == 1 ? types.first : nil
    }

    /// Member declarations of every block (those under `#if` included), with the file each is in.
    var members: [(file: SwiftFixFile, decl: DeclSyntax)] {
        blocks.flatMap { entry in Self.flatten(entry.block.members).map { (entry.file, $0) } }
    }

    /// Declarations of a member list, every clause of an `#if` included.
    static func flatten(_ list: MemberBlockItemListSyntax) -> [DeclSyntax] {
        list.flatMap { item -> [DeclSyntax] in
            guard let conditional = item.decl.as(IfConfigDeclSyntax.self) else { return [item.decl] }
            return conditional.clauses.flatMap { clause -> [DeclSyntax] in
                if case let .decls(nested) = clause.elements { return flatten(nested) }
                return []
            }
        }
    }

    /// Initializers that set the stored properties themselves (neither `convenience` nor
    /// delegating to `self.init`), with their files.
    var designatedInitializers: [(file: SwiftFixFile, decl: InitializerDeclSyntax)] {
        members.compactMap { member in
            guard let decl = member.decl.as(InitializerDeclSyntax.self),
                !decl.modifiers.contains(where: { $0.name.text == "convenience" }),
                !(decl.body.map(Self.delegates) ?? false)
            else { return nil }
            return (member.file, decl)
        }
    }

    /// Names of the type's properties, methods and nested types.
    var memberNames: Set<String> {
        var names = Set<String>()
        for (_, decl) in members {
            if let v = decl.as(VariableDeclSyntax.self) { names.formUnion(v.names.map(\.text)) }
            if let f = decl.as(FunctionDeclSyntax.self) { names.insert(f.name.text) }
        }
        return names
    }

    /// The stored property named `name` in the declaration's own block.
    func storedProperty(_ name: String) -> VariableDeclSyntax? {
        mainBlock.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }.first {
            $0.isStored && $0.names.contains { $0.text == name }
        }
    }

    /// Whether a body calls `self.init(…)`.
    static func delegates(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { token in
            token.tokenKind == .keyword(.`init`) && token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period
                && token.previousToken(viewMode: .sourceAccurate)?.previousToken(viewMode: .sourceAccurate)?.tokenKind
                    == .keyword(.self)
        }
    }
}

/// Declarations of one type (class, struct, actor, enum) by its qualified name, or by its simple
/// name at any depth (`bySimpleName`), and its extensions, anywhere in a file.
private final class TypeDeclarations: SyntaxVisitor {
    let name: String
    let bySimpleName: Bool
    var declarations: [(DeclSyntax, MemberBlockSyntax)] = []
    var extensions: [MemberBlockSyntax] = []
    init(name: String, bySimpleName: Bool) {
        self.name = name; self.bySimpleName = bySimpleName; super.init(viewMode: .sourceAccurate)
    }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node, node.memberBlock) }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        add(node.name, node, node.memberBlock)
    }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node, node.memberBlock) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node, node.memberBlock) }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.extendedType.trimmedDescription == name { extensions.append(node.memberBlock) }
        return .visitChildren
    }
    private func add(_ token: TokenSyntax, _ decl: some DeclSyntaxProtocol, _ block: MemberBlockSyntax)
        -> SyntaxVisitorContinueKind
    {
        if bySimpleName ? token.text == name : SwiftRunType.qualifiedName(of: Syntax(decl)) == name {
            declarations.append((DeclSyntax(decl), block))
        }
        return .visitChildren
    }
}

/// Protocol declarations of one name in a file.
private final class Protocols: SyntaxVisitor {
    let name: String
    var found: [ProtocolDeclSyntax] = []
    init(name: String) { self.name = name; super.init(viewMode: .sourceAccurate) }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.name.text == name { found.append(node) }
        return .skipChildren
    }
}

extension SwiftRunType {
    /// The indentation of the type's members, and one level of it (`unit`: what the members add
    /// to the type's own; four spaces when that cannot be seen).
    var memberIndentation: (member: String, unit: String) {
        let typeIndent = file.indentation(at: declaration.startOffset)
        let member = mainBlock.members.first.map { file.indentation(at: $0.decl.startOffset) } ?? typeIndent + "    "
        let unit =
            member.hasPrefix(typeIndent) && member.count > typeIndent.count
            ? String(member.dropFirst(typeIndent.count)) : "    "
        return (member, unit)
    }
}
