import Foundation

/// The default transport: one HTTP POST of the report's JSON to a collector endpoint.
///
/// Sends `Content-Type: application/json` and `X-Seam-Report-ID: <id>` (stable across retries,
/// for server-side de-duplication) plus any extra headers. Each request must be answered within
/// `timeout`.
public final class HTTPReportTransport: ReportTransport {
    /// Where reports are POSTed.
    public let endpoint: URL
    /// Per-request deadline, from sending the request to having the whole answer.
    public var timeout: Duration { poster.timeout }
    private let headers: [String: String]
    private let poster: HTTPPoster

    /// - Parameters:
    ///   - endpoint: the collector URL reports are POSTed to.
    ///   - timeout: per-request deadline; past it the attempt counts as failed and the report stays.
    ///   - headers: extra request headers, e.g. an authorization token.
    public init(endpoint: URL, timeout: Duration = .seconds(30), headers: [String: String] = [:]) {
        self.endpoint = endpoint
        self.headers = headers
        poster = HTTPPoster(timeout: timeout)
    }

    public func send(_ report: Data, id: String) async throws -> TransportResponse {
        try await poster.post(
            report, to: endpoint,
            headers: headers.map { ($0.key, $0.value) }
                + [("Content-Type", "application/json"), ("X-Seam-Report-ID", id)])
    }
}
