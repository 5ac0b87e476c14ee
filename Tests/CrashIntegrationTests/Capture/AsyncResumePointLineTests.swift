import Foundation
import XCTest
@testable import CrashIntegration

/// A crash in nested async functions: the awaiting callers (async resume points, read from the
/// task's async context chain) carry the file and line of the `await` they resume after, from
/// the module's DWARF through the toolchain's `Runtime` (the same lines Swift's own backtracer
/// prints for them).
final class AsyncResumePointLineTests: XCTestCase {
    func testAsyncCallersCarryTheLineOfTheirAwait() throws {
        let root = try makeProbeDirectory(self, "async-lines")
        let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
        let outcome = try runner.run("async-segv")
        XCTAssertEqual(outcome.signal, SIGSEGV, outcome.stderr)
        let summary = try processIntermediateDumps(
            in: runner.dumpDirectory, into: root.appendingPathComponent("reports"))
        let report = try JSONDecoder().decode(
            CrashReport.self, from: Data(contentsOf: try XCTUnwrap(summary.reports.first)))
        let async = try XCTUnwrap(report.crashedThread?.asyncFrames, "async callers recorded")

        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("CrashProbe/Main/main.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).components(separatedBy: "\n")
        for (caller, awaited) in [("asyncMiddle", "await asyncLeaf()"), ("asyncOuter", "await asyncMiddle()")] {
            let frame = try XCTUnwrap(
                async.first { $0.function?.contains(caller) == true && $0.inlined != true },
                "\(caller) among \(async.map { $0.function ?? "?" })")
            let awaitLine = try XCTUnwrap(lines.firstIndex { $0.contains(awaited) }) + 1
            XCTAssertEqual(
                frame.file.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, source.standardizedFileURL.path,
                "\(caller): \(frame)")
            XCTAssertEqual(frame.line, awaitLine, "\(caller) resumes after `\(awaited)`: \(frame)")
        }
    }
}
