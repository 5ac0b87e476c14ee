import CrashRuntime
import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration
#if canImport(Glibc)
import Glibc
#endif

/// The conditions a server meets: a thread overflowing its stack, a process killed before any
/// handler could run, a disk that fills after install, and children forked without exec.
final class CaptureFaultTests: XCTestCase {
    func testStackOverflowOnAThreadCreatedAfterInstallIsReported() throws {
        let (runner, outcome, reports) = try probe("overflow-thread")
        XCTAssertEqual(outcome.signal, SIGSEGV, outcome.stderr)
        let report = try onlyReport(runner, into: reports)
        assertFinished(report, signal: "SIGSEGV")
        let frames = report.crashedThread?.frames ?? []
        let functions = frames.compactMap(\.function)
        XCTAssertGreaterThan(functions.filter { $0 == "crash_probe_overflow" }.count, 100, "\(functions.prefix(10))")
        XCTAssertGreaterThan(report.crashedThread?.framesElided ?? 0, 1000, "a deep stack is elided in the middle")
        XCTAssertTrue(
            functions.suffix(8).contains { $0.contains("start_with_signal_stack") || $0.contains("closure") },
            "the outermost frames, where the thread began: \(functions.suffix(8))")
    }

    func testProcessKilledBeforeAnyHandlerRanGivesAnIncompleteReport() throws {
        let (runner, outcome, reports) = try probe("sigkill")
        XCTAssertEqual(outcome.signal, SIGKILL)
        let report = try onlyReport(runner, into: reports)
        XCTAssertTrue(report.incomplete)
        XCTAssertTrue(
            report.incompleteReasons.contains { $0.contains("crash handler never ran") }, "\(report.incompleteReasons)")
        XCTAssertNotNil(report.process.pid, "what install knew is kept")
        XCTAssertEqual(report.annotations["probe.mode"], "sigkill")
    }

    func testDiskFilledAfterInstallStillYieldsAReport() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a 64 KiB tmpfs needs root") }
        let root = try makeProbeDirectory(self, "full-disk")
        let mountPoint = root.appendingPathComponent("tmpfs")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard mountTmpfs(at: mountPoint, size: "64k") else {
            throw XCTSkip("cannot mount a tmpfs here")
        }
        defer { unmountTmpfs(at: mountPoint) }
        let runner = CrashProbeRunner(dumpDirectory: mountPoint)
        let outcome = try runner.run("fill-disk-segv")
        XCTAssertTrue(outcome.stdout.contains("filled"), outcome.stdout + outcome.stderr)
        XCTAssertEqual(outcome.signal, SIGSEGV, outcome.stderr)
        let dumpSize =
            try outcome.dumps.first.map {
                try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int ?? 0
            } ?? 0
        try FileManager.default.removeItem(at: mountPoint.appendingPathComponent("filler"))
        let report = try onlyReport(runner, into: root.appendingPathComponent("reports"))
        XCTAssertEqual(report.signal?.name, "SIGSEGV", "the signal fits in the space reserved at install")
        // The handler fits its memory windows into the reserved space, so the dump is finished,
        // with more than the file's last page could have taken after the disk was full.
        XCTAssertFalse(report.incomplete, report.incompleteReasons.joined(separator: "; "))
        XCTAssertTrue(report.modules.contains { $0.path.hasSuffix("/CrashProbe") }, "\(report.modules.map(\.path))")
        XCTAssertGreaterThan(dumpSize, 8192, "bytes written after the disk was full")
        XCTAssertNotNil(
            report.crashedThread?.frames.first { $0.function == "crash_probe_segv" },
            "\(report.crashedThread?.frames.compactMap(\.function) ?? [])")
    }

    func testForkedChildDoesNotHoldTheParentsDump() throws {
        let (runner, outcome, reports) = try probe("fork-segv")
        XCTAssertEqual(outcome.signal, SIGSEGV, outcome.stderr)
        let child = try XCTUnwrap(
            outcome.stdout.split(separator: "\n").first { $0.hasPrefix("child ") }
                .flatMap { Int32($0.dropFirst(6)) }, outcome.stdout)
        defer { kill(child, SIGKILL) }
        XCTAssertEqual(kill(child, 0), 0, "the child still runs")
        let summary = try processIntermediateDumps(in: runner.dumpDirectory, into: reports)
        XCTAssertEqual(summary.skippedInUse, [], "the child holds no lock on the parent's dump")
        XCTAssertEqual(summary.reports.count, 1)
        let report = try JSONDecoder().decode(
            CrashReport.self, from: Data(contentsOf: try XCTUnwrap(summary.reports.first)))
        assertFinished(report, signal: "SIGSEGV")
    }

    func testForkedChildThatCrashesWritesItsOwnDump() throws {
        let (runner, outcome, reports) = try probe("fork-child-segv")
        XCTAssertEqual(outcome.exitCode, 0, outcome.stdout + outcome.stderr)
        let childLine = outcome.stdout.split(separator: "\n").first { $0.hasPrefix("child ") }
        let child = try XCTUnwrap(
            childLine?.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }, outcome.stdout)
        let report = try onlyReport(runner, into: reports)
        XCTAssertEqual(report.process.pid, child, "the child's own dump; the parent's was removed at its clean exit")
        assertFinished(report, signal: "SIGSEGV")
    }

    func testCrashInNestedAsyncFunctionsNamesTheAwaitingCallers() throws {
        let (runner, outcome, reports) = try probe("async-segv")
        XCTAssertEqual(outcome.signal, SIGSEGV, outcome.stderr)
        let report = try onlyReport(runner, into: reports)
        let async = report.crashedThread?.asyncFrames?.compactMap(\.function) ?? []
        let middle = async.firstIndex { $0.contains("asyncMiddle") },
            outer = async.firstIndex { $0.contains("asyncOuter") }
        XCTAssertNotNil(middle, "the awaiting caller, from the async context chain: \(async)")
        XCTAssertNotNil(outer, "\(async)")
        if let middle, let outer { XCTAssertLessThan(middle, outer, "innermost first") }
    }

    // MARK: - Helpers

    /// Runs CrashProbe `mode` with its dumps in a fresh directory; reports go beside it.
    private func probe(_ mode: String) throws -> (CrashProbeRunner, CrashProbeRunner.Outcome, URL) {
        let root = try makeProbeDirectory(self, mode)
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        return (runner, try runner.run(mode), root.appendingPathComponent("reports"))
    }

    private func assertFinished(
        _ report: CrashReport, signal: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(report.signal?.name, signal, file: file, line: line)
        XCTAssertFalse(report.incomplete, report.incompleteReasons.joined(separator: "; "), file: file, line: line)
    }

    private func onlyReport(
        _ runner: CrashProbeRunner, into reports: URL,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> CrashReport {
        let summary = try processIntermediateDumps(in: runner.dumpDirectory, into: reports)
        XCTAssertEqual(summary.reports.count, 1, "one report: \(summary)", file: file, line: line)
        let url = try XCTUnwrap(summary.reports.first, file: file, line: line)
        return try JSONDecoder().decode(CrashReport.self, from: Data(contentsOf: url))
    }
}
