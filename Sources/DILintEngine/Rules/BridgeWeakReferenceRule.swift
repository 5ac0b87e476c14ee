/// `bridge-weak-reference`: a bridge held by a `weak`, `assign` or `unsafe_unretained` property,
/// a `__weak`/`__unsafe_unretained` variable or ivar, or a Swift `weak`/`unowned` property:
/// nothing keeps the bridge alive.
struct BridgeWeakReferenceRule: FileRule {
    static let id = "bridge-weak-reference"

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        file.qualifiedDeclarations.filter { file.configuration.isBridgeName($0.name) }.map { d in
            let message: String
            switch d.form {
            case .objcProperty:
                message =
                    "bridge property '\(d.name)' is '\(d.qualifier)': nothing owns the bridge through it, so it can go away while the crash reporter still uses it; make it strong"
            case .cVariable:
                message =
                    "'\(d.name)' holds the bridge '\(d.qualifier)': the bridge must be held strongly by whoever uses it at crash-handler install time"
            case .swiftProperty:
                message =
                    "bridge property '\(d.name)' is '\(d.qualifier)': nothing keeps the bridge alive through it; hold it strongly"
            }
            return file.finding(rule: id, offset: d.qualifierOffset, severity: severity, message: message)
        }
    }
}
