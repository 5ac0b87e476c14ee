// Test helper: runs one upload pass as its own process, so tests can kill it with SIGKILL
// mid-upload or race two of them over one reports directory.
// Usage: UploadProbe <reports-dir> <endpoint> <timeout-ms> <max-attempts> <client-name>
// Prints one "<outcome> <report-id>" line per report; sends the client name as X-Upload-Probe.
import CrashIntegration
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 6, let endpoint = URL(string: arguments[2]),
    let timeout = Int(arguments[3]), let attempts = Int(arguments[4])
else {
    FileHandle.standardError.write(
        Data("usage: UploadProbe <reports-dir> <endpoint> <timeout-ms> <max-attempts> <client-name>\n".utf8))
    exit(2)
}
let uploader = ReportUploader(
    reportsDirectory: URL(fileURLWithPath: arguments[1]),
    transport: HTTPReportTransport(
        endpoint: endpoint, timeout: .milliseconds(timeout), headers: ["X-Upload-Probe": arguments[5]]),
    retry: UploadRetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(50), jitter: false),
    log: { _ in } // outcomes go to stdout below; keeps test output quiet
)
do {
    let summary = try await uploader.processPendingReports()
    for result in summary.results {
        let outcome: String
        switch result.outcome {
        case .uploaded: outcome = "uploaded"
        case .willRetry: outcome = "willRetry"
        case .rejected: outcome = "rejected"
        case .claimedElsewhere: outcome = "claimedElsewhere"
        }
        print(outcome, result.id)
    }
} catch {
    FileHandle.standardError.write(Data("UploadProbe: \(error)\n".utf8))
    exit(1)
}
