import SwiftSyntax

/// A Swift file's model for the fix's before/after finding comparison, with the container reads
/// in a bridge parameter's default (`bridge: Bridge = Bridge(svc: Container.shared.svc)`, what
/// inject writes with `swift-bridge-default`) left out. That default is the Swift transition form,
/// left to `container-fallback`; the rules that also count container reads (`swift-mixed-injection`)
/// leave out only the bare container as a default, so without this every type given a default
/// that reads services would get a "new" finding from the edit meant to inject it.
final class BridgeDefaultsLeftOut: FileModel {
    private let base: SwiftFileModel
    let accesses: [LocatedAccess]

    init(_ base: SwiftFileModel, source: SwiftSourceFile, bridgeNames: Set<String>) {
        self.base = base
        accesses = base.accesses.filter { located in
            guard located.access.kind == .fallback, let token = source.tree.token(at: AbsolutePosition(utf8Offset: located.range.lowerBound)) else { return true }
            return SwiftFinishPlanner.bridgeParameter(Syntax(token), names: bridgeNames) == nil
        }
    }

    var displayPath: String { base.displayPath }
    var language: SourceLanguage { base.language }
    var buffer: SourceBuffer { base.buffer }
    var configuration: Configuration { base.configuration }
    var comments: [SourceToken] { base.comments }
    var scopes: [CodeScope] { base.scopes }
    var constructionAccesses: [ConstructionAccess] { base.constructionAccesses }
    var qualifiedDeclarations: [QualifiedDeclaration] { base.qualifiedDeclarations }
    var singletonCreations: [SingletonCreation] { base.singletonCreations }
    var assignments: [Assignment] { base.assignments }
    var lifecycleEvents: [[LifecycleEvent]] { base.lifecycleEvents }
    var lazyInitializers: [LazyInitializer] { base.lazyInitializers }
    var types: [TypeModel] { base.types }
    var callGraphFacts: CallGraphFacts? { base.callGraphFacts }
    func attachScopes(to findings: inout [Finding]) { base.attachScopes(to: &findings) }
}
