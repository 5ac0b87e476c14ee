/// `swift-mixed-injection`: a type that takes some dependencies through its initializer and
/// still reads others from the container.
struct SwiftMixedInjectionRule: FileRule {
    static let id = "swift-mixed-injection"
    static let languages = RuleLanguages.swift

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        let reached = file.accesses.filter(\.access.touchesContainer)
        guard !reached.isEmpty else { return [] }
        var findings: [Finding] = []
        for type in file.types {
            // the bridge's default (`bridge: Bridge = Container.shared`, or a bridge built from the
            // container's services) is the bridge's own transition form, left to container-fallback
            let inType = reached.filter { a in
                type.contains(a.offset) && !(a.access.kind == .fallback && a.access.service == nil)
                    && !type.bridgeDefaults.contains { $0.contains(a.offset) }
            }
            guard !type.injectedProperties.isEmpty, let first = inType.first else { continue }
            let more = inType.count > 1 ? " and \(inType.count - 1) more" : ""
            findings.append(
                file.finding(
                    rule: id, offset: type.nameOffset, severity: severity,
                    message:
                        "'\(type.name)' takes \(type.injectedProperties.map { "'\($0)'" }.joined(separator: ", ")) through its initializer but also reads the container ('\(first.access.expression)' at line \(file.line(of: first.offset))\(more)): pass those services in through the initializer too"
                ))
        }
        return findings
    }
}
