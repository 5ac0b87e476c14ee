import Foundation
import SeamTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `crash-demo launch --upload URL` against a real HTTP server on 127.0.0.1 in this process.
final class CrashUploadTests: XCTestCase {
    func testRelaunchUploadsTheReportAndDeletesItAfter2xx() throws {
        let server = try LoopbackHTTPServer { _, _ in .status(201) }
        defer { server.stop() }
        let store = DemoStoreDirectory(self)
        try crash(store)

        let launch = try CrashDemoProcess.run([
            "--store", store.path, "launch", "--upload", server.endpoint.absoluteString,
        ])
        XCTAssertTrue(launch.exitedCleanly, launch.summary)
        let printed = try XCTUnwrap(try launch.reports().first, launch.summary)
        let status = try launch.launchStatus()
        XCTAssertEqual(status.uploaded, 1, launch.stderr)
        XCTAssertEqual(status.uploadWillRetry, 0, launch.stderr)

        let requests = server.requests
        XCTAssertEqual(requests.count, 1)
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/crash-reports")
        XCTAssertEqual(request.headers["content-type"], "application/json")
        XCTAssertEqual(
            try jsonObject(request.body), try jsonObject(Data(printed.json.utf8)),
            "the body is the report printed on stdout")
        XCTAssertEqual(
            request.reportID.map { $0 + ".seamdump" }, printed.dumpFile,
            "the report ID is the report file's name, which is the dump's")
        XCTAssertTrue(store.reportFiles.isEmpty, "a delivered report is deleted: \(store.reportFiles)")
    }

    func testRefusedUploadKeepsTheReportForTheNextLaunch() throws {
        let server = try LoopbackHTTPServer { _, _ in .status(503, body: "collector down") }
        defer { server.stop() }
        let store = DemoStoreDirectory(self)
        try crash(store)

        let first = try CrashDemoProcess.run([
            "--store", store.path, "launch", "--upload", server.endpoint.absoluteString,
            "--upload-attempts", "1",
        ])
        XCTAssertTrue(first.exitedCleanly, first.summary)
        XCTAssertEqual(try first.reports().count, 1)
        XCTAssertEqual(try first.launchStatus().uploadWillRetry, 1, first.stderr)
        XCTAssertEqual(store.reportFiles.count, 1, "no 2xx, so the report stays")

        server.setResponder { _, _ in .status(200) }
        let second = try CrashDemoProcess.run([
            "--store", store.path, "launch", "--upload", server.endpoint.absoluteString,
        ])
        XCTAssertTrue(second.exitedCleanly, second.summary)
        XCTAssertEqual(try second.reports().count, 0, "the crash was reported once; only its upload was pending")
        XCTAssertEqual(try second.launchStatus().uploaded, 1, second.stderr)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertEqual(server.requests.map(\.body).count, 2)
        XCTAssertEqual(
            try jsonObject(server.requests[0].body), try jsonObject(server.requests[1].body),
            "the same report was sent again")
        XCTAssertTrue(store.reportFiles.isEmpty)
    }

    func testUploadToAClosedPortKeepsTheReport() throws {
        let server = try LoopbackHTTPServer { _, _ in .status(200) }
        let endpoint = server.endpoint
        server.stop() // nothing listens on the port any more
        let store = DemoStoreDirectory(self)
        try crash(store)

        let launch = try CrashDemoProcess.run([
            "--store", store.path, "launch", "--upload", endpoint.absoluteString,
            "--upload-attempts", "1", "--upload-timeout", "2",
        ])
        XCTAssertTrue(launch.exitedCleanly, launch.summary)
        XCTAssertEqual(try launch.launchStatus().uploadWillRetry, 1, launch.stderr)
        XCTAssertEqual(store.reportFiles.count, 1)
    }

    private func crash(_ store: DemoStoreDirectory, file: StaticString = #filePath, line: UInt = #line) throws {
        let crash = try CrashDemoProcess.run(["--store", store.path, "crash", "segv"], backtracer: .disabled)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, crash.summary, file: file, line: line)
    }
}

/// A JSON document as a Foundation object graph, comparable with `==` regardless of key order
/// and whitespace.
private func jsonObject(_ data: Data) throws -> NSObject {
    try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? NSObject)
}
