import Foundation
import XCTest
@testable import CrashIntegration

/// A CrashProbe child crashed for real with `mode`, its dump processed: the report file (the
/// minidump is beside it, `.dmp`).
func processedProbeCrash(_ test: XCTestCase, _ mode: String = "segv", signal: Int32 = SIGSEGV) throws -> URL {
    let root = try makeProbeDirectory(test, "processed-\(mode)")
    let runner = CrashProbeRunner(dumpDirectory: root.appendingPathComponent("pending"))
    try assertCapturedCrash(try runner.run(mode), signal: signal, mode: mode)
    let summary = try processIntermediateDumps(in: runner.dumpDirectory, into: root.appendingPathComponent("reports"))
    return try XCTUnwrap(summary.reports.first, "\(summary.failures.map(\.error.description))")
}
