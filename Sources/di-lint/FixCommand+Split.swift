import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint fix --split MODE --patch-dir DIR`: the run as numbered patches (see `SplitPlan`).
extension FixCommand {
    /// The options that go with --split, checked before anything is planned.
    func checkSplit() throws {
        guard let split else {
            if patchDirectory != nil { throw RunFailure(message: "--patch-dir needs --split service|directory|owners") }
            if force { throw RunFailure(message: "--force goes with --split (it lets --patch-dir hold files)") }
            return
        }
        guard let patchDirectory else { throw RunFailure(message: "--split \(split.rawValue) needs --patch-dir DIR") }
        if apply {
            throw RunFailure(message: "--split writes patches, not the tree: it cannot be combined with --apply")
        }
        if patch != nil {
            throw RunFailure(message: "--split cannot be combined with --patch (the patches go to --patch-dir)")
        }
        if format == .sarif {
            throw RunFailure(message: "--split prints its summary as text or --format json, not sarif")
        }
        do { try SplitPlan.checkDirectory(patchDirectory, force: force) } catch { throw RunFailure(error) }
    }

    /// Splits the verified plan, writes the patches and their summary, prints the summary (the
    /// table, or JSON with --format json) and ends the run: 0 when everything in scope was fixed
    /// and every patch verified, else 1.
    func writeSplit(_ plan: FixPlan, mode: SplitMode, fixer: Fixer, tree: FixTree) throws -> Never {
        let result = fixer.split(
            plan, mode: mode, root: FileManager.default.currentDirectoryPath, repositoryRoot: tree.root)
        do { try result.write(to: patchDirectory ?? "", force: force) } catch { throw RunFailure(error) }
        try StandardStreams.writeOutput(format == .json ? result.json() : result.table)
        plan.details.forEach(note)
        note(
            "di-lint fix: \(plan.summary); \(result.patches.count) patch\(result.patches.count == 1 ? "" : "es") in \(patchDirectory ?? "") (nothing else written)"
        )
        throw ExitCode(plan.isComplete && result.isSound ? ExitStatus.clean : ExitStatus.findings)
    }
}
