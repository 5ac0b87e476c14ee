import Foundation

/// Parses a Sentry envelope the way the published format describes it, independently of the
/// transport's writer: a header line of JSON, then items, each a JSON header line with
/// `length`, exactly that many payload bytes, and a newline.
struct ParsedEnvelope {
    struct Item {
        let headers: [String: Any]
        let payload: Data
        var type: String? { headers["type"] as? String }
    }

    let headers: [String: Any]
    let items: [Item]

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var position = 0
        func line() throws -> [UInt8] {
            guard let end = bytes[position...].firstIndex(of: 0x0a) else {
                throw Malformed(description: "no newline after byte \(position)")
            }
            defer { position = end + 1 }
            return Array(bytes[position..<end])
        }
        func object(_ raw: [UInt8]) throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any] else {
                throw Malformed(description: "a header is not a JSON object: \(String(decoding: raw, as: UTF8.self))")
            }
            return object
        }
        headers = try object(try line())
        var items: [Item] = []
        while position < bytes.count {
            let header = try object(try line())
            guard let length = header["length"] as? Int, position + length <= bytes.count else {
                throw Malformed(description: "item header without a usable length: \(header)")
            }
            let payload = Data(bytes[position..<position + length])
            position += length
            if position < bytes.count {
                guard bytes[position] == 0x0a else { throw Malformed(description: "no newline after an item payload") }
                position += 1
            }
            items.append(Item(headers: header, payload: payload))
        }
        self.items = items
    }
}
