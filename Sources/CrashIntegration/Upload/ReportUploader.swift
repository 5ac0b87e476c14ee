import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Uploads the final crash reports waiting in a directory, when the app decides it is time.
///
/// Each top-level `*.json` file (names starting with "." are skipped, so writers can create
/// reports atomically by writing a hidden temporary file and renaming it) is one report. A pass:
/// - claims each report (see `ReportClaim`: an `flock` released by the kernel if the uploader
///   dies, so a kill -9 mid-upload loses nothing and two uploaders never send one report at once),
/// - sends it through the transport; only a 2xx answer deletes the file,
/// - moves it to `rejected/` on a permanent refusal (4xx other than 408 and 429),
/// - keeps it on anything else and retries it with exponential backoff (longer when the server
///   sent `Retry-After`), up to `retry.maxAttempts` attempts in this pass; what is still
///   undelivered, or what the server asked to hold for longer than `retry.maxDelay`, waits for
///   the next pass.
///
/// A report's minidump (`<id>.dmp` beside `<id>.json`, written by processing) travels with it
/// as an attachment, is deleted with it after delivery (the minidump first) and moved with it
/// to `rejected/`.
///
/// Delivery is at least once: if the uploader dies after the server stored a report but before
/// the answer arrived, the next pass sends it again with the same `id`.
public struct ReportUploader: Sendable {
    /// Name of the folder, inside the reports directory, that holds permanently refused reports.
    public static let rejectedFolderName = "rejected"

    public let reportsDirectory: URL
    public let transport: any ReportTransport
    public let retry: UploadRetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - reportsDirectory: where final reports (`*.json`) are written.
    ///   - transport: how a report reaches the server, e.g. `HTTPReportTransport`.
    ///   - retry: attempts and backoff within one pass.
    ///   - sleep: waits between attempts; inject a recording or instant one in tests.
    ///   - log: receives one line per report handled and per problem (default: standard error).
    public init(
        reportsDirectory: URL,
        transport: any ReportTransport,
        retry: UploadRetryPolicy = UploadRetryPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        log: @escaping @Sendable (String) -> Void = ReportUploader.standardErrorLog
    ) {
        self.reportsDirectory = reportsDirectory
        self.transport = transport
        self.retry = retry
        self.sleep = sleep
        self.log = log
    }

    /// Writes `line` to standard error, prefixed with "seam-upload: ".
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("seam-upload: \(line)\n".utf8))
    }

    /// Starts one upload pass in the background and returns at once; await the task's value
    /// for the summary, or cancel it (undelivered reports stay).
    @discardableResult
    public func startProcessingPendingReports(priority: TaskPriority = .background) -> Task<UploadSummary, Error> {
        Task.detached(priority: priority) { try await processPendingReports() }
    }

    /// Runs one upload pass over the reports pending now.
    /// - Throws: `ReportFileError` if the reports directory exists but cannot be listed.
    ///   A missing directory means nothing is pending.
    public func processPendingReports() async throws -> UploadSummary {
        var queue = try pendingReports()
        var results: [ReportUploadResult] = []
        var attempt = 1
        while !queue.isEmpty {
            var failures: [(file: URL, reason: String)] = []
            var serverWait: Duration = .zero
            for file in queue {
                if Task.isCancelled {
                    failures.append((file, "upload pass cancelled"))
                    continue
                }
                switch await upload(file, attempt: attempt) {
                case .finished(let result): results.append(result)
                case .failed(let reason, let retryAfter):
                    failures.append((file, reason))
                    serverWait = max(serverWait, retryAfter ?? .zero)
                }
            }
            var giveUp = attempt >= retry.maxAttempts || Task.isCancelled || serverWait > retry.maxDelay
            if !failures.isEmpty && !giveUp {
                do {
                    try await sleep(max(retry.delay(beforeAttempt: attempt + 1), serverWait))
                } catch {
                    giveUp = true
                }
            }
            if giveUp {
                for failure in failures {
                    log("kept \(failure.file.path) for a later pass: \(failure.reason)")
                    results.append(result(failure.file, attempt, .willRetry(reason: failure.reason)))
                }
                break
            }
            queue = failures.map(\.file)
            attempt += 1
        }
        return UploadSummary(results: results.sorted { $0.file.lastPathComponent < $1.file.lastPathComponent })
    }

    /// The report files pending now, sorted by name.
    public func pendingReports() throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: reportsDirectory.path, isDirectory: &isDirectory) else {
            return []
        }
        guard isDirectory.boolValue else {
            throw ReportFileError(path: reportsDirectory.path, problem: "is not a directory")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: reportsDirectory.path)
        } catch {
            throw ReportFileError(path: reportsDirectory.path, problem: "cannot list: \(error.localizedDescription)")
        }
        return
            names
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted()
            .map { reportsDirectory.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }

    // MARK: - One attempt

    private enum Attempt {
        case finished(ReportUploadResult)
        case failed(reason: String, retryAfter: Duration? = nil)
    }

    private func upload(_ file: URL, attempt: Int) async -> Attempt {
        let claim: ReportClaim
        do {
            switch try ReportClaim.attempt(file) {
            case .claimed(let held): claim = held
            case .heldElsewhere, .gone: return .finished(result(file, attempt - 1, .claimedElsewhere))
            }
        } catch {
            return .failed(reason: "\(error)")
        }
        defer { claim.release() }

        let response: TransportResponse
        do {
            let report = try claim.contents()
            let minidump = try? Data(contentsOf: ReportOutputs.minidumpURL(for: file))
            response = try await transport.send(
                report, id: Self.reportID(of: file),
                attachments: ReportAttachments(minidump: minidump))
        } catch {
            return .failed(reason: "\(error)")
        }

        switch response.statusCode {
        case 200..<300:
            do {
                try Self.removeMinidump(of: file)
                try claim.remove()
                log("uploaded \(file.path) (HTTP \(response.statusCode), attempt \(attempt))")
            } catch {
                log("uploaded \(file.path) but \(error); it will be sent again")
            }
            return .finished(result(file, attempt, .uploaded(statusCode: response.statusCode)))
        case 400..<500 where response.statusCode != 408 && response.statusCode != 429:
            return .finished(result(file, attempt, reject(claim, response)))
        default:
            return .failed(reason: "HTTP \(response.statusCode)", retryAfter: response.retryAfter)
        }
    }

    /// Moves a refused report to `rejected/` beside a note saying why; on failure it stays.
    private func reject(_ claim: ReportClaim, _ response: TransportResponse) -> ReportUploadResult.Outcome {
        let file = claim.file
        do {
            let folder = reportsDirectory.appendingPathComponent(Self.rejectedFolderName)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let destination = Self.freeName(for: file.lastPathComponent, in: folder)
            let answer = String(decoding: response.body.prefix(2048), as: UTF8.self)
            let note =
                "report: \(file.lastPathComponent)\nrefused: HTTP \(response.statusCode) at \(Date())\n"
                + "server answer (first 2 KiB):\n\(answer)\n"
            try Data(note.utf8).write(to: destination.appendingPathExtension("rejection.txt"), options: .atomic)
            let minidump = ReportOutputs.minidumpURL(for: file)
            if rename(minidump.path, ReportOutputs.minidumpURL(for: destination).path) != 0 && errno != ENOENT {
                throw ReportFileError.posix(minidump.path, "cannot move to \(folder.path)")
            }
            try claim.move(to: destination)
            log("rejected \(file.path) with HTTP \(response.statusCode); moved to \(destination.path)")
            return .rejected(statusCode: response.statusCode, movedTo: destination)
        } catch {
            let reason = "refused with HTTP \(response.statusCode) but not moved aside: \(error)"
            log("kept \(file.path): \(reason)")
            return .willRetry(reason: reason)
        }
    }

    private func result(_ file: URL, _ attempts: Int, _ outcome: ReportUploadResult.Outcome) -> ReportUploadResult {
        ReportUploadResult(id: Self.reportID(of: file), file: file, attempts: attempts, outcome: outcome)
    }

    /// Deletes a delivered report's minidump; a missing one is fine.
    static func removeMinidump(of file: URL) throws {
        let minidump = ReportOutputs.minidumpURL(for: file)
        if unlink(minidump.path) != 0 && errno != ENOENT {
            throw ReportFileError.posix(minidump.path, "cannot delete after delivery")
        }
    }

    static func reportID(of file: URL) -> String {
        file.deletingPathExtension().lastPathComponent
    }

    /// `name` in `folder`, or `name` with "-2", "-3"… before `.json` if taken.
    static func freeName(for name: String, in folder: URL) -> URL {
        var candidate = folder.appendingPathComponent(name)
        var counter = 2
        let stem = (name as NSString).deletingPathExtension
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(stem)-\(counter).json")
            counter += 1
        }
        return candidate
    }
}
