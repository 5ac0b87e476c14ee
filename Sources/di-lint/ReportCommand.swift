import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint report [PATH…]`: how far the migration has come, per file and per service.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Report migration progress per file and per service: direct, fallback and injected accesses.",
        discussion: "Migrated % = injected / (direct + fallback + injected); accesses inside the composition root are listed but not counted. A fallback still reaches the container when no bridge is injected, so a file with only fallbacks is 0% migrated (status 'bridged'). Exits 0 unless the options or config are wrong (2).")

    @OptionGroup var options: RunOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case markdown, json }

    @Option(help: "Output format: markdown (tables) or json.")
    var format: Format = .markdown

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    func run() throws {
        let prepared = try options.prepare()
        try prepared.checkOutput(output, baselines: [])
        let result = prepared.lint()
        let progress = MigrationProgress(accesses: result.accesses, filesLinted: result.filesChecked)
        try emit(format == .json ? progress.json() : progress.markdown(), to: output)
        note(TextReporter.summary(result))
    }
}
