import Foundation

/// Session records on disk: the open session in `current-session.json`, ended sessions appended
/// to `ended-sessions.jsonl` until something delivers them. Writes are atomic or append-only.
public final class SessionFileStore {
    public let directory: URL
    private var currentURL: URL { directory.appendingPathComponent("current-session.json") }
    private var endedURL: URL { directory.appendingPathComponent("ended-sessions.jsonl") }

    /// Creates `directory` when missing.
    public init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(
                at: self.directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw CrashIntegrationError("cannot create session directory \(directory): \(error)")
        }
    }

    /// The open session, nil when there is none.
    public func loadCurrent() throws -> SessionRecord? {
        guard let data = FileManager.default.contents(atPath: currentURL.path) else { return nil }
        return try decode(data, from: currentURL.path)
    }

    func saveCurrent(_ record: SessionRecord) throws {
        try write(try Self.encoder.encode(record), to: currentURL, options: .atomic)
    }

    func clearCurrent() throws {
        guard FileManager.default.fileExists(atPath: currentURL.path) else { return }
        try FileManager.default.removeItem(at: currentURL)
    }

    /// Moves an unreadable open-session file aside (`.corrupt`) so it is kept, not lost.
    func setCurrentAside() throws {
        let aside = currentURL.appendingPathExtension("corrupt")
        try? FileManager.default.removeItem(at: aside)
        try FileManager.default.moveItem(at: currentURL, to: aside)
    }

    public func appendEnded(_ record: SessionRecord) throws {
        var line = try Self.encoder.encode(record)
        line.append(UInt8(ascii: "\n"))
        if !FileManager.default.fileExists(atPath: endedURL.path) {
            return try write(line, to: endedURL, options: [])
        }
        do {
            let handle = try FileHandle(forWritingTo: endedURL)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
        } catch {
            throw CrashIntegrationError("cannot append to \(endedURL.path): \(error)")
        }
    }

    /// Ended sessions not yet delivered, oldest first.
    public func endedSessions() throws -> [SessionRecord] {
        guard let data = FileManager.default.contents(atPath: endedURL.path) else { return [] }
        return try data.split(separator: UInt8(ascii: "\n")).enumerated().map { index, line in
            try decode(Data(line), from: "\(endedURL.path) line \(index + 1)")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private func decode(_ data: Data, from place: String) throws -> SessionRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(SessionRecord.self, from: data)
        } catch {
            throw CrashIntegrationError("unreadable session record in \(place): \(error)")
        }
    }

    /// Writes owner-only (0600), like every file the crash library keeps.
    private func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
        do {
            try data.write(to: url, options: options)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw CrashIntegrationError("cannot write \(url.path): \(error)")
        }
    }
}
