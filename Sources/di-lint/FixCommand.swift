import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint fix [PATH…] --phase inject|finish`: plans the migration's edits, verifies them in
/// memory, prints the diff (default) or writes the files (`--apply`).
struct FixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract:
            "Rewrite container accesses: inject each service (the service itself, or a bridge) with a fallback, or finish by removing the fallbacks.",
        discussion: """
            A dry run by default: the unified diff on standard output (git apply accepts it) and a summary on standard \
            error. Every edit is re-parsed and re-linted in memory before it is shown or written. Only regular files \
            inside the repository (the directory holding .git, else the working directory) are rewritten. --apply writes \
            every file or none, under a lock on the tree. Exits 0 when everything in scope was fixed, 1 when manual items \
            or refused groups remain, 2 on a usage or configuration error or an apply that wrote nothing (the tree is as \
            before), 3 when an apply failed and could not put every file back (they are listed).

            Examples:
              di-lint fix --phase inject Sources/                 # review the diff
              di-lint fix --phase inject Sources/ --apply         # write it
              di-lint fix --phase finish Sources/ --service tabs  # one service
            """)

    @OptionGroup(title: "Selection") var options: RunOptions
    @OptionGroup(title: "Isolation") var isolation: IsolationOptions

    @Option(
        help: ArgumentHelp(
            "inject: direct access → the bridge with a container fallback. wire: each migrated type given the bridge where the run builds it. finish: fallback → the bridge alone. bridge: write the bridge facade the accesses need.",
            valueName: "inject|wire|finish|bridge"))
    var phase: FixPhase

    @Option(
        name: .customLong("service"), help: ArgumentHelp("Migrate only this service (repeatable).", valueName: "name"))
    var services: [String] = []

    @Option(
        name: .customLong("types-from"),
        help: ArgumentHelp(
            "Also read declarations (protocols, the container's members and their types) from the Swift files under this directory; they are never edited (repeatable).",
            valueName: "dir"))
    var typesFrom: [String] = []

    @Flag(help: "Write the edits to the files (atomically; refused when a file changed since planning).")
    var apply = false

    @Flag(
        help:
            "Also show and write the unsafe groups (behaviour may change: a read through what a C function receives, a fallback removed). Without it they are withheld, and listed."
    )
    var unsafe = false

    @Option(help: ArgumentHelp("Write the diff to this file instead of standard output.", valueName: "file"))
    var patch: String?

    @Option(
        help: ArgumentHelp(
            "diff (a unified diff), json (the plan: groups, edits, manual items, checks) or sarif (results with fixes).",
            valueName: "format"))
    var format: FixOutputFormat = .diff

    @Option(
        help: ArgumentHelp(
            "Write the run as one patch per unit into --patch-dir, in landing order, each verified on the ones before it.",
            valueName: "service|directory|owners"))
    var split: SplitMode?

    @Option(
        name: .customLong("patch-dir"),
        help: ArgumentHelp(
            "With --split: the directory for the patches and summary (created; must be empty).", valueName: "dir"))
    var patchDirectory: String?

    @Flag(help: "With --split: write into a --patch-dir that holds files (its earlier patches are replaced).")
    var force = false

    /// Whether the run writes to standard output (the diff of a dry run, the JSON or SARIF plan).
    var writesStandardOutput: Bool { format != .diff || (patch == nil && !apply) }

    mutating func run() throws {
        // a report for a standard output that was closed fails before the work (the child
        // process below gets /dev/null in its place, as this process did, and could not tell)
        if StandardStreams.outputWasClosed && writesStandardOutput { throw StandardStreams.closedOutput }
        try checkSplit()
        for dir in typesFrom {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw RunFailure(message: "--types-from \(dir): no such directory")
            }
        }
        // Isolated (the default): the run is a child process that a file crashing libclang,
        // running it out of memory or parsing past the deadline ends; that file is left out
        // (a manual item) and the run starts again (see FixSupervisor).
        let supervision = FixSupervision.fromEnvironment()
        if supervision == nil && !isolation.noIsolation {
            throw ExitCode(FixSupervisor.run(arguments: CommandLine.arguments))
        }
        FixTrace.mark("child start")
        let prepared = try options.prepare(isolation: isolation)
        FixTrace.mark("prepare")
        try prepared.checkOutput(patch, option: "--patch", baselines: [])
        // an apply holds the tree's lock from before it plans until it has written, so that two
        // applies run one after the other, each planning on what the other wrote; an apply that
        // ended midway (killed) is undone first, unless another fix is writing the tree now
        let tree = FixTree.locate()
        var held: FixTree.Lock?
        do {
            if apply {
                held = try tree.lock(wait: FixApplier.lockWait) {
                    note("di-lint fix: waiting for another di-lint fix that is writing this tree (\(tree.lockPath))")
                }
                FixApplier.recoverInterrupted(tree, note: note)
            } else {
                var st = stat()
                if lstat(tree.journalPath, &st) == 0, let lock = try tree.lock(wait: 0) {
                    FixApplier.recoverInterrupted(tree, note: note)
                    lock.release()
                }
            }
        } catch {
            throw RunFailure(error)
        }
        defer { held?.release() }
        FixTrace.mark("tree lock")
        supervision?.start(configuration: prepared.configuration)
        let fixer = Fixer(configuration: prepared.configuration)
        fixer.compileArguments = prepared.linter.compileArguments
        fixer.services = Set(services)
        fixer.declarationRoots = typesFrom
        fixer.supervision = supervision
        fixer.leftOut = supervision?.leftOut ?? [:]
        fixer.tree = tree
        if let seconds = prepared.linter.runTimeout {
            fixer.runBudget = RunBudget(seconds: seconds, from: supervision?.started ?? RunBudget.now())
        }
        var plan = fixer.plan(files: prepared.files, phase: phase)
        FixTrace.mark("plan returned")
        if !unsafe { plan.withholdUnsafe() }
        // what the walk could not take (a symbolic link out of the repository, an unreadable
        // directory) is a manual item, in every output
        for p in prepared.problems {
            let detail =
                p.problem.hasPrefix("file not linted: ")
                ? String(p.problem.dropFirst("file not linted: ".count)) : p.problem
            plan.manual.append(
                ManualItem(path: p.path, line: 1, column: 1, expression: "", reason: .notWritable, detail: detail))
        }
        if let split { try writeSplit(plan, mode: split, fixer: fixer, tree: tree) }
        switch format {
        case .json:
            try StandardStreams.writeOutput(plan.json())
        case .sarif:
            try StandardStreams.writeOutput(plan.sarif(root: prepared.root))
        case .diff:
            // the files' bytes as they are: a diff of a file that is not UTF-8 applies to it
            let diff = plan.unifiedDiff()
            FixTrace.mark("diff")
            if let patch {
                do { try OutputFile.write(Data(diff), to: patch) } catch { throw RunFailure(error) }
            } else if !apply {
                try diff.withUnsafeBufferPointer { try StandardStreams.writeOutput(bytes: $0) }
            }
        }
        plan.details.forEach(note)
        if apply {
            do {
                let written = try FixApplier.apply(plan, tree: tree, held: held, note: note)
                note("di-lint fix: wrote \(written.count) file\(written.count == 1 ? "" : "s")")
            } catch let failure as FixApplier.Failure {
                note("di-lint fix: error: \(failure)")
                failure.details.forEach { note("di-lint fix: \($0)") }
                throw ExitCode(failure.unchanged ? ExitStatus.usage : ExitStatus.partlyWritten)
            }
        }
        FixTrace.mark("output written")
        note("di-lint fix: \(plan.summary)\(apply ? "" : " (dry run; --apply writes)")")
        throw ExitCode(plan.isComplete ? ExitStatus.clean : ExitStatus.findings)
    }
}

enum FixOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case diff, json, sarif
}

extension FixPhase: ExpressibleByArgument {}
extension SplitMode: ExpressibleByArgument {}
