import Foundation

/// The on-disk `OutcomeCache` behind `--cache DIR`: one file per (path, content, settings), so an
/// unchanged file under unchanged settings is not parsed again.
///
/// The key hashes the file's content, its path, the run's settings (the whole configuration, the
/// file's compile arguments, `parseEveryFile`), di-lint's version and build id, and libclang's
/// identity (path, size, mtime). Entries (`CacheEntryCodec`) are written to a temporary file and renamed into place, so a reader never sees
/// half an entry; an entry that does not decode is treated as missing and overwritten. Content
/// digests are remembered with the files' stat data (`DigestIndex`), so unchanged files are not
/// hashed again.
///
/// Pruning: an entry's mtime says when a run last used it (refreshed on a hit when over a day
/// old, so hits cost no extra write). At most once a day, `flush` deletes entries unused for
/// `maxAge`, leftover temporary files, other layouts' directories, and digests of files that are
/// gone; so the cache holds about `maxAge` of churn, whatever the shards or branches using it.
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
    static let layout = "v5"

    /// Told about each entry found damaged (its digest does not match); the file is re-parsed.
    public var warn: (@Sendable (String) -> Void)?

    /// How long an entry no run has used is kept (default 30 days).
    public var maxAge: TimeInterval = 30 * 86_400
    /// Entries used within this long are not touched on a hit.
    static let touchInterval: TimeInterval = 86_400
    private let root: String

    /// Creates the directory if needed; throws when it cannot be created.
    public init(directory: String, configuration: Configuration, compileArguments: [String: [String]] = [:],
                parseEveryFile: Bool = false) throws {
        root = directory
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
        var st = stat()
        let file = entryPath(key).file
        if let bytes = readFileBytes(file, status: &st) {
            do {
                let outcome = try CacheEntryCodec.decode(bytes)
                if Double(st.st_mtim.tv_sec) < Date().timeIntervalSince1970 - Self.touchInterval { utimes(file, nil) }
                return outcome
            } catch {
                warn?("cache entry \(file) for \(path) is damaged (\(error is CacheEntryCodec.DigestMismatch ? "its digest does not match" : "it does not decode")); re-parsing the file")
            }
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

    /// Saves what the run learned about file digests, and prunes when a day has passed since the
    /// last pruning; call once the run is over.
    public func flush() {
        let stamp = directoryPath + "/last-pruned"
        var st = stat()
        if stat(stamp, &st) != 0 || Double(st.st_mtim.tv_sec) < Date().timeIntervalSince1970 - Self.touchInterval {
            prune()
            close(open(stamp, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
            utimes(stamp, nil)
        }
        digests.save()
    }

    /// What `prune` removed.
    public struct PruneResult: Equatable {
        public var entries = 0, temporaryFiles = 0, otherLayouts = 0, digests = 0
    }

    /// Deletes entries unused for `maxAge`, temporary files over an hour old (a run killed while
    /// writing), directories of other layouts, and digests of files that no longer exist.
    @discardableResult
    public func prune(now: Date = Date()) -> PruneResult {
        var result = PruneResult()
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: root)) ?? [] where name != Self.layout {
            if name.first == "v", name.dropFirst().allSatisfy(\.isNumber), (try? fm.removeItem(atPath: root + "/" + name)) != nil {
                result.otherLayouts += 1
            }
        }
        let oldest = now.timeIntervalSince1970 - maxAge
        let oldestTemporary = now.timeIntervalSince1970 - 3600
        for folder in (try? fm.contentsOfDirectory(atPath: directoryPath)) ?? [] {
            let folderPath = directoryPath + "/" + folder
            let names = folder.hasPrefix(".tmp-") ? [""] : ((try? fm.contentsOfDirectory(atPath: folderPath)) ?? [])
            for name in names {
                let path = name.isEmpty ? folderPath : folderPath + "/" + name
                var st = stat()
                guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
                let modified = Double(st.st_mtim.tv_sec)
                if (name.isEmpty ? folder : name).hasPrefix(".tmp-") {
                    if modified < oldestTemporary, unlink(path) == 0 { result.temporaryFiles += 1 }
                } else if name.hasSuffix(".bin"), modified < oldest, unlink(path) == 0 {
                    result.entries += 1
                }
            }
        }
        result.digests = digests.forgetMissingFiles()
        return result
    }
}
