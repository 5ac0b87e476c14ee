import SwiftSyntax

/// Fills `Finding.scope`, the declaration a finding is in, which structural fingerprints use.
enum DeclarationScopes {
    /// C-family files: the innermost of the function and method definitions found beside the
    /// file's container accesses that holds each finding.
    static func attach(to findings: inout [Finding], declarations: [EnclosingDeclaration], buffer: SourceBuffer) {
        var seen = Set<Range<Int>>()
        let declarations = declarations.filter { seen.insert($0.range).inserted }
        guard !declarations.isEmpty else { return }
        for i in findings.indices where findings[i].scope == nil {
            let offset = self.offset(of: findings[i], in: buffer)
            findings[i].scope = declarations.filter { $0.range.contains(offset) }
                .min { $0.range.count < $1.range.count }
                .map { d in d.typeName.map { "\($0).\(d.name)" } ?? d.name }
        }
    }

    /// Swift files: the enclosing types and function, initializer, accessor or subscript.
    /// One pass over the tokens, in offset order: `token(at:)` per finding reads each node's
    /// children from the first, quadratic on a long statement list (3,000 findings on one line
    /// took 16 s in a debug build).
    static func attach(to findings: inout [Finding], tree: SourceFileSyntax, buffer: SourceBuffer) {
        let wanted = findings.indices.filter { findings[$0].scope == nil }
            .map { (index: $0, offset: offset(of: findings[$0], in: buffer)) }
            .sorted { $0.offset < $1.offset }
        var w = 0
        for token in tree.tokens(viewMode: .sourceAccurate) where w < wanted.count {
            // the token with its trivia, as token(at:) finds it
            let start = token.position.utf8Offset, end = token.endPosition.utf8Offset
            while w < wanted.count && wanted[w].offset < end {
                if wanted[w].offset >= start { findings[wanted[w].index].scope = scope(of: Syntax(token)) }
                w += 1
            }
        }
    }

    private static func offset(of finding: Finding, in buffer: SourceBuffer) -> Int {
        guard finding.line >= 1, finding.line <= buffer.lineStarts.count else { return 0 }
        return buffer.lineStarts[finding.line - 1] + max(0, finding.column - 1)
    }

    /// `Type.Nested.method(label:other:)`, or nil at the top level.
    static func scope(of node: Syntax) -> String? {
        var parts: [String] = []
        var current: Syntax? = node.parent
        while let n = current {
            if let d = n.as(FunctionDeclSyntax.self) {
                parts.append(d.name.text + "(" + d.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")")
            } else if let d = n.as(InitializerDeclSyntax.self) {
                parts.append("init(" + d.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")")
            } else if n.is(DeinitializerDeclSyntax.self) {
                parts.append("deinit")
            } else if n.is(SubscriptDeclSyntax.self) {
                parts.append("subscript")
            } else if let d = n.as(VariableDeclSyntax.self), n.parent?.is(MemberBlockItemSyntax.self) == true || n.parent?.parent?.parent?.is(SourceFileSyntax.self) == true {
                // a property or a global, not a local
                parts.append(d.bindings.map { $0.pattern.trimmedDescription }.joined(separator: ","))
            } else if n.is(ClassDeclSyntax.self) || n.is(StructDeclSyntax.self) || n.is(EnumDeclSyntax.self)
                        || n.is(ActorDeclSyntax.self) || n.is(ProtocolDeclSyntax.self),
                      let d = n.asProtocol(NamedDeclSyntax.self) {
                parts.append(d.name.text)
            } else if let d = n.as(ExtensionDeclSyntax.self) {
                parts.append(d.extendedType.trimmedDescription)
            }
            current = n.parent
        }
        return parts.isEmpty ? nil : parts.reversed().joined(separator: ".")
    }
}

extension FileModel {
    /// C-family files: the function or method around each finding, from the accesses' scopes.
    func attachScopes(to findings: inout [Finding]) {
        DeclarationScopes.attach(to: &findings, declarations: accesses.compactMap(\.enclosing), buffer: buffer)
    }
}

extension SwiftFileModel {
    func attachScopes(to findings: inout [Finding]) {
        DeclarationScopes.attach(to: &findings, tree: tree, buffer: buffer)
    }
}
