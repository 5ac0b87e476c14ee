import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint fix [PATH…] --phase inject|finish`: plans the migration's edits, verifies them in
/// memory, prints the diff (default) or writes the files (`--apply`).
struct FixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Rewrite container accesses: inject the bridge with a fallback, or finish by removing the fallbacks.",
        discussion: """
        A dry run by default: the unified diff on standard output (git apply accepts it) and a summary on standard \
        error. Every edit is re-parsed and re-linted in memory before it is shown or written. Exits 0 when everything \
        in scope was fixed, 1 when manual items or refused groups remain, 2 on a usage or configuration error.
        """)

    @OptionGroup var options: RunOptions

    @Option(help: "inject: direct access → the bridge with a container fallback. finish: fallback → the bridge alone.")
    var phase: FixPhase

    @Option(name: .customLong("service"), help: ArgumentHelp("Migrate only this service (repeatable).", valueName: "name"))
    var services: [String] = []

    @Flag(help: "Write the edits to the files (atomically; refused when a file changed since planning).")
    var apply = false

    @Option(help: ArgumentHelp("Write the diff to this file instead of standard output.", valueName: "file"))
    var patch: String?

    @Option(help: "Output: diff (a unified diff), json (the plan: groups, edits, manual items, checks) or sarif (results with fixes).")
    var format: FixOutputFormat = .diff

    mutating func run() throws {
        // Isolated (the default): the run is a child process that a file crashing libclang,
        // running it out of memory or parsing past the deadline ends; that file is left out
        // (a manual item) and the run starts again (see FixSupervisor).
        let supervision = FixSupervision.fromEnvironment()
        if supervision == nil && !options.noIsolation {
            throw ExitCode(FixSupervisor.run(arguments: CommandLine.arguments))
        }
        let prepared = try options.prepare()
        supervision?.start(configuration: prepared.configuration)
        let fixer = Fixer(configuration: prepared.configuration)
        fixer.compileArguments = prepared.linter.compileArguments
        fixer.services = Set(services)
        fixer.supervision = supervision
        fixer.leftOut = supervision?.leftOut ?? [:]
        let plan = fixer.plan(files: prepared.files, phase: phase)
        switch format {
        case .json:
            try StandardStreams.writeOutput(plan.json())
        case .sarif:
            try StandardStreams.writeOutput(plan.sarif(root: prepared.root))
        case .diff:
            let diff = plan.unifiedDiff()
            FixTrace.mark("diff")
            if let patch {
                do { try OutputFile.write(Data(diff), to: patch) } catch { throw RunFailure(error) }
            } else if !apply {
                try StandardStreams.writeOutput(String(decoding: diff, as: UTF8.self))
            }
        }
        plan.details.forEach(note)
        // what the walk could not take (a symbolic link out of the repository, an unreadable directory)
        for p in prepared.problems { note("di-lint fix: not fixed: \(p.path): \(p.problem)") }
        if apply {
            do {
                let written = try FixApplier.apply(plan)
                note("di-lint fix: wrote \(written.count) file\(written.count == 1 ? "" : "s")")
            } catch {
                note("di-lint fix: error: \(error)")
                throw ExitCode(ExitStatus.findings)
            }
        }
        note("di-lint fix: \(plan.summary)\(apply ? "" : " (dry run; --apply writes)")")
        throw ExitCode(plan.isComplete && prepared.problems.isEmpty ? ExitStatus.clean : ExitStatus.findings)
    }
}

enum FixOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case diff, json, sarif
}

extension FixPhase: ExpressibleByArgument {}
