/// `container-access`: every direct access to the container singleton.
struct ContainerAccessRule: FileRule {
    let id = "container-access"

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        findings(context, severity: severity)
    }

    /// Shared with the Swift front end (`SwiftContainerAccessRule`).
    func findings(_ context: some AccessContext, severity: Severity) -> [Finding] {
        context.accesses.filter { $0.access.kind == .direct }.map { located in
            let a = located.access
            var message = "direct access to container '\(a.container)\(a.accessor == a.container ? "()" : "." + a.accessor)'"
            if let service = a.service { message += " reaching service '\(service)'" }
            if let macro = a.viaMacro { message += " (through macro '\(macro)')" }
            message += "; inject the bridge instead"
            return context.finding(rule: id, offset: located.offset, severity: severity, message: message, access: a)
        }
    }
}
