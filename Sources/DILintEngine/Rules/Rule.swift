import Foundation

/// What a rule sees of one file.
struct FileContext {
    let file: ParsedFile
    let displayPath: String
    let configuration: Configuration
    /// Container accesses found in the file (shared by the rules that need them).
    let accesses: [LocatedAccess]

    func finding(rule: String, offset: Int, severity: Severity, message: String, access: ContainerAccess? = nil) -> Finding {
        file.buffer.finding(rule: rule, path: displayPath, offset: offset, severity: severity, message: message, access: access)
    }
}

/// What the container-access rules need from a file, whatever its language.
protocol AccessContext {
    var accesses: [LocatedAccess] { get }
    var configuration: Configuration { get }
    func finding(rule: String, offset: Int, severity: Severity, message: String, access: ContainerAccess?) -> Finding
}

extension FileContext: AccessContext {}
extension SwiftFileContext: AccessContext {}

extension SourceBuffer {
    /// A finding at a byte offset, with the line's text as its snippet.
    func finding(rule: String, path: String, offset: Int, severity: Severity, message: String, access: ContainerAccess? = nil) -> Finding {
        let (line, column) = lineColumn(of: offset)
        return Finding(rule: rule, path: path, line: line, column: column, severity: severity,
                       message: message, access: access, snippet: snippet(line: line, at: offset))
    }
}

/// A rule that looks at one file at a time. Its metadata lives in `Rules/<id>.yml`.
protocol FileRule {
    var id: String { get }
    func check(_ context: FileContext, severity: Severity) -> [Finding]
}

/// A rule that needs the whole run (a call graph across files): it extracts facts from each
/// file on the worker threads, then reports once every file is in.
protocol ProjectRule {
    var id: String { get }
    /// Facts of one file, encoded so that the incremental cache can keep them. Thread-safe.
    func collect(_ context: FileContext) -> Data?
    /// Findings from the facts of every file (`nil` facts are files that gave none). `complete`
    /// is false when the run lacks some project files' facts (`--changed-since`, `--shard`
    /// without them in the cache): what is not in the run may then be defined elsewhere.
    func finish(facts: [(path: String, facts: Data)], configuration: Configuration, severity: Severity, complete: Bool) -> [Finding]
}

/// The file rules this build implements. `RuleCatalogTests` checks they match `Rules/`.
let fileRules: [FileRule] = [
    ContainerAccessRule(),
    ContainerFallbackRule(),
    ContainerAccessInInitializerRule(),
    BridgeInjectedAfterInstallRule(),
    BridgeWeakReferenceRule(),
    BridgeSingletonRule(),
]

/// The Swift rules this build implements (some share their id with a C rule above).
let swiftFileRules: [SwiftFileRule] = [
    SwiftContainerAccessRule(),
    SwiftContainerFallbackRule(),
    SwiftContainerAccessInInitializerRule(),
    SwiftLazyContainerAccessRule(),
    SwiftMixedInjectionRule(),
    SwiftBridgePropertyInjectionRule(),
    SwiftBridgeWeakReferenceRule(),
    SwiftBridgeSingletonRule(),
    SwiftBridgeInjectedAfterInstallRule(),
]

/// The project rules this build implements.
let projectRules: [ProjectRule] = [SignalHandlerSafetyRule()]

/// Rules the engine itself reports (no per-file logic of their own).
enum EngineRuleID {
    static let parseFailure = "parse-failure"
    static let suppressionWithoutReason = "suppression-without-reason"
    static let unusedSuppression = "unused-suppression"
}
