import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint`: the root command. `lint` runs when no subcommand is named.
struct DILintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "di-lint",
        abstract:
            "Find direct dependency-container access in C, Objective-C, C++ and Swift code, and gate its migration.",
        version: DILintVersion.current,
        subcommands: [
            LintCommand.self, FixCommand.self, InitCommand.self, ReportCommand.self, MergeCommand.self,
            RulesCommand.self,
        ],
        defaultSubcommand: LintCommand.self)
}

/// Exit codes: 0 clean, 1 findings at error severity, 2 usage or configuration error; 3 a
/// `fix --apply` that failed and could not put every file back.
enum ExitStatus {
    static let clean: Int32 = 0
    static let findings: Int32 = 1
    static let usage: Int32 = 2
    static let partlyWritten: Int32 = 3
}

/// A bad config, baseline, cache directory or git ref: exits 2 with the message alone, no usage text.
struct RunFailure: Error, CustomStringConvertible {
    let description: String
    init(_ error: Error) { description = "\(error)" }
    init(message: String) { description = message }
}

@main
enum Main {
    static func main() {
        if CommandLine.arguments.dropFirst().first == ParseWorker.command {
            ParseWorker.closeInheritedDescriptors()
            LibClang.preload()
            ParseWorker.serve() // a lint run's parse worker (hidden; see WorkerIsolation)
        }
        if CommandLine.arguments.dropFirst().first == "__clang-arguments" {
            // (hidden) for each path read from standard input, a line: the JSON array of the
            // arguments di-lint's parse of it starts with (`null` for Swift or an unreadable
            // file); the benchmarks run `clang -fsyntax-only` with them
            while let path = readLine() {
                let arguments = SourceLanguage.defaultClangArguments(path: path)
                let line = arguments.flatMap { try? JSONSerialization.data(withJSONObject: $0) }
                print(line.map { String(decoding: $0, as: UTF8.self) } ?? "null")
            }
            exit(0)
        }
        StandardStreams.prepare()
        // Commands that may parse in this process start loading libclang now, on another core,
        // beside argument parsing, configuration and the tree walk (the others never load it;
        // lint and report parse in workers, which load it themselves, and fix in the child
        // process FixSupervisor starts, unless told otherwise).
        let arguments = CommandLine.arguments.dropFirst()
        let first = arguments.first ?? ""
        let parsesHere =
            (first == "fix" && getenv(FixSupervisor.environmentKey) != nil)
            || arguments.contains("--no-isolation") || arguments.contains("--fixes")
        if !["merge", "rules", "help", "--help", "-h", "--version"].contains(first) && parsesHere {
            LibClang.preload()
        }
        do {
            var command = try DILintCommand.parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch let failure as RunFailure {
            StandardStreams.note("di-lint: error: " + Excerpt.message("\(failure)"))
            exit(ExitStatus.usage)
        } catch {
            let exitCode = DILintCommand.exitCode(for: error)
            if exitCode == .success {
                DILintCommand.exit(withError: error) // --help, --version
            }
            StandardStreams.note(Excerpt.message(DILintCommand.fullMessage(for: error)))
            exit(ExitStatus.usage)
        }
    }
}
