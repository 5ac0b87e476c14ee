import Foundation
import Yams

/// One rule file of `Rules/` (`<id>.yml`) as YAML reads it (Yams): the reading di-lint does at
/// run time (`RuleDescription.parse`) and the one `rule-catalog` (scripts/generate-rule-catalog)
/// generates the registry, the embedded index and the README's rule table from, so that the two
/// cannot disagree.
public struct RuleFile {
    /// The file's top-level mapping.
    public let map: [String: Any]

    /// A problem with a rule file, said as "missing 'summary'".
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// An option as the file declares it; `defaultValue` as YAML reads it, written back as text
    /// ("[]", "false"), empty when the option declares no default.
    public struct Option: Equatable {
        public var name: String
        public var summary: String
        public var defaultValue: String
    }

    /// Reads `text`; throws a `Problem` unless it is a mapping, what Yams throws on bad YAML.
    public init(yaml text: String) throws {
        guard let map = try Yams.load(yaml: text) as? [String: Any] else {
            throw Problem(description: "a rule file must be a mapping")
        }
        self.map = map
    }

    /// The text under `key`, trimmed; "" when it is absent and not `required`.
    public func string(_ key: String, required: Bool = true) throws -> String {
        if let s = map[key] as? String { return s.trimmingCharacters(in: .whitespacesAndNewlines) }
        if required { throw Problem(description: "missing '\(key)'") }
        return ""
    }

    public var id: String { get throws { try string("id") } }

    /// The default severity as written ("error", "warning", "note"; checked by the caller).
    public var severity: String { get throws { try string("severity") } }

    /// The `options:` list, in the file's order.
    public var options: [Option] {
        get throws {
            try ((map["options"] as? [[String: Any]]) ?? []).map { o in
                guard let name = o["name"] as? String, let summary = o["summary"] as? String else {
                    throw Problem(description: "each option needs name and summary")
                }
                return Option(name: name, summary: summary, defaultValue: o["default"].map { "\($0)" } ?? "")
            }
        }
    }

    /// Whether the file documents a fix (`fix-examples:`).
    public var hasFixExamples: Bool { map["fix-examples"] != nil }
}
