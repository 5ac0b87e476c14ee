import SwiftSyntax

/// `container-access` for Swift files: the same findings, built by the same rule code.
struct SwiftContainerAccessRule: SwiftFileRule {
    let id = "container-access"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        ContainerAccessRule().findings(context, severity: severity)
    }
}

/// `container-fallback` for Swift files.
struct SwiftContainerFallbackRule: SwiftFileRule {
    let id = "container-fallback"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        ContainerFallbackRule().findings(context, severity: severity)
    }
}

/// `container-access-in-initializer` for Swift: accesses in `init` bodies and in the initial
/// values of stored properties (which run as part of every init). Stored closures are left out.
struct SwiftContainerAccessInInitializerRule: SwiftFileRule {
    let id = "container-access-in-initializer"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        let reported = context.accesses.filter(\.access.touchesContainer)
        guard !reported.isEmpty else { return [] }
        var findings: [Finding] = []
        func report(in node: some SyntaxProtocol, _ what: String) {
            let later = deferredClosureRanges(in: node)
            for located in reported where node.byteRange.contains(located.offset) && !later.contains(where: { $0.contains(located.offset) }) {
                findings.append(context.finding(
                    rule: id, offset: located.offset, severity: severity,
                    message: "container access '\(located.access.expression)' in \(what): take the dependency as an init parameter instead",
                    access: located.access))
            }
        }
        for type in SwiftTypeMembers.all(in: context.tree) {
            for initializer in type.initializers {
                if let body = initializer.body { report(in: body, "'\(type.name.text).init'") }
            }
            for property in type.storedProperties where !property.hasModifier(["lazy"]) {
                for binding in property.bindings {
                    guard let value = binding.initializer?.value else { continue }
                    report(in: value, "the initial value of stored property '\(binding.pattern.trimmedDescription)' (it runs in every init of '\(type.name.text)')")
                }
            }
        }
        return findings
    }
}

/// `swift-lazy-container-access`: a `lazy var` whose initial value reads the container.
struct SwiftLazyContainerAccessRule: SwiftFileRule {
    let id = "swift-lazy-container-access"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        guard !context.accesses.isEmpty else { return [] }
        final class Collector: SyntaxVisitor {
            var lazy: [VariableDeclSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                if node.hasModifier(["lazy"]) { lazy.append(node) }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(context.tree)
        var findings: [Finding] = []
        for variable in collector.lazy {
            for binding in variable.bindings {
                guard let value = binding.initializer?.value else { continue }
                for located in context.accesses where value.byteRange.contains(located.offset) && located.access.touchesContainer {
                    findings.append(context.finding(
                        rule: id, offset: located.offset, severity: severity,
                        message: "lazy var '\(binding.pattern.trimmedDescription)' is initialized from the container ('\(located.access.expression)'): the laziness only hides the order dependency; inject the value through init and make it a let",
                        access: located.access))
                }
            }
        }
        return findings
    }
}

/// `swift-mixed-injection`: a type that takes some dependencies through its initializer and
/// still reads others from the container.
struct SwiftMixedInjectionRule: SwiftFileRule {
    let id = "swift-mixed-injection"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        let reached = context.accesses.filter(\.access.touchesContainer)
        guard !reached.isEmpty else { return [] }
        var findings: [Finding] = []
        for type in SwiftTypeMembers.all(in: context.tree) {
            let injected = injectedProperties(type)
            let inType = reached.filter { type.contains($0.offset) }
            guard !injected.isEmpty, let first = inType.first else { continue }
            let line = context.file.buffer.lineColumn(of: first.offset).line
            let more = inType.count > 1 ? " and \(inType.count - 1) more" : ""
            findings.append(context.finding(
                rule: id, offset: type.name.startOffset, severity: severity,
                message: "'\(type.name.text)' takes \(injected.map { "'\($0)'" }.joined(separator: ", ")) through its initializer but also reads the container ('\(first.access.expression)' at line \(line)\(more)): pass those services in through the initializer too"))
        }
        return findings
    }

    /// Properties an initializer sets from one of its parameters (`self.x = x`).
    private func injectedProperties(_ type: SwiftTypeMembers) -> [String] {
        var result: [String] = []
        for initializer in type.initializers {
            guard let body = initializer.body else { continue }
            let parameters = Set(initializer.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            for assignment in SwiftAssignment.all(in: body) {
                guard let property = assignment.propertyName,
                      let value = assignment.rhs.as(DeclReferenceExprSyntax.self), parameters.contains(value.baseName.text),
                      !result.contains(property) else { continue }
                result.append(property)
            }
        }
        return result
    }
}
