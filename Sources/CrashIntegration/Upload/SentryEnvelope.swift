import Foundation

/// Sentry's envelope format (develop.sentry.dev/sdk/data-model/envelopes): a JSON header line,
/// then per item a JSON header line carrying the payload's `length`, the payload and a newline.
struct SentryEnvelope {
    struct Item {
        /// Item header fields besides `length`, e.g. type, filename, attachment_type.
        var headers: [(String, ReportJSON.Value)]
        var payload: Data
    }

    var headers: [(String, ReportJSON.Value)]
    var items: [Item]

    var data: Data {
        var out: [UInt8] = []
        ReportJSON.write(.object(headers), into: &out)
        out.append(0x0a)
        for item in items {
            ReportJSON.write(.object(item.headers + [("length", .unsigned(UInt64(item.payload.count)))]), into: &out)
            out.append(0x0a)
            out += item.payload
            out.append(0x0a)
        }
        return Data(out)
    }
}
