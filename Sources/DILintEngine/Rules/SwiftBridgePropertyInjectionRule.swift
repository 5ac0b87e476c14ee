/// `swift-bridge-property-injection`: an optional `var bridge` that is filled in after the object
/// exists (by a method, or by whoever created it) instead of being passed to `init`.
struct SwiftBridgePropertyInjectionRule: FileRule {
    static let id = "swift-bridge-property-injection"
    static let languages = RuleLanguages.swift

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        var findings: [Finding] = []
        for type in file.types {
            for property in type.optionalBridges {
                let message: String
                if let outside = property.setAfterInit {
                    message =
                        "optional bridge '\(property.name)' is set after init (line \(file.line(of: outside.offset))\(outside.inInitClosure ? ", in a closure" : "")): pass the bridge to init and keep it in a 'let'"
                } else if !property.setByInit {
                    message =
                        "optional bridge '\(property.name)' is never set by an init of '\(type.name)', so someone sets it after init: pass the bridge to init and keep it in a 'let'"
                } else {
                    continue
                }
                findings.append(file.finding(rule: id, offset: property.offset, severity: severity, message: message))
            }
        }
        return findings
    }
}
