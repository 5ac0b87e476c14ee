import SwiftSyntax

/// `swift-bridge-property-injection`: an optional `var bridge` that is filled in after the object
/// exists (by a method, or by whoever created it) instead of being passed to `init`.
struct SwiftBridgePropertyInjectionRule: SwiftFileRule {
    let id = "swift-bridge-property-injection"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        var findings: [Finding] = []
        for type in SwiftTypeMembers.all(in: context.tree) {
            let inits = type.initializers.compactMap(\.body)
            let initAssignments = inits.flatMap { body in
                let later = deferredClosureRanges(in: body)
                return SwiftAssignment.all(in: body).filter { a in !later.contains { $0.contains(a.lhs.startOffset) } }
            }
            let initRanges = inits.map(\.byteRange)
            let allAssignments = type.memberBlocks.flatMap { SwiftAssignment.all(in: $0) }
            for property in type.storedProperties where property.bindingSpecifier.text == "var" {
                for binding in property.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
                          context.isBridgeName(name.text), isOptional(binding) else { continue }
                    let outside = allAssignments.first { a in
                        a.propertyName == name.text && type.contains(a.lhs.startOffset)
                            && !initAssignments.contains { $0.lhs.id == a.lhs.id }
                    }
                    let message: String
                    if let outside {
                        let line = context.file.buffer.lineColumn(of: outside.lhs.startOffset).line
                        let inInit = initRanges.contains { $0.contains(outside.lhs.startOffset) }
                        message = "optional bridge '\(name.text)' is set after init (line \(line)\(inInit ? ", in a closure" : "")): pass the bridge to init and keep it in a 'let'"
                    } else if !initAssignments.contains(where: { $0.propertyName == name.text }) {
                        message = "optional bridge '\(name.text)' is never set by an init of '\(type.name.text)', so someone sets it after init: pass the bridge to init and keep it in a 'let'"
                    } else {
                        continue
                    }
                    findings.append(context.finding(rule: id, offset: name.startOffset, severity: severity, message: message))
                }
            }
        }
        return findings
    }

    private func isOptional(_ binding: PatternBindingSyntax) -> Bool {
        if let type = binding.typeAnnotation?.type {
            return type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
        }
        return binding.initializer?.value.is(NilLiteralExprSyntax.self) == true
    }
}

/// `bridge-weak-reference` for Swift: `weak var bridge`, `unowned let bridge`.
struct SwiftBridgeWeakReferenceRule: SwiftFileRule {
    let id = "bridge-weak-reference"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        final class Collector: SyntaxVisitor {
            var weak: [(DeclModifierSyntax, VariableDeclSyntax)] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                if let m = node.modifiers.first(where: { ["weak", "unowned"].contains($0.name.text) }) { weak.append((m, node)) }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(context.tree)
        return collector.weak.flatMap { modifier, variable in
            variable.names.filter { context.isBridgeName($0.text) }.map { name in
                context.finding(rule: id, offset: modifier.startOffset, severity: severity,
                                message: "bridge property '\(name.text)' is '\(modifier.trimmedDescription)': nothing keeps the bridge alive through it; hold it strongly")
            }
        }
    }
}

/// `bridge-singleton` for Swift: a static or global that creates a bridge
/// (`static let shared = CrashBridge()`).
struct SwiftBridgeSingletonRule: SwiftFileRule {
    let id = "bridge-singleton"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        let words = context.configuration.bridgeNames.map { $0.lowercased() }
        func mentionsBridge(_ s: String) -> Bool { let l = s.lowercased(); return words.contains { l.contains($0) } }
        final class Collector: SyntaxVisitor {
            var candidates: [VariableDeclSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
                let global = node.parent?.is(CodeBlockItemSyntax.self) == true && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
                if global || node.hasModifier(["static", "class"]) { candidates.append(node) }
                return .visitChildren
            }
        }
        let collector = Collector()
        collector.walk(context.tree)
        var findings: [Finding] = []
        for variable in collector.candidates {
            let ownerName = variable.enclosingTypeName ?? ""
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier,
                      let value = binding.initializer?.value,
                      let created = createdType(value, owner: ownerName) else { continue }
                let typeText = binding.typeAnnotation?.type.trimmedDescription ?? ""
                guard mentionsBridge(name.text) || mentionsBridge(created) || mentionsBridge(typeText) else { continue }
                findings.append(context.finding(
                    rule: id, offset: name.startOffset, severity: severity,
                    message: "the bridge is a process-wide singleton: '\(name.text)' creates a '\(created)' once for the whole process; let the integration own the bridge and inject it"))
            }
        }
        return findings
    }

    /// The type an initial value constructs: `T(...)`, `T.init(...)`, `.init(...)`/`Self(...)` in `owner`.
    private func createdType(_ value: ExprSyntax, owner: String) -> String? {
        final class Calls: SyntaxVisitor {
            var called: [ExprSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { called.append(node.calledExpression); return .visitChildren }
        }
        let calls = Calls()
        calls.walk(value)
        for callee in calls.called {
            if let ref = callee.as(DeclReferenceExprSyntax.self) {
                let name = ref.baseName.text
                if name == "Self" { return owner }
                if name.first?.isUppercase == true { return name }
            }
            if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init" {
                return member.base?.trimmedDescription ?? owner
            }
        }
        return nil
    }
}

/// `bridge-injected-after-install` for Swift: `x.install()` then `x.bridge = b` in one body.
struct SwiftBridgeInjectedAfterInstallRule: SwiftFileRule {
    let id = "bridge-injected-after-install"

    func check(_ context: SwiftFileContext, severity: Severity) -> [Finding] {
        let setters = Set(context.configuration.bridgeNames.map { "set" + $0.capitalizedFirst })
        final class Collector: SyntaxVisitor {
            var bodies: [CodeBlockSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { node.body.map { bodies.append($0) }; return .visitChildren }
            override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { node.body.map { bodies.append($0) }; return .visitChildren }
        }
        let collector = Collector()
        collector.walk(context.tree)
        var findings: [Finding] = []
        for body in collector.bodies {
            // (receiver, offset, is install / uninstall / set)
            var events: [(String, Int, String)] = []
            final class Calls: SyntaxVisitor {
                var calls: [FunctionCallExprSyntax] = []
                init() { super.init(viewMode: .sourceAccurate) }
                override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { calls.append(node); return .visitChildren }
                override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            }
            let calls = Calls()
            calls.walk(body)
            for call in calls.calls {
                guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { continue }
                let name = member.declName.baseName.text
                if name == "install" || name == "uninstall" { events.append((base.trimmedDescription, call.startOffset, name)) }
                if setters.contains(name) { events.append((base.trimmedDescription, call.startOffset, "set")) }
            }
            for assignment in SwiftAssignment.all(in: body) {
                guard let member = assignment.lhs.as(MemberAccessExprSyntax.self), let base = member.base,
                      context.isBridgeName(member.declName.baseName.text) else { continue }
                events.append((base.trimmedDescription, assignment.lhs.startOffset, "set"))
            }
            var installedAt: [String: Int] = [:]
            for (receiver, offset, what) in events.sorted(by: { $0.1 < $1.1 }) {
                switch what {
                case "install": if installedAt[receiver] == nil { installedAt[receiver] = offset }
                case "uninstall": installedAt[receiver] = nil
                default:
                    guard let install = installedAt[receiver] else { continue }
                    let line = context.file.buffer.lineColumn(of: install).line
                    findings.append(context.finding(
                        rule: id, offset: offset, severity: severity,
                        message: "bridge set on '\(receiver)' after its install (line \(line)): install already ran without the bridge; inject it before calling install"))
                }
            }
        }
        return findings
    }
}
