/// `bridge-injected-after-install`: the bridge is set on an object after `install` was called on
/// it in the same function, so install ran without it (and fell back to the container).
struct BridgeInjectedAfterInstallRule: FileRule {
    static let id = "bridge-injected-after-install"

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        var findings: [Finding] = []
        for body in file.lifecycleEvents {
            var installedAt: [String: Int] = [:]
            for event in body {
                switch event.kind {
                case .install:
                    if installedAt[event.receiver] == nil { installedAt[event.receiver] = event.offset }
                case .uninstall:
                    installedAt[event.receiver] = nil
                case .bridgeSet:
                    guard let install = installedAt[event.receiver] else { continue }
                    findings.append(
                        file.finding(
                            rule: id, offset: event.offset, severity: severity,
                            message:
                                "bridge set on '\(event.receiver)' after its install (line \(file.line(of: install))): install already ran without the bridge; inject it before calling install"
                        ))
                }
            }
        }
        return findings
    }
}
