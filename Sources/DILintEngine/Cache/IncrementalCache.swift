import Foundation

/// The on-disk `OutcomeCache` behind `--cache DIR`: one file per (path, content, settings), so an
/// unchanged file under unchanged settings is not parsed again.
///
/// The key hashes the file's content, its path, the run's settings (the whole configuration, the
/// file's compile arguments, `parseEveryFile`), di-lint's version and build id, and libclang's
/// version. Entries are written to a temporary file and renamed into place, so a reader never sees
/// half an entry; an entry that does not decode is treated as missing and overwritten.
public final class IncrementalCache: OutcomeCache, @unchecked Sendable {
    public let directory: URL
    private let settings: String
    private let compileArguments: [String: [String]]

    /// Layout version of the directory; bump it when the entry format changes.
    static let layout = "v1"

    /// Creates the directory if needed; throws when it cannot be created.
    public init(directory: String, configuration: Configuration, compileArguments: [String: [String]] = [:],
                parseEveryFile: Bool = false) throws {
        self.directory = URL(fileURLWithPath: directory).appendingPathComponent(Self.layout)
        self.compileArguments = compileArguments
        settings = [DILintVersion.current, BuildIdentity.executable, BuildIdentity.libclangVersion,
                    CanonicalDescription.of(configuration), "parseEveryFile=\(parseEveryFile)"].joined(separator: "\n")
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigError.file(path: directory, problem: "cannot create the cache directory (\(error.localizedDescription))")
        }
    }

    func key(path: String, content: [UInt8]) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var hasher = SHA256()
        hasher.update(settings)
        // The path as given too: findings carry it (relative to the working directory).
        hasher.update("\0" + path + "\0" + absolute + "\0")
        hasher.update(CanonicalDescription.of(compileArguments[absolute] ?? []) + "\0")
        content.withUnsafeBytes { hasher.update($0) }
        return SHA256.hexString(hasher.finalize())
    }

    private func entryURL(_ key: String) -> URL {
        directory.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + ".json")
    }

    public func outcome(path: String, content: [UInt8]) -> FileOutcome? {
        guard let data = try? Data(contentsOf: entryURL(key(path: path, content: content))) else { return nil }
        return try? JSONDecoder().decode(FileOutcome.self, from: data)
    }

    public func store(_ outcome: FileOutcome, path: String, content: [UInt8]) {
        var outcome = outcome
        outcome.fromCache = false
        guard let data = try? JSONEncoder().encode(outcome) else { return }
        let url = entryURL(key(path: path, content: content))
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".tmp-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else { return }
        if rename(temporary.path, url.path) != 0 { unlink(temporary.path) }
    }
}
