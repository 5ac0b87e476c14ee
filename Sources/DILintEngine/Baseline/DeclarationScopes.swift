import SwiftSyntax

/// Fills `Finding.scope`, the declaration a finding is in, which structural fingerprints use.
enum DeclarationScopes {
    /// C-family files: the innermost of the function and method definitions found beside the
    /// file's container accesses that holds each finding (see `innermost`).
    static func attach(to findings: inout [Finding], declarations: [EnclosingDeclaration], buffer: SourceBuffer) {
        var seen = Set<Range<Int>>()
        let declarations = declarations.filter { seen.insert($0.range).inserted }
        guard !declarations.isEmpty else { return }
        let wanted = findings.indices.filter { findings[$0].scope == nil }
        let holders = innermost(declarations.map(\.range), holding: wanted.map { offset(of: findings[$0], in: buffer) })
        for (i, holder) in zip(wanted, holders) {
            findings[i].scope = holder.map { declarations[$0] }.map { d in
                d.typeName.map { "\($0).\(d.name)" } ?? d.name
            }
        }
    }

    /// For each offset, the index of the innermost range that holds it — the shortest, of equal
    /// ones the first — as `ranges.indices.filter { ranges[$0].contains(offset) }.min { count < count }`
    /// would find, but in one sweep in offset order over the ranges open there: looking through
    /// every range for each offset cost the square of a file of many small functions (on a 4 MB
    /// line of 33,000 functions, this lookup for the accesses and for the findings was a fifth of
    /// the run).
    static func innermost(_ ranges: [Range<Int>], holding offsets: [Int]) -> [Int?] {
        var result = [Int?](repeating: nil, count: offsets.count)
        guard !ranges.isEmpty else { return result }
        let byStart = ranges.indices.sorted { ranges[$0].lowerBound < ranges[$1].lowerBound }
        var next = 0, open: [Int] = []
        for k in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
            let offset = offsets[k]
            while next < byStart.count && ranges[byStart[next]].lowerBound <= offset {
                open.append(byStart[next])
                next += 1
            }
            open.removeAll { ranges[$0].upperBound <= offset }
            var best: Int?
            for r in open where ranges[r].contains(offset) {
                if let b = best, ranges[r].count > ranges[b].count || (ranges[r].count == ranges[b].count && r > b) {
                    continue
                }
                best = r
            }
            result[k] = best
        }
        return result
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
                parts.append(
                    d.name.text + "(" + d.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined()
                        + ")")
            } else if let d = n.as(InitializerDeclSyntax.self) {
                parts.append(
                    "init(" + d.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")")
            } else if n.is(DeinitializerDeclSyntax.self) {
                parts.append("deinit")
            } else if n.is(SubscriptDeclSyntax.self) {
                parts.append("subscript")
            } else if let d = n.as(VariableDeclSyntax.self),
                n.parent?.is(MemberBlockItemSyntax.self) == true
                    || n.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
            {
                // a property or a global, not a local
                parts.append(d.bindings.map { $0.pattern.trimmedDescription }.joined(separator: ","))
            } else if n.is(ClassDeclSyntax.self) || n.is(StructDeclSyntax.self) || n.is(EnumDeclSyntax.self)
                || n.is(ActorDeclSyntax.self) || n.is(ProtocolDeclSyntax.self),
                let d = n.asProtocol(NamedDeclSyntax.self)
            {
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
