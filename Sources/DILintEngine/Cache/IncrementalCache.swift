import Foundation

/// The on-disk `OutcomeCache` behind `--cache DIR`: one file per (path, content, settings), so an
/// unchanged file under unchanged settings is not parsed again.
///
/// The key hashes the file's content, its path, the run's settings (the whole configuration, the
/// file's compile arguments, `parseEveryFile`), di-lint's version and build id, and libclang's
/// identity (path, size, mtime). Entries (`CacheEntryCodec`) are written to a temporary file and renamed into place, so a reader never sees
/// half an entry; an entry that does not decode is treated as missing and overwritten. Content
/// digests are remembered with the files' stat data (`DigestIndex`), so unchanged files are not
/// hashed again. Nothing is ever deleted: remove the directory to reclaim the space.
public final class IncrementalCache: OutcomeCache, @unchecked Sendable {
    public let directory: URL
    private let directoryPath: String
    /// Digest of everything but the file: versions, build, configuration.
    private let settings: String
    private let compileArguments: [String: [String]]
    private let digests: DigestIndex
    private let workingDirectory = FileManager.default.currentDirectoryPath
    /// Keys worked out by `outcome`, for the `store` of the same file that follows a miss.
    private var pendingKeys: [String: String] = [:]
    private let lock = NSLock()

    private static let noArguments = CanonicalDescription.of([String]())

    /// Layout version of the directory; bump it when the entry format changes.
    static let layout = "v3"

    /// Creates the directory if needed; throws when it cannot be created.
    public init(directory: String, configuration: Configuration, compileArguments: [String: [String]] = [:],
                parseEveryFile: Bool = false) throws {
        self.directory = URL(fileURLWithPath: directory).appendingPathComponent(Self.layout)
        directoryPath = self.directory.path
        self.compileArguments = compileArguments
        settings = SHA256.hex([DILintVersion.current, BuildIdentity.executable, LibClang.identity,
                               CanonicalDescription.of(configuration), "parseEveryFile=\(parseEveryFile)"].joined(separator: "\n"))
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigError.file(path: directory, problem: "cannot create the cache directory (\(error.localizedDescription))")
        }
        digests = DigestIndex(file: self.directory.appendingPathComponent("digests.tsv"))
    }

    func key(path: String, status: stat?, content: () -> [UInt8]?) -> String? {
        // The path as given and as an absolute one: findings carry the first (relative to the
        // working directory), the second tells files of the same relative name apart.
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var arguments = Self.noArguments
        if !compileArguments.isEmpty {
            arguments = CanonicalDescription.of(compileArguments[FileCollector.normalized(absolute)] ?? [String]())
        }
        guard let digest = digests.digest(path: absolute, status: status, content: content) else { return nil }
        return SHA256.hex([settings, path, absolute, arguments, digest].joined(separator: "\0"))
    }

    private func entryPath(_ key: String) -> (folder: String, file: String) {
        let folder = directoryPath + "/" + key.prefix(2)
        return (folder, folder + "/" + key + ".bin")
    }

    public func outcome(path: String, status: stat, content: () -> [UInt8]?) -> FileOutcome? {
        guard let key = key(path: path, status: status, content: content) else { return nil }
        if let bytes = readFileBytes(entryPath(key).file), let outcome = try? CacheEntryCodec.decode(bytes) {
            return outcome
        }
        lock.lock()
        pendingKeys[path] = key
        lock.unlock()
        return nil
    }

    public func store(_ outcome: FileOutcome, path: String, content: [UInt8]) {
        var outcome = outcome
        outcome.fromCache = false
        lock.lock()
        let pending = pendingKeys.removeValue(forKey: path)
        lock.unlock()
        guard let key = pending ?? key(path: path, status: nil, content: { content }) else { return }
        let data = Data(CacheEntryCodec.encode(outcome))
        let (folder, file) = entryPath(key)
        let url = URL(fileURLWithPath: file)
        if !writeAtomically(data, to: url) {
            // The fan-out folder is made on first use (a plain mkdir: its parent exists).
            mkdir(folder, 0o755)
            writeAtomically(data, to: url)
        }
    }

    /// Saves what the run learned about file digests; call once the run is over.
    public func flush() {
        digests.save()
    }
}
