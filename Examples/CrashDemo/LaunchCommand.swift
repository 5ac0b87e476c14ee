import ArgumentParser
import CrashIntegration
import Foundation

/// `crash-demo --store DIR launch [--upload URL]`: a normal start of the app. Installs crash
/// capture, turns the dumps earlier launches left into reports (one JSON line each on stdout),
/// uploads them if asked, and reports the launch status as one JSON line on stderr.
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Start normally: report earlier crashes, optionally upload them.")

    @ParentCommand var demo: CrashDemo

    @Option(help: "Collector URL to POST each pending report to.")
    var upload: String?

    @Option(help: "Seconds to wait for each upload answer.")
    var uploadTimeout: Double = 10

    @Option(help: "Upload attempts per report in this launch.")
    var uploadAttempts: Int = 3

    func validate() throws {
        if let upload, URL(string: upload)?.scheme?.hasPrefix("http") != true {
            throw ValidationError("--upload: \"\(upload)\" is not an http(s) URL")
        }
    }

    func run() throws {
        let store = DemoStore(path: demo.store)
        // Crash reporting never keeps the app from starting: a store that is full or read-only
        // leaves it without capture, and its pending dumps for a later launch, with a warning.
        var integration: CrashIntegration<DemoServices>?
        do {
            integration = try store.startCrashIntegration(command: "launch")
        } catch {
            warn("crash capture is not installed, the app runs without it: \(error)")
        }
        for warning in integration?.warnings ?? [] { warn(warning) }
        var status = LaunchStatus(
            crashedLastLaunch: integration?.bridge.crashedLastLaunch ?? false,
            activeSecondsSinceLastCrash: integration?.bridge.activeDurationSinceLastCrash ?? 0)
        status.captureInstalled = integration != nil

        let started = DispatchTime.now().uptimeNanoseconds
        var reports: [String] = []
        do {
            let processed = try processPendingDumps(store)
            reports = processed.reports
            status.processingDeferred = processed.deferred
        } catch {
            warn("processing deferred to a later launch: \(error)")
            status.processingDeferred = true
        }
        status.processingMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        for report in reports {
            print(report)
        }
        status.newReports = reports.count

        if let upload, let endpoint = URL(string: upload) {
            let summary = try uploadPendingReports(store, to: endpoint)
            FileHandle.standardError.write(Data("crash-demo: \(summary)\n".utf8))
            status.record(summary)
        }
        FileHandle.standardError.write(Data("\(LaunchStatus.linePrefix)\(try status.json())\n".utf8))

        integration?.bridge.notificationCenter.post(name: .seamAppWillTerminate)
        integration?.uninstall()
    }

    private func warn(_ message: String) {
        FileHandle.standardError.write(Data("crash-demo: warning: \(message)\n".utf8))
    }

    /// Turns the dumps earlier launches left into reports in `reports/`; returns each new
    /// report as one compact JSON line, and whether some dumps were kept for a later launch
    /// (each named on stderr).
    private func processPendingDumps(_ store: DemoStore) throws -> (reports: [String], deferred: Bool) {
        let summary = try processIntermediateDumps(in: store.dumps, into: store.reports)
        for failure in summary.failures {
            FileHandle.standardError.write(Data("crash-demo: kept \(failure.dump.path): \(failure.error)\n".utf8))
        }
        return (try summary.reports.map { try singleLine(Data(contentsOf: $0)) }, !summary.failures.isEmpty)
    }

    /// Starts one upload pass over `reports/` in the background and waits for it to finish.
    private func uploadPendingReports(_ store: DemoStore, to endpoint: URL) throws -> UploadSummary {
        let uploader = ReportUploader(
            reportsDirectory: store.reports,
            transport: HTTPReportTransport(endpoint: endpoint, timeout: .milliseconds(Int64(uploadTimeout * 1000))),
            retry: UploadRetryPolicy(maxAttempts: uploadAttempts, baseDelay: .milliseconds(500)))
        let pass = uploader.startProcessingPendingReports(priority: .userInitiated)
        return try waitFor(pass)
    }
}

/// A JSON document on one line: every line break and the indentation after it removed. Only
/// layout can contain a raw line break (JSON strings escape theirs), so the content is unchanged.
func singleLine(_ json: Data) -> String {
    json.withUnsafeBytes { raw in
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var atLineStart = false
        for byte in raw {
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                atLineStart = true
            } else if !(atLineStart && byte == UInt8(ascii: " ")) {
                atLineStart = false
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What `launch` learned, written to stderr as `crash-demo status: {json}`.
struct LaunchStatus: Encodable {
    static let linePrefix = "crash-demo status: "

    let crashedLastLaunch: Bool
    let activeSecondsSinceLastCrash: Double
    /// False when the store could not take crash capture (full, read-only): the app ran without.
    var captureInstalled = true
    /// True when pending dumps stay for a later launch (the store could not take their reports).
    var processingDeferred = false
    var newReports = 0
    /// Time spent turning pending dumps into reports (and reading them back for stdout).
    var processingMilliseconds = 0.0
    var uploaded: Int?
    var uploadWillRetry: Int?
    var uploadRejected: Int?

    mutating func record(_ summary: UploadSummary) {
        uploaded = summary.uploaded.count
        uploadWillRetry = summary.willRetry.count
        uploadRejected = summary.rejected.count
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// Blocks the calling (non-concurrency) thread until `task` finishes.
private func waitFor<T: Sendable>(_ task: Task<T, Error>) throws -> T {
    let outcome = TaskOutcome<T>()
    Task {
        do { outcome.result = .success(try await task.value) } catch { outcome.result = .failure(error) }
        outcome.done.signal()
    }
    outcome.done.wait()
    return try outcome.result!.get()
}

/// A task's result handed to a waiting thread; written once before `done` is signalled.
private final class TaskOutcome<T>: @unchecked Sendable {
    var result: Result<T, Error>?
    let done = DispatchSemaphore(value: 0)
}
