import Foundation

/// Runs the rules over files, in parallel, with one libclang index per worker thread, or with
/// one parse worker process per thread when `isolation` is set.
public final class Linter: @unchecked Sendable {
    public let configuration: Configuration
    /// Parse every file even when its text names no container (slower; for checking the pre-filter).
    /// Without it, a run with a project rule parses the other files on demand (`nextOnDemand`).
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
    /// With `countServiceInjection`: types the container vended at an earlier commit
    /// (`report --history`, from the last run's `LintResult.servicesVended`).
    public var servicesVendedEarlier: [String: [ServiceInjection.Vendor]] = [:]
    /// Parse in worker processes, under a per-file deadline and a memory limit (nil: on this
    /// process's threads). See `WorkerIsolation`.
    public var isolation: WorkerIsolation?
    /// Seconds the run may parse for, from the start of `lint` (nil: no bound). Once spent, each
    /// file still needing a parse is a `parse-failure` naming the budget, and a parse worker
    /// still parsing one is killed; outcomes from the cache, and files that need no parse (the
    /// pre-filter finds no container in them), are still taken. Without `isolation` a parse
    /// under way finishes (it cannot be stopped).
    public var runTimeout: Double?

    /// Stack of the threads that parse (see `ParseThreads.stackSize`).
    static let workerStackSize = ParseThreads.stackSize

    /// Files from this many bytes have their project-rule facts collected beside the file rules,
    /// on a second thread (below it a thread costs more than it saves).
    var factsBesideRulesSize = 1 << 20

    /// The enabled file rules, with their options and severity bound.
    let fileRules: FileRules
    let activeProjectRules: [(rule: any ProjectRule, severity: Severity)]
    /// Which files' text may hold a container access (the others need no parse).
    let prefilter: ContainerPrefilter

    public init(configuration: Configuration) {
        self.configuration = configuration
        fileRules = FileRules(configuration: configuration)
        activeProjectRules = RuleRegistry.projectRules.compactMap { rule in
            configuration.severity(of: rule.id).map { (rule, $0) }
        }
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
        let workers = max(1, min(jobs, all.count))
        // with header reuse, a header a source begins with is handed out before that source
        let order =
            ClangFrontEnd.headerReuseRequested
            ? SharedPrecompiledHeader.order(files, ahead: 2 * workers) + Array(files.count..<all.count) : nil
        let queue = WorkQueue(count: all.count, progress: progress, counted: files.count, order: order)
        let handshake = isolation.map { isolation in
            WorkerFrames.Handshake(
                recipe: isolation.recipe, compileArguments: compileArguments,
                digest: ConfigurationRecipe.digest(configuration), memoryLimit: isolation.memoryLimit,
                parent: getpid()
            ).encoded()
        }
        // With a project rule, a file the file rules need no parse for waits until the rule needs it.
        let demand =
            parseEveryFile || activeProjectRules.isEmpty
            ? nil : DemandRun(expected: all.count, threads: workers, order: order)
        // A file the file rules need that spells no installer word: parsed without system headers'
        // function bodies, and held back like a file not parsed yet until a project rule needs its
        // facts (then parsed again in full).
        let installing = Set(
            DemandClosure.installerWords(handlers: configuration.options(of: SignalHandlerSafetyRule.self).handlers)
                .map(DemandText.hash))
        // With no project rule on, the file rules alone read a parse: C++ sources get the cheaper
        // one, after the run's shared prefix (planned over all of them by the first that needs it)
        let fileRulesOnly = activeProjectRules.isEmpty
        let prefix = SharedPrefixHeader.RunPlan { [configuration, compileArguments] in
            SharedPrefixHeader.plan(
                sources: files.filter {
                    SharedPrecompiledHeader.sourceExtensions.contains(($0 as NSString).pathExtension)
                        && compileArguments[$0] == nil
                }, configuration: configuration)
        }
        ParseThreads.run(workers) { [self] in
            var frontEnd: ClangFrontEnd?
            var worker: WorkerProcess?
            func parse(_ path: String, _ bytes: [UInt8], systemBodies: Bool = !fileRulesOnly) -> FileOutcome {
                if !systemBodies && fileRulesOnly { prefix.make() }
                return self.parse(
                    path, bytes: bytes, frontEnd: &frontEnd, worker: &worker, handshake: handshake, budget: budget,
                    systemBodies: systemBodies)
            }
            while let work = queue.take() {
                switch work {
                case let .file(i) where i >= files.count:
                    // A context file: its cached outcome, or nothing (the run is then incomplete).
                    switch cachedOutcome(for: all[i]) {
                    case let .done(outcome) where !outcome.systemBodiesSkipped:
                        queue.store(outcome, at: i)
                        demand?.record(i, path: all[i], limit: configuration.maxFileSize)
                    case .done:
                        // its facts may lack what system headers' bodies give: as if not cached
                        if let bytes = readFileBytes(all[i], limit: configuration.maxFileSize) {
                            demand?.record(i, DemandText.scan(bytes, identifiers: true), deferred: true)
                        }
                    case let .miss(bytes):
                        demand?.record(i, DemandText.scan(bytes, identifiers: true), deferred: true)
                    }
                case let .file(i):
                    switch cachedOutcome(for: files[i]) {
                    case let .done(outcome) where outcome.systemBodiesSkipped && !activeProjectRules.isEmpty:
                        // a project rule may read its facts: held back (or, parsing every file, parsed
                        // again) until they are those of a full parse
                        guard let bytes = readFileBytes(files[i], limit: configuration.maxFileSize) else {
                            queue.store(
                                failure(files[i], "cannot read it (\(String(cString: strerror(errno))))"), at: i)
                            continue
                        }
                        if let demand {
                            queue.store(outcome, at: i)
                            demand.record(i, DemandText.scan(bytes, identifiers: true), deferred: true)
                        } else {
                            queue.store(parse(files[i], bytes), at: i)
                        }
                    case let .done(outcome):
                        queue.store(outcome, at: i)
                        demand?.record(i, path: files[i], limit: configuration.maxFileSize)
                    case let .miss(bytes) where demand != nil && deferrable(path: files[i], bytes: bytes):
                        demand!.record(i, DemandText.scan(bytes, identifiers: true), deferred: true)
                        queue.store(FileOutcome(), at: i)
                    case let .miss(bytes) where isolation == nil && LibClang.isLoading && queue.hasFilesLeft:
                        demand?.record(i, DemandText.scan(bytes, identifiers: false), deferred: false)
                        // libclang is still loading (see LibClang.preload): look the other
                        // files up in the cache meanwhile, and parse this one after.
                        queue.postpone(i, bytes)
                    case let .miss(bytes) where demand != nil:
                        let text = DemandText.scan(bytes, identifiers: true)
                        let onlyFileRules = !text.signalArgument && !text.spells(any: installing)
                        if onlyFileRules && compileArguments[files[i]] == nil
                            && bytes.withUnsafeBytes({ SourceLanguage.detect(path: files[i], contents: $0) }) == .cxx
                        {
                            // parsed once the rounds are over (without system headers' bodies), or
                            // in full by a round that needs it first: never both
                            demand!.recordCheapLater(i, text)
                            queue.store(FileOutcome(), at: i)
                            continue
                        }
                        let outcome = parse(files[i], bytes, systemBodies: !onlyFileRules)
                        demand!.record(i, text, deferred: outcome.systemBodiesSkipped)
                        queue.store(outcome, at: i)
                    case let .miss(bytes):
                        queue.store(parse(files[i], bytes), at: i)
                    }
                case let .postponed(i, bytes):
                    queue.store(parse(files[i], bytes), at: i)
                }
            }
            // then the files the project rule needs, on the same threads and parse workers
            while let demand, let i = nextOnDemand(demand, files: files, all: all, queue: queue) {
                if let bytes = readFileBytes(files[i], limit: configuration.maxFileSize) {
                    if demand.isHandedCheap(i) {
                        let outcome = parse(files[i], bytes, systemBodies: false)
                        demand.parsedCheap(i, skipped: outcome.systemBodiesSkipped)
                        queue.replace(outcome, at: i)
                    } else {
                        queue.replace(parse(files[i], bytes), at: i)
                    }
                } else {
                    queue.replace(failure(files[i], "cannot read it (\(String(cString: strerror(errno))))"), at: i)
                }
            }
            worker?.stop()
        }
        if let demand { finishOnDemand(demand, files: files, queue: queue) }
        let outcomes = queue.results[..<files.count].map { $0 ?? FileOutcome() }
        let paths = files.map(FileCollector.displayPath)
        let selected = Set(paths)
        let found = zip(context.map(FileCollector.displayPath), queue.results[files.count...])
            .compactMap { path, outcome in outcome.map { (path: path, outcome: $0) } }
        let complete = activeProjectRules.isEmpty || found.count == contextFiles.count

        // Project rules report into files (context files included); every finding then meets its
        // file's suppressions.
        var findingsByFile: [String: [Finding]]
        if selected.count == paths.count
            && zip(paths, outcomes).allSatisfy({ path, outcome in
                outcome.findings.indices.allSatisfy { outcome.findings[$0].path == path }
            })
        {
            // Each file's findings are its own (the usual case): grouped as they are, uncopied.
            findingsByFile = [:]
            for (path, outcome) in zip(paths, outcomes) where !outcome.findings.isEmpty {
                findingsByFile[path] = outcome.findings
            }
        } else {
            findingsByFile = Dictionary(grouping: zip(paths, outcomes).flatMap { $1.findings }, by: \.path)
        }
        var projectFindingsByFile: [String: [Finding]] = [:]
        var handlerFunctionsReadPartly: Int?
        for (rule, severity) in activeProjectRules {
            let facts = (Array(zip(paths, outcomes)) + found.map { ($0.path, $0.outcome) })
                .compactMap { path, o in o.facts[rule.id].map { (path: path, facts: $0) } }
            let report = rule.finish(facts: facts, configuration: configuration, severity: severity, complete: complete)
            if let n = report.handlerFunctionsReadPartly {
                handlerFunctionsReadPartly = (handlerFunctionsReadPartly ?? 0) + n
            }
            for f in report.findings {
                findingsByFile[f.path, default: []].append(f)
                projectFindingsByFile[f.path, default: []].append(f)
            }
        }
        var findings: [Finding] = []
        for (path, outcome) in zip(paths, outcomes) {
            let kept = applySuppressions(
                findingsByFile[path] ?? [], outcome.suppressions, path: path, complete: complete)
            if findings.isEmpty { findings = kept } else { findings += kept }
        }
        for (path, outcome) in found where !selected.contains(path) {
            var suppressions = outcome.suppressions
            findings += (projectFindingsByFile[path] ?? []).filter {
                !suppressions.suppresses(rule: $0.rule, line: $0.line)
            }
        }
        if !Finding.inOrder(findings) { findings.sort(by: Finding.ordered) }
        var accesses = outcomes.count == 1 ? outcomes[0].accesses : outcomes.flatMap(\.accesses)
        var servicesVended: [String: [ServiceInjection.Vendor]] = [:]
        if configuration.countServiceInjection {
            let injected = ServiceInjection.accesses(
                facts: zip(paths, outcomes).compactMap { path, o in
                    o.facts[ServiceInjectionFacts.key].map { (path: path, facts: $0) }
                }, accesses: accesses, configuration: configuration, earlier: servicesVendedEarlier)
            accesses += injected.accesses
            servicesVended = injected.vended
        }
        return LintResult(
            findings: findings,
            filesChecked: files.count,
            filesParsed: outcomes.filter { $0.parsed && !$0.fromCache }.count,
            filesFailed: outcomes.filter(\.failed).count,
            filesCached: outcomes.filter(\.fromCache).count,
            accesses: accesses,
            seconds: Date().timeIntervalSince(start),
            handlerFunctionsReadPartly: handlerFunctionsReadPartly,
            servicesVended: servicesVended)
    }
}

/// Hands out file indices to worker threads and collects their outcomes.
/// Postponed files (cache misses met while libclang was loading) come after every other file.
final class WorkQueue: @unchecked Sendable {
    enum Work {
        case file(Int)
        case postponed(Int, [UInt8])
    }

    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var postponed: [(Int, [UInt8])] = []
    private(set) var results: [FileOutcome?]
    /// Outcomes stored or replaced so far.
    private var storeCount = 0
    private let progress: LintProgress?
    /// Files below this index count as done in `progress` (the others are context files).
    private let counted: Int
    /// The indices in the order they are handed out (nil: in index order).
    private let order: [Int]?

    init(count: Int, progress: LintProgress? = nil, counted: Int = 0, order: [Int]? = nil) {
        self.count = count
        self.progress = progress
        self.counted = counted
        self.order = order
        results = Array(repeating: nil, count: count)
    }

    func take() -> Work? {
        lock.lock(); defer { lock.unlock() }
        if next < count {
            next += 1
            return .file(order?[next - 1] ?? next - 1)
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
        storeCount += 1
        if index < counted { progress?.fileDone(findings: outcome.findings.count) }
    }

    /// Replaces an outcome already counted done (a file a demand-driven run parsed after all).
    func replace(_ outcome: FileOutcome, at index: Int) {
        lock.lock(); defer { lock.unlock() }
        results[index] = outcome
        storeCount += 1
    }

    /// Outcomes stored or replaced so far (more of them: more facts to read).
    var stores: Int {
        lock.lock(); defer { lock.unlock() }
        return storeCount
    }

    /// The outcomes so far, while threads still store others.
    func snapshot() -> [FileOutcome?] {
        lock.lock(); defer { lock.unlock() }
        return results
    }
}
