import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: one HTTP POST of the report's JSON to a collector endpoint.
///
/// Sends `Content-Type: application/json` and `X-Seam-Report-ID: <id>` (stable across retries,
/// for server-side de-duplication) plus any extra headers. Each request must be answered within
/// `timeout`; the deadline is enforced here rather than left to `URLRequest.timeoutInterval`,
/// which swift-corelibs-foundation truncates to whole seconds (0.5 s becomes "expired").
public final class HTTPReportTransport: ReportTransport {
    /// Where reports are POSTed.
    public let endpoint: URL
    /// Per-request deadline, from sending the request to having the whole answer.
    public let timeout: Duration
    private let headers: [String: String]
    private let session: URLSession

    /// - Parameters:
    ///   - endpoint: the collector URL reports are POSTed to.
    ///   - timeout: per-request deadline; past it the attempt counts as failed and the report stays.
    ///   - headers: extra request headers, e.g. an authorization token.
    public init(endpoint: URL, timeout: Duration = .seconds(30), headers: [String: String] = [:]) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.headers = headers
        let configuration = URLSessionConfiguration.ephemeral
        // Our own deadline governs; keep URLSession's (whole-second) one from firing first.
        configuration.timeoutIntervalForRequest = timeout.inSeconds.rounded(.up) + 1
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ report: Data, id: String) async throws -> TransportResponse {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(id, forHTTPHeaderField: "X-Seam-Report-ID")
        let (session, prepared) = (self.session, request)
        let (body, response) = try await withDeadline(timeout) {
            do {
                return try await session.upload(for: prepared, from: report)
            } catch let error as URLError {
                throw ReportTransportError.requestFailed("\(error.code): \(error.localizedDescription)")
            }
        }
        guard let http = response as? HTTPURLResponse else {
            throw ReportTransportError.notHTTP(String(describing: type(of: response)))
        }
        return TransportResponse(statusCode: http.statusCode, body: body)
    }
}

/// Runs `operation`, cancelling it and throwing `ReportTransportError.timedOut` past `limit`.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw ReportTransportError.timedOut(seconds: limit.inSeconds)
        }
        return value
    }
}

extension Duration {
    /// This duration as (fractional) seconds.
    var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
