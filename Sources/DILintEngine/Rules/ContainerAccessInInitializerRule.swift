/// `container-access-in-initializer`: the container reached while an object is being built
/// (Objective-C `-init…` methods, C++ constructors, Swift `init` bodies and stored-property
/// initial values). Blocks, lambdas and closures created there run later and are left out.
struct ContainerAccessInInitializerRule: FileRule {
    static let id = "container-access-in-initializer"

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        file.constructionAccesses.map { c in
            let advice =
                file.language == .swift
                ? "take the dependency as an init parameter instead"
                : "pass the dependency in (or read it from the injected bridge) instead of reaching for the container while the object is built"
            return file.finding(
                rule: id, offset: c.access.offset, severity: severity,
                message: "container access '\(c.access.access.expression)' in \(c.place): \(advice)",
                access: c.access.access)
        }
    }
}
