// crash-demo: an example app that wires the crash integration in the way a real program would,
// crashes on request, and on its next launch turns the crash into a report and uploads it.
import ArgumentParser

@main
/// Synchronous on purpose: every crash (except the thread kinds) happens on the main thread,
/// the thread that installed crash capture.
struct CrashDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-demo",
        abstract: "Crash on purpose, then report the crash on the next launch.",
        discussion: "Everything the demo keeps is under --store: dumps/ (pending crash dumps, "
            + "the launch record, sessions) and reports/ (final reports waiting for upload).",
        subcommands: [CrashCommand.self, LaunchCommand.self])

    @Option(name: .long, help: "Directory holding the demo's crash state (created 0700 if missing).")
    var store: String
}
