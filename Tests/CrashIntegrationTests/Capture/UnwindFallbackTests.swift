import CrashIntegration
import Foundation
import XCTest

/// Unwinding where the usual inputs are missing: a crash with a corrupt stack pointer follows
/// the frame-pointer chain, and a thread that blocks every signal (so it cannot be asked for its
/// registers) still gets the stack pointer and program counter the kernel shows, and its stack.
final class UnwindFallbackTests: XCTestCase {
    func testCorruptStackPointerFollowsTheFramePointerChain() throws {
        let report = try loadReport(try processedProbeCrash(self, "bad-stack-pointer"))
        let thread = try XCTUnwrap(report.crashedThread)
        XCTAssertEqual(thread.registers["rsp"] ?? thread.registers["sp"], "0x0", "the stack pointer was zeroed")
        let functions = thread.frames.map { $0.function ?? "?" }
        XCTAssertEqual(functions.first, "crash_probe_zero_stack_pointer", "\(functions)")
        let middle = try XCTUnwrap(functions.firstIndex(of: "crash_probe_bad_sp_middle"), "\(functions)")
        XCTAssertEqual(functions[middle + 1], "crash_probe_bad_stack_pointer", "\(functions)")
        XCTAssertGreaterThan(functions.count, middle + 2, "the chain goes on into the probe's main: \(functions)")
    }

    func testThreadBlockingEverySignalShowsWhereTheKernelHasIt() throws {
        let report = try loadReport(try processedProbeCrash(self, "blocked-thread"))
        let thread = try XCTUnwrap(report.threads.first { $0.name == "probe-blocked" }, "\(report.threads.map(\.name))")
        XCTAssertEqual(thread.context, "signal_blocked")
        let functions = (thread.frames ?? []).map { $0.function ?? "?" }
        XCTAssertFalse(functions.isEmpty, "the thread has frames")
        XCTAssertTrue(
            functions.contains("crash_probe_blocked_sleeper"), "unwound from the kernel's sp and pc: \(functions)")
    }
}
