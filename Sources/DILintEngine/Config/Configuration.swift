import Foundation
import Yams

/// A configuration problem: bad YAML, an unknown key, a bad value. `di-lint` exits 2 on it.
public enum ConfigError: Error, CustomStringConvertible, Equatable {
    case invalid(String)
    case file(path: String, problem: String)

    public var description: String {
        switch self {
        case let .invalid(message): return message
        case let .file(path, problem): return "\(path): \(problem)"
        }
    }
}

/// Per-rule settings from the `rules:` section.
public struct RuleSettings: Equatable, Sendable {
    public var severity: Severity?
    public var enabled: Bool = true
    /// Rule-specific options, as written (each rule reads them typed, see `RuleOptions`).
    public var options: [String: RuleOptionValue] = [:]
}

/// Where the container may be touched: the composition root that builds the bridge.
public struct CompositionRoot: Equatable, Sendable {
    /// Path globs (relative to the config file's directory).
    public var paths: [String] = []
    /// Functions or methods (`install`, `-[Integration init]` written as `init`).
    public var functions: [String] = []
    /// Types (Objective-C classes, C++ classes) whose methods may touch it.
    public var types: [String] = []
}

/// The fallback phase switch: how accesses guarded by the bridge are treated.
public enum FallbackPolicy: String, Sendable {
    case allow, warn, error
}

/// Everything `.di-lint.yml` can say. Command-line options are merged on top.
public struct Configuration: Sendable {
    public var containers: [ContainerSpec] = []
    /// Properties of a base-class extension or category whose getters read the container (`ambient-properties:`).
    public var ambientProperties: [String] = []
    public var exclude: [String] = []
    public var rules: [String: RuleSettings] = [:]
    /// Extra flags for every libclang parse (`-I`, `-D`).
    public var clangFlags: [String] = []
    /// Map the run's headers by bare name for libclang (`header-map:`, `--[no-]header-map`; see `HeaderMap`).
    /// Off by default: on headerless checkouts it cost 30–40% more time and changed findings both ways (README).
    public var headerMap = false
    /// The map written for this run, when there is one (set by the run, not read from the file).
    public var headerMapFile: HeaderMapFile?
    /// Files larger than this are reported as not parsed.
    public var maxFileSize: Int = 16 << 20
    /// Seconds one file's parse may take in a worker process before it is killed and the file
    /// is a `parse-failure` (`parse-timeout:`; `di-lint lint` parses in worker processes).
    public var parseTimeout: Double = 60
    /// Address-space limit of each parse worker, in MiB (`parse-memory-limit:`).
    public var parseMemoryLimit: Int = 4096
    /// Seconds a whole run may parse for (`run-timeout:`; see `Linter.runTimeout`, `Fixer.runBudget`).
    /// An hour: 60 parse deadlines, and far above any whole run measured (the largest tree in
    /// the README's figures takes minutes); a run of slow files still ends with a report.
    public var runTimeout: Double = 3600
    /// Names of the injected bridge (property, ivar, parameter, global).
    public var bridgeNames: [String] = ["bridge"]
    /// The bridge's type, for the declarations `di-lint fix` adds (`bridge-type:`).
    public var bridgeType: String = "Bridge"
    /// Whether the config names the bridge's type (`bridge-type:`); when it does not, `di-lint
    /// fix` writes the bridge's declarations only where the run declares `Bridge` itself.
    public var bridgeTypeIsConfigured = false
    /// The header declaring the bridge type, imported where `di-lint fix` reads the bridge (`bridge-header:`; default `<bridge-type>.h`).
    public var bridgeHeader: String?
    /// The Swift expression `di-lint fix` gives a Swift bridge parameter as its default, so existing
    /// callers keep compiling (`swift-bridge-default:`; default: the container as the type reads it).
    public var swiftBridgeDefault: String?
    public var fallback: FallbackPolicy = .allow
    public var compositionRoot = CompositionRoot()
    /// `c-bridge-global:`: the file-scope bridge `di-lint fix` may add for C functions (`CBridgeGlobal`).
    public var cBridgeGlobal: CBridgeGlobal?
    /// `swift-callers-in-run: true`: every caller of a migrated Swift type's initializers is in the
    /// run, so `di-lint fix` may change an `@objc` or `public` initializer's signature too.
    public var swiftCallersInRun = false
    /// `bridge-file:`: where `di-lint fix --phase bridge` writes the facade (a path without or
    /// with an extension, relative to the config's folder; nil: beside the accesses).
    public var bridgeFile: String?
    /// `lifecycle:`: the messages before which `fix --phase wire` must set the bridge on a new
    /// object (`[install, start]`); empty: before any other message to it.
    public var lifecycle: [String] = []
    /// `inject:`: how `di-lint fix` injects each service (`InjectionPolicy`, `injectionStyle(forService:)`).
    public var injection = InjectionPolicy()
    /// Set by `di-lint report` (never read from the config file): every Swift file is parsed and
    /// its service-style injected reads are collected (`ServiceInjection`).
    public var countServiceInjection = false
    /// Directory the config was read from; relative globs resolve against it.
    public var baseDirectory: String

    public init(baseDirectory: String = FileManager.default.currentDirectoryPath) {
        self.baseDirectory = baseDirectory
    }

    public static let fileName = ".di-lint.yml"

    /// The scalar types a config uses (booleans, numbers, null); Yams' default adds timestamps,
    /// merge keys and `=`, whose patterns cost more to compile at start-up than the parse itself.
    static let resolver = Resolver.basic.appending(.bool).appending(.int).appending(.float).appending(.null)

    /// Finds `.di-lint.yml` from `directory` upward.
    public static func discover(from directory: String) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// Loads and validates a config file; errors name the file.
    public static func load(path: String) throws -> Configuration {
        let data = try BoundedYAML.read(path: path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError.file(path: path, problem: "not UTF-8 text")
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            return try parse(yaml: text, baseDirectory: base)
        } catch let error as ConfigError {
            throw ConfigError.file(path: path, problem: error.description)
        } catch {
            throw ConfigError.file(path: path, problem: "invalid YAML: \(error)")
        }
    }

    static let topLevelKeys: Set<String> = [
        "containers", "exclude", "rules", "clang-flags", "header-map", "max-file-size",
        "bridge", "fallback", "composition-root", "bridge-type", "bridge-header",
        "swift-bridge-default", "ambient-properties",
        "parse-timeout", "parse-memory-limit", "run-timeout",
    ]

    /// Parses the YAML text of a config.
    public static func parse(yaml text: String, baseDirectory: String) throws -> Configuration {
        var config = Configuration(baseDirectory: baseDirectory)
        guard let loaded = try BoundedYAML.load(yaml: text, Self.resolver) else { return config }
        guard let root = loaded as? [String: Any] else { throw ConfigError.invalid("the top level must be a mapping") }
        if let unknown = Set(root.keys).subtracting(topLevelKeys).subtracting(fixKeys).sorted().first {
            throw ConfigError.invalid(
                "unknown key '\(unknown)' (known: \(topLevelKeys.sorted().joined(separator: ", ")))")
        }
        config.containers = try strings(selectorKeys(root["containers"]), key: "containers").map(
            ContainerSpec.init(parsing:))
        config.exclude = try strings(root["exclude"], key: "exclude")
        config.ambientProperties = try strings(root["ambient-properties"], key: "ambient-properties")
        if let bad = config.ambientProperties.first(where: { !$0.isIdentifier }) {
            throw ConfigError.invalid("ambient-properties: '\(bad)' is not a property name")
        }
        config.clangFlags = try strings(root["clang-flags"], key: "clang-flags")
        if let h = root["header-map"] {
            guard let flag = h as? Bool else { throw ConfigError.invalid("header-map must be true or false") }
            config.headerMap = flag
        }
        if let size = root["max-file-size"] {
            guard let n = size as? Int, n > 0 else {
                throw ConfigError.invalid("max-file-size must be a positive number of bytes")
            }
            config.maxFileSize = n
        }
        if let t = root["parse-timeout"] {
            config.parseTimeout = try parseTimeout(t)
        }
        if let t = root["run-timeout"] {
            config.runTimeout = try runTimeout(t)
        }
        if let m = root["parse-memory-limit"] {
            config.parseMemoryLimit = try parseMemoryLimit(m)
        }
        if root["bridge"] != nil { config.bridgeNames = try strings(root["bridge"], key: "bridge") }
        if let t = root["bridge-type"] {
            guard let name = t as? String,
                name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil
            else {
                throw ConfigError.invalid("bridge-type must be a type name (an identifier)")
            }
            config.bridgeType = name
            config.bridgeTypeIsConfigured = true
        }
        if let h = root["bridge-header"] {
            guard let header = h as? String, !header.isEmpty else {
                throw ConfigError.invalid("bridge-header must be a header path such as CrashBridge.h")
            }
            config.bridgeHeader = header
        }
        if let d = root["swift-bridge-default"] {
            guard let expression = d as? String, !expression.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConfigError.invalid("swift-bridge-default must be a Swift expression such as Container.shared")
            }
            config.swiftBridgeDefault = expression
        }
        if let f = root["fallback"] {
            guard let s = f as? String, let policy = FallbackPolicy(rawValue: s) else {
                throw ConfigError.invalid("fallback must be one of allow, warn, error")
            }
            config.fallback = policy
        }
        if let cr = root["composition-root"] {
            guard let map = cr as? [String: Any] else {
                throw ConfigError.invalid("composition-root must be a mapping")
            }
            if let unknown = Set(map.keys).subtracting(["paths", "functions", "types"]).first {
                throw ConfigError.invalid("composition-root: unknown key '\(unknown)'")
            }
            config.compositionRoot = CompositionRoot(
                paths: try strings(map["paths"], key: "composition-root.paths"),
                functions: try strings(map["functions"], key: "composition-root.functions"),
                types: try strings(map["types"], key: "composition-root.types"))
        }
        if let rules = root["rules"] {
            guard let map = rules as? [String: Any] else {
                throw ConfigError.invalid("rules must be a mapping of rule id to settings")
            }
            for (id, value) in map {
                guard RuleCatalog.indexEntry(id) != nil else {
                    throw ConfigError.invalid(
                        "rules: unknown rule '\(id)' (known: \(RuleCatalog.knownIDs.joined(separator: ", ")))")
                }
                config.rules[id] = try ruleSettings(id: id, value)
            }
        }
        try parseFixKeys(root, into: &config)
        return config
    }

    /// Longest `parse-timeout` (a day): a larger one is a typo.
    static let maxParseTimeout: Double = 86_400

    /// A `parse-timeout` / `--parse-timeout` value: seconds, more than 0 and at most a day.
    public static func parseTimeout(_ value: Any) throws -> Double {
        try seconds(value, key: "parse-timeout", max: maxParseTimeout)
    }

    /// Longest `run-timeout` (a week): a larger one is a typo.
    static let maxRunTimeout: Double = 7 * 86_400

    /// A `run-timeout` / `--run-timeout` value: seconds, more than 0 and at most a week.
    public static func runTimeout(_ value: Any) throws -> Double {
        try seconds(value, key: "run-timeout", max: maxRunTimeout)
    }

    /// A number of seconds above 0 and at most `max` (an integer, a number or their text).
    private static func seconds(_ value: Any, key: String, max: Double) throws -> Double {
        let seconds =
            (value as? Int).map(Double.init) ?? (value as? Double) ?? (value as? String).flatMap { Double($0) }
        guard let seconds, seconds.isFinite, seconds > 0, seconds <= max else {
            throw ConfigError.invalid(
                "\(key) must be a number of seconds above 0 and at most \(Int(max)), not '\(value)'")
        }
        return seconds
    }

    /// A `parse-memory-limit` / `--parse-memory-limit` value: MiB, from 256 (below it libclang and
    /// the Swift runtime do not load) to 1 TiB.
    public static func parseMemoryLimit(_ value: Any) throws -> Int {
        let mib = (value as? Int) ?? (value as? String).flatMap { Int($0) }
        guard let mib, (256...(1 << 20)).contains(mib) else {
            throw ConfigError.invalid("parse-memory-limit must be a number of MiB from 256 to 1048576, not '\(value)'")
        }
        return mib
    }

    static func ruleSettings(id: String, _ value: Any) throws -> RuleSettings {
        var settings = RuleSettings()
        if let flag = value as? Bool { settings.enabled = flag; return settings }
        if let word = value as? String {
            if word == "off" || word == "disabled" { settings.enabled = false; return settings }
            guard let s = Severity(rawValue: word) else {
                throw ConfigError.invalid("rules.\(id): '\(word)' is not a severity (note, warning, error) or off")
            }
            settings.severity = s
            try checkSeverityIsConfigurable(id)
            return settings
        }
        guard let map = value as? [String: Any] else {
            throw ConfigError.invalid("rules.\(id) must be a severity, off, or a mapping")
        }
        for (key, v) in map {
            switch key {
            case "severity":
                guard let s = (v as? String).flatMap(Severity.init(rawValue:)) else {
                    throw ConfigError.invalid("rules.\(id).severity must be note, warning or error")
                }
                settings.severity = s
                try checkSeverityIsConfigurable(id)
            case "enabled":
                guard let b = v as? Bool else { throw ConfigError.invalid("rules.\(id).enabled must be true or false") }
                settings.enabled = b
            default:
                guard let rule = RuleCatalog.indexEntry(id), rule.options.contains(key) else {
                    throw ConfigError.invalid("rules.\(id): unknown option '\(key)'")
                }
                settings.options[key] = try optionValue(v, at: "rules.\(id).\(key)")
            }
        }
        // the rule's typed options must accept what is written
        if let rule = RuleRegistry.rule(id: id) { try rule.checkOptions(settings.options) }
        return settings
    }

    /// `rules.container-fallback: error` would otherwise be read and then ignored: the phase switch decides.
    private static func checkSeverityIsConfigurable(_ id: String) throws {
        guard id == ContainerFallbackRule.id else { return }
        throw ConfigError.invalid(
            "rules.\(id): its severity is the migration phase, set with 'fallback: allow | warn | error' (warn reports at warning, error at error); here only 'off' or 'enabled:' can be set"
        )
    }

    static func optionValue(_ v: Any, at key: String) throws -> RuleOptionValue {
        switch v {
        case let b as Bool: return .bool(b)
        case let n as Int: return .number(Double(n))
        case let n as Double: return .number(n)
        case let s as String: return .string(s)
        case let list as [Any]:
            return .list(
                try list.map {
                    guard $0 is String || $0 is Int || $0 is Double || $0 is Bool else {
                        throw ConfigError.invalid("\(key) must be a list of scalars, found '\($0)'")
                    }
                    return "\($0)"
                })
        default:
            throw ConfigError.invalid("\(key) must be a scalar or a list, found '\(v)'")
        }
    }

    /// An unquoted `- Type.selector:` reads in YAML as a mapping of one key to null: the selector it means.
    static func selectorKeys(_ value: Any?) -> Any? {
        guard let list = value as? [Any] else { return value }
        return list.map { item -> Any in
            guard let map = item as? [AnyHashable: Any], map.count == 1, let key = map.keys.first?.base as? String,
                map.values.first.map({ $0 is NSNull || "\($0)" == "<null>" }) == true
            else { return item }
            return key + ":"
        }
    }

    static func strings(_ value: Any?, key: String) throws -> [String] {
        guard let value else { return [] }
        if let s = value as? String { return [s] }
        guard let list = value as? [Any] else { throw ConfigError.invalid("\(key) must be a list of strings") }
        return try list.map {
            guard let s = $0 as? String else {
                throw ConfigError.invalid("\(key) must be a list of strings, found '\($0)'")
            }
            return s
        }
    }

    /// Effective severity of a rule, or nil when it is turned off.
    public func severity(of ruleID: String) -> Severity? {
        let settings = rules[ruleID]
        if ruleID == ContainerFallbackRule.id {
            // the `fallback:` phase switch decides; `rules.container-fallback: off` still turns it off
            guard settings?.enabled != false else { return nil }
            return ContainerFallbackRule.severity(for: fallback)
        }
        if settings?.enabled == false { return nil }
        return settings?.severity ?? RuleCatalog.indexEntry(ruleID)?.defaultSeverity ?? .warning
    }
}
