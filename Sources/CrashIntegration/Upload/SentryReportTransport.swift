import Foundation

/// Sends each report to Sentry (or any server speaking its ingestion protocol) as one envelope
/// POSTed to the DSN's envelope endpoint: the event made from the report, the report's minidump
/// as an `event.minidump` attachment, and the report JSON itself as a plain attachment, so
/// nothing Seam recorded is lost on the way. Authenticates with `X-Sentry-Auth`.
///
/// Works with `ReportUploader` like the HTTP transport: 2xx delivered, 4xx (but 408/429)
/// rejected, anything else retried, `Retry-After` honoured. The event id is derived from the
/// report id, so a report sent twice (at-least-once delivery) is one event in Sentry.
public final class SentryReportTransport: ReportTransport {
    public let dsn: SentryDSN
    /// `sentry_client` in the auth header.
    public static let clientName = "seam-crash/1.0"
    private let poster: HTTPPoster

    /// - Parameters:
    ///   - dsn: the project's DSN, from Sentry's project settings ("Client Keys").
    ///   - timeout: per-request deadline.
    public init(dsn: SentryDSN, timeout: Duration = .seconds(30)) {
        self.dsn = dsn
        poster = HTTPPoster(timeout: timeout)
    }

    public func send(_ report: Data, id: String) async throws -> TransportResponse {
        try await send(report, id: id, attachments: ReportAttachments())
    }

    public func send(_ report: Data, id: String, attachments: ReportAttachments) async throws -> TransportResponse {
        try await poster.post(
            envelope(report, id: id, attachments: attachments).data, to: dsn.envelopeURL,
            headers: [
                ("Content-Type", "application/x-sentry-envelope"),
                ("X-Sentry-Auth", dsn.authHeader(client: Self.clientName)),
            ])
    }

    /// The envelope for one report. A report that does not decode still goes out: as an event
    /// saying so, with the report attached.
    func envelope(_ report: Data, id: String, attachments: ReportAttachments, sentAt: Date = Date()) -> SentryEnvelope {
        let eventID = SentryEvent.eventID(forReport: id)
        let event: ReportJSON.Value
        do {
            event = SentryEvent.json(try JSONDecoder().decode(CrashReport.self, from: report), eventID: eventID)
        } catch {
            event = .object([
                ("event_id", .string(eventID)), ("platform", .string("native")), ("level", .string("fatal")),
                ("message", .object([("formatted", .string("Seam crash report \(id) could not be read: \(error)"))])),
            ])
        }
        var eventBytes: [UInt8] = []
        ReportJSON.write(event, into: &eventBytes)
        var items = [
            SentryEnvelope.Item(
                headers: [("type", .string("event")), ("content_type", .string("application/json"))],
                payload: Data(eventBytes))
        ]
        if let minidump = attachments.minidump {
            items.append(
                .init(
                    headers: [
                        ("type", .string("attachment")), ("filename", .string("\(id).dmp")),
                        ("attachment_type", .string("event.minidump")),
                        ("content_type", .string("application/octet-stream")),
                    ], payload: minidump))
        }
        items.append(
            .init(
                headers: [
                    ("type", .string("attachment")), ("filename", .string("\(id).json")),
                    ("attachment_type", .string("event.attachment")),
                    ("content_type", .string("application/json")),
                ], payload: report))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return SentryEnvelope(
            headers: [
                ("event_id", .string(eventID)), ("dsn", .string(dsn.description)),
                ("sent_at", .string(formatter.string(from: sentAt))),
            ], items: items)
    }
}
