import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// Pending dumps from real crashes turned into JSON reports: symbolication, demangling,
/// incomplete dumps, permissions, and the claim protocol between concurrent processors.
final class DumpProcessingTests: XCTestCase {
    private func crashAndProcess(_ mode: String, signal: Int32) throws -> (CrashReport, URL) {
        let root = try makeProbeDirectory(self, "process-\(mode)")
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        try assertCapturedCrash(try runner.run(mode), signal: signal, mode: mode)
        let reports = root.appendingPathComponent("reports")
        let summary = try processIntermediateDumps(in: runner.dumpDirectory, into: reports)
        XCTAssertEqual(summary.reports.count, 1, "\(mode): \(summary.failures.map(\.error.description))")
        XCTAssertEqual(runner.dumpFiles(), [], "\(mode): the pending dump is removed once reported")
        let report = try loadReport(try XCTUnwrap(summary.reports.first))
        return (report, reports)
    }

    func testSegfaultReportNamesSignalAndCrashingFunction() throws {
        let (report, reports) = try crashAndProcess("segv", signal: SIGSEGV)
        XCTAssertFalse(report.incomplete, "\(report.incompleteReasons)")
        XCTAssertEqual(report.signal?.name, "SIGSEGV")
        XCTAssertEqual(report.signal?.codeName, "SEGV_MAPERR")
        XCTAssertEqual(report.signal?.address, "0x10")
        let top = try XCTUnwrap(report.crashedThread?.frames.first)
        XCTAssertEqual(top.function, "crash_probe_segv")
        XCTAssertEqual(top.trust, "context")
        XCTAssertTrue(top.module?.hasSuffix("/CrashProbe") == true, "\(String(describing: top.module))")
        let probe = try XCTUnwrap(report.modules.first { $0.path == top.module })
        XCTAssertEqual(probe.symbols, "ok")
        XCTAssertEqual(probe.buildId?.count, 40, "20-byte GNU build ID in hex")
        XCTAssertEqual(report.annotations["probe.mode"], "segv")
        XCTAssertEqual(report.system["os"], "linux")
        XCTAssertEqual(report.threads.filter(\.crashed).map(\.id), [report.crashedThread?.id].compactMap { $0 })
        // The caller chain reaches the Swift entry point through the frame-pointer walk.
        XCTAssertTrue(
            report.crashedThread?.frames.contains { $0.function == "CrashProbe_main" } == true,
            "\(report.crashedThread?.frames.map { $0.function ?? $0.address } ?? [])")
        let reportFile = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: reports.path).first)
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: reports.appendingPathComponent(reportFile).path)[
                .posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: reports.path)[.posixPermissions] as? Int, 0o700)
    }

    func testSwiftFrameIsDemangled() throws {
        let (report, _) = try crashAndProcess("swift", signal: SIGILL)
        XCTAssertEqual(report.signal?.name, "SIGILL")
        let functions = report.crashedThread?.frames.compactMap(\.function) ?? []
        let frame = try XCTUnwrap(
            report.crashedThread?.frames.first { $0.function?.contains("crashInSwift") == true }, "\(functions)")
        XCTAssertTrue(
            frame.function?.hasPrefix("CrashProbe.crashInSwift(") == true, "\(String(describing: frame.function))")
        XCTAssertEqual(frame.mangledFunction?.hasPrefix("$s"), true)
    }

    func testAbortReportFindsTheCallerOfAbort() throws {
        let (report, _) = try crashAndProcess("abrt", signal: SIGABRT)
        XCTAssertEqual(report.signal?.name, "SIGABRT")
        let functions = report.crashedThread?.frames.compactMap(\.function) ?? []
        XCTAssertTrue(functions.contains("crash_probe_abort"), "\(functions)")
        XCTAssertTrue(functions.contains("abort"), "libc frames symbolicated from .dynsym: \(functions)")
    }

    func testCxxExceptionTypeIsDemangled() throws {
        let (report, _) = try crashAndProcess("cxx", signal: SIGABRT)
        XCTAssertEqual(report.exception?.type, "std::runtime_error")
        XCTAssertEqual(report.exception?.mangledType, "St13runtime_error")
        XCTAssertEqual(report.exception?.what, "probe: uncaught runtime_error")
    }

    func testCxxFrameIsDemangled() throws {
        let (report, _) = try crashAndProcess("cxx-segv", signal: SIGSEGV)
        let top = try XCTUnwrap(report.crashedThread?.frames.first)
        XCTAssertEqual(top.function, "probe::Crasher::crash(int)")
        XCTAssertEqual(top.mangledFunction, "_ZN5probe7Crasher5crashEi")
        XCTAssertEqual(report.crashedThread?.frames.dropFirst().first?.function, "crash_probe_segv_in_cxx")
    }

    func testNonStandardExceptionHasTypeButNoWhat() throws {
        let (report, _) = try crashAndProcess("cxx-int", signal: SIGABRT)
        XCTAssertEqual(report.exception?.type, "int")
        XCTAssertNil(report.exception?.what)
    }

    func testNestedCrashGivesAnIncompleteReport() throws {
        let (report, _) = try crashAndProcess("nested", signal: SIGABRT)
        XCTAssertTrue(report.incomplete)
        XCTAssertTrue(
            report.incompleteReasons.contains { $0.contains("interrupted by signal 11") }, "\(report.incompleteReasons)"
        )
        XCTAssertEqual(report.signal?.name, "SIGABRT")
    }

    func testTruncatedDumpStillGivesAReportMarkedIncomplete() throws {
        let root = try makeProbeDirectory(self, "truncated")
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        let outcome = try runner.run("segv")
        let dumpURL = try XCTUnwrap(outcome.dumps.first)
        let bytes = try Data(contentsOf: dumpURL)
        try bytes.prefix(bytes.count / 2).write(to: dumpURL)
        let summary = try processIntermediateDumps(
            in: runner.dumpDirectory, into: root.appendingPathComponent("reports"))
        let report = try loadReport(try XCTUnwrap(summary.reports.first))
        XCTAssertTrue(report.incomplete)
        XCTAssertTrue(
            report.incompleteReasons.first?.hasPrefix("truncated at byte") == true, "\(report.incompleteReasons)")
        XCTAssertEqual(report.signal?.name, "SIGSEGV", "what was written before the cut is kept")
    }

    func testModuleWhoseBuildIDDiffersFromTheFileIsNotUsedForSymbols() throws {
        let root = try makeProbeDirectory(self, "buildid")
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        let dumpURL = try XCTUnwrap(try runner.run("segv").dumps.first)
        var bytes = [UInt8](try Data(contentsOf: dumpURL))
        let probe = try XCTUnwrap(
            IntermediateDump(bytes: bytes).root.array(key(SEAM_DK_MODULES))
                .first { $0.string(key(SEAM_DK_MODULE_PATH))?.hasSuffix("/CrashProbe") == true })
        let buildID = try XCTUnwrap(probe.bytes(key(SEAM_DK_MODULE_BUILD_ID)))
        let at = try XCTUnwrap(
            (0...(bytes.count - buildID.count)).first { Array(bytes[$0..<$0 + buildID.count]) == buildID })
        bytes[at] ^= 0xFF // as if a newer build had replaced the executable since the crash
        try Data(bytes).write(to: dumpURL)
        let summary = try processIntermediateDumps(
            in: runner.dumpDirectory, into: root.appendingPathComponent("reports"))
        let report = try loadReport(try XCTUnwrap(summary.reports.first))
        XCTAssertEqual(report.modules.first { $0.path.hasSuffix("/CrashProbe") }?.symbols, "build_id_mismatch")
        let top = try XCTUnwrap(report.crashedThread?.frames.first)
        XCTAssertNil(top.function, "symbols of another build would name the wrong function")
        XCTAssertNotNil(top.moduleOffset)
    }

    func testLiveProcessDumpIsLeftAloneAndRemovedByTheProcessAtExit() throws {
        let root = try makeProbeDirectory(self, "live")
        let pending = root.appendingPathComponent("pending"), reports = root.appendingPathComponent("reports")
        let runner = CrashProbeRunner(dumpDirectory: pending)
        let input = Pipe()
        let finished = expectation(description: "probe exits")
        let result = Locked<CrashProbeRunner.Outcome?>(nil)
        // A processor runs in a loop while the probe starts: it must never see the new dump
        // unlocked (and so report it as abandoned).
        let hammering = Locked(true), discarded = Locked<[URL]>([])
        let hammerDone = expectation(description: "processor loop stops")
        DispatchQueue.global().async {
            while hammering.value {
                if let summary = try? processIntermediateDumps(in: pending, into: reports) {
                    discarded.withLock { $0 += summary.reports }
                }
            }
            hammerDone.fulfill()
        }
        DispatchQueue.global().async {
            result.value = try? runner.run("wait", stdin: input.fileHandleForReading)
            finished.fulfill()
        }
        let deadline = Date().addingTimeInterval(5)
        while runner.dumpFiles().isEmpty && Date() < deadline { usleep(1_000) }
        usleep(50_000)
        hammering.value = false
        wait(for: [hammerDone], timeout: 5)
        XCTAssertEqual(discarded.value, [], "a starting process's dump was taken for abandoned")
        let live = try XCTUnwrap(runner.dumpFiles().first)
        let during = try processIntermediateDumps(in: pending, into: reports)
        XCTAssertEqual(during.skippedInUse, [live])
        XCTAssertEqual(during.reports, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path))

        try input.fileHandleForWriting.close()
        wait(for: [finished], timeout: 5)
        XCTAssertEqual(result.value?.exitCode, 0)
        let after = try processIntermediateDumps(in: pending, into: reports)
        XCTAssertEqual(after.reports, [], "exited without crashing: nothing to report")
        XCTAssertFalse(FileManager.default.fileExists(atPath: live.path), "the exiting process removed its dump")
        XCTAssertEqual(runner.dumpFiles(), [])
    }

    func testConcurrentProcessorsNeverTakeTheSameDump() throws {
        let count = 200
        let (runner, reports) = try makePendingCopies(self, of: "segv", count: count)
        let pending = runner.dumpDirectory

        let summaries = Locked<[DumpProcessingSummary]>([])
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let summary = try processIntermediateDumps(in: pending, into: reports)
                summaries.withLock { $0.append(summary) }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(errors.value, [])
        let written = summaries.value.flatMap(\.reports).map(\.lastPathComponent)
        XCTAssertEqual(summaries.value.count, 4)
        XCTAssertEqual(written.count, count, "each dump reported exactly once across processors")
        XCTAssertEqual(Set(written).count, count, "no dump taken twice")
        XCTAssertEqual(summaries.value.flatMap(\.failures).count, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".json") }.count,
            count)
        XCTAssertEqual(runner.dumpFiles(), [])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: pending.appendingPathComponent("claimed").path), [])
    }

    func testDumpLeftInClaimedByADeadProcessorIsFinished() throws {
        let root = try makeProbeDirectory(self, "orphan")
        let pending = root.appendingPathComponent("pending"), reports = root.appendingPathComponent("reports")
        let runner = CrashProbeRunner(dumpDirectory: pending)
        let dump = try XCTUnwrap(try runner.run("fpe").dumps.first)
        let claimed = pending.appendingPathComponent("claimed")
        try FileManager.default.createDirectory(at: claimed, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: dump, to: claimed.appendingPathComponent(dump.lastPathComponent))
        let summary = try processIntermediateDumps(in: pending, into: reports)
        XCTAssertEqual(try loadReport(try XCTUnwrap(summary.reports.first)).signal?.name, "SIGFPE")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: claimed.path), [])
    }

    func testOnlyRegularDumpFilesAreTaken() throws {
        let root = try makeProbeDirectory(self, "irregular")
        let pending = root.appendingPathComponent("pending")
        try FileManager.default.createDirectory(
            at: pending.appendingPathComponent("folder.seamdump"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pending.appendingPathComponent("link.seamdump").path, withDestinationPath: "/etc/hostname")
        try Data("not a dump".utf8).write(to: pending.appendingPathComponent("notes.txt"))
        let summary = try processIntermediateDumps(in: pending, into: root.appendingPathComponent("reports"))
        XCTAssertEqual(summary.reports, [])
        XCTAssertEqual(summary.failures.count, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: pending.path).sorted(),
            ["claimed", "folder.seamdump", "link.seamdump", "notes.txt"], "left exactly as they were")
    }

    func testReportsDirectoryThatIsAFileIsAnErrorNamingIt() throws {
        let root = try makeProbeDirectory(self, "badreports")
        let file = root.appendingPathComponent("reports")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try processIntermediateDumps(in: root.appendingPathComponent("pending"), into: file)) {
            error in
            XCTAssertEqual(error as? ProcessingError, .notADirectory(path: file.path))
            XCTAssertTrue("\(error)".contains(file.path))
        }
    }
}

/// A value shared between threads of a test.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func withLock(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
