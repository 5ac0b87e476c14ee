import CLibClang
import Foundation

/// The outcome of a run.
public struct LintResult: Sendable {
    public var findings: [Finding]
    /// Files looked at (including those that could not be parsed).
    public var filesChecked: Int
    /// Files parsed by libclang (the rest had no container name in them, or failed).
    public var filesParsed: Int
    public var filesFailed: Int
    public var seconds: Double

    public var errorCount: Int { findings.filter { $0.severity == .error }.count }
    public var warningCount: Int { findings.filter { $0.severity == .warning }.count }
}

/// Runs the rules over files, in parallel, with one libclang index per worker thread.
public final class Linter: @unchecked Sendable {
    public let configuration: Configuration
    /// Parse every file even when its text names no container (slower; for checking the pre-filter).
    public var parseEveryFile = false
    /// Worker threads.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Per-file compile arguments from a compilation database, by absolute path.
    public var compileArguments: [String: [String]] = [:]

    private let finder: ContainerAccessFinder

    public init(configuration: Configuration) {
        self.configuration = configuration
        finder = ContainerAccessFinder(specs: configuration.containers)
    }

    /// Lints the given files (see `FileCollector` to turn paths into files).
    public func lint(files: [String]) -> LintResult {
        let start = Date()
        let queue = WorkQueue(count: files.count)
        let workers = max(1, min(jobs, files.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread { [self] in
                let parser = ClangParser()
                while let i = queue.take() {
                    queue.store(lintOne(files[i], parser: parser), at: i)
                }
                group.leave()
            }
            thread.stackSize = 16 << 20 // deep ASTs recurse in libclang's visitor
            thread.start()
        }
        group.wait()
        let outcomes = queue.results
        let all = outcomes.compactMap { $0 }
        return LintResult(findings: all.flatMap(\.findings).sorted(by: Finding.ordered),
                          filesChecked: files.count,
                          filesParsed: all.filter(\.parsed).count,
                          filesFailed: all.filter(\.failed).count,
                          seconds: Date().timeIntervalSince(start))
    }

    struct FileOutcome {
        var findings: [Finding] = []
        var parsed = false
        var failed = false
    }

    private func displayPath(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    private func lintOne(_ path: String, parser: ClangParser) -> FileOutcome {
        let shown = displayPath(path)
        func failure(_ reason: String) -> FileOutcome {
            guard let severity = configuration.severity(of: EngineRuleID.parseFailure) else { return FileOutcome(failed: true) }
            return FileOutcome(findings: [Finding(rule: EngineRuleID.parseFailure, path: shown, line: 1, column: 1,
                                                  severity: severity, message: "file not linted: \(reason)")],
                               failed: true)
        }
        var st = stat()
        guard stat(path, &st) == 0 else { return failure("cannot read it (\(String(cString: strerror(errno))))") }
        if Int(st.st_size) > configuration.maxFileSize {
            return failure("it is \(st.st_size) bytes, over the \(configuration.maxFileSize)-byte limit (max-file-size)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return failure("cannot read it") }
        let bytes = [UInt8](data)
        if let nul = bytes.firstIndex(of: 0) { return failure("binary file (NUL byte at offset \(nul))") }
        let (language, mentions) = bytes.withUnsafeBytes { raw -> (SourceLanguage, Bool) in
            let language = SourceLanguage.detect(path: path, contents: raw)
            let anchors = configuration.containers.flatMap(\.anchorIdentifiers) + ["di-lint:"]
            return (language, anchors.contains { raw.containsASCII($0) })
        }
        if !mentions && !parseEveryFile { return FileOutcome() }
        let buffer = SourceBuffer(bytes: bytes)
        let isHeader = ["h", "hh", "hpp"].contains((path as NSString).pathExtension)
        var arguments = language.clangArguments(isHeader: isHeader)
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let database = compileArguments[absolute] {
            arguments = database + (language == .objectiveC || language == .objectiveCxx ? ["-fobjc-runtime=gnustep-2.0"] : [])
        }
        arguments += configuration.clangFlags
        let parsed: ParsedFile
        do {
            parsed = try parser.parse(path: path, buffer: buffer, language: language, arguments: arguments)
        } catch {
            return failure("\(error)")
        }
        let context = FileContext(file: parsed, displayPath: shown, configuration: configuration,
                                  accesses: finder.find(in: parsed))
        var findings: [Finding] = []
        for rule in fileRules {
            guard let severity = configuration.severity(of: rule.id) else { continue }
            findings += rule.check(context, severity: severity)
        }
        findings = applySuppressions(findings, context)
        return FileOutcome(findings: findings, parsed: true)
    }

    private func applySuppressions(_ findings: [Finding], _ context: FileContext) -> [Finding] {
        var suppressions = Suppressions(comments: context.file.comments, buffer: context.file.buffer)
        var kept = findings.filter { !suppressions.suppresses(rule: $0.rule, line: $0.line) }
        let buffer = context.file.buffer
        func at(_ line: Int, _ column: Int, rule: String, _ message: String) -> Finding? {
            guard let severity = configuration.severity(of: rule) else { return nil }
            return Finding(rule: rule, path: context.displayPath, line: line, column: column, severity: severity,
                           message: message, snippet: buffer.lineText(line).trimmingCharacters(in: .whitespaces))
        }
        for s in suppressions.directives {
            let rules = s.rules.map { $0.sorted().joined(separator: ",") } ?? "all rules"
            if s.reason == nil, let f = at(s.line, s.column, rule: EngineRuleID.suppressionWithoutReason,
                                          "suppression of \(rules) gives no reason; add ' -- why' after the rule list") {
                kept.append(f)
            }
            if !s.used {
                let unknown = (s.rules ?? []).filter { RuleCatalog.shared.rule($0) == nil }.sorted()
                let why = unknown.isEmpty ? "suppresses no finding" : "names unknown rule '\(unknown.joined(separator: "', '"))'"
                if let f = at(s.line, s.column, rule: EngineRuleID.unusedSuppression, "unused suppression of \(rules): it \(why)") {
                    kept.append(f)
                }
            }
        }
        for m in suppressions.malformed {
            if let f = at(m.line, m.column, rule: EngineRuleID.unusedSuppression, m.problem) { kept.append(f) }
        }
        return kept
    }
}

/// Hands out file indices to worker threads and collects their outcomes.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private(set) var results: [Linter.FileOutcome?]

    init(count: Int) {
        self.count = count
        results = Array(repeating: nil, count: count)
    }

    func take() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ outcome: Linter.FileOutcome, at index: Int) {
        lock.lock(); defer { lock.unlock() }
        results[index] = outcome
    }
}
