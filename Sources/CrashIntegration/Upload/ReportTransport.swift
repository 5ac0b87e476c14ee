import Foundation

/// What a server answered to one report upload.
public struct TransportResponse: Sendable, Equatable {
    /// The HTTP status code (or an equivalent the transport maps onto HTTP semantics).
    public let statusCode: Int
    /// The response body, kept so a rejection can be explained.
    public let body: Data
    /// How long the server asked to be left alone (`Retry-After`), when it said.
    public let retryAfter: Duration?

    public init(statusCode: Int, body: Data = Data(), retryAfter: Duration? = nil) {
        self.statusCode = statusCode
        self.body = body
        self.retryAfter = retryAfter
    }
}

/// Files that travel with a report: today its minidump (`<id>.dmp` beside `<id>.json`).
public struct ReportAttachments: Sendable, Equatable {
    /// The minidump's bytes, when processing wrote one.
    public var minidump: Data?

    public init(minidump: Data? = nil) {
        self.minidump = minidump
    }
}

/// Delivers one crash report to a collector. Injected into `ReportUploader`.
///
/// Return the server's answer for any answer at all (including 4xx/5xx); throw only when no
/// answer came (connection refused, timeout, cancellation). The uploader decides from the
/// status code whether the report is delivered, rejected or kept for a later attempt.
public protocol ReportTransport: Sendable {
    /// Sends `report` (the JSON bytes of one report file). `id` names the report (its file
    /// name without `.json`) and is stable across retries, so a server can de-duplicate.
    func send(_ report: Data, id: String) async throws -> TransportResponse

    /// Sends `report` with its attachments. The default sends the report alone; transports for
    /// backends that ingest minidumps (`SentryReportTransport`) send both.
    func send(_ report: Data, id: String, attachments: ReportAttachments) async throws -> TransportResponse
}

extension ReportTransport {
    public func send(_ report: Data, id: String, attachments: ReportAttachments) async throws -> TransportResponse {
        try await send(report, id: id)
    }
}

/// Why a transport produced no answer.
public enum ReportTransportError: Error, Equatable, CustomStringConvertible {
    /// No complete answer within the per-request timeout.
    case timedOut(seconds: Double)
    /// The request failed before an answer came (e.g. connection refused, cancelled).
    case requestFailed(String)
    /// The answer was not an HTTP response.
    case notHTTP(String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): return "no answer within \(seconds) s"
        case .requestFailed(let reason): return "request failed: \(reason)"
        case .notHTTP(let what): return "the answer was not an HTTP response (\(what))"
        }
    }
}
