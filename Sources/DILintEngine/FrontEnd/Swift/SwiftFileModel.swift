import Foundation
import SwiftSyntax

/// A Swift file as the rules see it (`FileModel`), read from swift-syntax's tree. Each part is
/// computed when a rule first asks for it.
final class SwiftFileModel: FileModel {
    let file: SwiftSourceFile
    let displayPath: String
    let configuration: Configuration
    let accesses: [LocatedAccess]

    init(file: SwiftSourceFile, displayPath: String, configuration: Configuration) {
        self.file = file
        self.displayPath = displayPath
        self.configuration = configuration
        accesses = SwiftContainerAccessFinder(configuration: configuration).find(
            in: file.tree, displayPath: displayPath)
    }

    var language: SourceLanguage { .swift }
    var buffer: SourceBuffer { file.buffer }
    var tree: SourceFileSyntax { file.tree }
    private(set) lazy var comments: [SourceToken] = file.comments
    private(set) lazy var typeMembers: [SwiftTypeMembers] = SwiftTypeMembers.all(in: tree)

    /// Functions and initializers with a body.
    private(set) lazy var scopes: [CodeScope] = {
        final class Collector: SyntaxVisitor {
            var scopes: [CodeScope] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
                if node.body != nil {
                    scopes.append(
                        CodeScope(
                            kind: .function, name: node.name.text, typeName: node.enclosingTypeName,
                            range: node.byteRange, nameOffset: node.name.startOffset))
                }
                return .visitChildren
            }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
                if node.body != nil {
                    scopes.append(
                        CodeScope(
                            kind: .swiftInitializer, name: "init", typeName: node.enclosingTypeName,
                            range: node.byteRange, nameOffset: node.initKeyword.startOffset))
                }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.scopes
    }()

    /// Accesses in `init` bodies and in the initial values of stored properties (which run as part
    /// of every init); stored closures are left out.
    private(set) lazy var constructionAccesses: [ConstructionAccess] = {
        let reported = accesses.filter(\.access.touchesContainer)
        guard !reported.isEmpty else { return [] }
        var found: [ConstructionAccess] = []
        func add(in node: some SyntaxProtocol, _ place: String) {
            let later = deferredClosureRanges(in: node)
            for located in reported
            where node.byteRange.contains(located.offset) && !later.contains(where: { $0.contains(located.offset) }) {
                found.append(ConstructionAccess(access: located, place: place))
            }
        }
        for type in typeMembers {
            for initializer in type.initializers {
                if let body = initializer.body { add(in: body, "'\(type.name.text).init'") }
            }
            for property in type.storedProperties where !property.hasModifier(["lazy"]) {
                for binding in property.bindings {
                    guard let value = binding.initializer?.value else { continue }
                    add(
                        in: value,
                        "the initial value of stored property '\(binding.pattern.trimmedDescription)' (it runs in every init of '\(type.name.text)')"
                    )
                }
            }
        }
        return found
    }()

    /// `weak var bridge`, `unowned let bridge`.
    private(set) lazy var qualifiedDeclarations: [QualifiedDeclaration] = {
        final class Collector: SyntaxVisitor {
            var weak: [(DeclModifierSyntax, VariableDeclSyntax)] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                if let m = node.modifiers.first(where: { ["weak", "unowned"].contains($0.name.text) }) {
                    weak.append((m, node))
                }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.weak.flatMap { modifier, variable in
            variable.names.map { name in
                QualifiedDeclaration(
                    form: .swiftProperty, name: name.text, qualifier: modifier.trimmedDescription,
                    qualifierOffset: modifier.startOffset)
            }
        }
    }()

    private(set) lazy var singletonCreations: [SingletonCreation] = SwiftSingletons.creations(
        in: tree, configuration: configuration)
    private(set) lazy var assignments: [Assignment] = Assignment.all(in: tree)
    private(set) lazy var lifecycleEvents: [[LifecycleEvent]] =
        SwiftLifecycleEvents.events(in: tree, assignments: assignments, configuration: configuration)

    private(set) lazy var lazyInitializers: [LazyInitializer] = {
        final class Collector: SyntaxVisitor {
            var lazy: [VariableDeclSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                if node.hasModifier(["lazy"]) { lazy.append(node) }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.lazy.flatMap { variable in
            variable.bindings.compactMap { binding in
                binding.initializer.map {
                    LazyInitializer(name: binding.pattern.trimmedDescription, value: $0.value.byteRange)
                }
            }
        }
    }()

    private(set) lazy var types: [TypeModel] = typeMembers.map { type in
        var model = TypeModel(
            name: type.name.text, nameOffset: type.name.startOffset, memberRanges: type.memberBlocks.map(\.byteRange),
            nestedRanges: type.nestedRanges, injectedProperties: type.injectedProperties(assignments),
            optionalBridges: type.optionalBridges(configuration, assignments: assignments))
        model.bridgeDefaults = (bridgeParameterDefaults + serviceParameterDefaults).filter {
            model.contains($0.lowerBound)
        }
        return model
    }

    /// The default values of initializer parameters that are a read of a service (`tabs: TabStore =
    /// Container.shared.tabs`, the `service` injection style's transition form, a `fallback`).
    private lazy var serviceParameterDefaults: [Range<Int>] = accesses.compactMap { located in
        guard located.access.kind == .fallback,
            let token = tree.token(at: AbsolutePosition(utf8Offset: located.offset)),
            let parameter = token.enclosing(FunctionParameterSyntax.self),
            let value = parameter.defaultValue?.value, value.byteRange.contains(located.offset)
        else { return nil }
        return value.byteRange
    }

    /// The default values of initializer parameters named as the bridge.
    private lazy var bridgeParameterDefaults: [Range<Int>] = {
        final class Collector: SyntaxVisitor {
            let names: Set<String>
            var ranges: [Range<Int>] = []
            init(names: Set<String>) { self.names = names; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
                for parameter in node.signature.parameterClause.parameters
                where names.contains((parameter.secondName ?? parameter.firstName).text) {
                    if let value = parameter.defaultValue?.value { ranges.append(value.byteRange) }
                }
                return .visitChildren
            }
        }
        let collector = Collector(names: Set(configuration.bridgeNames))
        collector.walk(tree)
        return collector.ranges
    }()

    /// The C names of `@_cdecl` functions: C code calling them calls Swift.
    private(set) lazy var callGraphFacts: CallGraphFacts? = {
        final class Exports: SyntaxVisitor {
            var names: [String] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
                if node.attributeName.trimmedDescription == "_cdecl", let arguments = node.arguments {
                    let name = arguments.trimmedDescription.trimmingCharacters(in: CharacterSet(charactersIn: "\"() "))
                    if !name.isEmpty { names.append(name) }
                }
                return .skipChildren
            }
        }
        let exports = Exports()
        exports.walk(tree)
        guard !exports.names.isEmpty else { return nil }
        return CallGraphFacts(swiftExports: exports.names)
    }()
}
