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

    private func crashWithSleepers(run: Int, backtracer: CrashDemoProcess.Backtracer,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let store = DemoStoreDirectory(self)
        let crash = try CrashDemoProcess.run(["--store", store.path, "crash", "background-thread", "--sleepers"],
                                             backtracer: backtracer, timeout: 30)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, "run \(run): \(crash.summary)", file: file, line: line)
        let acrossInstall = try XCTUnwrap(Self.sleep("sleep across install", in: crash.stderr),
                                          "run \(run): the sleeper reported: \(crash.summary)", file: file, line: line)
        XCTAssertEqual(acrossInstall.result, 0, "run \(run): nanosleep across install returned \(acrossInstall)",
                       file: file, line: line)
        XCTAssertGreaterThanOrEqual(acrossInstall.slept, 0.999, "run \(run): the sleep across install was cut short",
                                    file: file, line: line)
        XCTAssertNil(Self.sleep("sleep across crash", in: crash.stderr),
                     "run \(run): the waiting thread woke into the program while the process crashed: \(crash.summary)",
                     file: file, line: line)

        let relaunch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: backtracer)
        XCTAssertTrue(relaunch.exitedCleanly, relaunch.summary, file: file, line: line)
        let status = try relaunch.launchStatus()
        XCTAssertTrue(status.crashedLastLaunch, "run \(run): the crash was recorded as a clean exit: \(relaunch.stderr)",
                      file: file, line: line)
        let reports = try relaunch.reports()
        XCTAssertEqual(reports.count, 1, "run \(run): \(relaunch.stdout)", file: file, line: line)
        XCTAssertNotNil(reports.first?.frame(named: "crashBySegmentationFaultOnBackgroundThread()"),
                        "run \(run): \(reports.first?.functions ?? [])", file: file, line: line)
    }

    /// `crash-demo: <what>: asked A s, slept S s, nanosleep R (errno E)` from the child's stderr.
    static func sleep(_ what: String, in stderr: String) -> (slept: Double, result: Int)? {
        for line in stderr.split(separator: "\n") where line.hasPrefix("crash-demo: \(what): ") {
            let words = line.split(separator: " ")
            guard let slept = words.firstIndex(of: "slept").flatMap({ Double(words[$0 + 1]) }),
                  let result = words.firstIndex(of: "nanosleep").flatMap({ Int(words[$0 + 1]) }) else { return nil }
            return (slept, result)
        }
        return nil
    }
}
