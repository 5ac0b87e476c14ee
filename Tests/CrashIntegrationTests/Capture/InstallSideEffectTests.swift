@testable import CrashIntegration
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What install does to the threads already running: it sends them no signal, so none of their
/// sleeps or waits is cut short, and a thread started before install (even one blocked in the
/// kernel while install ran) still has an alternate signal stack, so its stack overflow is
/// reported. `scripts/check-capture-side-effects` runs the install race with more installs.
final class InstallSideEffectTests: XCTestCase {
    /// Ten threads call nanosleep, clock_nanosleep, poll, select and epoll_wait in tight loops
    /// (none restarts after a signal handler) while capture is installed and uninstalled 200
    /// times; no call may return EINTR.
    func testInstallInterruptsNoSleepOrWait() throws {
        let runner = CrashProbeRunner(dumpDirectory: try makeProbeDirectory(self, "install-race"))
        let outcome = try runner.run("install-race", timeout: 60)
        let line = outcome.stdout.split(separator: "\n").first { $0.hasPrefix("install-race:") }
        let summary = try XCTUnwrap(line.map(String.init), "the probe reported: \(outcome.stdout) \(outcome.stderr)")
        XCTAssertTrue(summary.contains(": 200 installs,"), summary)
        XCTAssertTrue(summary.contains(" 0 interrupted (EINTR)"), "install cut sleeps or waits short: \(summary)")
        XCTAssertEqual(outcome.exitCode, 0, summary + outcome.stderr)
        // The threads were busy across the installs (tens of thousands of calls).
        let calls = summary.split(separator: " ").dropFirst(3).first.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThan(calls, 1000, summary)
    }

    /// A thread started before install and blocked in read() while install ran overflows its
    /// stack after install: the handler runs on its alternate stack and writes a complete dump.
    func testStackOverflowOnAThreadBlockedInTheKernelAtInstallIsReported() throws {
        let root = try makeProbeDirectory(self, "overflow-preexisting")
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        let outcome = try runner.run("overflow-preexisting-thread", timeout: 60)
        try assertCapturedCrash(outcome, signal: SIGSEGV, mode: "overflow-preexisting-thread")
        let summary = try processIntermediateDumps(
            in: runner.dumpDirectory, into: root.appendingPathComponent("reports"))
        let url = try XCTUnwrap(summary.reports.first, "one report: \(summary)")
        let report = try JSONDecoder().decode(CrashReport.self, from: Data(contentsOf: url))
        let functions = report.crashedThread?.frames.compactMap(\.function) ?? []
        XCTAssertGreaterThan(functions.filter { $0 == "crash_probe_overflow" }.count, 100, "\(functions.prefix(10))")
        XCTAssertTrue(
            functions.suffix(8).contains { $0.contains("overflow_when_told") },
            "where the thread began: \(functions.suffix(8))")
    }
}
