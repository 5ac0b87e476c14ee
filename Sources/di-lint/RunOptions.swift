import ArgumentParser
import DILintEngine
import Foundation

/// What `lint` and `report` share: which files, which config, how to run the linter.
struct RunOptions: ParsableArguments {
    @Argument(help: "Files and directories to lint.")
    var paths: [String] = ["."]

    @Option(help: "Configuration file (default: .di-lint.yml found from the working directory upward; not one in a directory every user may write).")
    var config: String?

    @Option(name: .customLong("container"),
            help: "A container accessor to look for: 'Type.accessor' (Objective-C, Swift), 'Type::accessor' (C++) or 'function()' (C). Repeatable; adds to the config.")
    var containers: [String] = []

    @Option(help: "Skip paths matching this glob (*, **, ?). Repeatable; adds to the config's exclude list.")
    var exclude: [String] = []

    @Option(name: .customShort("p"), help: "Directory holding compile_commands.json: parse with each file's real flags.")
    var compileCommands: String?

    @Option(help: "Worker threads, 1 to 1024 (default: the number of cores).")
    var jobs: Int?

    @Flag(name: .shortAndLong, help: "No progress line on a terminal (it is never shown when standard error is not a terminal).")
    var quiet = false

    @Flag(help: "Parse every file, even those whose text names no container (slower; the result is the same).")
    var parseEveryFile = false

    @Option(help: ArgumentHelp("Project root: baseline paths, fingerprints, shards and SARIF URIs are relative to it (default: the config file's directory, else the working directory).", valueName: "dir"))
    var root: String?

    @Option(help: ArgumentHelp("Lint only files changed against this git ref (committed since, staged, unstaged, or untracked).", valueName: "ref"))
    var changedSince: String?

    @Option(help: ArgumentHelp("Lint only shard K of N (1-based), picked by a hash of each file's path; `di-lint merge` joins the outputs.", valueName: "K/N"))
    var shard: String?

    @Flag(inversion: .prefixedNo, help: "Find the tree's headers by bare name (\"X.h\", <Dir/X.h>) without flags, after every flag (overrides the config's header-map; default: off).")
    var headerMap: Bool?

    @Option(help: ArgumentHelp("Keep per-file outcomes in this directory and reuse them for unchanged files (.di-lint-cache is the usual name; a directory of di-lint's own, never tracked by git).", valueName: "dir"))
    var cache: String?

    @Flag(help: "Read the --cache directory's entries, never write, touch or prune it (a CI gate's cache restored from its protected branch's runs).")
    var cacheReadOnly = false

    @Option(help: ArgumentHelp("Delete cache entries no run has used for this many days (checked at most once a day).", valueName: "days"))
    var cacheMaxAge: Double = 30

    @Option(help: ArgumentHelp("lint, report: a file whose parse takes longer is a parse-failure, its worker killed; fix: a manual item, the others fixed (over the config's parse-timeout; default 60).", valueName: "seconds"))
    var parseTimeout: String?

    @Option(help: ArgumentHelp("A budget for the whole run: past it no file is parsed; lint, report: each file left is a parse-failure, a parse under way has its worker killed; fix: a manual item (over the config's run-timeout; default 3600).", valueName: "seconds"))
    var runTimeout: String?

    @Option(help: ArgumentHelp("lint, report: address-space limit of each parse worker; a file needing more is a parse-failure (fix: of its process; a manual item) (over the config's parse-memory-limit; default 4096).", valueName: "MiB"))
    var parseMemoryLimit: String?

    @Flag(help: "lint, report: parse in di-lint's own process, on threads, with no per-file deadline, memory limit or crash isolation; fix: in its own process, no memory limit or crash isolation, a parse past the deadline ends the run (exit 2) (faster to start; for trusted input).")
    var noIsolation = false

    func validate() throws {
        if let jobs, !(1...1024).contains(jobs) { throw ValidationError("--jobs must be a number of worker threads from 1 to 1024, not \(jobs)") }
        do {
            _ = try parseTimeout.map { try Configuration.parseTimeout($0) }
            _ = try runTimeout.map { try Configuration.runTimeout($0) }
            _ = try parseMemoryLimit.map { try Configuration.parseMemoryLimit($0) }
        } catch {
            throw ValidationError("--\(error)")
        }
        if cacheReadOnly && cache == nil { throw ValidationError("--cache-read-only needs --cache DIR") }
        guard cacheMaxAge > 0 else { throw ValidationError("--cache-max-age must be a positive number of days") }
    }

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
                    result.findings.append(Finding(rule: "parse-failure", path: p.path, line: 1, column: 1, severity: severity, message: p.problem))
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
            try refuseOverwriting(output, option: option, inputs: [configPath].compactMap { $0 }.map { ("the config file", $0) }
                + baselines.compactMap { $0 }.map { ("the baseline", $0) } + files.map { ("a linted file", $0) }
                + [compileDatabase].compactMap { $0 }.map { ("the compilation database", $0) })
        }
    }

    /// Loads the config, collects and selects the files, sets up the linter. Problems throw
    /// `RunFailure`, which exits 2.
    func prepare() throws -> Prepared {
        var (configuration, configPath, recipe) = try loadConfiguration()
        let root = URL(fileURLWithPath: self.root ?? configuration.baseDirectory).standardizedFileURL.path
        var files: [String]
        var context: [String] = []
        var problems: [FileCollector.Problem] = []
        do {
            (files, problems) = try FileCollector(excludes: configuration.exclude, baseDirectory: configuration.baseDirectory).collectReporting(paths)
            let collected = files
            if let changedSince {
                let selection = ChangedFiles.select(files, changed: try ChangedFiles.since(changedSince, in: FileManager.default.currentDirectoryPath))
                files = (selection.changed + selection.includers).sorted()
                if !selection.includers.isEmpty {
                    note("di-lint: --changed-since: \(selection.changed.count) changed file(s), and \(selection.includers.count) that include a changed header")
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
                    note("di-lint: header map: \(map.ambiguousNames) of the tree's header names belong to several headers; includes of such a name resolve to the one with the fewest directories in its path unless a flag or the including file's directory finds it")
                }
            }
        } catch {
            throw RunFailure(error)
        }
        let linter = Linter(configuration: configuration)
        linter.contextFiles = context
        linter.parseEveryFile = parseEveryFile
        if let jobs { linter.jobs = jobs }
        // the run's budget is the parent's: the workers' configuration keeps the config file's
        linter.runTimeout = try runTimeout.map { try Configuration.runTimeout($0) } ?? configuration.runTimeout
        if !noIsolation {
            linter.isolation = WorkerIsolation(recipe: recipe, timeout: configuration.parseTimeout,
                                               memoryLimit: configuration.parseMemoryLimit << 20)
        }
        do {
            if let compileCommands { linter.compileArguments = try CompilationDatabase.load(directory: compileCommands) }
            if let cache {
                let store = try IncrementalCache(directory: cache, configuration: configuration,
                                                 compileArguments: linter.compileArguments, parseEveryFile: parseEveryFile,
                                                 inputs: paths + [configPath].compactMap { $0 }, readOnly: cacheReadOnly,
                                                 warn: { note("di-lint: warning: \($0)") })
                store.maxAge = cacheMaxAge * 86_400
                linter.cache = store
            }
        } catch {
            throw RunFailure(error)
        }
        return Prepared(configuration: configuration, configPath: configPath, linter: linter, files: files, root: root,
                        problems: problems, showProgress: ProgressLine.enabled(quiet: quiet),
                        compileDatabase: compileCommands.map { $0 + "/compile_commands.json" })
    }

    /// The configuration, the file it was read from, and the recipe it was built by (the parse
    /// workers build theirs by it).
    private func loadConfiguration() throws -> (Configuration, String?, ConfigurationRecipe) {
        let configuration: Configuration
        let choice = config.map { ConfigurationDiscovery.explicit($0) }
            ?? ConfigurationDiscovery.discover(from: FileManager.default.currentDirectoryPath)
        choice.notes.forEach(note)
        let path = choice.path
        let recipe = ConfigurationRecipe(configPath: path, containers: containers, exclude: exclude, headerMap: headerMap,
                                         parseTimeout: try parseTimeout.map { try Configuration.parseTimeout($0) },
                                         parseMemoryLimit: try parseMemoryLimit.map { try Configuration.parseMemoryLimit($0) })
        do {
            configuration = try recipe.build()
        } catch {
            throw RunFailure(error)
        }
        guard !configuration.containers.isEmpty else {
            throw ValidationError("no container to look for: name one with --container 'Type.accessor' or in .di-lint.yml under 'containers:'")
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
            try OutputFile.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none), to: output)
        }
    } catch {
        throw RunFailure(error)
    }
}

/// One line on standard error.
func note(_ line: String) {
    StandardStreams.note(line)
}
