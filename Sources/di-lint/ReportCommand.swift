import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint report [PATH…]`: how far the migration has come, per file and per service.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report migration progress per file and per service: direct, fallback and injected accesses.",
        discussion: """
        Migrated % = injected / (direct + fallback + injected); accesses inside the composition root are listed but not counted. A fallback still reaches the container when no bridge is injected, so a file with only fallbacks is 0% migrated (status 'bridged'). A file that could not be linted is counted and listed as such, its accesses unknown. Exits 0, 1 when a file could not be linted (while parse-failure is at error severity, as lint's gate), 2 when the options or config are wrong.

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

    func run() throws {
        let prepared = try options.prepare(performance: performance, isolation: isolation, quiet: out.quiet)
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
