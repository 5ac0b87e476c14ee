import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint report [PATH…]`: how far the migration has come, per file and per service.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report migration progress per file and per service: direct, fallback and injected accesses.",
        discussion: """
            Migrated % = injected / (direct + fallback + injected); accesses inside the composition root are listed but not counted. Injected accesses are reads through the bridge, and service-style reads: a stored property or initializer parameter whose type the container vends (every Swift and Objective-C file is read for them). A fallback still reaches the container when no bridge is injected, so a file with only fallbacks is 0% migrated (status 'bridged'). A file that could not be linted is counted and listed as such, its accesses unknown. Exits 0, 1 when a file could not be linted (while parse-failure is at error severity, as lint's gate), 2 when the options or config are wrong.

            Examples:
              di-lint report Sources/
              di-lint report Sources/ --format json --output progress.json
            """)

    @OptionGroup(title: "Selection") var options: RunOptions
    @OptionGroup(title: "Output") var out: ReportOutputOptions
    @OptionGroup(title: "Performance") var performance: PerformanceOptions
    @OptionGroup(title: "Isolation") var isolation: IsolationOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case markdown, json }

    var format: Format { out.format }
    var output: String? { out.output }

    @Option(
        help: ArgumentHelp(
            "Report the totals at each commit of a git range (first-parent, oldest first) with today's config: a Markdown table, or JSON. With --cache only changed files are parsed again.",
            valueName: "rev-range"))
    var history: String?

    @Option(
        help: ArgumentHelp(
            "With --history: also draw the burn-down (direct, fallback, injected) as an SVG chart in this file.",
            valueName: "file"))
    var chart: String?

    func validate() throws {
        if chart != nil && history == nil { throw ValidationError("--chart needs --history REV_RANGE") }
        if history != nil && (options.compileCommands != nil || options.changedSince != nil || options.shard != nil) {
            throw ValidationError(
                "--history reads each commit's files as they were: it cannot be combined with -p, --changed-since or --shard"
            )
        }
    }

    func run() throws {
        if let history { return try runHistory(history) }
        let prepared = try options.prepare(
            performance: performance, isolation: isolation, quiet: out.quiet, countServiceInjection: true)
        try prepared.checkOutput(output, baselines: [])
        let result = prepared.lint()
        let progress = MigrationProgress(result: result)
        try emit(format == .json ? progress.json() : progress.markdown(), to: output)
        note(TextReporter.summary(result))
        // the totals miss what those files hold: a gate, as lint's parse-failure is
        if result.filesFailed > 0 && prepared.configuration.severity(of: "parse-failure") == .error {
            throw ExitCode(ExitStatus.findings)
        }
    }

    /// `--history`: the run at each commit, in a private work tree of the repository (kept under
    /// `$XDG_CACHE_HOME/di-lint/history` with `--cache`, so that a later run finds its files unchanged).
    private func runHistory(_ range: String) throws {
        let cwd = FileManager.default.currentDirectoryPath
        let top: String, commits: [MigrationHistory.Commit]
        do {
            top = try MigrationHistory.topLevel(of: cwd)
            commits = try MigrationHistory.commits(range, in: top)
        } catch {
            throw RunFailure(error)
        }
        func absolute(_ path: String) -> String {
            URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL
                .path
        }
        func inside(_ path: String) -> String? {
            let prefix = top == "/" ? "/" : top + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        }
        let cache = performance.cache.map(absolute)
        let scratch: String
        var temporary: String?
        let environment = ProcessInfo.processInfo.environment
        let userCache =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.cache" }
        // outside the cache directory (which may hold no input of a run), the same for every
        // run over this repository and cache, so that unchanged files keep their stat data; a
        // run holds its lock while it uses it, and a run that finds it held uses a private one
        let shared = cache.flatMap { cache in
            userCache.map { $0 + "/di-lint/history/" + String(SHA256.hex(top + "\0" + cache).prefix(16)) }
        }
        var held: FixTree.Lock?
        defer { held?.release() }
        if let shared {
            do { held = try HistoryTree.lock(directory: shared) } catch { throw RunFailure(error) }
            if held == nil {
                note(
                    "di-lint: another report --history is using the work tree \(shared); this run checks the commits out into a private one, removed at its end"
                )
            }
        }
        if let shared, held != nil {
            scratch = shared
        } else {
            var template = Array((NSTemporaryDirectory() + "/di-lint-history-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw RunFailure(ConfigError.invalid("--history: cannot create a temporary directory"))
            }
            scratch = String(cString: made)
            temporary = scratch
            if cache == nil {
                note(
                    "di-lint: --history without --cache parses every file at every commit; add --cache DIR to parse only what changed"
                )
            }
        }
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let tree: HistoryTree
        do { tree = try HistoryTree(repository: top, directory: scratch) } catch { throw RunFailure(error) }
        // today's config, placed where it lies in the tree (each commit's own is overwritten)
        let configPath =
            (options.config.map { ConfigurationDiscovery.explicit(absolute($0)) }
            ?? ConfigurationDiscovery.discover(from: cwd)).path.map(absolute)
        // outputs first: nothing is parsed for a run that cannot write its results
        let inputs = configPath.map { [("the config file", $0)] } ?? []
        try refuseOverwriting(output, option: "--output", inputs: inputs)
        try refuseOverwriting(
            chart, option: "--chart", inputs: inputs + (output.map { [("the --output file", $0)] } ?? []))
        let configText = try configPath.map { try String(contentsOfFile: $0, encoding: .utf8) }
        let workingDirectory = inside(cwd).map { tree.root + "/" + $0 } ?? tree.root
        var points: [MigrationHistory.Point] = []
        var vended: [String: [ServiceInjection.Vendor]] = [:]
        let started = Date()
        defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }
        for (n, commit) in commits.enumerated() {
            do { try tree.checkout(commit.sha) } catch { throw RunFailure(error) }
            var run = options
            var runPerformance = performance
            runPerformance.cache = cache
            if let configPath, let configText {
                let placed = inside(configPath).map { tree.root + "/" + $0 } ?? configPath
                if placed != configPath {
                    try FileManager.default.createDirectory(
                        atPath: (placed as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try configText.write(toFile: placed, atomically: true, encoding: .utf8)
                }
                run.config = placed
            }
            try FileManager.default.createDirectory(atPath: workingDirectory, withIntermediateDirectories: true)
            _ = FileManager.default.changeCurrentDirectoryPath(workingDirectory)
            // a path the commit does not have yet (or any more) holds no access there
            run.paths = options.paths.filter { FileManager.default.fileExists(atPath: $0) }
            var result: LintResult?
            if !run.paths.isEmpty {
                let prepared = try run.prepare(
                    performance: runPerformance, isolation: isolation, quiet: true, countServiceInjection: true)
                // a service the container vended at an earlier commit keeps counting where it is injected
                prepared.linter.servicesVendedEarlier = vended
                result = prepared.lint()
                for (type, vendors) in result?.servicesVended ?? [:] { vended[type] = vendors }
            }
            let point = MigrationHistory.Point(
                commit: commit,
                progress: result.map(MigrationProgress.init(result:))
                    ?? MigrationProgress(accesses: [], filesLinted: 0))
            points.append(point)
            note(
                "di-lint: history \(n + 1)/\(commits.count) \(commit.sha.prefix(10)): \(point.counts.direct) direct, \(point.counts.fallback) fallback, \(point.counts.injected) injected (\(result?.filesParsed ?? 0) parsed, \(result?.filesCached ?? 0) cached)"
            )
        }
        _ = FileManager.default.changeCurrentDirectoryPath(cwd)
        try emit(format == .json ? MigrationHistory.json(points) : MigrationHistory.markdown(points), to: output)
        if let chart {
            let title =
                "Migration burn-down: \((top as NSString).lastPathComponent) \(MigrationHistory.shortRange(range))"
            do { try OutputFile.write(Data(MigrationHistory.svg(points, title: title).utf8), to: chart) } catch {
                throw RunFailure(error)
            }
        }
        note(
            String(
                format: "di-lint: history of %d commit(s) in %.1f s", commits.count, Date().timeIntervalSince(started)))
    }
}

/// `report`'s output: its format, its file and the progress line.
struct ReportOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("markdown (tables) or json.", valueName: "format"))
    var format: ReportCommand.Format = .markdown

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No progress line on a terminal (never shown when standard error is not one).")
    var quiet = false
}
