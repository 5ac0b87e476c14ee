import Foundation

/// One rule: one type in one file of `Rules/` (this directory), with its YAML (`Rules/<id>.yml` at
/// the package root: summary, rationale, severity, options, examples) and the fixtures that
/// exercise it. `scripts/generate-rule-catalog` lists every type in `RuleRegistry`;
/// `scripts/new-rule ID` writes the three files of a new one.
protocol Rule: Sendable {
    /// The options `rules.<id>` may set in `.di-lint.yml`, typed; defaults come from the YAML.
    associatedtype Options: RuleOptions = NoOptions
    static var id: String { get }
    init()
    /// The `di-lint fix` phase that rewrites this rule's findings (nil: the rule has no fix).
    static var fixPhase: FixPhase? { get }
    /// Plans the edits that fix this rule's findings over a whole run, into `plan`: the place
    /// `di-lint fix` plugs in. A fix may span files (a class's property in its header, its accesses
    /// in each implementation), so it sees the run, not one finding; `Fixer` verifies what it
    /// plans. Plans nothing unless the rule knows a fix that can be trusted.
    func fix(_ run: FixRun, into plan: inout FixPlan)
}

extension Rule {
    var id: String { Self.id }
    static var fixPhase: FixPhase? { nil }
    func fix(_ run: FixRun, into plan: inout FixPlan) {}
}

/// The languages a file rule reads.
enum RuleLanguages: Sendable {
    case cFamily, swift, all

    func includes(_ language: SourceLanguage) -> Bool {
        switch self {
        case .all: return true
        case .swift: return language == .swift
        case .cFamily: return language != .swift
        }
    }
}

/// A rule that looks at one file at a time, through the language-neutral `FileModel`.
protocol FileRule: Rule {
    /// Which files `check` is run on.
    static var languages: RuleLanguages { get }
    func check(_ file: FileModel, options: Options, severity: Severity) -> [Finding]
}

extension FileRule {
    static var languages: RuleLanguages { .all }

    /// The rule with its options decoded once, ready to run on files.
    func bound(to configuration: Configuration, severity: Severity) -> (FileModel) -> [Finding] {
        let options = configuration.options(of: Self.self)
        return { file in Self.languages.includes(file.language) ? check(file, options: options, severity: severity) : []
        }
    }
}

/// A rule that needs the whole run (a call graph across files): it extracts facts from each
/// file on the worker threads, then reports once every file is in.
protocol ProjectRule: Rule {
    /// Facts of one file, encoded so that the incremental cache can keep them. Thread-safe.
    func collect(_ file: FileModel) -> Data?
    /// Findings from the facts of every file. `complete` is false when the run lacks some project
    /// files' facts (`--changed-since`, `--shard` without them in the cache): what is not in the
    /// run may then be defined elsewhere.
    func finish(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool) -> [Finding]
    /// `finish`, with what the rule adds to the run's summary (by default nothing).
    func finishReport(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool)
        -> ProjectRuleReport
}

/// A project rule's findings and its counts for the run's summary.
struct ProjectRuleReport {
    var findings: [Finding]
    /// Functions reached from crash-time handlers whose bodies were read only partly (`signal-handler-safety`).
    var handlerFunctionsReadPartly: Int?
}

extension ProjectRule {
    func finishReport(facts: [(path: String, facts: Data)], options: Options, severity: Severity, complete: Bool)
        -> ProjectRuleReport
    {
        ProjectRuleReport(findings: finish(facts: facts, options: options, severity: severity, complete: complete))
    }

    func finish(facts: [(path: String, facts: Data)], configuration: Configuration, severity: Severity, complete: Bool)
        -> ProjectRuleReport
    {
        finishReport(
            facts: facts, options: configuration.options(of: Self.self), severity: severity, complete: complete)
    }
}

/// A rule the engine reports itself (about files it could not lint, or about directives): a thin
/// type holding its id and its messages.
protocol EngineRule: Rule {}

/// Rule ids the engine reports itself.
enum EngineRuleID {
    static let parseFailure = ParseFailureRule.id
    static let suppressionWithoutReason = SuppressionWithoutReasonRule.id
    static let unusedSuppression = UnusedSuppressionRule.id
}
