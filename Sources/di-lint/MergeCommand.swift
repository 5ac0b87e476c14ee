import ArgumentParser
import DILintEngine
import Foundation

/// `di-lint merge FILE…`: join the outputs of `--shard` runs into one.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON (or the SARIF) outputs of sharded runs into one, without duplicates.",
        discussion:
            "All files must be di-lint JSON, or all SARIF; the output has the same format. Exits like lint on the merged findings: 1 when an error-severity finding is not baselined."
    )

    @Argument(help: "Outputs of `di-lint --format json` (or sarif) runs.")
    var files: [String]

    @Option(help: "Write the merged output to this file instead of standard output.")
    var output: String?

    func run() throws {
        try refuseOverwriting(output, option: "--output", inputs: files.map { ("an input", $0) })
        let merged: ReportMerge.Merged
        do { merged = try ReportMerge.merge(files: files) } catch { throw RunFailure(error) }
        try emit(merged.text, to: output)
        for path in merged.repeats {
            note("di-lint: \(path) repeats an earlier output (a retried shard?); counted once")
        }
        note(
            "di-lint: merged \(files.count) file\(files.count == 1 ? "" : "s"): \(merged.findings) finding\(merged.findings == 1 ? "" : "s"), \(merged.newErrors) new at error severity"
        )
        throw ExitCode(merged.newErrors > 0 ? ExitStatus.findings : ExitStatus.clean)
    }
}
