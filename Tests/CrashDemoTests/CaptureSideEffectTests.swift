import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Capture has no side effects on the program's other threads: a thread sleeping across
/// install sleeps its whole time, a thread sleeping while another thread crashes never wakes
/// into the program, and every such crash is recorded as a crash on the next launch
/// (`scripts/check-capture-side-effects` runs the same check 20 times).
final class CaptureSideEffectTests: XCTestCase {
    func testSleepsAreNotCutShortAndTheCrashIsRecorded() throws {
        try crashWithSleepers(run: 1, backtracer: .runtimeDefault)
    }

    func testWithTheSwiftBacktracerDisabled() throws {
        for run in 1...2 {
            try crashWithSleepers(run: run, backtracer: .disabled)
        }
    }

    /// A thread that capture cannot park (it blocks every signal) runs exit(0) while the process
    /// crashes: the exit hook must not record a clean exit, and the dump is kept.
    func testExitOnAnotherThreadDuringTheCrashIsNotACleanExit() throws {
        // Which of exit() and the crash ends the process varies: 4 runs (without the crash mark,
        // 2 of 6 runs were recorded as clean exits).
        for _ in 1...4 { try exitDuringCrash() }
    }

    private func exitDuringCrash() throws {
        let store = DemoStoreDirectory(self)
        let crash = try CrashDemoProcess.run(
            ["--store", store.path, "crash", "segv", "--exit-during-crash"],
            backtracer: .disabled)
        XCTAssertTrue(crash.exitedCleanly || crash.diedOfSignal == SIGSEGV, crash.summary)
        let relaunch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
        XCTAssertTrue(relaunch.exitedCleanly, relaunch.summary)
        XCTAssertTrue(
            try relaunch.launchStatus().crashedLastLaunch,
            "exit() during the crash was recorded as a clean exit (the crash ended \(crash.summary))")
        XCTAssertEqual(try relaunch.reports().count, 1, "the dump was kept and reported: \(relaunch.summary)")
    }

    private func crashWithSleepers(
        run: Int, backtracer: CrashDemoProcess.Backtracer,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let store = DemoStoreDirectory(self)
        let crash = try CrashDemoProcess.run(
            ["--store", store.path, "crash", "background-thread", "--sleepers"],
            backtracer: backtracer, timeout: 30)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, "run \(run): \(crash.summary)", file: file, line: line)
        let acrossInstall = try XCTUnwrap(
            Self.sleep("sleep across install", in: crash.stderr),
            "run \(run): the sleeper reported: \(crash.summary)", file: file, line: line)
        XCTAssertEqual(
            acrossInstall.result, 0, "run \(run): nanosleep across install returned \(acrossInstall)",
            file: file, line: line)
        XCTAssertGreaterThanOrEqual(
            acrossInstall.slept, 0.999, "run \(run): the sleep across install was cut short",
            file: file, line: line)
        XCTAssertNil(
            Self.sleep("sleep across crash", in: crash.stderr),
            "run \(run): the waiting thread woke into the program while the process crashed: \(crash.summary)",
            file: file, line: line)

        let relaunch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: backtracer)
        XCTAssertTrue(relaunch.exitedCleanly, relaunch.summary, file: file, line: line)
        let status = try relaunch.launchStatus()
        XCTAssertTrue(
            status.crashedLastLaunch, "run \(run): the crash was recorded as a clean exit: \(relaunch.stderr)",
            file: file, line: line)
        let reports = try relaunch.reports()
        XCTAssertEqual(reports.count, 1, "run \(run): \(relaunch.stdout)", file: file, line: line)
        XCTAssertNotNil(
            reports.first?.frame(named: "crashBySegmentationFaultOnBackgroundThread()"),
            "run \(run): \(reports.first?.functions ?? [])", file: file, line: line)
    }

    /// `crash-demo: <what>: asked A s, slept S s, nanosleep R (errno E)` from the child's stderr.
    static func sleep(_ what: String, in stderr: String) -> (slept: Double, result: Int)? {
        for line in stderr.split(separator: "\n") where line.hasPrefix("crash-demo: \(what): ") {
            let words = line.split(separator: " ")
            guard let slept = words.firstIndex(of: "slept").flatMap({ Double(words[$0 + 1]) }),
                let result = words.firstIndex(of: "nanosleep").flatMap({ Int(words[$0 + 1]) })
            else { return nil }
            return (slept, result)
        }
        return nil
    }
}
