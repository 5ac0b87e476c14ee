import Foundation

/// The outcome of a run.
public struct LintResult: Sendable {
    public var findings: [Finding]
    /// Files looked at (including those that could not be parsed).
    public var filesChecked: Int
    /// Files parsed by libclang (the rest had no container name in them, came from the cache, or failed).
    public var filesParsed: Int
    public var filesFailed: Int
    /// Files whose outcome came from the incremental cache.
    public var filesCached: Int = 0
    /// Every container and bridge access found, whatever its kind, suppressed or not (for progress reports).
    public var accesses: [AccessRecord] = []
    public var seconds: Double
    /// Baseline entries whose finding is gone (set by `Baseline.apply`).
    public var staleBaselineEntries: [BaselineEntry] = []
    /// Functions reached from crash-time handlers whose bodies were read only partly, from the
    /// tokens (nil when `signal-handler-safety` is off).
    public var handlerFunctionsReadPartly: Int?
    /// With `countServiceInjection`: the types the container vends, by type (`ServiceInjection`).
    public var servicesVended: [String: [ServiceInjection.Vendor]] = [:]

    // Counted by index: a closure over the elements copied each finding (all its strings).
    public var errorCount: Int {
        var n = 0
        for i in findings.indices where findings[i].severity == .error { n += 1 }
        return n
    }

    public var warningCount: Int {
        var n = 0
        for i in findings.indices where findings[i].severity == .warning { n += 1 }
        return n
    }
}

/// What linting one file produced; cacheable, keyed by the file's content and the run's settings.
public struct FileOutcome: Equatable, Sendable {
    /// Findings of the file rules, before suppressions.
    var findings: [Finding] = []
    /// Every container and bridge access, whatever its kind.
    var accesses: [AccessRecord] = []
    /// Facts for project rules, by rule id.
    var facts: [String: Data] = [:]
    var suppressions = Suppressions()
    var parsed = false
    var failed = false
    /// Set when the outcome was read from the cache rather than computed.
    var fromCache = false

    /// The key of the mark in `facts` (no rule has it) of an outcome whose parse left system
    /// headers' function bodies unparsed: its project-rule facts may lack what those bodies give
    /// (a callee's definition), so a demand-driven run parses the file again in full before a
    /// project rule reads them. Kept in `facts` so that the cache keeps it.
    static let systemBodiesSkippedKey = "parse.system-bodies-skipped"

    var systemBodiesSkipped: Bool {
        get { facts[Self.systemBodiesSkippedKey] != nil }
        set { facts[Self.systemBodiesSkippedKey] = newValue ? Data() : nil }
    }
}

/// Stores file outcomes between runs (see `--cache`).
public protocol OutcomeCache: AnyObject, Sendable {
    /// The outcome stored for the file's current content, if any. `status` is the file's `stat`
    /// data and `content` reads it; a cache that can tell from the first that the file is
    /// unchanged need not call the second.
    func outcome(path: String, status: stat, content: () -> [UInt8]?) -> FileOutcome?
    func store(_ outcome: FileOutcome, path: String, content: [UInt8])
}
