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
}

/// Stores file outcomes between runs (see `--cache`).
public protocol OutcomeCache: AnyObject, Sendable {
    /// The outcome stored for the file's current content, if any. `status` is the file's `stat`
    /// data and `content` reads it; a cache that can tell from the first that the file is
    /// unchanged need not call the second.
    func outcome(path: String, status: stat, content: () -> [UInt8]?) -> FileOutcome?
    func store(_ outcome: FileOutcome, path: String, content: [UInt8])
}

/// Runs the rules over files, in parallel, with one libclang index per worker thread, or with
/// one parse worker process per thread when `isolation` is set.
public final class Linter: @unchecked Sendable {
    public let configuration: Configuration
    /// Parse every file even when its text names no container (slower; for checking the pre-filter).
    public var parseEveryFile = false
    /// Worker threads.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Per-file compile arguments from a compilation database, by absolute path.
    public var compileArguments: [String: [String]] = [:]
    public var cache: OutcomeCache?
    /// Project files left out of this run (`--changed-since`, `--shard`) whose project-rule facts
    /// are wanted all the same: taken from the cache when it holds them, never parsed. Project
    /// rules hear the run is incomplete when one is missing, and then report nothing that a file
    /// outside the run could have explained (a call to a function defined nowhere in the run).
    public var contextFiles: [String] = []
    /// Counts files done as the run goes (for a progress line).
    public var progress: LintProgress?
    /// Parse in worker processes, under a per-file deadline and a memory limit (nil: on this
    /// process's threads). See `WorkerIsolation`.
    public var isolation: WorkerIsolation?
    /// Seconds the run may parse for, from the start of `lint` (nil: no bound). Once spent, each
    /// file still needing a parse is a `parse-failure` naming the budget, and a parse worker
    /// still parsing one is killed; outcomes from the cache, and files that need no parse (the
    /// pre-filter finds no container in them), are still taken. Without `isolation` a parse
    /// under way finishes (it cannot be stopped).
    public var runTimeout: Double?

    /// Stack of the threads that parse (deep ASTs recurse in libclang's visitor); a parse worker
    /// parses on a thread of the same size, so both paths take the same files.
    static let workerStackSize = 16 << 20

    /// Files from this many bytes have their project-rule facts collected beside the file rules,
    /// on a second thread (below it a thread costs more than it saves).
    var factsBesideRulesSize = 1 << 20

    /// The enabled file rules, with their options and severity bound.
    private let activeFileRules: [(FileModel) -> [Finding]]
    private let activeProjectRules: [(rule: any ProjectRule, severity: Severity)]
    /// Which files' text may hold a container access (the others need no parse).
    private let prefilter: ContainerPrefilter

    public init(configuration: Configuration) {
        self.configuration = configuration
        activeFileRules = RuleRegistry.fileRules.compactMap { rule in
            configuration.severity(of: rule.id).map { rule.bound(to: configuration, severity: $0) }
        }
        activeProjectRules = RuleRegistry.projectRules.compactMap { rule in configuration.severity(of: rule.id).map { (rule, $0) } }
        prefilter = ContainerPrefilter(specs: configuration.accessSpecs)
    }

    /// Lints the given files (see `FileCollector` to turn paths into files).
    public func lint(files: [String]) -> LintResult {
        let start = Date()
        // Context files are only looked up, and only when a project rule and a cache are there.
        let context = activeProjectRules.isEmpty || cache == nil ? [] : contextFiles
        let all = files + context
        progress?.start(total: files.count)
        let budget = runTimeout.map { RunBudget(seconds: $0) }
        let queue = WorkQueue(count: all.count, progress: progress, counted: files.count)
        let workers = max(1, min(jobs, all.count))
        let handshake = isolation.map { isolation in
            WorkerFrames.Handshake(recipe: isolation.recipe, compileArguments: compileArguments,
                                   digest: ConfigurationRecipe.digest(configuration), memoryLimit: isolation.memoryLimit,
                                   parent: getpid()).encoded()
        }
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            let thread = Thread { [self] in
                var frontEnd: ClangFrontEnd?
                var worker: WorkerProcess?
                func parse(_ path: String, _ bytes: [UInt8]) -> FileOutcome {
                    self.parse(path, bytes: bytes, frontEnd: &frontEnd, worker: &worker, handshake: handshake, budget: budget)
                }
                while let work = queue.take() {
                    switch work {
                    case let .file(i) where i >= files.count:
                        // A context file: its cached outcome, or nothing (the run is then incomplete).
                        if case let .done(outcome) = cachedOutcome(for: all[i]) { queue.store(outcome, at: i) }
                    case let .file(i):
                        switch cachedOutcome(for: files[i]) {
                        case let .done(outcome):
                            queue.store(outcome, at: i)
                        case let .miss(bytes) where isolation == nil && LibClang.isLoading && queue.hasFilesLeft:
                            // libclang is still loading (see LibClang.preload): look the other
                            // files up in the cache meanwhile, and parse this one after.
                            queue.postpone(i, bytes)
                        case let .miss(bytes):
                            queue.store(parse(files[i], bytes), at: i)
                        }
                    case let .postponed(i, bytes):
                        queue.store(parse(files[i], bytes), at: i)
                    }
                }
                worker?.stop()
                group.leave()
            }
            thread.stackSize = Self.workerStackSize
            thread.start()
        }
        group.wait()
        let outcomes = queue.results[..<files.count].map { $0 ?? FileOutcome() }
        let paths = files.map(FileCollector.displayPath)
        let selected = Set(paths)
        let found = zip(context.map(FileCollector.displayPath), queue.results[files.count...])
            .compactMap { path, outcome in outcome.map { (path: path, outcome: $0) } }
        let complete = activeProjectRules.isEmpty || found.count == contextFiles.count

        // Project rules report into files (context files included); every finding then meets its
        // file's suppressions.
        var findingsByFile: [String: [Finding]]
        if selected.count == paths.count && zip(paths, outcomes).allSatisfy({ path, outcome in
            outcome.findings.indices.allSatisfy { outcome.findings[$0].path == path }
        }) {
            // Each file's findings are its own (the usual case): grouped as they are, uncopied.
            findingsByFile = [:]
            for (path, outcome) in zip(paths, outcomes) where !outcome.findings.isEmpty { findingsByFile[path] = outcome.findings }
        } else {
            findingsByFile = Dictionary(grouping: zip(paths, outcomes).flatMap { $1.findings }, by: \.path)
        }
        var projectFindingsByFile: [String: [Finding]] = [:]
        var handlerFunctionsReadPartly: Int?
        for (rule, severity) in activeProjectRules {
            let facts = (Array(zip(paths, outcomes)) + found.map { ($0.path, $0.outcome) })
                .compactMap { path, o in o.facts[rule.id].map { (path: path, facts: $0) } }
            let report = rule.finish(facts: facts, configuration: configuration, severity: severity, complete: complete)
            if let n = report.handlerFunctionsReadPartly { handlerFunctionsReadPartly = (handlerFunctionsReadPartly ?? 0) + n }
            for f in report.findings {
                findingsByFile[f.path, default: []].append(f)
                projectFindingsByFile[f.path, default: []].append(f)
            }
        }
        var findings: [Finding] = []
        for (path, outcome) in zip(paths, outcomes) {
            let kept = applySuppressions(findingsByFile[path] ?? [], outcome.suppressions, path: path, complete: complete)
            if findings.isEmpty { findings = kept } else { findings += kept }
        }
        for (path, outcome) in found where !selected.contains(path) {
            var suppressions = outcome.suppressions
            findings += (projectFindingsByFile[path] ?? []).filter { !suppressions.suppresses(rule: $0.rule, line: $0.line) }
        }
        if !Finding.inOrder(findings) { findings.sort(by: Finding.ordered) }
        return LintResult(findings: findings,
                          filesChecked: files.count,
                          filesParsed: outcomes.filter { $0.parsed && !$0.fromCache }.count,
                          filesFailed: outcomes.filter(\.failed).count,
                          filesCached: outcomes.filter(\.fromCache).count,
                          accesses: outcomes.count == 1 ? outcomes[0].accesses : outcomes.flatMap(\.accesses),
                          seconds: Date().timeIntervalSince(start),
                          handlerFunctionsReadPartly: handlerFunctionsReadPartly)
    }

    private func failure(_ path: String, _ reason: String) -> FileOutcome {
        guard let severity = configuration.severity(of: ParseFailureRule.id) else { return FileOutcome(failed: true) }
        return FileOutcome(findings: [ParseFailureRule().finding(path: FileCollector.displayPath(path), reason: reason, severity: severity)], failed: true)
    }

    private enum Lookup {
        /// The outcome needs no parse: from the cache, or the file cannot be linted.
        case done(FileOutcome)
        /// The file's bytes, to be linted.
        case miss([UInt8])
    }

    private func cachedOutcome(for path: String) -> Lookup {
        var st = stat()
        guard stat(path, &st) == 0 else { return .done(failure(path, "cannot read it (\(String(cString: strerror(errno))))")) }
        if let problem = InputFile.problem(st, limit: configuration.maxFileSize) { return .done(failure(path, problem)) }
        var content: [UInt8]?
        func read() -> [UInt8]? {
            if content == nil { content = readFileBytes(path, limit: configuration.maxFileSize) }
            return content
        }
        if var cached = cache?.outcome(path: path, status: st, content: read) {
            cached.fromCache = true
            return .done(cached)
        }
        guard let bytes = read() else { return .done(failure(path, "cannot read it (\(String(cString: strerror(errno))))")) }
        return .miss(bytes)
    }

    /// Lints a file the cache did not have, here or in the thread's worker process, and stores the outcome.
    private func parse(_ path: String, bytes: [UInt8], frontEnd: inout ClangFrontEnd?, worker: inout WorkerProcess?,
                       handshake: [UInt8]?, budget: RunBudget? = nil) -> FileOutcome {
        let result: FileOutcome
        switch prepare(path: path, bytes: bytes) {
        case let .done(outcome):
            result = outcome
        case .parse where budget?.isSpent == true:
            return failure(path, budget!.spentBefore)
        case .parse where isolation != nil:
            if let gone = worker, !gone.isAlive {
                gone.stop()
                worker = nil
            }
            if worker == nil {
                switch WorkerProcess.start(isolation!, handshake: handshake!, memoryLimit: WorkerProcess.effectiveLimit(isolation!.memoryLimit)) {
                case let .success(started): worker = started
                case let .failure(failure): return self.failure(path, failure.reason)
                }
            }
            switch worker!.outcome(path: path, bytes: bytes, budget: budget) {
            case let .outcome(outcome):
                result = outcome
            case let .failed(reason):
                worker = nil
                result = failure(path, reason)
            }
        case let .parse(language):
            result = model(path: path, bytes: bytes, language: language, frontEnd: &frontEnd)
        }
        if !result.failed { cache?.store(result, path: path, content: bytes) }
        return result
    }

    /// What a parse worker sends back for a file (`ParseWorker`): what the in-process path
    /// computes once `prepare` (run by the parent) said `.parse`; the language is detected again
    /// from the same path and bytes.
    /// `model` is the parsed file the outcome came from, for the worker to release after it
    /// replied: freeing a large file's AST and tokens is no part of the parent's wait.
    /// `whileFactsRun` is handed the outcome without its facts while a second thread collects
    /// them (a large file's; see `outcome(of:)`).
    func isolatedOutcome(path: String, bytes: [UInt8], frontEnd: inout ClangFrontEnd?,
                         whileFactsRun: ((FileOutcome) -> Void)? = nil) -> (outcome: FileOutcome, model: AnyObject?) {
        let language = bytes.withUnsafeBytes { SourceLanguage.detect(path: path, contents: $0) }
        var parsed: FileModel?
        let outcome = model(path: path, bytes: bytes, language: language, frontEnd: &frontEnd, keeping: &parsed,
                            whileFactsRun: whileFactsRun)
        return (outcome, parsed)
    }

    /// Whether every file must be parsed: project rules need every function, not only the files naming a container.
    private var needsEveryFile: Bool { parseEveryFile || !activeProjectRules.isEmpty }

    private enum Preparation {
        /// Linted without a parse (binary, blank, no container named).
        case done(FileOutcome)
        /// To be parsed as this language.
        case parse(SourceLanguage)
    }

    /// The checks before a parse, which cost a pass over the bytes (run where the cache is).
    private func prepare(path: String, bytes: [UInt8]) -> Preparation {
        if let nul = bytes.firstIndex(of: 0) { return .done(failure(path, "binary file (NUL byte at offset \(nul))")) }
        if BlankSource.isBlank(bytes) { return .done(FileOutcome()) }
        let (language, mentions) = bytes.withUnsafeBytes { raw -> (SourceLanguage, Bool) in
            let language = SourceLanguage.detect(path: path, contents: raw)
            let anchors = ["di-lint:"] + configuration.bridgeNames.flatMap { [$0, $0.capitalizedFirst] }
            return (language, prefilter.mayContainAccess(raw) || anchors.contains { raw.containsASCII($0) })
        }
        if !mentions && !needsEveryFile { return .done(FileOutcome()) }
        return .parse(language)
    }

    /// Parses the file (libclang or swift-syntax) and runs the file rules over its model.
    private func model(path: String, bytes: [UInt8], language: SourceLanguage, frontEnd: inout ClangFrontEnd?) -> FileOutcome {
        var parsed: FileModel?
        return model(path: path, bytes: bytes, language: language, frontEnd: &frontEnd, keeping: &parsed)
    }

    /// The same, handing the parsed file to the caller (`kept`) rather than releasing it.
    private func model(path: String, bytes: [UInt8], language: SourceLanguage, frontEnd: inout ClangFrontEnd?,
                       keeping kept: inout FileModel?, whileFactsRun: ((FileOutcome) -> Void)? = nil) -> FileOutcome {
        let model: FileModel
        if language == .swift {
            switch SwiftFrontEnd.model(displayPath: FileCollector.displayPath(path), bytes: bytes, configuration: configuration) {
            case let .success(parsed): model = parsed
            case let .failure(failure): return self.failure(path, failure.reason)
            }
        } else {
            if frontEnd == nil { frontEnd = ClangFrontEnd(configuration: configuration, compileArguments: compileArguments) }
            switch frontEnd!.model(path: path, displayPath: FileCollector.displayPath(path), bytes: bytes, language: language) {
            case let .success(parsed): model = parsed
            case let .failure(failure): return self.failure(path, failure.reason)
            }
        }
        kept = model
        return outcome(of: model, whileFactsRun: whileFactsRun)
    }

    /// The file rules' findings, every access, the project rules' facts and the suppressions of one file.
    private func outcome(of model: FileModel, whileFactsRun: ((FileOutcome) -> Void)? = nil) -> FileOutcome {
        // A large file's project-rule facts (the call graph, read from libclang's AST) are
        // collected on a second thread while the accesses are classified and the file rules run
        // on this one.
        let facts = FactsCollection(rules: activeProjectRules.map(\.rule), model: model)
        let beside = !activeProjectRules.isEmpty && model.buffer.bytes.count >= factsBesideRulesSize
            && model.prepareForRulesBesideFacts()
        let collected = DispatchSemaphore(value: 0)
        if beside {
            let thread = Thread {
                facts.run()
                collected.signal()
            }
            thread.stackSize = Self.workerStackSize
            thread.start()
        }
        var outcome = FileOutcome(parsed: true)
        outcome.accesses = model.accesses.map { a in
            let (line, column) = model.buffer.lineColumn(of: a.offset)
            return AccessRecord(path: model.displayPath, line: line, column: column, access: a.access)
        }
        for check in activeFileRules { outcome.findings += check(model) }
        model.attachScopes(to: &outcome.findings)
        outcome.suppressions = Suppressions(comments: model.comments, buffer: model.buffer)
        if beside {
            whileFactsRun?(outcome)
            collected.wait()
        } else {
            facts.run()
        }
        outcome.facts = facts.collected
        return outcome
    }

    /// Findings not suppressed, plus the file's findings about its directives. When the run is
    /// incomplete, a directive that could be for a project rule is not called unused: the finding
    /// it suppresses may need files outside the run.
    private func applySuppressions(_ findings: [Finding], _ suppressions: Suppressions, path: String, complete: Bool) -> [Finding] {
        var suppressions = suppressions
        // The findings suppressed, in order; kept ones are not copied when none is.
        var suppressed: [Int] = []
        for i in findings.indices where findings[i].rule != ParseFailureRule.id && suppressions.suppresses(rule: findings[i].rule, line: findings[i].line) {
            suppressed.append(i)
        }
        var kept: [Finding]
        if suppressed.isEmpty {
            kept = findings
        } else {
            kept = []
            kept.reserveCapacity(findings.count - suppressed.count)
            var next = 0
            for i in findings.indices {
                if next < suppressed.count && suppressed[next] == i { next += 1 } else { kept.append(findings[i]) }
            }
        }
        func at(_ line: Int, _ column: Int, rule: String, _ message: String) -> Finding? {
            guard let severity = configuration.severity(of: rule) else { return nil }
            return Finding(rule: rule, path: path, line: line, column: column, severity: severity, message: message)
        }
        for s in suppressions.directives {
            let rules = s.rules.map { $0.sorted().joined(separator: ",") } ?? "all rules"
            if s.reason == nil, let f = at(s.line, s.column, rule: SuppressionWithoutReasonRule.id,
                                          SuppressionWithoutReasonRule().message(rules: rules)) {
                kept.append(f)
            }
            let mayBeForAProjectRule = s.rules.map { !$0.isDisjoint(with: activeProjectRules.map(\.rule.id)) } ?? !activeProjectRules.isEmpty
            if !s.used && (complete || !mayBeForAProjectRule) {
                let unknown = (s.rules ?? []).filter { RuleCatalog.indexEntry($0) == nil }.sorted()
                if let f = at(s.line, s.column, rule: UnusedSuppressionRule.id, UnusedSuppressionRule().message(rules: rules, unknown: unknown)) {
                    kept.append(f)
                }
            }
        }
        for m in suppressions.malformed {
            if let f = at(m.line, m.column, rule: UnusedSuppressionRule.id, m.problem) { kept.append(f) }
        }
        return kept
    }
}

/// The project rules' facts of one file, collected on whichever thread runs `run`; read
/// `collected` after that thread is done.
private final class FactsCollection: @unchecked Sendable {
    let rules: [any ProjectRule]
    /// Dropped once collected: the thread that collected must not be the one that frees the
    /// model (libclang's translation unit) while its owner parses the next file.
    private var model: FileModel?
    private(set) var collected: [String: Data] = [:]

    init(rules: [any ProjectRule], model: FileModel) {
        self.rules = rules
        self.model = model
    }

    func run() {
        if let model {
            for rule in rules {
                if let facts = rule.collect(model) { collected[rule.id] = facts }
            }
        }
        model = nil
    }
}

/// Hands out file indices to worker threads and collects their outcomes.
/// Postponed files (cache misses met while libclang was loading) come after every other file.
private final class WorkQueue: @unchecked Sendable {
    enum Work {
        case file(Int)
        case postponed(Int, [UInt8])
    }

    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var postponed: [(Int, [UInt8])] = []
    private(set) var results: [FileOutcome?]
    private let progress: LintProgress?
    /// Files below this index count as done in `progress` (the others are context files).
    private let counted: Int

    init(count: Int, progress: LintProgress? = nil, counted: Int = 0) {
        self.count = count
        self.progress = progress
        self.counted = counted
        results = Array(repeating: nil, count: count)
    }

    func take() -> Work? {
        lock.lock(); defer { lock.unlock() }
        if next < count {
            next += 1
            return .file(next - 1)
        }
        return postponed.popLast().map { .postponed($0.0, $0.1) }
    }

    /// Whether files are left to hand out (postponing is pointless on the last one).
    var hasFilesLeft: Bool {
        lock.lock(); defer { lock.unlock() }
        return next < count
    }

    /// A worker postpones a file and goes on taking work; it (or another) takes the file back last.
    func postpone(_ index: Int, _ bytes: [UInt8]) {
        lock.lock(); defer { lock.unlock() }
        postponed.append((index, bytes))
    }

    func store(_ outcome: FileOutcome, at index: Int) {
        lock.lock(); defer { lock.unlock() }
        results[index] = outcome
        if index < counted { progress?.fileDone(findings: outcome.findings.count) }
    }
}
