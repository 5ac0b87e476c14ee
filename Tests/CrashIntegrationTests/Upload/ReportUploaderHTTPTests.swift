import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration

/// The uploader against a real HTTP server on 127.0.0.1, through the real URLSession transport.
final class ReportUploaderHTTPTests: XCTestCase {
    private func transport(_ server: LoopbackHTTPServer, timeout: Duration = .seconds(5)) -> HTTPReportTransport {
        HTTPReportTransport(endpoint: server.endpoint, timeout: timeout)
    }

    func testDeliveredReportArrivesIntactAndIsDeletedAfter200() async throws {
        let server = try LoopbackHTTPServer { _, _ in .status(200) }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let report = try directory.addReport("crash-1", padding: 5000)

        let summary = try await makeUploader(directory, transport: transport(server)).processPendingReports()

        XCTAssertEqual(summary.uploaded.map(\.id), ["crash-1"])
        XCTAssertEqual(summary.uploaded.first?.outcome, .uploaded(statusCode: 200))
        let requests = server.requests
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.body, report)
        XCTAssertEqual(requests.first?.method, "POST")
        XCTAssertEqual(requests.first?.path, "/crash-reports")
        XCTAssertEqual(requests.first?.headers["content-type"], "application/json")
        XCTAssertEqual(requests.first?.reportID, "crash-1")
        XCTAssertFalse(directory.exists("crash-1"))
    }

    func testServerErrorThenSuccessIsRetriedDeliveredOnceAndDeleted() async throws {
        let server = try LoopbackHTTPServer { _, index in index == 0 ? .status(500) : .status(200) }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let report = try directory.addReport("crash-2")
        let waits = Recorder<Duration>()

        let summary = try await makeUploader(directory, transport: transport(server), waits: waits)
            .processPendingReports()

        XCTAssertEqual(summary.uploaded.map(\.id), ["crash-2"])
        XCTAssertEqual(summary.uploaded.first?.attempts, 2)
        XCTAssertEqual(server.requests.map(\.body), [report, report], "one failed and one successful delivery")
        XCTAssertEqual(waits.all, [.milliseconds(100)], "one backoff wait of the base delay")
        XCTAssertFalse(directory.exists("crash-2"))
    }

    func testPersistentServerErrorKeepsReportAfterMaxAttemptsWithExponentialWaits() async throws {
        let server = try LoopbackHTTPServer { _, _ in .status(503) }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let report = try directory.addReport("crash-3")
        let waits = Recorder<Duration>()
        let retry = UploadRetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), jitter: false)

        let summary = try await makeUploader(directory, transport: transport(server), retry: retry, waits: waits)
            .processPendingReports()

        XCTAssertEqual(summary.willRetry.map(\.id), ["crash-3"])
        XCTAssertEqual(summary.willRetry.first?.outcome, .willRetry(reason: "HTTP 503"))
        XCTAssertEqual(summary.willRetry.first?.attempts, 4)
        XCTAssertEqual(server.requests.count, 4)
        XCTAssertEqual(waits.all, [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        XCTAssertEqual(try Data(contentsOf: directory.file("crash-3")), report, "kept unchanged")
    }

    func testUnansweredRequestTimesOutAndReportStays() async throws {
        let server = try LoopbackHTTPServer { _, _ in .stall }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        try directory.addReport("crash-4")
        let retry = UploadRetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10), jitter: false)

        let started = ContinuousClock.now
        let summary = try await makeUploader(
            directory, transport: transport(server, timeout: .milliseconds(300)), retry: retry
        )
        .processPendingReports()
        let elapsed = ContinuousClock.now - started

        XCTAssertEqual(summary.willRetry.map(\.id), ["crash-4"])
        XCTAssertEqual(summary.willRetry.first?.outcome, .willRetry(reason: "no answer within 0.3 s"))
        XCTAssertEqual(server.requests.count, 2, "both attempts reached the server")
        XCTAssertTrue(directory.exists("crash-4"))
        XCTAssertLessThan(elapsed, .seconds(3), "the 300 ms deadline was enforced, not a whole-second one")
    }

    func testPermanentRefusalMovesReportToRejectedFolderWithReason() async throws {
        let server = try LoopbackHTTPServer { _, _ in .status(422, body: "field 'signal' unknown") }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let report = try directory.addReport("crash-5")
        let log = Recorder<String>()

        let summary = try await makeUploader(directory, transport: transport(server), log: log).processPendingReports()

        let destination = directory.url.appendingPathComponent("rejected/crash-5.json")
        XCTAssertEqual(summary.rejected.first?.outcome, .rejected(statusCode: 422, movedTo: destination))
        XCTAssertEqual(server.requests.count, 1, "a refusal is not retried")
        XCTAssertFalse(directory.exists("crash-5"))
        XCTAssertEqual(try Data(contentsOf: destination), report, "moved intact, never deleted")
        let note = try String(contentsOf: destination.appendingPathExtension("rejection.txt"), encoding: .utf8)
        XCTAssertTrue(note.contains("HTTP 422") && note.contains("field 'signal' unknown"), note)
        XCTAssertTrue(
            log.all.contains { $0.contains("rejected \(directory.file("crash-5").path) with HTTP 422") }, "\(log.all)")
        XCTAssertTrue(summary.description.contains("rejected 1"), summary.description)
    }

    func testTooManyRequestsIsRetriedNotRejected() async throws {
        let server = try LoopbackHTTPServer { _, index in index < 2 ? .status(429) : .status(201) }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        try directory.addReport("crash-6")

        let summary = try await makeUploader(directory, transport: transport(server)).processPendingReports()

        XCTAssertEqual(summary.uploaded.first?.outcome, .uploaded(statusCode: 201))
        XCTAssertEqual(server.requests.count, 3)
        XCTAssertEqual(directory.names(), [])
    }

    func testUnreachableServerKeepsEveryReport() async throws {
        let server = try LoopbackHTTPServer { _, _ in .status(200) }
        let endpoint = server.endpoint
        server.stop()
        try await Task.sleep(for: .milliseconds(100)) // the listener closes within one poll period
        let directory = try ReportsDirectory(self)
        try directory.addReport("a")
        try directory.addReport("b")

        let summary = try await makeUploader(
            directory, transport: HTTPReportTransport(endpoint: endpoint, timeout: .seconds(2))
        )
        .processPendingReports()

        XCTAssertEqual(summary.willRetry.map(\.id), ["a", "b"])
        guard case .willRetry(let reason) = summary.results[0].outcome else { return XCTFail("\(summary)") }
        XCTAssertTrue(reason.hasPrefix("request failed: cannotConnectToHost"), reason)
        XCTAssertEqual(directory.names(), ["a.json", "b.json"])
    }

    func testOneUnreachableRoundRetriesAllFailedReportsAfterOneSharedWait() async throws {
        let server = try LoopbackHTTPServer { _, index in index < 3 ? .status(502) : .status(200) }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        for id in ["r1", "r2", "r3"] { try directory.addReport(id) }
        let waits = Recorder<Duration>()

        let summary = try await makeUploader(directory, transport: transport(server), waits: waits)
            .processPendingReports()

        XCTAssertEqual(summary.uploaded.map(\.id), ["r1", "r2", "r3"])
        XCTAssertEqual(waits.all.count, 1, "retries go in rounds, not one backoff series per report")
        XCTAssertEqual(server.requests.compactMap(\.reportID), ["r1", "r2", "r3", "r1", "r2", "r3"])
    }

    func testCancelledPassKeepsTheReportInFlight() async throws {
        let server = try LoopbackHTTPServer { _, _ in .stall }
        defer { server.stop() }
        let directory = try ReportsDirectory(self)
        let report = try directory.addReport("crash-7")

        let pass = makeUploader(directory, transport: transport(server, timeout: .seconds(10)))
            .startProcessingPendingReports()
        XCTAssertTrue(server.waitForRequests(1))
        pass.cancel()
        let summary = try await pass.value

        XCTAssertEqual(summary.willRetry.map(\.id), ["crash-7"])
        XCTAssertEqual(summary.willRetry.first?.attempts, 1, "no retry after cancellation")
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(try Data(contentsOf: directory.file("crash-7")), report)
    }
}
