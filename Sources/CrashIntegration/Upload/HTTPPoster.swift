import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One POST with a deadline, shared by the transports. The deadline is enforced here rather
/// than left to `URLRequest.timeoutInterval`, which swift-corelibs-foundation truncates to whole
/// seconds (0.5 s becomes "expired").
final class HTTPPoster: Sendable {
    let timeout: Duration
    private let session: URLSession

    init(timeout: Duration) {
        self.timeout = timeout
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

    /// POSTs `body` to `url` with `headers`, set in order (a later one replaces an earlier one
    /// of the same name); any HTTP answer is returned, no answer throws.
    func post(_ body: Data, to url: URL, headers: [(String, String)]) async throws -> TransportResponse {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (session, prepared) = (self.session, request)
        let (answer, response) = try await withDeadline(timeout) {
            do {
                return try await session.upload(for: prepared, from: body)
            } catch let error as URLError {
                throw ReportTransportError.requestFailed("\(error.code): \(error.localizedDescription)")
            }
        }
        guard let http = response as? HTTPURLResponse else {
            throw ReportTransportError.notHTTP(String(describing: type(of: response)))
        }
        return TransportResponse(
            statusCode: http.statusCode, body: answer,
            retryAfter: http.value(forHTTPHeaderField: "Retry-After").flatMap(Self.retryAfter))
    }

    /// `Retry-After` as delay-seconds or as an HTTP date (RFC 9110 §10.2.3).
    static func retryAfter(_ value: String) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000))
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
