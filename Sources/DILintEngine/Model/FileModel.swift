import Foundation

/// One file as every rule sees it, whatever its language: what a front end (`ClangFrontEnd`,
/// `SwiftFrontEnd`) found in it. Rules read this model only; they never call libclang or
/// swift-syntax. A front end supplies what its language has (the defaults are empty), and
/// computes each part when a rule first asks for it.
protocol FileModel: AnyObject {
    /// The path findings carry.
    var displayPath: String { get }
    var language: SourceLanguage { get }
    var buffer: SourceBuffer { get }
    var configuration: Configuration { get }
    /// Comments (suppression directives and annotations live here).
    var comments: [SourceToken] { get }
    /// Container accesses and services read through the bridge, classified (direct, fallback,
    /// injected, composition root), in source order.
    var accesses: [LocatedAccess] { get }
    /// Function, method, initializer and constructor definitions, in source order.
    var scopes: [CodeScope] { get }
    /// Container accesses made while an object is being built (initializers, constructors,
    /// stored-property initial values), deferred closures and blocks left out.
    var constructionAccesses: [ConstructionAccess] { get }
    /// Declarations held with an ownership qualifier (`weak`, `assign`, `__unsafe_unretained`, `unowned`).
    var qualifiedDeclarations: [QualifiedDeclaration] { get }
    /// Statics and globals that create a bridge-like object themselves.
    var singletonCreations: [SingletonCreation] { get }
    /// Assignments (`x = …`, `self.x = …`, `r->bridge = …`), in source order.
    var assignments: [Assignment] { get }
    /// Install, uninstall and set-bridge events, one list per function body, in evaluation order.
    var lifecycleEvents: [[LifecycleEvent]] { get }
    /// `lazy var` initial values.
    var lazyInitializers: [LazyInitializer] { get }
    /// Types with what their initializers take in and the optional bridges set after init.
    var types: [TypeModel] { get }
    /// Call-graph facts for project rules (functions, calls, handler registrations, exports).
    var callGraphFacts: CallGraphFacts? { get }
    /// Fills each finding's enclosing declaration (`Finding.scope`, which baseline fingerprints use).
    func attachScopes(to findings: inout [Finding])
    /// Computes now every part the file rules read that needs the front end's parser, and says
    /// whether the model may then be read from two threads at once: the file rules on one, the
    /// project rules' `collect` (the only user of the parser left) on the other. False (the
    /// default): one thread only.
    func prepareForRulesBesideFacts() -> Bool
}

extension FileModel {
    var scopes: [CodeScope] { [] }
    var constructionAccesses: [ConstructionAccess] { [] }
    var qualifiedDeclarations: [QualifiedDeclaration] { [] }
    var singletonCreations: [SingletonCreation] { [] }
    var assignments: [Assignment] { [] }
    var lifecycleEvents: [[LifecycleEvent]] { [] }
    var lazyInitializers: [LazyInitializer] { [] }
    var types: [TypeModel] { [] }
    var callGraphFacts: CallGraphFacts? { nil }
    func prepareForRulesBesideFacts() -> Bool { false }

    /// A finding at a byte offset of this file.
    func finding(rule: String, offset: Int, severity: Severity, message: String, access: ContainerAccess? = nil)
        -> Finding
    {
        buffer.finding(
            rule: rule, path: displayPath, offset: offset, severity: severity, message: message, access: access)
    }

    func line(of offset: Int) -> Int { buffer.lineColumn(of: offset).line }
}

extension SourceBuffer {
    /// A finding at a byte offset, with the line's text as its snippet.
    func finding(
        rule: String, path: String, offset: Int, severity: Severity, message: String, access: ContainerAccess? = nil
    ) -> Finding {
        let (line, column) = lineColumn(of: offset)
        return Finding(
            rule: rule, path: path, line: line, column: column, severity: severity,
            message: message, access: access, snippet: snippet(line: line, at: offset))
    }
}

/// A container access located in a file, before rules and suppressions apply.
struct LocatedAccess {
    /// Byte offset where the access starts (`[`, the type name, or the function name).
    var offset: Int
    /// Byte range of the whole access expression as far as it is known.
    var range: Range<Int>
    var access: ContainerAccess
    /// Index of the access's first token in the Clang front end's token stream, when it has one.
    var tokenIndex: Int?
    /// The function or method the access is written in, and its type, when known.
    var enclosing: CodeScope?
}

extension ContainerAccess {
    /// A use of the container itself (direct or as a fallback), not a service read through the
    /// bridge nor an access inside the composition root.
    var touchesContainer: Bool { kind == .direct || kind == .fallback }
}

/// A function, method, initializer or constructor definition.
struct CodeScope: Equatable {
    enum Kind: Equatable { case function, objcMethod, cxxMethod, constructor, destructor, swiftInitializer }
    var kind: Kind
    /// Function name or Objective-C selector (`install`, `initWithBridge:`, `Container::Container`).
    var name: String
    /// The class (an Objective-C category's class, a C++ class) the definition belongs to.
    var typeName: String?
    /// The whole definition, in bytes.
    var range: Range<Int>
    /// Where the name is (for reporting).
    var nameOffset: Int

    /// `init`, `init*` Objective-C methods, C++ constructors and Swift initializers.
    var isInitializer: Bool {
        kind == .constructor || kind == .swiftInitializer
            || (kind == .objcMethod
                && (name == "init"
                    || name.hasPrefix("init") && name.dropFirst(4).first.map { $0.isUppercase || $0 == ":" } == true))
    }
}

/// The function-like definition the Clang front end attaches to an access (kept for its users).
typealias EnclosingDeclaration = CodeScope

/// A container access made while an object is being built.
struct ConstructionAccess {
    var access: LocatedAccess
    /// Where: `constructor 'Reporter'`, `initializer '-initWithBridge:'`, `'Store.init'`, `the initial value of …`.
    var place: String
}

/// A declaration with an ownership qualifier.
struct QualifiedDeclaration {
    enum Form { case objcProperty, cVariable, swiftProperty }
    var form: Form
    var name: String
    /// `weak`, `assign`, `unsafe_unretained`, `__weak`, `__unsafe_unretained`, `unowned`, `unowned(unsafe)`.
    var qualifier: String
    /// Where the qualifier is written (findings point there).
    var qualifierOffset: Int
}

/// A static or global that creates its own object.
struct SingletonCreation {
    enum How {
        /// `static B *b = [[B alloc] init];`
        case createdWhereDeclared
        /// `static Bridge bridge;` (C++)
        case cxxObjectAtLoad
        /// `if (!b) b = [[B alloc] init];`
        case createdOnFirstUse
        /// `static let shared = Bridge()`: the created type.
        case swiftStatic(created: String)
    }
    var name: String
    var offset: Int
    var how: How
    /// Whether the creation is inside `dispatch_once`.
    var insideDispatchOnce = false
    /// The function the creation is written in.
    var scope: String?
    /// The declared type and the created type as written (bridge names are matched on them).
    var typeWords: [String] = []
}

/// An assignment `target = value`: of a plain name (`shared = …`), of a member (`self.x = …`,
/// `r->bridge = …`), or of something else (`a[0] = …`), which has no name.
struct Assignment {
    /// The name assigned: the plain name or the member's name.
    var name: String?
    /// Whether the target is a member (`base.name`, `base->name`).
    var isMember: Bool
    /// The object the member belongs to, as written (`self`, `self.crash`, `r`), when known.
    var base: String?
    /// Where the target starts, and where its name is.
    var offset: Int
    var nameOffset: Int
    /// The value's name when the value is a plain name (`x` in `self.y = x`).
    var valueName: String?

    /// The property of the enclosing type assigned: `x` in `x = …` and `self.x = …`.
    var propertyName: String? { isMember ? (base == "self" ? name : nil) : name }
}

/// What happens to an object in a function body, in order.
struct LifecycleEvent {
    enum Kind { case install, uninstall, bridgeSet }
    /// The object, as written (`self.crash`, `reporter`).
    var receiver: String
    var kind: Kind
    /// Where the event is (an install's line; where a bridge set is reported).
    var offset: Int
}

/// A `lazy var` initial value.
struct LazyInitializer {
    var name: String
    var value: Range<Int>
}

/// A type declaration (Swift classes, structs, actors), with its extensions in the file.
struct TypeModel {
    var name: String
    var nameOffset: Int
    /// The type's own member blocks (extensions included, nested types left out).
    var memberRanges: [Range<Int>]
    var nestedRanges: [Range<Int>]
    /// Properties an initializer sets from one of its parameters (`self.x = x`), in order.
    var injectedProperties: [String]
    /// Optional `var` bridges, and how they are set.
    var optionalBridges: [OptionalBridgeProperty]
    /// The default values of its initializers' bridge parameters (`init(bridge: Bridge = …)`):
    /// the Swift transition form, whatever container reads it holds.
    var bridgeDefaults: [Range<Int>] = []

    func contains(_ offset: Int) -> Bool {
        memberRanges.contains { $0.contains(offset) } && !nestedRanges.contains { $0.contains(offset) }
    }
}

/// An optional `var` holding the bridge.
struct OptionalBridgeProperty {
    var name: String
    var offset: Int
    /// The first assignment outside an initializer's own statements: its offset and whether it is in a closure inside an init.
    var setAfterInit: (offset: Int, inInitClosure: Bool)?
    /// Whether some initializer sets it directly.
    var setByInit: Bool
}
