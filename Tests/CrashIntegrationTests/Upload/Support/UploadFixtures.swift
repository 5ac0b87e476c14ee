import Foundation
import XCTest
@testable import CrashIntegration

/// A fresh reports directory with fixture reports, removed at the end of the test.
final class ReportsDirectory {
    let url: URL

    init(_ testCase: XCTestCase) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("seam-upload-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let url = self.url
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    }

    /// Writes a report whose JSON names `id`, returning its bytes.
    @discardableResult
    func addReport(_ id: String, padding: Int = 0) throws -> Data {
        let json =
            #"{"report_id":"\#(id)","signal":"SIGSEGV","frames":["main","crash_here"],"pad":"\#(String(repeating: "x", count: padding))"}"#
        let data = Data(json.utf8)
        try data.write(to: file(id))
        return data
    }

    func file(_ id: String) -> URL { url.appendingPathComponent("\(id).json") }

    func exists(_ id: String) -> Bool { FileManager.default.fileExists(atPath: file(id).path) }

    /// Names of the entries directly in the directory (or in `subfolder`), sorted.
    func names(in subfolder: String? = nil) -> [String] {
        let folder = subfolder.map { url.appendingPathComponent($0) } ?? url
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// A thread-safe list, for things the uploader hands to injected closures.
final class Recorder<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock(); defer { lock.unlock() }
        items.append(item)
    }

    var all: [Element] {
        lock.lock(); defer { lock.unlock() }
        return items
    }
}

/// An uploader whose waits return at once (and are recorded) and whose log is recorded.
func makeUploader(
    _ directory: ReportsDirectory,
    transport: any ReportTransport,
    retry: UploadRetryPolicy = UploadRetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100), jitter: false),
    waits: Recorder<Duration> = Recorder(),
    log: Recorder<String> = Recorder()
) -> ReportUploader {
    ReportUploader(
        reportsDirectory: directory.url,
        transport: transport,
        retry: retry,
        sleep: { waits.append($0) },
        log: { log.append($0) }
    )
}

/// The `UploadProbe` executable (built beside the test bundle) running one upload pass.
final class UploadProbeProcess {
    let process = Process()
    private let output = Pipe()

    /// Starts `UploadProbe <directory> <endpoint> <timeout-ms> <max-attempts> <client-name>`.
    init(directory: ReportsDirectory, endpoint: URL, timeoutMilliseconds: Int, maxAttempts: Int, name: String) throws {
        process.executableURL = Self.productsDirectory.appendingPathComponent("UploadProbe")
        process.arguments = [
            directory.url.path, endpoint.absoluteString, "\(timeoutMilliseconds)", "\(maxAttempts)", name,
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        process.standardOutput = output
        try process.run()
    }

    /// Waits for exit and returns the probe's "<outcome> <id>" lines.
    func finish() -> [String] {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.executableURL!.deletingLastPathComponent()
    }
}
