import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// Checks common to every crashed probe: it died of `signal`, the allocation tripwire never
/// fired, and exactly one complete dump was written. Returns that dump.
@discardableResult
func assertCapturedCrash(
    _ outcome: CrashProbeRunner.Outcome, signal: Int32, mode: String,
    file: StaticString = #filePath, line: UInt = #line
) throws -> IntermediateDump {
    XCTAssertEqual(
        outcome.signal, signal,
        "\(mode): expected death by signal \(signal); exit \(String(describing: outcome.exitCode)), stderr: \(outcome.stderr.prefix(600))",
        file: file, line: line)
    XCTAssertFalse(
        outcome.stderr.contains("allocator called inside the crash handler"), "\(mode): handler allocated", file: file,
        line: line)
    XCTAssertEqual(
        outcome.dumps.count, 1, "\(mode): dumps \(outcome.dumps.map(\.lastPathComponent))", file: file, line: line)
    let url = try XCTUnwrap(outcome.dumps.first, file: file, line: line)
    let dump = try IntermediateDump(contentsOf: url)
    XCTAssertTrue(dump.isComplete, "\(mode): \(dump.incompleteReason ?? "")", file: file, line: line)
    XCTAssertEqual(
        dump.root.map(key(SEAM_DK_SIGNAL))?.uint64(key(SEAM_DK_SIGNAL_NUMBER)), UInt64(signal), "\(mode)", file: file,
        line: line)
    return dump
}

/// The integer of a C dump key, for the public UInt16-keyed accessors.
func key(_ k: seam_dump_key) -> UInt16 { UInt16(k.rawValue) }

/// Decodes a report written by processIntermediateDumps.
func loadReport(_ url: URL) throws -> CrashReport {
    try JSONDecoder().decode(CrashReport.self, from: Data(contentsOf: url))
}

/// A pending directory holding `count` copies of one real dump (from a `mode` crash), and a
/// reports directory beside it, for the concurrency tests.
func makePendingCopies(_ test: XCTestCase, of mode: String, count: Int) throws -> (
    runner: CrashProbeRunner, reports: URL
) {
    let root = try makeProbeDirectory(test, "copies-\(mode)")
    let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
    let original = try XCTUnwrap(try runner.run(mode).dumps.first)
    let bytes = try Data(contentsOf: original)
    try FileManager.default.removeItem(at: original)
    for i in 0..<count {
        try bytes.write(to: runner.dumpDirectory.appendingPathComponent(String(format: "copy-%04d.seamdump", i)))
    }
    return (runner, root.appendingPathComponent("reports"))
}
