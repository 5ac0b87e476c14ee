/// A rule option's value as written in `.di-lint.yml` (or in the rule's YAML as its default).
public enum RuleOptionValue: Equatable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    case string(String)
    case list([String])
    case bool(Bool)
    case number(Double)

    public init(stringLiteral value: String) { self = .string(value) }

    public var description: String {
        switch self {
        case let .string(s): return s
        case let .list(items): return "[" + items.joined(separator: ", ") + "]"
        case let .bool(b): return b ? "true" : "false"
        case let .number(n): return n == n.rounded() ? String(Int(n)) : String(n)
        }
    }

    /// A YAML scalar or a flow list (`[]`, `[a, b]`), as the rule files write defaults.
    init(defaultText text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("[") && t.hasSuffix("]") {
            self = .list(
                t.dropFirst().dropLast().split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                }.filter { !$0.isEmpty })
        } else if t == "true" || t == "false" {
            self = .bool(t == "true")
        } else if let n = Double(t) {
            self = .number(n)
        } else {
            self = .string(t)
        }
    }
}

import Foundation

/// A rule's typed options, read from `rules.<id>` with the rule's YAML defaults underneath.
protocol RuleOptions: Sendable {
    init(_ options: RuleOptionReader) throws
}

/// For rules without options.
struct NoOptions: RuleOptions {
    init(_ options: RuleOptionReader) throws {}
    init() {}
}

/// Reads a rule's option values by name, checking their types; errors name the option.
struct RuleOptionReader {
    let ruleID: String
    /// Configured values, over the defaults from the rule's YAML.
    let values: [String: RuleOptionValue]
    /// Names the options type asked for (to check them against the rule's YAML).
    final class Log { var names: Set<String> = [] }
    let log: Log?

    init(ruleID: String, configured: [String: RuleOptionValue], log: Log? = nil) {
        self.ruleID = ruleID
        self.log = log
        var values = RuleCatalog.indexEntry(ruleID)?.defaults ?? [:]
        values.merge(configured) { _, new in new }
        self.values = values
    }

    private func problem(_ name: String, _ expected: String) -> ConfigError {
        .invalid("rules.\(ruleID).\(name) must be \(expected), found '\(values[name].map(\.description) ?? "nothing")'")
    }

    /// A list of strings (a single string is a list of one).
    func strings(_ name: String) throws -> [String] {
        log?.names.insert(name)
        switch values[name] {
        case nil: return []
        case let .list(items)?: return items
        case let .string(s)?: return [s]
        default: throw problem(name, "a list of strings")
        }
    }

    func string(_ name: String) throws -> String {
        log?.names.insert(name)
        guard case let .string(s)? = values[name] else { throw problem(name, "a string") }
        return s
    }

    func bool(_ name: String) throws -> Bool {
        log?.names.insert(name)
        guard case let .bool(b)? = values[name] else { throw problem(name, "true or false") }
        return b
    }
}

extension Configuration {
    /// A rule's options as configured, over its YAML defaults. The config was checked when it was
    /// parsed; a value set in code that does not fit falls back to the defaults.
    func options<R: Rule>(of rule: R.Type) -> R.Options {
        if let decoded = try? R.Options(RuleOptionReader(ruleID: R.id, configured: rules[R.id]?.options ?? [:])) {
            return decoded
        }
        return try! R.Options(RuleOptionReader(ruleID: R.id, configured: [:]))
    }
}

extension Rule {
    /// Throws when configured options do not fit the rule's typed `Options` (the error names the option).
    func checkOptions(_ configured: [String: RuleOptionValue]) throws {
        _ = try Options(RuleOptionReader(ruleID: Self.id, configured: configured))
    }

    /// The option names the rule's `Options` reads (with its defaults).
    var optionNamesRead: Set<String> {
        let log = RuleOptionReader.Log()
        _ = try? Options(RuleOptionReader(ruleID: Self.id, configured: [:], log: log))
        return log.names
    }
}

extension RuleRegistry {
    /// Every rule, of every kind.
    static var all: [any Rule] { fileRules as [any Rule] + projectRules as [any Rule] + engineRules as [any Rule] }

    static func rule(id: String) -> (any Rule)? { all.first { $0.id == id } }
}
