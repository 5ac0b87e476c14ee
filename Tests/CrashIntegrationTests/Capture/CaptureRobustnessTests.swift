import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// The hard cases of the handler: simultaneous crashes, a crash inside the handler, and the
/// proof that the handler never allocates.
final class CaptureRobustnessTests: XCTestCase {
    func testThreadsCrashingAtOnceGiveExactlyOneDump() throws {
        for attempt in 1...3 {
            let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "threads\(attempt)"))
            let outcome = try runner.run("threads", timeout: 8)
            let dump = try assertCapturedCrash(outcome, signal: SIGSEGV, mode: "threads")
            let threads = dump.root.array(key(SEAM_DK_THREADS))
            XCTAssertGreaterThanOrEqual(threads.count, 9, "main thread plus the 8 crashing threads")
            XCTAssertEqual(threads.filter { $0.uint64(key(SEAM_DK_THREAD_CRASHED)) == 1 }.count, 1)
        }
    }

    func testCrashInsideTheHandlerNeitherHangsNorLosesTheOriginalSignal() throws {
        for (mode, signal) in [("nested", SIGABRT), ("nested-segv", SIGSEGV)] {
            for backtracer in [CrashProbeRunner.Backtracer.disabled, .enabled] {
                let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, mode))
                let outcome = try runner.run(mode, backtracer: backtracer, timeout: 5)
                XCTAssertLessThan(outcome.elapsed, 5, "\(mode) hung")
                let dump = try assertCapturedCrash(outcome, signal: signal, mode: mode)
                XCTAssertEqual(dump.root.uint64(key(SEAM_DK_NESTED_SIGNAL)), UInt64(SIGSEGV), mode)
                XCTAssertEqual(
                    dump.root.map(key(SEAM_DK_SIGNAL))?.uint64(key(SEAM_DK_SIGNAL_NUMBER)), UInt64(signal),
                    "\(mode): the signal section written before the nested crash survives")
                XCTAssertNil(dump.root.map(key(SEAM_DK_CRASHED_THREAD)), "\(mode): minimal dump")
            }
        }
    }

    func testStackOverflowIsCapturedOnTheAlternateStack() throws {
        let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "overflow"))
        let dump = try assertCapturedCrash(try runner.run("overflow"), signal: SIGSEGV, mode: "overflow")
        let frames = dump.root.map(key(SEAM_DK_CRASHED_THREAD))?.array(key(SEAM_DK_FRAMES)) ?? []
        XCTAssertEqual(frames.count, 128, "the recursion is walked up to the frame cap")
    }

    func testLibraryLoadedAfterInstallIsListedWithItsBuildID() throws {
        let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "dlopen"))
        let dump = try assertCapturedCrash(try runner.run("dlopen-segv"), signal: SIGSEGV, mode: "dlopen-segv")
        let modules = dump.root.array(key(SEAM_DK_MODULES))
        let zlib = try XCTUnwrap(
            modules.first { $0.string(key(SEAM_DK_MODULE_PATH))?.contains("libz.so") == true },
            "\(modules.compactMap { $0.string(key(SEAM_DK_MODULE_PATH)) })")
        XCTAssertEqual(zlib.uint64(key(SEAM_DK_MODULE_SOURCE)), UInt64(SEAM_MODULE_SOURCE_LINK_MAP.rawValue))
        XCTAssertEqual(zlib.bytes(key(SEAM_DK_MODULE_BUILD_ID))?.count, 20)
        XCTAssertGreaterThan(zlib.uint64(key(SEAM_DK_MODULE_END)) ?? 0, zlib.uint64(key(SEAM_DK_MODULE_START)) ?? 0)
        let probe = modules.first { $0.string(key(SEAM_DK_MODULE_PATH))?.hasSuffix("/CrashProbe") == true }
        XCTAssertEqual(probe?.uint64(key(SEAM_DK_MODULE_SOURCE)), UInt64(SEAM_MODULE_SOURCE_INSTALL.rawValue))
    }

    func testTripwireCatchesAnAllocationInsideTheHandler() throws {
        // Positive control: proves the interposed allocator is live inside the handler.
        let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "alloc"))
        let outcome = try runner.run("allocate-in-handler")
        XCTAssertEqual(
            outcome.exitCode, 97,
            "exit \(String(describing: outcome.exitCode)) signal \(String(describing: outcome.signal))")
        XCTAssertTrue(outcome.stderr.contains("allocator called inside the crash handler"))
    }

    func testHandlerDoesNotAllocateForAnyCrashKind() throws {
        let alive = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "exit"))
        let normal = try alive.run("exit")
        XCTAssertEqual(normal.exitCode, 0)
        let counted = normal.stdout.split(separator: " ").last.flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        XCTAssertGreaterThan(counted ?? 0, 0, "the interposer saw the process's own allocations: \(normal.stdout)")
        XCTAssertEqual(normal.dumps, [], "uninstall removes the unused pending dump")

        // Each of these runs asserts the tripwire stayed silent (assertCapturedCrash).
        for (mode, signal) in [
            ("segv", SIGSEGV), ("abrt", SIGABRT), ("cxx", SIGABRT), ("swift", SIGILL), ("threads", SIGSEGV),
            ("overflow-thread", SIGSEGV),
        ] {
            let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, mode))
            try assertCapturedCrash(try runner.run(mode), signal: signal, mode: mode)
        }
    }
}
