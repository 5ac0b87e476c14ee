import ArgumentParser
import DILintEngine
import Foundation

/// What `lint` and `report` share: which files, which config, how to run the linter.
struct RunOptions: ParsableArguments {
    @Argument(help: "Files and directories to lint.")
    var paths: [String] = ["."]

    @Option(help: "Configuration file (default: .di-lint.yml found from the working directory upward).")
    var config: String?

    @Option(name: .customLong("container"),
            help: "A container accessor to look for: 'Type.accessor' (Objective-C, Swift), 'Type::accessor' (C++) or 'function()' (C). Repeatable; adds to the config.")
    var containers: [String] = []

    @Option(help: "Skip paths matching this glob (*, **, ?). Repeatable; adds to the config's exclude list.")
    var exclude: [String] = []

    @Option(name: .customShort("p"), help: "Directory holding compile_commands.json: parse with each file's real flags.")
    var compileCommands: String?

    @Option(help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Parse every file, even those whose text names no container (slower; the result is the same).")
    var parseEveryFile = false

    @Option(help: ArgumentHelp("Project root: baseline paths, fingerprints, shards and SARIF URIs are relative to it (default: the config file's directory, else the working directory).", valueName: "dir"))
    var root: String?

    @Option(help: ArgumentHelp("Lint only files changed against this git ref (committed since, staged, unstaged, or untracked).", valueName: "ref"))
    var changedSince: String?

    @Option(help: ArgumentHelp("Lint only shard K of N (1-based), picked by a hash of each file's path; `di-lint merge` joins the outputs.", valueName: "K/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Keep per-file outcomes in this directory and reuse them for unchanged files (.di-lint-cache is the usual name).", valueName: "dir"))
    var cache: String?

    @Option(help: ArgumentHelp("Delete cache entries no run has used for this many days (checked at most once a day).", valueName: "days"))
    var cacheMaxAge: Double = 30

    /// A configured linter and the files it is to lint.
    struct Prepared {
        var configuration: Configuration
        var linter: Linter
        var files: [String]
        var root: String

        /// Lints the files and saves what the cache learned.
        func lint() -> LintResult {
            let result = linter.lint(files: files)
            (linter.cache as? IncrementalCache)?.flush()
            return result
        }
    }

    /// Loads the config, collects and selects the files, sets up the linter. Problems throw
    /// `RunFailure`, which exits 2.
    func prepare() throws -> Prepared {
        let configuration = try loadConfiguration()
        let root = URL(fileURLWithPath: self.root ?? configuration.baseDirectory).standardizedFileURL.path
        var files: [String]
        var context: [String] = []
        do {
            files = try FileCollector(excludes: configuration.exclude, baseDirectory: configuration.baseDirectory).collect(paths)
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
        } catch {
            throw RunFailure(error)
        }
        let linter = Linter(configuration: configuration)
        linter.contextFiles = context
        linter.parseEveryFile = parseEveryFile
        if let jobs { linter.jobs = max(1, jobs) }
        do {
            if let compileCommands { linter.compileArguments = try CompilationDatabase.load(directory: compileCommands) }
            if let cache {
                let store = try IncrementalCache(directory: cache, configuration: configuration,
                                                 compileArguments: linter.compileArguments, parseEveryFile: parseEveryFile)
                guard cacheMaxAge > 0 else { throw ConfigError.invalid("--cache-max-age must be a positive number of days") }
                store.maxAge = cacheMaxAge * 86_400
                linter.cache = store
            }
        } catch {
            throw RunFailure(error)
        }
        return Prepared(configuration: configuration, linter: linter, files: files, root: root)
    }

    private func loadConfiguration() throws -> Configuration {
        var configuration: Configuration
        do {
            if let path = config ?? Configuration.discover(from: FileManager.default.currentDirectoryPath) {
                configuration = try Configuration.load(path: path)
            } else {
                configuration = Configuration()
            }
            configuration.containers += try containers.map(ContainerSpec.init(parsing:))
        } catch {
            throw RunFailure(error)
        }
        configuration.exclude += exclude
        guard !configuration.containers.isEmpty else {
            throw ValidationError("no container to look for: name one with --container 'Type.accessor' or in .di-lint.yml under 'containers:'")
        }
        return configuration
    }
}

/// Writes a report to `--output FILE` or standard output.
func emit(_ text: String, to output: String?) throws {
    guard let output else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    do { try OutputFile.write(Data(text.utf8), to: output) } catch { throw RunFailure(error) }
}

/// One line on standard error.
func note(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
