import Foundation
import SeamTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Every crash kind of crash-demo, read back by independent minidump readers: the minidump
/// processing writes beside each report is parsed by PyPI's `minidump` package (exception,
/// threads, modules with build IDs) and opened by Debian's lldb (`lldb -c FILE` then `bt`), and
/// the report's own frames carry file and line from DWARF.
final class MinidumpCrashDemoTests: XCTestCase {
    func testSegmentationFault() throws { try check("segv", SIGSEGV, demoFunction: "crashBySegmentationFault") }
    func testAbort() throws { try check("abort", SIGABRT, demoFunction: "crashByAbort") }
    func testFatalError() throws { try check("fatal-error", fatalErrorTrap.signal, demoFunction: "crashByFatalError") }
    func testDivisionByZero() throws {
        #if arch(x86_64)
        try check("fpe", SIGFPE, demoFunction: "crashByDivisionByZero")
        #else
        throw XCTSkip("integer division by zero raises SIGFPE only on x86_64")
        #endif
    }
    func testStackOverflow() throws { try check("stack-overflow", SIGSEGV, demoFunction: "crashByStackOverflow") }
    func testUncaughtCppException() throws {
        try check("cpp-exception", SIGABRT, demoFunction: "crashByUncaughtCppException")
    }
    func testBackgroundThread() throws {
        try check("background-thread", SIGSEGV, demoFunction: "crashBySegmentationFaultOnBackgroundThread")
    }
    func testEightThreads() throws { try check("threads-8", SIGSEGV, demoFunction: "crashOnOneOfEightThreads") }
    func testStackOverflowOnThread() throws {
        try check("stack-overflow-thread", SIGSEGV, demoFunction: "crashByStackOverflow")
    }
    func testStackOverflowInTask() throws {
        try check("stack-overflow-task", SIGSEGV, demoFunction: "crashByStackOverflow")
    }
    func testFatalErrorWithMessage() throws {
        try check(
            "fatal-error-message", fatalErrorTrap.signal, demoFunction: "crashByFatalErrorWithMessage",
            sourceFile: "ServerCrashers.swift")
    }
    func testThreadsReport() throws {
        try check(
            "threads-report", SIGSEGV, demoFunction: "crashWhileThreadsAreParked", sourceFile: "ServerCrashers.swift")
    }

    // MARK: - One kind

    private func check(
        _ kind: String, _ signal: Int32, demoFunction: String, sourceFile: String = "Crashers.swift",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let store = DemoStoreDirectory(self)
        let crash = try CrashDemoProcess.run(["--store", store.path, "crash", kind], backtracer: .disabled)
        XCTAssertEqual(crash.diedOfSignal, signal, crash.summary, file: file, line: line)
        let launch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
        XCTAssertTrue(launch.exitedCleanly, launch.summary, file: file, line: line)

        let reportFile = try XCTUnwrap(store.reportFiles.first, "a report in reports/", file: file, line: line)
        let minidump = reportFile.deletingPathExtension().appendingPathExtension("dmp")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: minidump.path), "the minidump beside the report", file: file,
            line: line)
        XCTAssertEqual(
            DemoStoreDirectory.mode(of: minidump).map { String($0, radix: 8) }, "600", file: file, line: line)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: reportFile)) as? [String: Any])
        let thread = try XCTUnwrap(report["crashed_thread"] as? [String: Any], file: file, line: line)
        let frames = try XCTUnwrap(thread["frames"] as? [[String: Any]], file: file, line: line)

        // Source lines: every symbolicated frame in crash-demo's own code names its file (the C
        // runtime's start-up code linked into it, `_start`, has no DWARF), and the crashing
        // function (when the unwinder reached it) is at a line of its source file.
        let demoFrames = frames.filter {
            ($0["module"] as? String)?.hasSuffix("/crash-demo") == true && $0["function"] != nil
                && $0["function"] as? String != "_start"
        }
        XCTAssertFalse(demoFrames.isEmpty, "frames in crash-demo: \(frames)", file: file, line: line)
        for frame in demoFrames {
            XCTAssertNotNil(frame["file"], "a crash-demo frame without a file: \(frame)", file: file, line: line)
        }
        // Code the compiler wrote itself (thunks, the @main entry) has line 0, so no line; the
        // demo's own code has lines.
        let sourceFrames = demoFrames.filter { ($0["file"] as? String)?.contains("/Examples/CrashDemo/") == true }
        XCTAssertTrue(
            sourceFrames.contains { $0["line"] as? Int ?? 0 > 0 }, "the demo's own code has lines: \(demoFrames)",
            file: file, line: line)
        if let crashing = demoFrames.first(where: {
            ($0["function"] as? String)?.contains(demoFunction) == true && $0["inlined"] == nil
        }) {
            XCTAssertEqual(
                (crashing["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }, sourceFile,
                "\(crashing)", file: file, line: line)
            XCTAssertGreaterThan(crashing["line"] as? Int ?? 0, 0, "\(crashing)", file: file, line: line)
        } else {
            print("note: the unwinder did not reach \(demoFunction) this time (stack scan); its line is not checked")
        }
        XCTAssertNotNil((report["os"] as? [String: Any])?["name"], "the distribution is named", file: file, line: line)

        let stackBytes = try checkWithPythonPackage(minidump, report: report, signal: signal, file: file, line: line)
        // Debian's lldb has no Swift plug-in: it prints Swift symbols mangled.
        // The mangled name compresses repeated words ("crashByDivisionByZero" has "D4Zero"), so
        // lldb's output is searched for the report's own mangled name of the demo function.
        let demoFrame = demoFrames.first {
            ($0["function"] as? String)?.contains(demoFunction) == true && $0["inlined"] == nil
        }
        let demoSymbol = (demoFrame?["mangled_function"] ?? demoFrame?["function"]) as? String ?? demoFunction
        try checkWithLLDB(
            minidump, innermost: (frames.first?["mangled_function"] ?? frames.first?["function"]) as? String,
            demoFunction: stackBytes > 0 ? demoSymbol : nil, file: file, line: line)
    }

    /// Checks what the package reads; returns how many stack bytes the crashed thread has.
    private func checkWithPythonPackage(
        _ minidump: URL, report: [String: Any], signal: Int32,
        file: StaticString, line: UInt
    ) throws -> Int {
        guard let read = try MinidumpReaders.pythonPackage(minidump) else {
            print("note: PyPI minidump not installed (scripts/bootstrap installs it); reader check skipped")
            return 0
        }
        let thread = report["crashed_thread"] as? [String: Any] ?? [:]
        let exception = read["exception"] as? [String: Any] ?? [:]
        XCTAssertEqual(exception["code"] as? Int, Int(signal), "exception code is the signal", file: file, line: line)
        XCTAssertEqual(exception["thread_id"] as? Int, thread["id"] as? Int, file: file, line: line)
        let threads = read["threads"] as? [[String: Any]] ?? []
        XCTAssertEqual(threads.count, (report["threads"] as? [Any])?.count, "every thread", file: file, line: line)
        let crashed = threads.first { $0["id"] as? Int == thread["id"] as? Int }
        let rip = (thread["registers"] as? [String: String])?["rip"]
        XCTAssertEqual(
            crashed?["rip"].flatMap { $0 as? Int }.map { "0x" + String($0, radix: 16) }, rip,
            "the crashed thread's context", file: file, line: line)
        let modules = read["modules"] as? [[String: Any]] ?? []
        let demo = modules.first { ($0["name"] as? String)?.hasSuffix("/crash-demo") == true }
        let reported = (report["modules"] as? [[String: Any]])?.first {
            ($0["path"] as? String)?.hasSuffix("/crash-demo") == true
        }
        XCTAssertEqual(demo?["cv_signature"] as? String, "BpEL", file: file, line: line)
        XCTAssertEqual(
            demo?["build_id"] as? String, reported?["build_id"] as? String, "the build ID", file: file, line: line)
        XCTAssertNotNil(reported?["build_id"], file: file, line: line)
        let system = read["system"] as? [String: Any] ?? [:]
        XCTAssertEqual(system["platform"] as? String, "VER_PLATFORM_CRASHPAD_LINUX", file: file, line: line)
        return crashed?["stack_size"] as? Int ?? 0
    }

    /// lldb's frame 0 is the report's innermost frame; with the crashed thread's stack memory in
    /// the minidump (the capture records it when it records stack windows), lldb unwinds to the
    /// demo's crashing function too.
    private func checkWithLLDB(
        _ minidump: URL, innermost: String?, demoFunction: String?,
        file: StaticString, line: UInt
    ) throws {
        guard let output = try MinidumpReaders.lldbBacktrace(minidump) else {
            print("note: \(MinidumpReaders.lldb) not installed (scripts/bootstrap installs it); lldb check skipped")
            return
        }
        let frame0 = output.split(separator: "\n").first { $0.contains("frame #0") }
        XCTAssertNotNil(frame0, "lldb shows the crashed thread's frame 0:\n\(output)", file: file, line: line)
        if let innermost {
            XCTAssertTrue(
                frame0?.contains(innermost) == true, "lldb's frame 0 is \(innermost):\n\(output)", file: file,
                line: line)
        }
        if let demoFunction {
            XCTAssertTrue(
                output.contains(demoFunction), "lldb unwinds to \(demoFunction):\n\(output)", file: file, line: line)
        } else {
            print("note: no stack memory for the crashed thread in this dump; lldb shows frame 0 only")
        }
    }
}
