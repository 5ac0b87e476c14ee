import Foundation

/// What one upload pass did with one report.
public struct ReportUploadResult: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The server answered 2xx; the file is deleted.
        case uploaded(statusCode: Int)
        /// No 2xx answer (5xx, 408, 429, other status, timeout, transport or file error);
        /// the file stays for the next pass. `reason` is the last failure.
        case willRetry(reason: String)
        /// The server refused it for good (4xx other than 408/429); the file was moved to
        /// `movedTo` in the `rejected/` folder, beside a `.rejection.txt` saying why.
        case rejected(statusCode: Int, movedTo: URL)
        /// Another uploader held or had already handled it; this pass left it alone.
        case claimedElsewhere
    }

    /// The report's name: its file name without `.json`.
    public let id: String
    /// Where the report was when the pass found it.
    public let file: URL
    /// Send attempts this pass made.
    public let attempts: Int
    public let outcome: Outcome
}

/// The result of one upload pass, one entry per report found, in file-name order.
public struct UploadSummary: Sendable, Equatable, CustomStringConvertible {
    public let results: [ReportUploadResult]

    public var uploaded: [ReportUploadResult] {
        results.filter { if case .uploaded = $0.outcome { return true } else { return false } }
    }
    public var willRetry: [ReportUploadResult] {
        results.filter { if case .willRetry = $0.outcome { return true } else { return false } }
    }
    public var rejected: [ReportUploadResult] {
        results.filter { if case .rejected = $0.outcome { return true } else { return false } }
    }
    public var claimedElsewhere: [ReportUploadResult] {
        results.filter { $0.outcome == .claimedElsewhere }
    }

    /// One line of counts, then a line per report that was not uploaded.
    public var description: String {
        var lines = [
            "uploaded \(uploaded.count), will retry \(willRetry.count), "
                + "rejected \(rejected.count), claimed elsewhere \(claimedElsewhere.count)"
        ]
        for result in results {
            switch result.outcome {
            case .uploaded, .claimedElsewhere:
                continue
            case .willRetry(let reason):
                lines.append("kept \(result.file.path) after \(result.attempts) attempt(s): \(reason)")
            case .rejected(let status, let destination):
                lines.append("rejected \(result.file.path) (HTTP \(status)), moved to \(destination.path)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
