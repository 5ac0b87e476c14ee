import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration

/// Upload passes in child processes: killed with SIGKILL mid-upload, or racing each other.
final class ReportUploaderCrashSafetyTests: XCTestCase {
    func testKillNineMidUploadLosesNothingAndNextPassDeliversOnce() async throws {
        let server = try LoopbackHTTPServer { _, _ in .stall }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let report = try directory.addReport("killed-mid-upload")

        let child = try UploadProbeProcess(
            directory: directory, endpoint: server.endpoint, timeoutMilliseconds: 30_000, maxAttempts: 1, name: "doomed"
        )
        XCTAssertTrue(server.waitForRequests(1), "the child's upload reached the server")
        XCTAssertEqual(server.requests.first?.body, report)

        // While the child holds it, an uploader here must leave it alone.
        let bystander = try await makeUploader(
            directory, transport: HTTPReportTransport(endpoint: server.endpoint, timeout: .seconds(1))
        )
        .processPendingReports()
        XCTAssertEqual(bystander.claimedElsewhere.map(\.id), ["killed-mid-upload"])
        XCTAssertEqual(server.requests.count, 1, "a held report is not sent twice at once")

        child.kill9()
        XCTAssertEqual(child.process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(child.process.terminationStatus, SIGKILL)
        XCTAssertEqual(try Data(contentsOf: directory.file("killed-mid-upload")), report, "nothing lost")

        server.setResponder { _, _ in .status(200) }
        let summary = try await makeUploader(directory, transport: HTTPReportTransport(endpoint: server.endpoint))
            .processPendingReports()
        XCTAssertEqual(summary.uploaded.map(\.id), ["killed-mid-upload"])
        XCTAssertEqual(server.requests.count, 2, "delivered exactly once more")
        XCTAssertEqual(server.requests.last?.body, report)
        XCTAssertEqual(directory.names(), [])

        let again = try await makeUploader(directory, transport: HTTPReportTransport(endpoint: server.endpoint))
            .processPendingReports()
        XCTAssertEqual(again.results, [])
        XCTAssertEqual(server.requests.count, 2)
    }

    func testTwoConcurrentUploaderProcessesSendEachReportOnce() throws {
        // Every request is held until both processes have sent one, so the two passes really
        // overlap and the second process must step over the report the first one holds.
        let barrier = NSCondition()
        nonisolated(unsafe) var seen: Set<String> = []
        let server = try LoopbackHTTPServer { request, _ in
            barrier.lock()
            defer { barrier.unlock() }
            seen.insert(request.headers["x-upload-probe"] ?? "?")
            barrier.broadcast()
            let deadline = Date(timeIntervalSinceNow: 5)
            while seen.count < 2 && barrier.wait(until: deadline) {}
            return .status(200)
        }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let ids = (0..<16).map { String(format: "report-%02d", $0) }
        for id in ids { try directory.addReport(id) }

        let probes = try ["left", "right"].map {
            try UploadProbeProcess(
                directory: directory, endpoint: server.endpoint, timeoutMilliseconds: 5000, maxAttempts: 2, name: $0)
        }
        let outputs = probes.map { $0.finish() }

        for probe in probes { XCTAssertEqual(probe.process.terminationStatus, 0) }
        let received = server.requests.compactMap(\.reportID)
        XCTAssertEqual(received.sorted(), ids, "each report received exactly once")
        let uploadedBy = outputs.map { Set($0.filter { $0.hasPrefix("uploaded ") }.map { String($0.dropFirst(9)) }) }
        XCTAssertTrue(uploadedBy[0].isDisjoint(with: uploadedBy[1]))
        XCTAssertEqual(uploadedBy[0].union(uploadedBy[1]), Set(ids))
        let senders = Set(server.requests.compactMap { $0.headers["x-upload-probe"] })
        XCTAssertEqual(senders, ["left", "right"], "both processes uploaded, so their passes overlapped")
        XCTAssertTrue(
            outputs.flatMap { $0 }.contains { $0.hasPrefix("claimedElsewhere ") },
            "one process met a report the other held: \(outputs)")
        XCTAssertEqual(directory.names(), [])
    }
}
