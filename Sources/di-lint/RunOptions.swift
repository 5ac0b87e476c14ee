import ArgumentParser
import DILintEngine
import Foundation

/// Which files and which config: what `lint`, `report` and `fix` share (help heading "Selection").
struct RunOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Files and directories.", valueName: "path"))
    var paths: [String] = ["."]

    @Option(
        help: ArgumentHelp(
            "Configuration file (default: .di-lint.yml from the working directory upward).", valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("container"),
        help: ArgumentHelp(
            "A container accessor: Type.accessor, Type::accessor or function(). Repeatable; adds to the config.",
            valueName: "spec"))
    var containers: [String] = []

    @Option(
        help: ArgumentHelp(
            "Skip paths matching this glob (*, **, ?). Repeatable; adds to the config.", valueName: "glob"))
    var exclude: [String] = []

    @Option(
        name: .customShort("p"),
        help: ArgumentHelp(
            "Directory holding compile_commands.json: parse with each file's real flags.", valueName: "build-dir"))
    var compileCommands: String?

    @Option(
        help: ArgumentHelp(
            "Project root for baseline paths, fingerprints, shards and SARIF URIs (default: the config's directory).",
            valueName: "dir"))
    var root: String?

    @Option(
        help: ArgumentHelp(
            "Only files changed against this git ref (committed, staged, unstaged or untracked).", valueName: "ref"))
    var changedSince: String?

    @Option(
        help: ArgumentHelp(
            "Only shard K of N (1-based), by a hash of each path; `di-lint merge` joins the outputs.", valueName: "K/N")
    )
    var shard: String?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Find the tree's headers by bare name (\"X.h\", <Dir/X.h>) without flags (default: the config's header-map, else off)."
    )
    var headerMap: Bool?
}

/// Speed and the cache: `lint` and `report` only (help heading "Performance").
struct PerformanceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Worker threads, 1 to 1024 (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(help: "Parse every file, even those whose text names no container (slower; same result).")
    var parseEveryFile = false

    @Option(
        help: ArgumentHelp(
            "Keep per-file outcomes here and reuse them for unchanged files (usually .di-lint-cache).", valueName: "dir"
        ))
    var cache: String?

    @Flag(help: "Read the --cache directory, never write or prune it (a pull request's gate).")
    var cacheReadOnly = false

    @Option(help: ArgumentHelp("Delete cache entries unused for this many days (default: 30).", valueName: "days"))
    var cacheMaxAge: Double = 30

    func validate() throws {
        if let jobs, !(1...1024).contains(jobs) {
            throw ValidationError("--jobs must be a number of worker threads from 1 to 1024, not \(jobs)")
        }
        if cacheReadOnly && cache == nil { throw ValidationError("--cache-read-only needs --cache DIR") }
        guard cacheMaxAge > 0 else { throw ValidationError("--cache-max-age must be a positive number of days") }
    }
}

/// Bounds on parsing: every command that parses (help heading "Isolation").
struct IsolationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A file whose parse takes longer is left out, its reason reported (default: the config's parse-timeout, else 60).",
            valueName: "seconds"))
    var parseTimeout: String?

    @Option(
        help: ArgumentHelp(
            "A budget for the whole run; past it no file is parsed (default: the config's run-timeout, else 3600).",
            valueName: "seconds"))
    var runTimeout: String?

    @Option(
        help: ArgumentHelp(
            "Address-space limit of a parse; a file needing more is left out (default: the config's parse-memory-limit, else 4096).",
            valueName: "MiB"))
    var parseMemoryLimit: String?

    @Flag(
        help: "Parse in di-lint's own process: no memory limit or crash isolation (faster to start; for trusted input)."
    )
    var noIsolation = false

    func validate() throws {
        do {
            _ = try parseTimeout.map { try Configuration.parseTimeout($0) }
            _ = try runTimeout.map { try Configuration.runTimeout($0) }
            _ = try parseMemoryLimit.map { try Configuration.parseMemoryLimit($0) }
        } catch {
            throw ValidationError("--\(error)")
        }
    }
}

extension RunOptions {
    /// A configured linter and the files it is to lint.
    struct Prepared {
        var configuration: Configuration
        /// The config file read, if any.
        var configPath: String?
        var linter: Linter
        var files: [String]
        var root: String
        /// Directories and files the walk could not take; reported as `parse-failure` findings.
        var problems: [FileCollector.Problem] = []
        var showProgress = false
        /// `-p`'s `compile_commands.json`, an input no output may overwrite.
        var compileDatabase: String?

        /// Lints the files and saves what the cache learned.
        func lint() -> LintResult {
            let line = showProgress ? ProgressLine() : nil
            if let line {
                linter.progress = line.progress
                line.start()
            }
            var result = linter.lint(files: files)
            line?.finish()
            (linter.cache as? IncrementalCache)?.flush()
            if let severity = configuration.severity(of: "parse-failure") {
                for p in problems {
                    result.findings.append(
                        Finding(
                            rule: "parse-failure", path: p.path, line: 1, column: 1, severity: severity,
                            message: p.problem))
                }
            }
            // not linted, whether the rule reports it or not (as a file whose parse failed)
            result.filesFailed += problems.count
            result.filesChecked += problems.count
            return result
        }

        /// Refuses an output file that is one of the run's inputs: a linted file, the config, a
        /// baseline, the compilation database.
        func checkOutput(_ output: String?, option: String = "--output", baselines: [String?]) throws {
            try refuseOverwriting(
                output, option: option,
                inputs: [configPath].compactMap { $0 }.map { ("the config file", $0) }
                    + baselines.compactMap { $0 }.map { ("the baseline", $0) } + files.map { ("a linted file", $0) }
                    + [compileDatabase].compactMap { $0 }.map { ("the compilation database", $0) })
        }
    }

    /// Loads the config, collects and selects the files, sets up the linter. Problems throw
    /// `RunFailure`, which exits 2.
    /// `performance` is nil for `fix`, which has none of those options (a `ParsableArguments`
    /// made with `init()` has no values to read: only parsed ones do).
    /// `countServiceInjection`: `report` counts service-style injected reads (`ServiceInjection`).
    func prepare(
        performance: PerformanceOptions? = nil, isolation: IsolationOptions, quiet: Bool = false,
        countServiceInjection: Bool = false
    ) throws -> Prepared {
        let parseEveryFile = performance?.parseEveryFile ?? false
        var (configuration, configPath, recipe) = try loadConfiguration(
            isolation, countServiceInjection: countServiceInjection)
        let root = URL(fileURLWithPath: self.root ?? configuration.baseDirectory).standardizedFileURL.path
        var files: [String]
        var context: [String] = []
        var problems: [FileCollector.Problem] = []
        do {
            (files, problems) = try FileCollector(
                excludes: configuration.exclude, baseDirectory: configuration.baseDirectory
            ).collectReporting(paths)
            let collected = files
            if let changedSince {
                let selection = ChangedFiles.select(
                    files, changed: try ChangedFiles.since(changedSince, in: FileManager.default.currentDirectoryPath))
                files = (selection.changed + selection.includers).sorted()
                if !selection.includers.isEmpty {
                    note(
                        "di-lint: --changed-since: \(selection.changed.count) changed file(s), and \(selection.includers.count) that include a changed header"
                    )
                }
            }
            if let shard { files = try Shard(parsing: shard).select(files, root: root) }
            let selected = Set(files)
            context = collected.filter { !selected.contains($0) }
            // from every walked header, whatever the selection: shards and --changed-since runs share the map (and the cache keys)
            if configuration.headerMap, let map = try HeaderMap.write(files: collected) {
                configuration.headerMapFile = map
                recipe.headerMapFile = map
                if map.ambiguousNames > 0 {
                    note(
                        "di-lint: header map: \(map.ambiguousNames) of the tree's header names belong to several headers; includes of such a name resolve to the one with the fewest directories in its path unless a flag or the including file's directory finds it"
                    )
                }
            }
        } catch {
            throw RunFailure(error)
        }
        let linter = Linter(configuration: configuration)
        linter.contextFiles = context
        linter.parseEveryFile = parseEveryFile
        if let jobs = performance?.jobs { linter.jobs = jobs }
        // the run's budget is the parent's: the workers' configuration keeps the config file's
        linter.runTimeout =
            try isolation.runTimeout.map { try Configuration.runTimeout($0) } ?? configuration.runTimeout
        if !isolation.noIsolation {
            linter.isolation = WorkerIsolation(
                recipe: recipe, timeout: configuration.parseTimeout,
                memoryLimit: configuration.parseMemoryLimit << 20)
        }
        do {
            if let compileCommands {
                linter.compileArguments = try CompilationDatabase.load(directory: compileCommands)
            }
            if let performance, let cache = performance.cache {
                let store = try IncrementalCache(
                    directory: cache, configuration: configuration,
                    compileArguments: linter.compileArguments, parseEveryFile: parseEveryFile,
                    inputs: paths + [configPath].compactMap { $0 }, readOnly: performance.cacheReadOnly,
                    warn: { note("di-lint: warning: \($0)") })
                store.maxAge = performance.cacheMaxAge * 86_400
                linter.cache = store
            }
        } catch {
            throw RunFailure(error)
        }
        return Prepared(
            configuration: configuration, configPath: configPath, linter: linter, files: files, root: root,
            problems: problems, showProgress: ProgressLine.enabled(quiet: quiet),
            compileDatabase: compileCommands.map { $0 + "/compile_commands.json" })
    }

    /// The configuration, the file it was read from, and the recipe it was built by (the parse
    /// workers build theirs by it).
    private func loadConfiguration(_ isolation: IsolationOptions, countServiceInjection: Bool = false) throws -> (
        Configuration, String?, ConfigurationRecipe
    ) {
        let configuration: Configuration
        let choice =
            config.map { ConfigurationDiscovery.explicit($0) }
            ?? ConfigurationDiscovery.discover(from: FileManager.default.currentDirectoryPath)
        choice.notes.forEach(note)
        let path = choice.path
        var recipe = ConfigurationRecipe(
            configPath: path, containers: containers, exclude: exclude, headerMap: headerMap,
            parseTimeout: try isolation.parseTimeout.map { try Configuration.parseTimeout($0) },
            parseMemoryLimit: try isolation.parseMemoryLimit.map { try Configuration.parseMemoryLimit($0) })
        recipe.countServiceInjection = countServiceInjection
        do {
            configuration = try recipe.build()
        } catch {
            throw RunFailure(error)
        }
        guard !configuration.containers.isEmpty else {
            throw ValidationError(
                "no container to look for: name one with --container 'Type.accessor' or in .di-lint.yml under 'containers:'"
            )
        }
        return (configuration, path, recipe)
    }
}

/// Writes a report to `--output FILE` or standard output.
func emit(_ text: String, to output: String?) throws {
    guard let output else { return try StandardStreams.writeOutput(text) }
    var text = text
    do {
        // the text's own bytes, not a copy (a report of a million stale entries is hundreds of megabytes)
        try text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return try OutputFile.write(Data(), to: output) }
            try OutputFile.write(
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none),
                to: output)
        }
    } catch {
        throw RunFailure(error)
    }
}

/// One line on standard error.
func note(_ line: String) {
    StandardStreams.note(line)
}
