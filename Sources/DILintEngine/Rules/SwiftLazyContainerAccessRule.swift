/// `swift-lazy-container-access`: a `lazy var` whose initial value reads the container.
struct SwiftLazyContainerAccessRule: FileRule {
    static let id = "swift-lazy-container-access"
    static let languages = RuleLanguages.swift

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        guard !file.accesses.isEmpty else { return [] }
        var findings: [Finding] = []
        for lazy in file.lazyInitializers {
            for located in file.accesses where lazy.value.contains(located.offset) && located.access.touchesContainer {
                findings.append(
                    file.finding(
                        rule: id, offset: located.offset, severity: severity,
                        message:
                            "lazy var '\(lazy.name)' is initialized from the container ('\(located.access.expression)'): the laziness only hides the order dependency; inject the value through init and make it a let",
                        access: located.access))
            }
        }
        return findings
    }
}
