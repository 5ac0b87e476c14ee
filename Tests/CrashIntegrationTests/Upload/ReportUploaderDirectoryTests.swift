import Foundation
import XCTest
@testable import CrashIntegration

/// Which files count as pending reports, and bad directories, with an in-memory transport
/// that records what it was given (the HTTP path is covered by ReportUploaderHTTPTests).
final class ReportUploaderDirectoryTests: XCTestCase {
    private struct RecordingTransport: ReportTransport {
        let sent = Recorder<String>()
        func send(_ report: Data, id: String) async throws -> TransportResponse {
            sent.append(id)
            return TransportResponse(statusCode: 200)
        }
    }

    func testOnlyVisibleTopLevelJSONFilesAreReports() async throws {
        let directory = try ReportsDirectory(self)
        try directory.addReport("real")
        try Data("{}".utf8).write(to: directory.url.appendingPathComponent(".half-written.json"))
        try Data("dump".utf8).write(to: directory.url.appendingPathComponent("pending.dump"))
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("rejected"), withIntermediateDirectories: false)
        try Data("{}".utf8).write(to: directory.url.appendingPathComponent("rejected/old.json"))
        let transport = RecordingTransport()

        let summary = try await makeUploader(directory, transport: transport).processPendingReports()

        XCTAssertEqual(transport.sent.all, ["real"])
        XCTAssertEqual(summary.results.map(\.id), ["real"])
        XCTAssertEqual(directory.names(), [".half-written.json", "folder.json", "pending.dump", "rejected"])
        XCTAssertEqual(directory.names(in: "rejected"), ["old.json"])
    }

    func testMissingDirectoryMeansNothingPending() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("seam-missing-\(UUID().uuidString)")
        let uploader = ReportUploader(reportsDirectory: missing, transport: RecordingTransport(), log: { _ in })
        let summary = try await uploader.processPendingReports()
        XCTAssertEqual(summary.results, [])
    }

    func testDirectoryPathThatIsAFileIsAnErrorNamingIt() async throws {
        let directory = try ReportsDirectory(self)
        let notADirectory = directory.file("plain")
        try Data("x".utf8).write(to: notADirectory)
        let uploader = ReportUploader(reportsDirectory: notADirectory, transport: RecordingTransport(), log: { _ in })
        do {
            _ = try await uploader.processPendingReports()
            XCTFail("expected an error")
        } catch let error as ReportFileError {
            XCTAssertEqual(error.description, "\(notADirectory.path): is not a directory")
        }
    }

    func testStartedPassRunsInTheBackgroundAndReturnsItsSummary() async throws {
        let directory = try ReportsDirectory(self)
        try directory.addReport("one")
        try directory.addReport("two")
        let transport = RecordingTransport()

        let summary = try await makeUploader(directory, transport: transport).startProcessingPendingReports().value

        XCTAssertEqual(summary.uploaded.map(\.id), ["one", "two"])
        XCTAssertEqual(transport.sent.all, ["one", "two"])
        XCTAssertEqual(directory.names(), [])
    }
}
