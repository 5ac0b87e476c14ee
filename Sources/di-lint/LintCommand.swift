import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint lint [PATH…]`: lint files and directories.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint files and directories (.c .h .m .mm .cc .cpp .cxx .hh .hpp).")

    @Argument(help: "Files and directories to lint.")
    var paths: [String] = ["."]

    @Option(help: "Configuration file (default: .di-lint.yml found from the working directory upward).")
    var config: String?

    @Option(name: .customLong("container"),
            help: "A container accessor to look for: 'Type.accessor' (Objective-C, Swift), 'Type::accessor' (C++) or 'function()' (C). Repeatable; adds to the config.")
    var containers: [String] = []

    @Option(help: "Skip paths matching this glob (*, **, ?). Repeatable; adds to the config's exclude list.")
    var exclude: [String] = []

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(name: .customShort("p"), help: "Directory holding compile_commands.json: parse with each file's real flags.")
    var compileCommands: String?

    @Option(help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Parse every file, even those whose text names no container (slower; the result is the same).")
    var parseEveryFile = false

    mutating func run() throws {
        let configuration = try loadConfiguration()
        let files: [String]
        do {
            files = try FileCollector(excludes: configuration.exclude, baseDirectory: configuration.baseDirectory).collect(paths)
        } catch {
            throw ValidationError("\(error)")
        }
        let linter = Linter(configuration: configuration)
        linter.parseEveryFile = parseEveryFile
        if let jobs { linter.jobs = max(1, jobs) }
        if let compileCommands {
            do { linter.compileArguments = try CompilationDatabase.load(directory: compileCommands) } catch { throw ValidationError("\(error)") }
        }
        let result = linter.lint(files: files)
        let rendered = format.reporter.render(result)
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(rendered.utf8)) else {
                throw ValidationError("\(output): cannot write the report")
            }
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        FileHandle.standardError.write(Data((TextReporter.summary(result) + "\n").utf8))
        throw ExitCode(result.errorCount > 0 ? ExitStatus.findings : ExitStatus.clean)
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
            throw ValidationError("\(error)")
        }
        configuration.exclude += exclude
        guard !configuration.containers.isEmpty else {
            throw ValidationError("no container to look for: name one with --container 'Type.accessor' or in .di-lint.yml under 'containers:'")
        }
        return configuration
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    var reporter: Reporter {
        switch self {
        case .text: return TextReporter()
        case .json: return JSONReporter()
        }
    }
}
