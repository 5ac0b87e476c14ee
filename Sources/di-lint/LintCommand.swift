import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint lint [PATH…]`: lint files and directories, and gate on findings a baseline does not accept.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Lint files and directories (\(SourceLanguage.lintedExtensions.sorted().map { "." + $0 }.joined(separator: " "))): C, Objective-C and C++ with libclang, Swift with swift-syntax.",
        discussion: """
            Exits 0 when no error-severity finding is new, 1 when one is, 2 on a usage, config or baseline error.

            Examples:
              di-lint Sources/ --container 'Container.sharedInstance'
              di-lint Sources/ --write-baseline .di-lint-baseline.json
              di-lint Sources/ --baseline .di-lint-baseline.json --format sarif --output di-lint.sarif
              di-lint --changed-since origin/main --baseline .di-lint-baseline.json --cache .di-lint-cache
            """)

    @OptionGroup(title: "Selection") var options: RunOptions
    @OptionGroup(title: "Output") var out: LintOutputOptions
    @OptionGroup(title: "Baseline") var gate: BaselineOptions
    @OptionGroup(title: "Performance") var performance: PerformanceOptions
    @OptionGroup(title: "Isolation") var isolation: IsolationOptions

    var format: OutputFormat { out.format }
    var output: String? { out.output }
    var fixes: Bool { out.fixes }
    var baseline: String? { gate.baseline }
    var writeBaseline: String? { gate.writeBaseline }
    var updateBaseline: Bool { gate.updateBaseline }

    func validate() throws {
        if writeBaseline != nil && (options.shard != nil || options.changedSince != nil) {
            throw ValidationError("--write-baseline needs the whole file set: drop --shard and --changed-since")
        }
    }

    mutating func run() throws {
        let prepared = try options.prepare(performance: performance, isolation: isolation, quiet: out.quiet)
        try prepared.checkOutput(output, baselines: [baseline, writeBaseline])
        try prepared.checkOutput(writeBaseline, option: "--write-baseline", baselines: [baseline])
        // Read the baseline before linting, so a broken one fails fast.
        var accepted: Baseline?
        do { accepted = try baseline.map { try Baseline.load(path: $0) } } catch { throw RunFailure(error) }

        var result = prepared.lint()
        if fixes {
            LintFixes.attach(
                to: &result.findings, files: prepared.files, configuration: prepared.configuration,
                compileArguments: prepared.linter.compileArguments, root: prepared.root)
        }
        // Fingerprints match a baseline and are shown in JSON and SARIF; a text or GitHub report
        // of a run with no baseline shows none (a SHA-256 per finding, a tenth of a large file's run).
        var gate = BaselineGate(accepted: accepted, path: baseline, update: updateBaseline, writePath: writeBaseline)
        accepted = nil // the gate holds the only copy (a large baseline's entries are most of the run's memory)
        let notes: [String]
        do {
            notes = try gate.apply(
                to: &result, lintedFiles: prepared.files, root: prepared.root,
                fingerprints: format == .json || format == .sarif)
        } catch { throw RunFailure(error) }
        if baseline != nil {
            // In writes of 64 KiB, not one per line: a baseline of a million stale entries made a
            // million system calls.
            var stale = ""
            for e in result.staleBaselineEntries {
                stale += BaselineGate.staleLine(e) + "\n"
                if stale.utf8.count >= 1 << 16 { StandardStreams.raw(stale); stale = "" }
            }
            if !stale.isEmpty { StandardStreams.raw(stale) }
        }
        notes.forEach(note)

        try emit(format.reporter(root: prepared.root).render(result), to: output)
        note(TextReporter.summary(result))
        if baseline != nil {
            note(
                "di-lint: baseline: \(result.baselinedCount) accepted, \(result.findings.count - result.baselinedCount) new (\(result.newErrorCount) at error severity), \(result.staleBaselineEntries.count) stale"
            )
        }
        throw ExitCode(result.newErrorCount > 0 ? ExitStatus.findings : ExitStatus.clean)
    }
}

/// `lint`'s report: its format, its file, the progress line and the fixes put on findings.
struct LintOutputOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "text, json, sarif (SARIF 2.1.0, for code scanning) or github (workflow annotations).", valueName: "format")
    )
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No progress line on a terminal (never shown when standard error is not one).")
    var quiet = false

    @Flag(
        help:
            "Put each container finding's verified fix in the JSON (fix) and SARIF (fixes) output; costs about a fix run."
    )
    var fixes = false
}

/// The gate's baseline: accept today's findings, fail on new ones.
struct BaselineOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Accept the findings in this baseline; only new ones fail.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every current finding to this baseline, accepting them all.", valueName: "file"))
    var writeBaseline: String?

    @Flag(help: "With --baseline: drop its stale entries (it never gains entries).")
    var updateBaseline = false

    func validate() throws {
        if baseline != nil && writeBaseline != nil {
            throw ValidationError(
                "--baseline and --write-baseline exclude each other; use --update-baseline to drop stale entries")
        }
        if updateBaseline && baseline == nil { throw ValidationError("--update-baseline needs --baseline FILE") }
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, github

    func reporter(root: String) -> Reporter {
        switch self {
        case .text: return NewFindingsOnly(TextReporter())
        case .json: return JSONReporter()
        case .sarif: return SARIFReporter(root: root)
        case .github: return GitHubReporter()
        }
    }
}

/// Text output lists new findings only; baselined ones are counted in the summary line.
struct NewFindingsOnly: Reporter {
    let base: Reporter
    init(_ base: Reporter) { self.base = base }

    func render(_ result: LintResult) -> String {
        // Without baselined findings the result is shown as it is: no copy of every finding.
        guard result.baselinedCount > 0 else { return base.render(result) }
        var shown = result
        shown.findings.removeAll(where: \.baselined)
        return base.render(shown)
    }
}
