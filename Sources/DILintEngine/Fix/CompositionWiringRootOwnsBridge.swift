import Foundation
import SwiftSyntax

/// `fix --phase wire`: a Swift composition root that reads the container itself OWNS its bridge.
///
/// `inject` gives every Swift type that reads the container a stored `let bridge: T` and a
/// `bridge:` initializer parameter defaulting to the container (the fallback form). For a type
/// the run builds nowhere and that may own the bridge (`FixContext.mayOwnBridge`), no caller in
/// the run can pass one; when wire also finds it composing (it builds, or obtains and starts, a
/// migrated object: wire gives it a group) or the config names it a composition root, the type
/// is the top of the build graph, and the parameter becomes the bridge it owns:
/// - `let bridge: T` → `private let bridge: T = <the parameter's default>` (`private` when no other
///   Swift file of the run names both the type and the bridge) — built once per instance, a
///   stored property: no global, no singleton (P3/P6);
/// - the `bridge:` parameter and the `self.bridge = bridge` statement leave each initializer;
///   the initializer's reads of `bridge` now read the stored property, which is initialized
///   before the body runs (so also before `super.init`).
/// Refused (the manual item stays, with the reason): a parameter that is not the last, the
/// defaults differ, the stored property is not inject's plain `let`, no `self.bridge = bridge`
/// line of its own, a closure of an initializer naming the bridge (it would capture `self`).
struct CompositionWiringRootOwnsBridge {
    let context: FixContext

    /// A type whose initializers take inject's defaulted `bridge:` and that the run builds nowhere.
    struct Candidate {
        var typeName: String
        var initializers: [(file: SwiftFixFile, parameter: FunctionParameterSyntax, decl: InitializerDeclSyntax)]
        /// The item listed when the type does not own its bridge.
        var manual: ManualItem
    }

    /// The edits that make the type own its bridge, with a note; or why not.
    func edits(_ candidate: Candidate) -> Result<([TextEdit], String), SwiftCallerWiring.Unwired> {
        func refuse(_ why: String) -> Result<([TextEdit], String), SwiftCallerWiring.Unwired> {
            .failure(SwiftCallerWiring.Unwired(text: why))
        }
        let bridge = context.bridgeName
        let bridgeType = context.configuration.bridgeType
        guard let each = SwiftRunType.findEach(candidate.typeName, context: context), !each.isEmpty else {
            return refuse("no declaration of it among the run's Swift files")
        }
        let defaults = Set(candidate.initializers.compactMap { $0.parameter.defaultValue?.value.trimmedDescription })
        guard let value = context.configuration.swiftBridgeDefault ?? (defaults.count == 1 ? defaults.first : nil)
        else { return refuse("its initializers build the \(bridge) with different defaults") }
        var edits: [TextEdit] = []
        // the stored property: inject's plain `let bridge: T`, given its value
        // another file naming the type and the bridge as words may read it: then it stays internal
        let simple = SwiftRunType.simpleName(candidate.typeName)
        let others = context.swiftFilesMentioning(simple).filter { path in
            guard !each.contains(where: { $0.file.path == path }) else { return false }
            guard let bytes = context.workspace.bytes(path) else { return true }
            let text = String(decoding: bytes, as: UTF8.self)
            return [simple, bridge].allSatisfy { word in
                text.range(
                    of: "(?<![\\w])\(NSRegularExpression.escapedPattern(for: word))(?![\\w])",
                    options: .regularExpression) != nil
            }
        }
        for type in each {
            guard let property = type.storedProperty(bridge), property.bindingSpecifier.text == "let",
                property.attributes.isEmpty, property.bindings.count == 1, let binding = property.bindings.first,
                binding.initializer == nil,
                binding.typeAnnotation?.type.trimmedDescription == bridgeType
            else { return refuse("its stored '\(bridge)' is not a plain 'let \(bridge): \(bridgeType)'") }
            let annotationEnd = binding.typeAnnotation!.endOffset
            edits.append(
                TextEdit(path: type.file.path, range: annotationEnd..<annotationEnd, replacement: " = \(value)"))
            let access = ["private", "fileprivate", "internal", "public", "package", "open"]
            if others.isEmpty, !property.modifiers.contains(where: { access.contains($0.name.text) }) {
                let at = property.bindingSpecifier.startOffset
                edits.append(TextEdit(path: type.file.path, range: at..<at, replacement: "private "))
            }
        }
        for (file, parameter, decl) in candidate.initializers {
            let parameters = decl.signature.parameterClause.parameters
            guard parameter.id == parameters.last?.id else {
                return refuse("its '\(bridge):' parameter is not the last")
            }
            guard let body = decl.body else { return refuse("an initializer without a body") }
            // the parameter, with the comma before it
            let start: Int
            if let i = parameters.firstIndex(where: { $0.id == parameter.id }), i != parameters.startIndex {
                let previous = parameters[parameters.index(before: i)]
                guard let comma = previous.trailingComma else { return refuse("a parameter list without commas") }
                start = comma.startOffset
            } else {
                start = parameter.startOffset
            }
            edits.append(TextEdit(path: file.path, range: start..<parameter.endOffset, replacement: ""))
            // `self.bridge = bridge`, alone on its lines
            let assignment = body.statements.first { statement in
                statement.item.trimmedDescription.replacingOccurrences(of: " ", with: "")
                    == "self.\(bridge)=\(bridge)"
            }
            guard let assignment, let range = CompositionWiringReceipt.lineRange(of: Syntax(assignment), in: file)
            else { return refuse("no 'self.\(bridge) = \(bridge)' line of its own in its initializer") }
            edits.append(TextEdit(path: file.path, range: range, replacement: ""))
            // a closure naming the bridge would now capture self (before super.init, or implicitly)
            if Self.closureNames(bridge, in: body) {
                return refuse("a closure in its initializer names '\(bridge)'")
            }
        }
        let (line, column) = each[0].file.source.buffer.lineColumn(of: each[0].declaration.startOffset)
        let note =
            "\(context.display(each[0].file.path)):\(line):\(column): note: \(candidate.typeName) owns the \(bridge): the run builds it nowhere and it composes migrated objects, so it builds its \(bridge) once from the container (a stored property) instead of taking '\(bridge):'"
        return .success((edits, note))
    }

    /// Whether a closure under `node` names `name`.
    private static func closureNames(_ name: String, in node: CodeBlockSyntax) -> Bool {
        final class Finder: SyntaxVisitor {
            let name: String
            var found = false
            init(_ name: String) { self.name = name; super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
                found =
                    found
                    || node.tokens(viewMode: .sourceAccurate).contains {
                        $0.tokenKind == .identifier(name)
                    }
                return .skipChildren
            }
        }
        let finder = Finder(name)
        finder.walk(node)
        return finder.found
    }
}
