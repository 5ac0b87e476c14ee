import Foundation
import RuleFiles

/// A rule option, as documented in its `Rules/` file.
public struct RuleOption: Equatable, Sendable {
    public var name: String
    public var summary: String
    public var defaultValue: String
}

/// A code sample from a rule file; `↓` marks where a triggering example must be reported.
public struct RuleExample: Equatable, Sendable {
    public var code: String
    public var language: SourceLanguage
    /// Extra `.di-lint.yml` text for this example, on top of the rule file's `example-config`.
    public var config: String?
    /// The file name the example is linted as (defaults to `example.<ext>`).
    public var fileName: String?
}

/// A before/after pair of a rule's fix: `before`, linted and fixed with `di-lint fix --phase`,
/// must become `after` byte for byte (the example tests run each one).
public struct RuleFixExample: Equatable, Sendable {
    public var phase: FixPhase
    public var language: SourceLanguage
    public var before: String
    public var after: String
    public var config: String?
    public var fileName: String?
    /// Files written beside the example (name → text), such as the bridge's header.
    public var support: [String: String] = [:]
}

/// Everything a rule file in `Rules/` says about a rule.
public struct RuleDescription: Equatable, Sendable {
    public var id: String
    public var summary: String
    public var rationale: String
    /// The migration pitfall the rule prevents, pointing into `docs/migration-pitfalls.md`.
    public var pitfall: String
    public var defaultSeverity: Severity
    public var options: [RuleOption]
    /// Config every example is linted with.
    public var exampleConfig: String
    public var triggering: [RuleExample]
    public var nonTriggering: [RuleExample]
    /// Before/after pairs of the rule's fix (`fix-examples`), for a rule whose type has a `fix`.
    public var fixExamples: [RuleFixExample] = []

    /// Parses one rule file.
    public static func parse(yaml text: String, source: String) throws -> RuleDescription {
        func fail(_ problem: String) -> ConfigError { .file(path: source, problem: problem) }
        do {
            return try parse(RuleFile(yaml: text), source: source, fail: fail)
        } catch let problem as RuleFile.Problem {
            throw fail(problem.description)
        }
    }

    /// The description of `file` (read by `RuleFile`, as `rule-catalog` reads it).
    private static func parse(_ file: RuleFile, source: String, fail: (String) -> ConfigError) throws -> RuleDescription
    {
        let map = file.map
        func string(_ key: String, required: Bool = true) throws -> String { try file.string(key, required: required) }
        guard let severity = Severity(rawValue: try file.severity) else {
            throw fail("severity must be note, warning or error")
        }
        let options = try file.options.map {
            RuleOption(name: $0.name, summary: $0.summary, defaultValue: $0.defaultValue)
        }
        func examples(_ key: String) throws -> [RuleExample] {
            guard let list = map[key] as? [[String: Any]] else { throw fail("missing '\(key)' examples") }
            return try list.map { e in
                guard let code = e["code"] as? String else { throw fail("\(key): each example needs 'code'") }
                let languageName = (e["language"] as? String) ?? "objective-c"
                guard let language = SourceLanguage(rawValue: languageName) else {
                    throw fail("\(key): unknown language '\(languageName)'")
                }
                return RuleExample(
                    code: code, language: language, config: e["config"] as? String, fileName: e["file"] as? String)
            }
        }
        let fixExamples = try ((map["fix-examples"] as? [[String: Any]]) ?? []).map { e -> RuleFixExample in
            guard let phase = (e["phase"] as? String).flatMap(FixPhase.init(rawValue:)),
                let before = e["before"] as? String,
                let after = e["after"] as? String
            else { throw fail("fix-examples: each needs phase (inject or finish), before and after") }
            let languageName = (e["language"] as? String) ?? "objective-c"
            guard let language = SourceLanguage(rawValue: languageName) else {
                throw fail("fix-examples: unknown language '\(languageName)'")
            }
            return RuleFixExample(
                phase: phase, language: language, before: before, after: after,
                config: e["config"] as? String, fileName: e["file"] as? String,
                support: (e["support"] as? [String: String]) ?? [:])
        }
        var description = RuleDescription(
            id: try string("id"), summary: try string("summary"), rationale: try string("rationale"),
            pitfall: try string("pitfall"), defaultSeverity: severity, options: options,
            exampleConfig: try string("example-config", required: false),
            triggering: try examples("triggering"), nonTriggering: try examples("non-triggering"))
        description.fixExamples = fixExamples
        guard source.hasSuffix("\(description.id).yml") else { throw fail("file name must be '\(description.id).yml'") }
        return description
    }
}

/// The rules this build of di-lint knows, from the `Rules/` files embedded at build time.
public struct RuleCatalog: Sendable {
    public let rules: [RuleDescription]

    public static let shared: RuleCatalog = {
        do {
            return try RuleCatalog(files: EmbeddedRules.files)
        } catch {
            fatalError("embedded Rules/ are invalid (run scripts/generate-rule-catalog): \(error)")
        }
    }()

    /// Parses rule files given as (file name, YAML text).
    public init(files: [(name: String, text: String)]) throws {
        rules = try files.map { try RuleDescription.parse(yaml: $0.text, source: $0.name) }.sorted { $0.id < $1.id }
    }

    public var ids: [String] { rules.map(\.id) }

    public func rule(_ id: String) -> RuleDescription? { rules.first { $0.id == id } }

    /// What a run needs of a rule (default severity, option names) without parsing the rule
    /// files: an index generated beside the embedded files. `RuleCatalogTests` checks it.
    static func indexEntry(_ id: String) -> RuleIndexEntry? { indexByID[id] }

    /// The ids of the embedded rules, sorted, from the index.
    static var knownIDs: [String] { EmbeddedRules.index.map(\.id).sorted() }

    private static let indexByID = Dictionary(uniqueKeysWithValues: EmbeddedRules.index.map { ($0.id, $0) })
}

/// A rule's id, default severity, option names and option defaults (see `RuleCatalog.indexEntry`).
struct RuleIndexEntry: Equatable, Sendable {
    var id: String
    var defaultSeverity: Severity
    var options: [String]
    /// Defaults of the options that declare one, as the rule file writes them.
    var defaults: [String: RuleOptionValue]
}
