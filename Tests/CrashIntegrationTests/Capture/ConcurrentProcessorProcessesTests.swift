import CrashIntegration
import Foundation
import XCTest

/// Several processor *processes* (this test binary re-run as a child) racing over one pending
/// directory: every dump becomes exactly one report.
final class ConcurrentProcessorProcessesTests: XCTestCase {
    private static let childTest = "CrashIntegrationTests.ConcurrentProcessorProcessesTests/testActAsChildProcessor"

    func testProcessorProcessesNeverTakeTheSameDump() throws {
        let count = 300
        let (runner, reports) = try makePendingCopies(self, of: "abrt", count: count)
        let pending = runner.dumpDirectory, root = pending.deletingLastPathComponent()

        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let go = root.appendingPathComponent("go")
        let children: [(Process, URL)] = try (0..<3).map { index in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: testBinary)
            process.arguments = [Self.childTest]
            let output = root.appendingPathComponent("child-\(index).txt")
            process.environment = ProcessInfo.processInfo.environment.merging([
                "SEAM_CHILD_PENDING": pending.path, "SEAM_CHILD_REPORTS": reports.path,
                "SEAM_CHILD_OUTPUT": output.path, "SEAM_CHILD_GO": go.path,
            ]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        // Start them together: each child reports ready, then waits for the go file.
        let deadline = Date().addingTimeInterval(20)
        while children.contains(where: { !FileManager.default.fileExists(atPath: $0.1.path + ".ready") })
            && Date() < deadline
        {
            usleep(2_000)
        }
        try Data().write(to: go)
        for (process, _) in children { process.waitUntilExit() }

        var taken: [[String]] = []
        for (process, output) in children {
            XCTAssertEqual(process.terminationStatus, 0, "child processor failed")
            let text = try String(contentsOf: output, encoding: .utf8)
            taken.append(text.split(separator: "\n").map(String.init))
        }
        let all = taken.flatMap { $0 }
        XCTAssertEqual(all.count, count, "each dump reported exactly once")
        XCTAssertEqual(Set(all).count, count, "no dump taken by two processes")
        XCTAssertGreaterThanOrEqual(
            taken.filter { !$0.isEmpty }.count, 2, "the processes really overlapped: \(taken.map(\.count))")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix(".json") }.count,
            count)
        XCTAssertEqual(runner.dumpFiles(), [])
    }

    /// Runs only as a child of the test above: says it is ready, waits for the go file,
    /// processes, lists its reports.
    func testActAsChildProcessor() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let pending = environment["SEAM_CHILD_PENDING"], let reports = environment["SEAM_CHILD_REPORTS"],
            let output = environment["SEAM_CHILD_OUTPUT"], let go = environment["SEAM_CHILD_GO"]
        else {
            throw XCTSkip("runs only as a child processor")
        }
        try Data().write(to: URL(fileURLWithPath: output + ".ready"))
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: go) && Date() < deadline { usleep(500) }
        let summary = try processIntermediateDumps(
            in: URL(fileURLWithPath: pending), into: URL(fileURLWithPath: reports))
        XCTAssertEqual(summary.failures.count, 0)
        try summary.reports.map(\.lastPathComponent).joined(separator: "\n")
            .write(toFile: output, atomically: true, encoding: .utf8)
    }
}
