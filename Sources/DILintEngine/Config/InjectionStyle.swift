/// How `di-lint fix` injects a service it moves off the container (`inject:`).
///
/// - `service`: the service itself becomes a dependency of the type (or function) that reads it:
///   a stored property set by an initializer parameter in Swift, an initializer parameter or a
///   property in Objective-C, a parameter or a struct field in C.
/// - `bridge`: every read goes through one bridge facade (`bridge-type:`), as the seeds do it.
public enum InjectionStyle: String, Sendable, CaseIterable {
    case service
    case bridge
}

/// The `inject:` key: one style for the run, or a mapping with a `default` and one style per
/// service (the service as lint names it, such as `tabs` or `dateProvider`).
///
/// ```yaml
/// inject: service
/// # or
/// inject:
///   default: bridge
///   tabs: service
/// ```
public struct InjectionPolicy: Sendable, Equatable {
    /// The style the config names for every service, if it names one.
    public var defaultStyle: InjectionStyle?
    /// Styles named for single services.
    public var perService: [String: InjectionStyle] = [:]

    public init(defaultStyle: InjectionStyle? = nil, perService: [String: InjectionStyle] = [:]) {
        self.defaultStyle = defaultStyle
        self.perService = perService
    }

    static let key = "inject"

    static func parse(_ value: Any) throws -> InjectionPolicy {
        let choices = InjectionStyle.allCases.map(\.rawValue).joined(separator: " or ")
        func style(_ any: Any, _ what: String) throws -> InjectionStyle {
            guard let text = any as? String, let style = InjectionStyle(rawValue: text) else {
                throw ConfigError.invalid("\(what) must be \(choices)")
            }
            return style
        }
        if let map = value as? [String: Any] {
            var policy = InjectionPolicy()
            for (name, entry) in map {
                if name == "default" {
                    policy.defaultStyle = try style(entry, "inject.default")
                } else {
                    guard name.isIdentifier else {
                        throw ConfigError.invalid("inject: '\(name)' is not a service name")
                    }
                    policy.perService[name] = try style(entry, "inject.\(name)")
                }
            }
            return policy
        }
        return InjectionPolicy(defaultStyle: try style(value, "inject"))
    }
}

extension Configuration {
    /// The style `di-lint fix` uses for `service`: the style named for it, else the config's
    /// default, else `bridge` when the config names a bridge type and `service` when it does not.
    public func injectionStyle(forService service: String) -> InjectionStyle {
        if let named = injection.perService[service] { return named }
        if let named = injection.defaultStyle { return named }
        return bridgeTypeIsConfigured ? .bridge : .service
    }
}
