/// `container-access`: every direct access to the container singleton; and `container-fallback`:
/// accesses guarded by the bridge, reported as the `fallback:` phase switch says.
struct ContainerAccessRule: FileRule {
    let id = "container-access"

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        findings(context, severity: severity)
    }

    /// Shared with the Swift front end (`SwiftContainerAccessRule`).
    func findings(_ context: some AccessContext, severity: Severity) -> [Finding] {
        context.accesses.filter { $0.access.kind == .direct }.map { located in
            let a = located.access
            var message = "direct access to container '\(a.accessorExpression)'"
            if let service = a.service { message += " reaching service '\(service)'" }
            if let macro = a.viaMacro { message += " (through macro '\(macro)')" }
            message += "; inject the bridge instead"
            return context.finding(rule: id, offset: located.offset, severity: severity, message: message, access: a)
        }
    }
}

/// `container-fallback`: a container access that runs only when no bridge was injected.
struct ContainerFallbackRule: FileRule {
    let id = "container-fallback"

    func check(_ context: FileContext, severity: Severity) -> [Finding] {
        findings(context, severity: severity)
    }

    /// Shared with the Swift front end.
    func findings(_ context: some AccessContext, severity: Severity) -> [Finding] {
        context.accesses.filter { $0.access.kind == .fallback }.map { located in
            let a = located.access
            var message = "fallback to container '\(a.accessorExpression)'"
            if let service = a.service { message += " for service '\(service)'" }
            message += " when no bridge is set; remove it once every caller injects the bridge"
            return context.finding(rule: id, offset: located.offset, severity: severity, message: message, access: a)
        }
    }
}
