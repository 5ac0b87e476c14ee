/// `container-access`: every direct access to the container singleton (C, Objective-C, C++, Swift).
struct ContainerAccessRule: FileRule {
    static let id = "container-access"
    static let fixPhase: FixPhase? = .inject

    /// `inject`: the bridge with a container fallback (Objective-C, C), constructor injection (Swift).
    func fix(_ run: FixRun, into plan: inout FixPlan) {
        InjectPlanner(context: run.context).plan(run.clang, into: &plan)
        SwiftInjectPlanner(context: run.context).plan(run.swift, into: &plan)
    }

    struct Options: RuleOptions {
        /// Swift types whose static members all reach the container (`swift-helper-types`).
        var swiftHelperTypes: [String]
        init(_ options: RuleOptionReader) throws { swiftHelperTypes = try options.strings("swift-helper-types") }
    }

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        file.accesses.filter { $0.access.kind == .direct }.map { located in
            let a = located.access
            var message = "direct access to container '\(a.accessorExpression)'"
            if let service = a.service { message += " reaching service '\(service)'" }
            if let macro = a.viaMacro { message += " (through macro '\(macro)')" }
            message += "; inject the bridge instead"
            return file.finding(rule: id, offset: located.offset, severity: severity, message: message, access: a)
        }
    }
}
