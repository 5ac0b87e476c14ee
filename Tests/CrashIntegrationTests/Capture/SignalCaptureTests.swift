import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// Real crashes in a child process: each fatal signal is captured into one complete dump and
/// the child still dies of that signal, with the Swift runtime's backtracer off, on and unset.
final class SignalCaptureTests: XCTestCase {
    private let fatal: [(mode: String, signal: Int32)] = [
        ("segv", SIGSEGV), ("bus", SIGBUS), ("ill", SIGILL), ("fpe", SIGFPE), ("abrt", SIGABRT), ("trap", SIGTRAP),
    ]

    func testEachFatalSignalIsCapturedWithSwiftBacktracerDisabled() throws {
        for (mode, signal) in fatal {
            let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, mode))
            let outcome = try runner.run(mode, backtracer: .disabled)
            let dump = try assertCapturedCrash(outcome, signal: signal, mode: mode)
            XCTAssertFalse(outcome.stderr.contains("Program crashed"), mode)
            try assertDumpDescribesProbe(dump, mode: mode)
        }
    }

    func testSwiftBacktracerStillPrintsWhenEnabled() throws {
        for (mode, signal) in fatal {
            let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, mode))
            let outcome = try runner.run(mode, backtracer: .enabled)
            try assertCapturedCrash(outcome, signal: signal, mode: mode)
            XCTAssertTrue(outcome.stderr.contains("*** Program crashed:"), "\(mode): \(outcome.stderr.prefix(400))")
            XCTAssertTrue(
                outcome.stderr.contains("*** Signal \(signal): Backtracing"), "\(mode): backtrace of another signal")
        }
    }

    func testSwiftBacktracerUnsetUsesRuntimeDefault() throws {
        for (mode, signal) in fatal {
            let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, mode))
            let outcome = try runner.run(mode, backtracer: .unset)
            try assertCapturedCrash(outcome, signal: signal, mode: mode)
            XCTAssertTrue(
                outcome.stderr.contains("*** Program crashed:"), "\(mode): the default backtracer did not run")
        }
    }

    func testSigtermIsCapturedOnlyWhenOptedIn() throws {
        for backtracer in [CrashProbeRunner.Backtracer.disabled, .enabled, .unset] {
            let optedIn = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "term"))
            let dump = try assertCapturedCrash(
                try optedIn.run("term", backtracer: backtracer), signal: SIGTERM, mode: "term")
            let signal = try XCTUnwrap(dump.root.map(key(SEAM_DK_SIGNAL)))
            XCTAssertEqual(signal.uint64(key(SEAM_DK_SIGNAL_SENDER_PID)).map { $0 > 0 }, true, "kill() sender recorded")
        }

        let optedOut = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "term-uncaught"))
        let outcome = try optedOut.run("term-uncaught")
        XCTAssertEqual(outcome.signal, SIGTERM)
        // SIGTERM not caught: the dump holds only what install wrote (no signal, no handler run),
        // and is reported as a launch that died without a clean exit.
        XCTAssertEqual(outcome.dumps.count, 1)
        let dump = try IntermediateDump(contentsOf: try XCTUnwrap(outcome.dumps.first))
        XCTAssertNil(dump.root.map(key(SEAM_DK_SIGNAL)), "SIGTERM not caught")
        XCTAssertNil(dump.root.uint64(key(SEAM_DK_HANDLER_ENTRY_MONO_NS)), "the handler never ran")
        let namedPid = outcome.dumps.first?.lastPathComponent.split(separator: "-").dropFirst().first.flatMap {
            UInt64($0)
        }
        XCTAssertEqual(dump.root.uint64(key(SEAM_DK_PID)), namedPid, "the prelude names the process")
        XCTAssertFalse(dump.isComplete)
    }

    func testUncaughtCxxExceptionRecordsTypeAndWhatThenAborts() throws {
        let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "cxx"))
        let outcome = try runner.run("cxx", backtracer: .enabled)
        let dump = try assertCapturedCrash(outcome, signal: SIGABRT, mode: "cxx")
        let exception = try XCTUnwrap(dump.root.map(key(SEAM_DK_EXCEPTION)))
        XCTAssertEqual(exception.string(key(SEAM_DK_EXCEPTION_TYPE)), "St13runtime_error")
        XCTAssertEqual(exception.string(key(SEAM_DK_EXCEPTION_WHAT)), "probe: uncaught runtime_error")
        XCTAssertTrue(
            outcome.stderr.contains("terminate called after throwing an instance of 'std::runtime_error'"),
            "the previous terminate handler (libstdc++'s) still ran")
        XCTAssertTrue(outcome.stderr.contains("*** Program crashed:"))
    }

    func testDumpFileAndDirectoryAreOwnerOnly() throws {
        let parent = try makeProbeDirectory(self, "perm")
        let runner = CrashProbeRunner(dumpDirectory: parent.appendingPathComponent("nested/dumps"))
        let outcome = try runner.run("segv")
        try assertCapturedCrash(outcome, signal: SIGSEGV, mode: "segv")
        let dumpMode =
            try FileManager.default.attributesOfItem(atPath: outcome.dumps[0].path)[.posixPermissions] as? Int
        let directoryMode =
            try FileManager.default.attributesOfItem(atPath: runner.dumpDirectory.path)[.posixPermissions] as? Int
        XCTAssertEqual(dumpMode, 0o600)
        XCTAssertEqual(directoryMode, 0o700)
    }

    /// The sections every crash dump carries, checked against what the probe installed.
    private func assertDumpDescribesProbe(_ dump: IntermediateDump, mode: String) throws {
        let root = dump.root
        let thread = try XCTUnwrap(root.map(key(SEAM_DK_CRASHED_THREAD)), mode)
        let tid = try XCTUnwrap(thread.uint64(key(SEAM_DK_THREAD_ID)), mode)
        XCTAssertFalse(thread.array(key(SEAM_DK_FRAMES)).isEmpty, mode)
        XCTAssertTrue(
            thread.array(key(SEAM_DK_REGISTERS)).contains { $0.string(key(SEAM_DK_REGISTER_NAME)) == "rip" }, mode)
        let threads = root.array(key(SEAM_DK_THREADS))
        XCTAssertEqual(
            threads.filter { $0.uint64(key(SEAM_DK_THREAD_CRASHED)) == 1 }.map { $0.uint64(key(SEAM_DK_THREAD_ID)) },
            [tid], mode)
        let modules = root.array(key(SEAM_DK_MODULES))
        let probe = modules.first { $0.string(key(SEAM_DK_MODULE_PATH))?.hasSuffix("/CrashProbe") == true }
        XCTAssertEqual(probe?.bytes(key(SEAM_DK_MODULE_BUILD_ID))?.isEmpty, false, "\(mode): probe build ID")
        XCTAssertTrue(
            modules.contains { $0.string(key(SEAM_DK_MODULE_PATH))?.contains("libswiftCore.so") == true }, mode)
        let annotations = root.array(key(SEAM_DK_ANNOTATIONS))
        XCTAssertEqual(annotations.first?.string(key(SEAM_DK_ENTRY_VALUE)), mode)
        XCTAssertEqual(root.array(key(SEAM_DK_SYSTEM_INFO)).first?.string(key(SEAM_DK_ENTRY_KEY)), "os")
    }
}
