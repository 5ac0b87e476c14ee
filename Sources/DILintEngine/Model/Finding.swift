/// How serious a finding is. `error` findings make `di-lint` exit 1.
public enum Severity: String, Codable, Comparable, CaseIterable, Sendable {
    case note, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How a container access relates to the injected bridge (see the migration phases in README).
public enum AccessKind: String, Codable, Sendable {
    /// The container is reached with no bridge in sight.
    case direct
    /// The container is reached only when the injected bridge is absent.
    case fallback
    /// The service is reached through the bridge.
    case injected
    /// The container is touched inside the configured composition root, where the bridge is built.
    case compositionRoot = "composition-root"
}

/// Every container or bridge access of a run, whatever its kind (for `di-lint report`).
public struct AccessRecord: Codable, Equatable, Sendable {
    public var path: String
    public var line: Int
    public var column: Int
    public var access: ContainerAccess
}

/// One direct access to a container singleton, as found in source.
public struct ContainerAccess: Codable, Equatable, Sendable {
    /// The container type (`Container`) or accessor function (`container_shared`).
    public var container: String
    /// The accessor (`sharedInstance`, `shared`, or the function name for C accessors).
    public var accessor: String
    /// The service reached through the container, when the access goes on to one.
    public var service: String?
    /// The macro the access was written in, when it reached the code through one.
    public var viaMacro: String?
    public var kind: AccessKind

    public init(
        container: String, accessor: String, service: String?, viaMacro: String? = nil, kind: AccessKind = .direct
    ) {
        self.container = container
        self.accessor = accessor
        self.service = service
        self.viaMacro = viaMacro
        self.kind = kind
    }

    /// `Container.sharedInstance`, `container_shared()`, a global `g_container` (empty accessor) or
    /// a property wrapper `@Injected`: the accessor without the service.
    public var accessorExpression: String {
        if accessor.isEmpty || accessor.hasPrefix("@") { return accessor.isEmpty ? container : accessor }
        return accessor == container ? "\(container)()" : "\(container).\(accessor)"
    }

    /// `Container.sharedInstance.crashReporter` or `container_shared()->service`.
    public var expression: String {
        let base = accessorExpression
        guard let service else { return base }
        return base + (accessor == container ? "->" : ".") + service
    }
}

/// A single diagnostic produced by a rule.
public struct Finding: Codable, Equatable, Sendable {
    public var rule: String
    public var path: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in bytes (as clang counts).
    public var column: Int
    public var severity: Severity
    public var message: String
    /// Set for container-access findings.
    public var access: ContainerAccess?
    /// The source line, trimmed; used for stable fingerprints.
    public var snippet: String?
    /// The declaration the finding is in (`Type.method`, `function`), when known; fingerprints use it.
    public var scope: String?
    /// Identity that survives line moves (see `Fingerprints`); set after the run, nil before.
    public var fingerprint: String?
    /// Set when a `--baseline` entry matches this finding: known debt, not a new finding.
    public var baselined = false
    /// The verified edits that fix this finding (`lint --fixes`), when `di-lint fix` plans some.
    public var fix: FindingFix?

    public init(
        rule: String, path: String, line: Int, column: Int, severity: Severity,
        message: String, access: ContainerAccess? = nil, snippet: String? = nil
    ) {
        self.rule = rule
        self.path = path
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
        self.access = access
        self.snippet = snippet
    }
}

extension Finding {
    /// Sort order of reports: path, line, column, rule.
    static func ordered(_ a: Finding, _ b: Finding) -> Bool {
        (a.path, a.line, a.column, a.rule) < (b.path, b.line, b.column, b.rule)
    }

    /// Whether `findings` are in report order already: then a stable sort by `ordered` keeps
    /// them as they are, and can be skipped.
    static func inOrder(_ findings: [Finding]) -> Bool {
        for i in findings.indices.dropFirst() where ordered(findings[i], findings[i - 1]) { return false }
        return true
    }
}
