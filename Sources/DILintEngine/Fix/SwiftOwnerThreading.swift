import SwiftSyntax

/// Phase `finish`, Swift `service` style: a type built in a stored property's initial value
/// (`private let tabs = TabsModel()`) of an owner that holds the service (`let tabStore: TabStore`,
/// set from an initializer parameter) gets the service threaded through the owner's initializers:
/// the property keeps its type and loses its value (`private let tabs: TabsModel`), and each
/// designated initializer builds it right after it sets the service, passing that parameter
/// (`self.tabs = TabsModel(tabStore: tabStore)`).
///
/// Only where that is the same program but for the argument: the value is exactly the call, the
/// property a plain stored `let`/`var` (no attribute, wrapper, `lazy`, `static`, one binding), the
/// call's type written as its callee; every designated initializer (but one that only traps)
/// sets the service from one of its parameters in a top-level statement, and nothing before that
/// statement names the property; no name the call's arguments use is declared in the
/// initializer (it would read something else there); a struct's initializers are all in its own
/// declaration (a new stored property without a value would change a memberwise one).
enum SwiftOwnerThreading {
    struct Threaded {
        /// The edits: the property's value removed, one assignment per initializer.
        var edits: [TextEdit]
        /// What the first initializer passes (the caller's argument, as the summary shows it).
        var argument: String
    }

    /// `call` sits in `variable`'s initial value in `owner`, whose stored `held` is the service;
    /// `withArgument` gives the call's text with the new argument spelled `argument`.
    static func thread(
        call: FunctionCallExprSyntax, in file: SwiftFixFile, variable: VariableDeclSyntax, owner: SwiftRunType,
        held: String, withArgument: (String) -> String
    ) -> Result<Threaded, SwiftCallerWiring.Unwired> {
        func refuse(_ why: String) -> Result<Threaded, SwiftCallerWiring.Unwired> {
            .failure(SwiftCallerWiring.Unwired(text: "a stored property's initial value in \(owner.name): \(why)"))
        }
        guard variable.attributes.isEmpty, !variable.hasModifier(["lazy", "static", "class"]),
            variable.bindings.count == 1, let binding = variable.bindings.first, binding.accessorBlock == nil,
            let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let initializer = binding.initializer, initializer.value.id == ExprSyntax(call).id
        else { return refuse("not a plain stored property whose value is the call") }
        guard owner.mainBlock.members.contains(where: { $0.decl.id == DeclSyntax(variable).id }) else {
            return refuse("the property is not in the type's own declaration")
        }
        let typeText: String
        if let annotation = binding.typeAnnotation {
            typeText = annotation.type.trimmedDescription
        } else {
            let callee = call.calledExpression.trimmedDescription
            guard
                callee.split(separator: ".").allSatisfy({ part in
                    part.first?.isUppercase == true && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                })
            else { return refuse("the type of '\(property)' is not written and the call does not name it") }
            typeText = callee
        }
        let designated = owner.designatedInitializers.filter { !SwiftServiceInjectPlanner.onlyTraps($0.decl) }
        guard !designated.isEmpty else { return refuse("it has no initializer to build '\(property)' in") }
        if owner.isStruct,
            designated.contains(where: { d in
                d.file.path != owner.file.path || !owner.mainBlock.byteRange.contains(d.decl.position.utf8Offset)
            })
        {
            return refuse("an initializer outside the struct's declaration (its memberwise initializer would change)")
        }
        // names the call's arguments use, which an initializer must not declare
        let used = Set(
            call.arguments.flatMap { $0.expression.tokens(viewMode: .sourceAccurate) }.compactMap { token in
                if case .identifier = token.tokenKind { return token.text }
                return nil
            })
        var edits: [TextEdit] = []
        var first: String?
        for (initFile, decl) in designated {
            guard let body = decl.body else { return refuse("an initializer without a body") }
            let parameters = decl.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
            if let shadow = used.sorted().first(where: { SwiftCallerWiring.declares($0, in: Syntax(decl)) }) {
                return refuse("an initializer declares '\(shadow)', which the call's arguments read")
            }
            // the top-level statement that sets the service from a parameter
            var setting: (statement: CodeBlockItemSyntax, parameter: String)?
            for statement in body.statements {
                let text = statement.item.trimmedDescription
                for prefix in ["self.\(held)", held] {
                    guard text.hasPrefix(prefix) else { continue }
                    let rest = text.dropFirst(prefix.count).drop { $0 == " " }
                    guard rest.first == "=" else { continue }
                    let value = rest.dropFirst().trimmingCharacters(in: .whitespaces)
                    if parameters.contains(value) { setting = (statement, value) }
                }
                if setting != nil { break }
                if statement.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == property }) {
                    return refuse("an initializer names '\(property)' before it sets '\(held)'")
                }
            }
            guard let setting else {
                return refuse("an initializer does not set '\(held)' from one of its parameters")
            }
            let at = setting.statement.endPositionBeforeTrailingTrivia.utf8Offset
            let indent = initFile.indentation(at: setting.statement.positionAfterSkippingLeadingTrivia.utf8Offset)
            edits.append(
                TextEdit(
                    path: initFile.path, range: at..<at,
                    replacement: initFile.newline + indent + "self.\(property) = " + withArgument(setting.parameter)))
            first = first ?? setting.parameter
        }
        // `= T(…)` → `: T` (or the annotation alone)
        let start =
            binding.typeAnnotation?.endPositionBeforeTrailingTrivia.utf8Offset
            ?? binding.pattern.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(
            TextEdit(
                path: file.path, range: start..<initializer.endPositionBeforeTrailingTrivia.utf8Offset,
                replacement: binding.typeAnnotation == nil ? ": \(typeText)" : ""))
        return .success(Threaded(edits: edits, argument: first!))
    }
}
