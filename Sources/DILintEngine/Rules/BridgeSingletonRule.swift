/// `bridge-singleton`: the bridge kept as a process-wide singleton: a static or global that creates
/// its own bridge (`dispatch_once`, lazy `if (!b) b = [[B alloc] init]`, a C++ static object,
/// Swift `static let shared = Bridge()`). A module static that a setter fills with an injected
/// bridge is fine: only a static that creates its own bridge is reported.
struct BridgeSingletonRule: FileRule {
    static let id = "bridge-singleton"

    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding] {
        file.singletonCreations.map { s in
            var message: String
            switch s.how {
            case let .swiftStatic(created):
                message =
                    "the bridge is a process-wide singleton: '\(s.name)' creates a '\(created)' once for the whole process; let the integration own the bridge and inject it"
            case .createdWhereDeclared, .cxxObjectAtLoad, .createdOnFirstUse:
                let how =
                    switch s.how {
                    case .createdWhereDeclared: "is created where it is declared"
                    case .cxxObjectAtLoad: "is a C++ object constructed at load time"
                    default: "is created on first use"
                    }
                message = "the bridge is a process-wide singleton: static '\(s.name)' \(how)"
                if s.insideDispatchOnce { message += " inside dispatch_once" }
                if let scope = s.scope { message += " (in '\(scope)')" }
                message +=
                    "; let the integration own the bridge and inject it (a module static filled by a setter is fine)"
            }
            return file.finding(rule: id, offset: s.offset, severity: severity, message: message)
        }
    }
}
