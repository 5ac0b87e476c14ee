import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint lint [PATH…]`: lint files and directories, and gate on findings a baseline does not accept.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint files and directories (\(SourceLanguage.lintedExtensions.sorted().map { "." + $0 }.joined(separator: " "))): C, Objective-C and C++ with libclang, Swift with swift-syntax.",
        discussion: "Exits 0 when no error-severity finding is new, 1 when one is, 2 on a usage, config or baseline error.")

    @OptionGroup var options: RunOptions

    @Option(help: "Output format: text, json, sarif (SARIF 2.1.0, for code scanning) or github (workflow annotations).")
    var format: OutputFormat = .text

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: ArgumentHelp("Accept the findings listed in this baseline file; only new findings fail.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every current finding to this baseline file, accepting them all.", valueName: "file"))
    var writeBaseline: String?

    @Flag(help: "With --baseline: rewrite it without its stale entries (it never gains entries).")
    var updateBaseline = false

    @Flag(help: "Plan each container finding's fix as `di-lint fix` does (verified, not written) and put it in the JSON (`fix`) and SARIF (`fixes`) output; costs about a fix run.")
    var fixes = false

    func validate() throws {
        if baseline != nil && writeBaseline != nil {
            throw ValidationError("--baseline and --write-baseline exclude each other; use --update-baseline to drop stale entries")
        }
        if updateBaseline && baseline == nil { throw ValidationError("--update-baseline needs --baseline FILE") }
        if writeBaseline != nil && (options.shard != nil || options.changedSince != nil) {
            throw ValidationError("--write-baseline needs the whole file set: drop --shard and --changed-since")
        }
    }

    mutating func run() throws {
        let prepared = try options.prepare()
        try prepared.checkOutput(output, baselines: [baseline, writeBaseline])
        try prepared.checkOutput(writeBaseline, option: "--write-baseline", baselines: [baseline])
        // Read the baseline before linting, so a broken one fails fast.
        var accepted: Baseline?
        do { accepted = try baseline.map { try Baseline.load(path: $0) } } catch { throw RunFailure(error) }

        var result = prepared.lint()
        if fixes {
            LintFixes.attach(to: &result.findings, files: prepared.files, configuration: prepared.configuration,
                             compileArguments: prepared.linter.compileArguments, root: prepared.root)
        }
        // Fingerprints match a baseline and are shown in JSON and SARIF; a text or GitHub report
        // of a run with no baseline shows none (a SHA-256 per finding, a tenth of a large file's run).
        var gate = BaselineGate(accepted: accepted, path: baseline, update: updateBaseline, writePath: writeBaseline)
        accepted = nil // the gate holds the only copy (a large baseline's entries are most of the run's memory)
        let notes: [String]
        do {
            notes = try gate.apply(to: &result, lintedFiles: prepared.files, root: prepared.root, fingerprints: format == .json || format == .sarif)
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
            note("di-lint: baseline: \(result.baselinedCount) accepted, \(result.findings.count - result.baselinedCount) new (\(result.newErrorCount) at error severity), \(result.staleBaselineEntries.count) stale")
        }
        throw ExitCode(result.newErrorCount > 0 ? ExitStatus.findings : ExitStatus.clean)
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
