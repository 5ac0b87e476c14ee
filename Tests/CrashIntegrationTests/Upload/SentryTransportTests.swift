import Foundation
import SeamTestSupport
import XCTest
@testable import CrashIntegration

/// The Sentry transport against a real HTTP server on 127.0.0.1 that parses what arrives as a
/// Sentry envelope, field by field, with a real report and minidump from a crashed child process.
final class SentryTransportTests: XCTestCase {
    /// A report and its minidump, processed from a real CrashProbe segfault.
    private func realReport() throws -> (directory: URL, id: String) {
        let report = try processedProbeCrash(self)
        return (report.deletingLastPathComponent(), report.deletingPathExtension().lastPathComponent)
    }

    private func dsn(_ server: LoopbackHTTPServer) throws -> SentryDSN {
        try SentryDSN("http://publickey@127.0.0.1:\(server.port)/sentry/42")
    }

    func testEnvelopeCarriesEventAndMinidumpAndIsDeletedAfter200() async throws {
        let server = try LoopbackHTTPServer { _, _ in .status(200, body: #"{"id":"x"}"#) }
        defer { server.stop() }
        let (directory, id) = try realReport()
        let reportBytes = try Data(contentsOf: directory.appendingPathComponent("\(id).json"))
        let minidumpBytes = try Data(contentsOf: directory.appendingPathComponent("\(id).dmp"))
        let uploader = ReportUploader(
            reportsDirectory: directory, transport: SentryReportTransport(dsn: try dsn(server)),
            sleep: { _ in }, log: { _ in })

        let summary = try await uploader.processPendingReports()

        XCTAssertEqual(summary.uploaded.map(\.id), [id])
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/sentry/api/42/envelope/")
        XCTAssertEqual(request.headers["content-type"], "application/x-sentry-envelope")
        let auth = try XCTUnwrap(request.headers["x-sentry-auth"])
        XCTAssertTrue(auth.hasPrefix("Sentry "), auth)
        let authFields = Dictionary(
            uniqueKeysWithValues: auth.dropFirst(7).split(separator: ",").map { field -> (String, String) in
                let parts = field.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(
                    String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            })
        XCTAssertEqual(authFields["sentry_version"], "7")
        XCTAssertEqual(authFields["sentry_key"], "publickey")
        XCTAssertNotNil(authFields["sentry_client"])

        let envelope = try ParsedEnvelope(request.body)
        let eventID = try XCTUnwrap(envelope.headers["event_id"] as? String)
        XCTAssertTrue(eventID.count == 32 && eventID.allSatisfy(\.isHexDigit), eventID)
        XCTAssertEqual(envelope.headers["dsn"] as? String, try dsn(server).description)
        XCTAssertNotNil(
            (envelope.headers["sent_at"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
        XCTAssertEqual(envelope.items.map(\.type), ["event", "attachment", "attachment"])

        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: envelope.items[0].payload) as? [String: Any])
        XCTAssertEqual(event["event_id"] as? String, eventID)
        XCTAssertEqual(event["platform"] as? String, "native")
        XCTAssertEqual(event["level"] as? String, "fatal")
        let exception = try XCTUnwrap(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        XCTAssertEqual(exception["type"] as? String, "SIGSEGV")
        let mechanism = try XCTUnwrap(exception["mechanism"] as? [String: Any])
        XCTAssertEqual(mechanism["type"] as? String, "signalhandler")
        XCTAssertEqual(mechanism["handled"] as? Bool, false)
        XCTAssertEqual(
            ((mechanism["meta"] as? [String: Any])?["signal"] as? [String: Any])?["number"] as? Int, Int(SIGSEGV))
        let frames = try XCTUnwrap((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.last?["function"] as? String, "crash_probe_segv", "innermost frame last")
        XCTAssertTrue(frames.allSatisfy { ($0["instruction_addr"] as? String)?.hasPrefix("0x") == true })
        XCTAssertEqual(frames.last?["trust"] as? String, "context")
        XCTAssertTrue(
            frames.allSatisfy { ["context", "fp", "scan", "prewalked"].contains($0["trust"] as? String ?? "") },
            "only trust values Sentry's protocol names")
        let images = try XCTUnwrap((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        let probe = try XCTUnwrap(images.first { ($0["code_file"] as? String)?.hasSuffix("/CrashProbe") == true })
        XCTAssertEqual(probe["type"] as? String, "elf")
        XCTAssertEqual((probe["code_id"] as? String)?.count, 40)
        XCTAssertEqual((probe["debug_id"] as? String)?.count, 36)

        let minidump = envelope.items[1]
        XCTAssertEqual(minidump.headers["attachment_type"] as? String, "event.minidump")
        XCTAssertEqual(minidump.headers["filename"] as? String, "\(id).dmp")
        XCTAssertEqual(minidump.headers["length"] as? Int, minidumpBytes.count)
        XCTAssertEqual(minidump.payload, minidumpBytes)
        XCTAssertEqual(envelope.items[2].headers["filename"] as? String, "\(id).json")
        XCTAssertEqual(envelope.items[2].payload, reportBytes, "the Seam report travels too")

        let received = FileManager.default.temporaryDirectory.appendingPathComponent(
            "received-\(UUID().uuidString).dmp")
        try minidump.payload.write(to: received)
        defer { try? FileManager.default.removeItem(at: received) }
        if let read = try MinidumpReaders.pythonPackage(received) {
            XCTAssertEqual((read["exception"] as? [String: Any])?["code"] as? Int, Int(SIGSEGV))
            XCTAssertFalse((read["modules"] as? [Any])?.isEmpty ?? true)
        } else {
            print("note: PyPI minidump not installed (scripts/bootstrap installs it); reader check skipped")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), [],
            "report and minidump deleted after delivery")
    }

    func testServerErrorThenRateLimitThenSuccessLosesNothingAndSendsOnce() async throws {
        let server = try LoopbackHTTPServer { _, index in
            switch index {
            case 0: return .status(500)
            case 1: return .statusWithHeaders(429, headers: ["Retry-After": "1"])
            default: return .status(200)
            }
        }
        defer { server.stop() }
        let (directory, id) = try realReport()
        let waits = Recorder<Duration>()
        let uploader = ReportUploader(
            reportsDirectory: directory, transport: SentryReportTransport(dsn: try dsn(server)),
            retry: UploadRetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(10), jitter: false),
            sleep: { waits.append($0) }, log: { _ in })

        let summary = try await uploader.processPendingReports()

        XCTAssertEqual(summary.uploaded.map(\.id), [id])
        XCTAssertEqual(summary.uploaded.first?.attempts, 3)
        XCTAssertEqual(server.requests.count, 3, "one request per answer, none after the 200")
        XCTAssertEqual(waits.all, [.milliseconds(10), .seconds(1)], "backoff, then the server's Retry-After")
        let eventIDs = try server.requests.map { try ParsedEnvelope($0.body).headers["event_id"] as? String }
        XCTAssertEqual(
            Set(eventIDs.compactMap { $0 }).count, 1, "every attempt is the same event (Sentry de-duplicates)")
        let delivered = try ParsedEnvelope(try XCTUnwrap(server.requests.last?.body))
        XCTAssertEqual(delivered.items.filter { $0.headers["attachment_type"] as? String == "event.minidump" }.count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])

        // Another pass finds nothing left to send.
        let again = try await uploader.processPendingReports()
        XCTAssertTrue(again.results.isEmpty)
        XCTAssertEqual(server.requests.count, 3)
    }

    func testRefusedEnvelopeMovesReportAndMinidumpToRejected() async throws {
        let server = try LoopbackHTTPServer { _, _ in .status(400, body: "bad envelope") }
        defer { server.stop() }
        let (directory, id) = try realReport()
        let uploader = ReportUploader(
            reportsDirectory: directory, transport: SentryReportTransport(dsn: try dsn(server)),
            sleep: { _ in }, log: { _ in })

        let summary = try await uploader.processPendingReports()

        XCTAssertEqual(summary.rejected.map(\.id), [id])
        let rejected = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("rejected").path
        ).sorted()
        XCTAssertEqual(rejected, ["\(id).dmp", "\(id).json", "\(id).json.rejection.txt"])
    }

    func testRetryAfterLongerThanTheLongestWaitKeepsTheReportForTheNextPass() async throws {
        let server = try LoopbackHTTPServer { _, _ in .statusWithHeaders(429, headers: ["Retry-After": "3600"]) }
        defer { server.stop() }
        let (directory, id) = try realReport()
        let uploader = ReportUploader(
            reportsDirectory: directory, transport: SentryReportTransport(dsn: try dsn(server)),
            sleep: { _ in XCTFail("no wait: the server asked for an hour") }, log: { _ in })

        let summary = try await uploader.processPendingReports()

        XCTAssertEqual(summary.willRetry.map(\.id), [id])
        XCTAssertEqual(server.requests.count, 1)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["\(id).dmp", "\(id).json"])
    }

    func testDSNParsing() throws {
        let dsn = try SentryDSN("https://abc:def@o1.ingest.sentry.io:8443/some/path/123")
        XCTAssertEqual(dsn.publicKey, "abc")
        XCTAssertEqual(dsn.secretKey, "def")
        XCTAssertEqual(dsn.projectID, "123")
        XCTAssertEqual(dsn.envelopeURL.absoluteString, "https://o1.ingest.sentry.io:8443/some/path/api/123/envelope/")
        XCTAssertEqual(
            try SentryDSN("https://k@sentry.example.com/7").envelopeURL.absoluteString,
            "https://sentry.example.com/api/7/envelope/")
        for (bad, problem) in [
            ("ftp://k@h/1", "not an http(s) URL"), ("https://h/1", "no public key"),
            ("https://k@h/", "no project id"), ("not a url", "not an http(s) URL"),
        ] {
            XCTAssertThrowsError(try SentryDSN(bad), bad) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(error)")
                XCTAssertTrue("\(error)".contains(bad), "the error names the DSN: \(error)")
            }
        }
    }

    func testRetryAfterHeaderForms() {
        XCTAssertEqual(HTTPPoster.retryAfter("120"), .seconds(120))
        XCTAssertEqual(HTTPPoster.retryAfter("Thu, 01 Jan 1970 00:00:00 GMT"), .zero, "a past date means now")
        XCTAssertNil(HTTPPoster.retryAfter("soon"))
    }
}

extension ISO8601DateFormatter {
    static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
