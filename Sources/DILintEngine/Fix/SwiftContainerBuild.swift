import Foundation
import SwiftParser
import SwiftSyntax

/// Where a static builds a bridged type for the container (`static let wrapper = T(…)` in a
/// composition-root type such as `Dependencies`, read by the container's stored property
/// `var wrapper = Dependencies.wrapper`).
struct StaticBuilder {
    let file: SwiftFixFile
    let variable: VariableDeclSyntax
    let call: FunctionCallExprSyntax
    /// The type declaring the static (nil: a global).
    let owner: String?
    let name: String

    var qualified: String { owner.map { "\($0).\(name)" } ?? name }
}

/// `inject` for a type built in a static the container's own initialization reads. A bridge
/// default reading the container would re-enter it while it is being built, so the container
/// builds the type itself, from its own services, on first use:
/// - the container's property that held the static (`var wrapper = Dependencies.wrapper`) becomes
///   `lazy var wrapper = T(…, bridge: <the bridge default with the container read as self>)`;
/// - the container's other stored properties that read the static read `self.wrapper` and become
///   `lazy` too; its methods and computed properties read `self.wrapper`;
/// - the static, read nowhere else in the run, is removed.
/// Only with `swift-callers-in-run: true` (the run holds every reader), the container's type in
/// the run, one property holding the static, and the static's value the call alone. Each
/// property made lazy is noted: it is built on first read now, and Swift's `lazy` is not
/// synchronised.
struct SwiftContainerBuild {
    let context: FixContext

    struct Result {
        var edits: [TextEdit] = []
        var notes: [String] = []
    }

    func plan(_ builder: StaticBuilder, typeName: String) -> Swift.Result<Result, SwiftAccessPlace.Refusal> {
        func refuse(_ why: String) -> Swift.Result<Result, SwiftAccessPlace.Refusal> {
            .failure(
                .manual(
                    .swiftInitializers,
                    "it is built in the initial value of '\(builder.qualified)' at \(place(builder.file, builder.call.startOffset)), "
                        + "which the container's own initialization may read: a bridge default reading the container would re-enter it while it is being built, "
                        + "and the container cannot build it itself: \(why)"))
        }
        guard context.configuration.swiftCallersInRun else {
            return refuse("the run may not hold every reader of the static (swift-callers-in-run: true says it does)")
        }
        guard let owner = builder.owner else { return refuse("a global") }
        guard builder.variable.bindings.count == 1, let value = builder.variable.bindings.first?.initializer?.value,
            Syntax(value).id == Syntax(builder.call).id
        else {
            return refuse("its initial value is more than the call of \(typeName)'s initializer")
        }
        guard builder.call.trailingClosure == nil, builder.call.additionalTrailingClosures.isEmpty,
            builder.call.rightParen != nil
        else {
            return refuse("the call has a trailing closure")
        }
        guard let (container, accessor, declarations) = containerInRun() else {
            return refuse("the container's type is not declared among the run's Swift files")
        }
        let containerType = SwiftRunType.merged(declarations)
        let ownerTypes = SwiftRunType.findEach(owner, context: context) ?? []
        let ownerNames = ownerTypes.reduce(into: Set<String>()) { $0.formUnion($1.memberNames) }
        let bare = BareReferences()
        bare.walk(builder.call.arguments)
        if let name = bare.names.first(where: {
            $0 == "self" || ownerNames.contains($0) || containerType.memberNames.contains($0)
        }) {
            return refuse("its arguments read '\(name)' unqualified, which the container's type would read differently")
        }
        if let objc = objectiveCReader(owner: owner, declarations: ownerTypes, name: builder.name) {
            return refuse("\(context.display(objc)) reads it")
        }

        // every read of the static in the run: in the container's members only
        var alias: (file: SwiftFixFile, variable: VariableDeclSyntax, name: String)?
        var readers: [(file: SwiftFixFile, reference: Syntax, variable: VariableDeclSyntax?)] = []
        for path in context.swiftFilesMentioning(builder.name) {
            guard let file = context.swiftFile(path) else { continue }
            let references = StaticReferences(owner: owner, name: builder.name)
            references.walk(file.source.tree)
            for reference in references.found
            where !(file.path == builder.file.path && builder.variable.byteRange.contains(reference.startOffset)) {
                let at = place(file, reference.startOffset)
                guard
                    containerType.blocks.contains(where: {
                        $0.file.path == file.path && $0.block.byteRange.contains(reference.startOffset)
                    })
                else {
                    return refuse("it is also read at \(at), outside \(container)")
                }
                guard let member = Self.member(around: reference) else {
                    return refuse("it is read at \(at) outside a member")
                }
                if member.modifiersHave(["static", "class"]) {
                    return refuse("a static member of \(container) reads it at \(at)")
                }
                if member.is(InitializerDeclSyntax.self) || member.is(DeinitializerDeclSyntax.self) {
                    return refuse("\(container)'s initializer reads it at \(at)")
                }
                if let variable = member.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                    let binding = variable.bindings.first,
                    binding.accessorBlock == nil, let initial = binding.initializer?.value,
                    initial.byteRange.contains(reference.startOffset)
                {
                    guard variable.bindingSpecifier.text == "var" else {
                        return refuse("the 'let' at \(at) would have to become a lazy var")
                    }
                    if Syntax(initial).id == reference.id {
                        guard alias == nil, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                        else {
                            return refuse("several properties of \(container) hold it")
                        }
                        alias = (file, variable, name)
                    } else {
                        readers.append((file, reference, variable))
                    }
                } else if member.is(VariableDeclSyntax.self)
                    && !(member.as(VariableDeclSyntax.self)?.bindings.contains { $0.accessorBlock != nil } ?? false)
                {
                    return refuse("the property at \(at) has several bindings")
                } else {
                    readers.append((file, reference, nil))
                }
            }
        }
        guard let alias else { return refuse("no stored property of \(container) holds it") }
        guard let bridgeValue = bridgeFromSelf(container: container, accessor: accessor) else {
            return refuse("the bridge default does not parse as an expression")
        }

        var result = Result()
        let arguments = builder.call.arguments
        let callText = builder.file.text(builder.call.startOffset..<builder.call.rightParen!.startOffset)
        let separator = arguments.isEmpty ? "" : (arguments.last?.trailingComma == nil ? ", " : " ")
        let built = callText + separator + "\(context.bridgeName): \(bridgeValue))"
        if let initial = alias.variable.bindings.first?.initializer?.value {
            result.edits.append(TextEdit(path: alias.file.path, range: initial.byteRange, replacement: built))
        }
        var lazied: [(SwiftFixFile, VariableDeclSyntax)] = [(alias.file, alias.variable)]
        for reader in readers {
            result.edits.append(
                TextEdit(path: reader.file.path, range: reader.reference.byteRange, replacement: "self.\(alias.name)"))
            if let variable = reader.variable,
                !lazied.contains(where: { $0.0.path == reader.file.path && $0.1.id == variable.id })
            {
                lazied.append((reader.file, variable))
            }
        }
        for (file, variable) in lazied where !variable.hasModifier(["lazy"]) {
            let at = variable.bindingSpecifier.startOffset
            result.edits.append(TextEdit(path: file.path, range: at..<at, replacement: "lazy "))
            let name = variable.bindings.first?.pattern.trimmedDescription ?? "?"
            result.notes.append(
                "\(place(file, variable.startOffset)): note: \(container).\(name) is lazy now: built on first read"
                    + (variable.id == alias.variable.id
                        ? ", with a bridge from the container's own services" : ", after \(alias.name)")
                    + " (Swift's lazy is not synchronised: guard it if several threads may read it first)")
        }
        result.edits.append(removal(of: builder.variable, in: builder.file))
        result.notes.append(
            "\(place(builder.file, builder.variable.startOffset)): note: '\(builder.qualified)' is removed: \(container).\(alias.name) builds \(typeName) now, and nothing else in the run read it"
        )
        return .success(result)
    }

    /// The configured container whose type the run's Swift files declare, with its accessor.
    private func containerInRun() -> (String, String, [SwiftRunType])? {
        for spec in context.configuration.containers {
            guard case let .member(type, accessor) = spec,
                let declarations = SwiftRunType.findEach(type, context: context),
                !declarations.contains(where: { $0.declaration.is(EnumDeclSyntax.self) })
            else { continue }
            return (type, accessor, declarations)
        }
        return nil
    }

    /// The configured bridge default (else the container itself) with each read of the container
    /// (`Container.shared`, `Container.shared()`, by any accessor configured for the type) spelled
    /// `self`: inside the container, its own instance.
    func bridgeFromSelf(container: String, accessor: String) -> String? {
        let value = BridgeWriter.swiftDefault(container: "\(container).\(accessor)", context)
        let accessors = Set(
            context.configuration.containers.compactMap { spec -> String? in
                if case let .member(type, accessor) = spec, type == container { return accessor }
                return nil
            })
        let prefix = "_ = "
        let tree = Parser.parse(source: prefix + value)
        guard !tree.hasError else { return nil }
        final class Reads: SyntaxVisitor {
            let container: String, accessors: Set<String>
            var ranges: [Range<Int>] = []
            init(_ container: String, _ accessors: Set<String>) {
                self.container = container; self.accessors = accessors
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
                guard accessors.contains(node.declName.baseName.text),
                    node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == container
                else {
                    return .visitChildren
                }
                if let call = node.parent?.as(FunctionCallExprSyntax.self),
                    Syntax(call.calledExpression).id == Syntax(node).id, call.arguments.isEmpty
                {
                    ranges.append(call.byteRange)
                } else {
                    ranges.append(node.byteRange)
                }
                return .skipChildren
            }
        }
        let reads = Reads(container, accessors)
        reads.walk(tree)
        var bytes = Array((prefix + value).utf8)
        for range in reads.ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) {
            bytes.replaceSubrange(range, with: Array("self".utf8))
        }
        return String(decoding: bytes.dropFirst(prefix.utf8.count), as: UTF8.self)
    }

    /// The member declaration of a type that holds the node.
    static func member(around node: Syntax) -> DeclSyntax? {
        var current = node.parent
        while let n = current {
            if n.parent?.is(MemberBlockItemSyntax.self) == true { return n.as(DeclSyntax.self) }
            current = n.parent
        }
        return nil
    }

    /// An Objective-C or C file of the run that reads the static (`[Owner name]`, `Owner.name`,
    /// by its Swift or `@objc` name).
    private func objectiveCReader(owner: String, declarations: [SwiftRunType], name: String) -> String? {
        var owners = [owner]
        for type in declarations {
            for attribute in type.attributes ?? [] {
                let text = attribute.trimmedDescription
                if text.hasPrefix("@objc("), text.hasSuffix(")") { owners.append(String(text.dropFirst(6).dropLast())) }
            }
        }
        let names = owners.map(NSRegularExpression.escapedPattern).joined(separator: "|")
        let member = NSRegularExpression.escapedPattern(for: name)
        let pattern = "\\b(\(names))\\s*\\.\\s*\(member)\\b|\\[\\s*(\(names))\\s+\(member)\\s*\\]"
        return context.runFiles.first { path in
            ["m", "mm", "h", "c"].contains((path as NSString).pathExtension)
                && context.workspace.bytes(path).map {
                    String(decoding: $0, as: UTF8.self).range(of: pattern, options: .regularExpression) != nil
                } == true
        }
    }

    /// The declaration's lines, its comments included, through the end of its last line.
    private func removal(of variable: VariableDeclSyntax, in file: SwiftFixFile) -> TextEdit {
        let bytes = file.bytes
        var start = variable.startOffset
        // back over the comments of its leading trivia, to the start of the first one's line
        var position = variable.position.utf8Offset
        var sawNewline = false
        for piece in variable.leadingTrivia {
            let length = piece.sourceLength.utf8Length
            switch piece {
            case .newlines, .carriageReturns, .carriageReturnLineFeeds: sawNewline = true
            case .lineComment, .blockComment, .docLineComment, .docBlockComment:
                if sawNewline { start = min(start, position) }
            default: break
            }
            if start < variable.startOffset { break }
            position += length
        }
        while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") { start -= 1 }
        var end = variable.endOffset
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        if end < bytes.count { end += 1 }
        return TextEdit(path: file.path, range: start..<end, replacement: "")
    }

    private func place(_ file: SwiftFixFile, _ offset: Int) -> String {
        let (line, column) = file.source.buffer.lineColumn(of: offset)
        return "\(context.display(file.path)):\(line):\(column)"
    }
}

/// `Owner.name` (or `Self.name`, and `name` alone, inside `Owner`).
private final class StaticReferences: SyntaxVisitor {
    let owner: String, name: String
    var found: [Syntax] = []
    init(owner: String, name: String) {
        self.owner = owner; self.name = name
        super.init(viewMode: .sourceAccurate)
    }
    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if node.declName.baseName.text == name, let base = node.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
            base == owner || (base == "Self" && node.enclosingTypeName == owner)
        {
            found.append(Syntax(node))
            return .skipChildren
        }
        return .visitChildren
    }
    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name,
            node.parent?.as(MemberAccessExprSyntax.self).map({ $0.declName.id != node.id }) ?? true,
            node.enclosingTypeName == owner
        {
            found.append(Syntax(node))
        }
        return .visitChildren
    }
}

private extension DeclSyntax {
    func modifiersHave(_ names: Set<String>) -> Bool {
        if let v = self.as(VariableDeclSyntax.self) { return v.hasModifier(names) }
        if let f = self.as(FunctionDeclSyntax.self) { return f.modifiers.contains { names.contains($0.name.text) } }
        if let s = self.as(SubscriptDeclSyntax.self) { return s.modifiers.contains { names.contains($0.name.text) } }
        return false
    }
}
