import CLibClang

/// A C, C++ or Objective-C file as the rules see it (`FileModel`), read from libclang's AST and
/// token stream. Each part is computed when a rule first asks for it.
final class ClangFileModel: FileModel {
    let parsed: ParsedFile
    let displayPath: String
    let configuration: Configuration
    /// The accesses as found, before `AccessClassifier` (what the call-graph facts read: they
    /// can be collected while the accesses are classified, on the token stream alone).
    private let found: [LocatedAccess]
    private(set) lazy var accesses: [LocatedAccess] =
        AccessClassifier.classify(found, in: parsed, displayPath: displayPath, configuration: configuration)

    init(parsed: ParsedFile, displayPath: String, configuration: Configuration, finder: ContainerAccessFinder) {
        self.parsed = parsed
        self.displayPath = displayPath
        self.configuration = configuration
        found = finder.find(in: parsed)
    }

    var language: SourceLanguage { parsed.language }
    var buffer: SourceBuffer { parsed.buffer }
    var comments: [SourceToken] { parsed.comments }
    var tokens: TokenCursor { TokenCursor(file: parsed) }
    /// Function, method and constructor definitions, in source order.
    var scopes: [CodeScope] { parsed.scopes }

    private(set) lazy var constructionAccesses: [ConstructionAccess] = {
        let inInit = accesses.filter { $0.access.touchesContainer && $0.enclosing?.isInitializer == true }
        guard !inInit.isEmpty else { return [] }
        let later = deferredBodies + inInit.compactMap(\.enclosing).flatMap { tokens.blockBodies(in: $0.range) }
        return inInit.filter { located in !later.contains { $0.contains(located.offset) } }.map { located in
            let e = located.enclosing!
            return ConstructionAccess(
                access: located,
                place: e.kind == .constructor ? "constructor '\(e.typeName ?? e.name)'" : "initializer '-\(e.name)'")
        }
    }()

    private(set) lazy var qualifiedDeclarations: [QualifiedDeclaration] = ClangOwnership.declarations(tokens)
    private(set) lazy var assignments: [Assignment] = ClangAssignments.all(tokens)
    private(set) lazy var singletonCreations: [SingletonCreation] =
        ClangSingletons(
            t: tokens, scopes: scopes, assignments: assignments, configuration: configuration,
            fileScopeVariables: fileScopeVariables
        ).creations()
    private lazy var fileScopeVariables: [Int] = ClangSingletons.fileScopeVariables(tokens)
    private(set) lazy var lifecycleEvents: [[LifecycleEvent]] = {
        let bridgeSets = ClangLifecycleEvents.bridgeSets(assignments, configuration: configuration)
        let names = ClangLifecycleEvents.Names(configuration: configuration)
        return scopes.map {
            ClangLifecycleEvents.events(tokens, in: tokens.indices(in: $0.range), bridgeSets: bridgeSets, names: names)
        }
    }()
    /// Classifying an access changes its kind only; the facts skip injected accesses, which the
    /// classifier adds: the found ones are the facts' accesses, in the same order.
    private(set) lazy var callGraphFacts: CallGraphFacts? =
        CallGraphExtractor(file: parsed, accesses: found, bridgeNames: configuration.bridgeNames).extract()

    /// libclang serves one thread at a time: what the file rules read through it (the scopes,
    /// the lambda and block bodies when an access is in an initializer, file-scope variables) is
    /// computed here, and the brackets every token scan shares; the rest they read, the accesses'
    /// classification included, is tokens. `callGraphFacts` then has libclang to itself.
    func prepareForRulesBesideFacts() -> Bool {
        _ = parsed.scopes
        _ = parsed.brackets
        if found.contains(where: { $0.enclosing?.isInitializer == true }) { _ = deferredBodies }
        _ = fileScopeVariables
        return true
    }

    /// Lambda and block bodies libclang resolved (the token scan finds blocks it did not).
    private lazy var deferredBodies: [Range<Int>] = {
        final class Box { var ranges: [Range<Int>] = []; let file: ParsedFile; init(_ f: ParsedFile) { file = f } }
        let box = Box(parsed)
        _ = clang_visitChildren(
            clang_getTranslationUnitCursor(parsed.unit),
            { c, _, data in
                let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
                if clang_Location_isFromMainFile(clang_getCursorLocation(c)) == 0 { return CXChildVisit_Continue }
                if c.kind == CXCursor_LambdaExpr || c.kind == CXCursor_BlockExpr,
                    let r = Cursors.offsets(c, in: box.file)
                {
                    box.ranges.append(r)
                    return CXChildVisit_Continue
                }
                return CXChildVisit_Recurse
            }, Unmanaged.passUnretained(box).toOpaque())
        return box.ranges
    }()
}
