import ArgumentParser
import CrashIntegration
import Foundation

/// The ways crash-demo can die.
enum CrashKind: String, CaseIterable, ExpressibleByArgument {
    case segv
    case abort
    case fatalError = "fatal-error"
    case fpe
    case stackOverflow = "stack-overflow"
    case cppException = "cpp-exception"
    case backgroundThread = "background-thread"
    case threads8 = "threads-8"
    case stackOverflowThread = "stack-overflow-thread"
    case stackOverflowTask = "stack-overflow-task"
    case fatalErrorMessage = "fatal-error-message"
    case threadsReport = "threads-report"
}

/// `crash-demo --store DIR crash KIND`: installs crash capture, then crashes.
struct CrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Install crash capture, then crash.",
        discussion: "KIND: " + CrashKind.allCases.map(\.rawValue).joined(separator: ", "))

    @ParentCommand var demo: CrashDemo

    @Argument(help: "How to crash.")
    var kind: CrashKind

    @Flag(
        help:
            "A thread sleeps 1 s across install, and the thread waiting for a crash on another thread sleeps in one 10 s call; each says on stderr how long its sleep lasted."
    )
    var sleepers = false

    @Flag(help: "A thread that blocks every signal calls exit(0) as soon as the crash has begun.")
    var exitDuringCrash = false

    func run() throws {
        let store = DemoStore(path: demo.store)
        let sleptAcrossInstall = sleepers ? SleepWitness.startSleepingAcrossInstall() : nil
        let integration = try store.startCrashIntegration(command: "crash \(kind.rawValue)")
        if let sleptAcrossInstall {
            sleptAcrossInstall.wait()
            SleepWitness.enabled = true
        }
        if exitDuringCrash { ExitDuringCrash.start() }
        withExtendedLifetime(integration) {
            crash(kind)
        }
    }
}

/// Dies in the way `kind` names, each in its own out-of-line function.
func crash(_ kind: CrashKind) -> Never {
    switch kind {
    case .segv: crashBySegmentationFault()
    case .abort: crashByAbort()
    case .fatalError: crashByFatalError()
    case .fpe: crashByDivisionByZero()
    case .stackOverflow: _ = crashByStackOverflow(depth: 0)
    case .cppException: crashByUncaughtCppException()
    case .backgroundThread: crashOnBackgroundThread()
    case .threads8: crashOnEightThreadsAtOnce()
    case .stackOverflowThread: crashByStackOverflowOnThread()
    case .stackOverflowTask: crashByStackOverflowInTask()
    case .fatalErrorMessage: crashByFatalErrorWithMessage()
    case .threadsReport: crashWhileOtherThreadsWait()
    }
    survived(kind.rawValue)
}

/// Reached only when a crash did not happen: says so and exits with status 3.
func survived(_ what: String) -> Never {
    FileHandle.standardError.write(Data("crash-demo: \(what) did not crash\n".utf8))
    exit(3)
}
