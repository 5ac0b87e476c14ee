import Foundation

/// The on-disk `OutcomeCache` behind `--cache DIR`: one file per (path, content, settings), so an
/// unchanged file under unchanged settings is not parsed again.
///
/// The key hashes the file's content, its path, the run's settings (the whole configuration, the
/// file's compile arguments, `parseEveryFile`), di-lint's version and build id, and libclang's
/// identity (path, size, mtime). Entries (`CacheEntryCodec`) are written to a temporary file and renamed into place, so a reader never sees
/// half an entry; an entry that does not decode is treated as missing and overwritten. An
/// entry's digest covers its key, so an entry copied or renamed to another file's key is
/// recomputed too. Content digests are remembered with the files' stat data (`DigestIndex`), so
/// unchanged files are not hashed again.
///
/// Trust: the directory must be di-lint's (`CacheRoot`: tagged, not an input, not tracked by
/// git). An entry or digest index whose owner is not the effective uid (another user wrote it)
/// is ignored: the file is parsed again, counted as not cached, and a note says how many were.
/// The layout directory must be this user's and not writable by others, or the cache is not
/// used. What is not guarded against is an entry forged by the same user (nothing in an entry is
/// secret): a cache is as trustworthy as the account that writes it, which is why git must not
/// track it (a change could commit one) and why a CI gate reads a cache only its protected
/// branch's runs wrote, with `--cache-read-only`.
///
/// Pruning: an entry's mtime says when a run last used it (refreshed on a hit when over a day
/// old, so hits cost no extra write). At most once a day, `flush` deletes entries unused for
/// `maxAge`, leftover temporary files, other layouts' directories (only the names di-lint writes
/// there), and digests of files that are gone; so the cache holds about `maxAge` of churn,
/// whatever the shards or branches using it. Nothing is followed through a symbolic link: every
/// file is opened, written and removed relative to a descriptor of its directory.
///
/// `readOnly` (`--cache-read-only`): entries are read, nothing is written, touched or pruned.
public final class IncrementalCache: OutcomeCache, @unchecked Sendable {
    /// The layout directory (`DIR/v6`).
    public let directory: URL
    /// Digest of everything but the file: versions, build, configuration.
    private let settings: String
    private let compileArguments: [String: [String]]
    private let digests: DigestIndex
    private let workingDirectory = FileManager.default.currentDirectoryPath
    /// Keys worked out by `outcome`, for the `store` of the same file that follows a miss.
    private var pendingKeys: [String: String] = [:]
    /// Entries found written by another user, ignored.
    private var foreignEntries = 0
    private let lock = NSLock()

    private static let noArguments = CanonicalDescription.of([String]())

    /// Layout version of the directory; bump it when the entry format changes.
    static let layout = "v6"

    /// Told about each entry found damaged (its digest does not match); the file is re-parsed.
    public var warn: (@Sendable (String) -> Void)?

    /// How long an entry no run has used is kept (default 30 days).
    public var maxAge: TimeInterval = 30 * 86_400
    /// Entries used within this long are not touched on a hit.
    static let touchInterval: TimeInterval = 86_400
    /// Descriptors of the cache root and of the layout directory in it; -1 when the run goes
    /// without the cache (see `init`).
    private let rootFD: Int32, layoutFD: Int32
    /// Reads entries, never writes (`--cache-read-only`).
    public let readOnly: Bool
    private let user = geteuid()

    /// Opens (creating and tagging if needed) the cache directory `directory` for a run whose
    /// inputs (linted paths, config) are `inputs`. Throws a `ConfigError` naming the path when it
    /// cannot be di-lint's cache (see `CacheRoot`). When it cannot be used for this run (a
    /// read-only cache that is not there, a layout directory of another user), `warn` says so
    /// and the cache holds nothing.
    public init(
        directory: String, configuration: Configuration, compileArguments: [String: [String]] = [:],
        parseEveryFile: Bool = false, inputs: [String] = [], readOnly: Bool = false,
        warn: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.directory = URL(fileURLWithPath: directory).appendingPathComponent(Self.layout)
        self.compileArguments = compileArguments
        self.readOnly = readOnly
        self.warn = warn
        settings = SHA256.hex(
            [
                DILintVersion.current, BuildIdentity.executable, LibClang.identity,
                CanonicalDescription.of(configuration), "parseEveryFile=\(parseEveryFile)",
            ].joined(separator: "\n"))
        let root = try CacheRoot.prepare(directory, inputs: inputs, readOnly: readOnly, warn: { warn?($0) }) ?? -1
        var layout: Int32 = -1
        if root >= 0 {
            do {
                layout = try Self.openLayout(directory, root: root, readOnly: readOnly, warn: { warn?($0) })
            } catch {
                close(root)
                throw error
            }
        }
        (rootFD, layoutFD) = (root, layout)
        digests = DigestIndex(directory: layout, name: "digests.tsv")
    }

    deinit {
        if layoutFD >= 0 { close(layoutFD) }
        if rootFD >= 0 { close(rootFD) }
    }

    /// The layout directory, made if missing (unless read-only): a real directory (not a link),
    /// this user's, not writable by others; else -1 and a warning (or a throw for a link).
    private static func openLayout(_ directory: String, root: Int32, readOnly: Bool, warn: (String) -> Void) throws
        -> Int32
    {
        let path = directory + "/" + layout
        if !readOnly { mkdirat(root, layout, 0o755) }
        let fd = openat(root, layout, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if readOnly && error == ENOENT { return -1 } // nothing of this layout yet
            var st = stat()
            if fstatat(root, layout, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT != S_IFDIR {
                throw ConfigError.file(
                    path: path,
                    problem:
                        "it is \(InputFile.describe(st.st_mode & S_IFMT)), not a directory; di-lint does not follow links out of its cache (remove it)"
                )
            }
            throw ConfigError.file(
                path: path, problem: "cannot open the cache directory (\(String(cString: strerror(error))))")
        }
        var st = stat()
        fstat(fd, &st)
        var problem: String?
        if st.st_uid != geteuid() {
            problem = "belongs to another user (uid \(st.st_uid))"
        } else if st.st_mode & 0o022 != 0 {
            problem =
                "is writable by other users (mode \(String(st.st_mode & 0o7777, radix: 8)); chmod go-w makes it usable)"
        }
        guard let problem else { return fd }
        warn("--cache \(directory): \(path) \(problem); the cache is not used for this run")
        close(fd)
        return -1
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

    /// The entry's fan-out folder and file, relative to the layout directory.
    private func entryPath(_ key: String) -> (folder: String, file: String) {
        let folder = String(key.prefix(2))
        return (folder, folder + "/" + key + ".bin")
    }

    public func outcome(path: String, status: stat, content: () -> [UInt8]?) -> FileOutcome? {
        guard layoutFD >= 0, let key = key(path: path, status: status, content: content) else { return nil }
        var st = stat()
        let file = entryPath(key).file
        if let bytes = readFileBytes(file, status: &st, directory: layoutFD, flags: O_NOFOLLOW) {
            if st.st_uid != user {
                lock.lock()
                foreignEntries += 1
                lock.unlock()
            } else {
                do {
                    let outcome = try CacheEntryCodec.decode(bytes, binding: key)
                    if !readOnly && Double(st.st_mtim.tv_sec) < Date().timeIntervalSince1970 - Self.touchInterval {
                        utimensat(layoutFD, file, nil, AT_SYMLINK_NOFOLLOW)
                    }
                    return outcome
                } catch {
                    warn?(
                        "cache entry \(directory.path)/\(file) for \(path) is damaged (\(error is CacheEntryCodec.DigestMismatch ? "its digest does not match" : "it does not decode")); re-parsing the file"
                    )
                }
            }
        }
        guard !readOnly else { return nil }
        lock.lock()
        pendingKeys[path] = key
        lock.unlock()
        return nil
    }

    public func store(_ outcome: FileOutcome, path: String, content: [UInt8]) {
        guard layoutFD >= 0, !readOnly else { return }
        var outcome = outcome
        outcome.fromCache = false
        lock.lock()
        let pending = pendingKeys.removeValue(forKey: path)
        lock.unlock()
        guard let key = pending ?? key(path: path, status: nil, content: { content }) else { return }
        let bytes = CacheEntryCodec.encode(outcome, binding: key)
        let (folder, file) = entryPath(key)
        if !writeAtomically(bytes, directory: layoutFD, name: file) {
            // The fan-out folder is made on first use (a plain mkdir: its parent exists).
            mkdirat(layoutFD, folder, 0o755)
            writeAtomically(bytes, directory: layoutFD, name: file)
        }
    }

    /// Saves what the run learned about file digests, and prunes when a day has passed since the
    /// last pruning; call once the run is over. Says how many entries another user wrote.
    public func flush() {
        guard layoutFD >= 0 else { return }
        lock.lock()
        let foreign = foreignEntries
        foreignEntries = 0
        lock.unlock()
        if foreign > 0 {
            warn?(
                "\(foreign) cache entr\(foreign == 1 ? "y" : "ies") in \(directory.path) written by another user ignored; the files were parsed again"
            )
        }
        guard !readOnly else { return }
        let stamp = "last-pruned"
        var st = stat()
        if fstatat(layoutFD, stamp, &st, AT_SYMLINK_NOFOLLOW) != 0
            || Double(st.st_mtim.tv_sec) < Date().timeIntervalSince1970 - Self.touchInterval
        {
            prune()
            let fd = openat(layoutFD, stamp, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 {
                futimens(fd, nil)
                close(fd)
            }
        }
        digests.save()
    }

    /// What `prune` removed.
    public struct PruneResult: Equatable {
        public var entries = 0, temporaryFiles = 0, otherLayouts = 0, digests = 0
    }

    /// Deletes entries unused for `maxAge`, temporary files over an hour old (a run killed while
    /// writing), directories of other layouts (the files di-lint names there; a directory with
    /// anything else in it is left), and digests of files that no longer exist. Regular files
    /// only, each removed relative to its directory's descriptor: no link is followed.
    @discardableResult
    public func prune(now: Date = Date()) -> PruneResult {
        var result = PruneResult()
        guard layoutFD >= 0, !readOnly else { return result }
        for (name, status) in CacheRoot.entries(of: rootFD)
        where name != Self.layout && CacheRoot.Names.isLayout(name)
            && status.map({ $0.st_mode & S_IFMT == S_IFDIR }) == true
        {
            if CacheRoot.removeLayout(name, root: rootFD) { result.otherLayouts += 1 }
        }
        let oldest = now.timeIntervalSince1970 - maxAge
        let oldestTemporary = now.timeIntervalSince1970 - 3600
        func isOld(_ st: stat, _ limit: Double) -> Bool {
            st.st_mode & S_IFMT == S_IFREG && Double(st.st_mtim.tv_sec) < limit
        }
        for (folder, status) in CacheRoot.entries(of: layoutFD) {
            guard let status else { continue }
            if CacheRoot.Names.isTemporary(folder) {
                if isOld(status, oldestTemporary), unlinkat(layoutFD, folder, 0) == 0 { result.temporaryFiles += 1 }
                continue
            }
            guard status.st_mode & S_IFMT == S_IFDIR, CacheRoot.Names.isFanOut(folder) else { continue }
            let fanOut = openat(layoutFD, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fanOut >= 0 else { continue }
            for (name, status) in CacheRoot.entries(of: fanOut) {
                guard let status else { continue }
                if CacheRoot.Names.isTemporary(name) {
                    if isOld(status, oldestTemporary), unlinkat(fanOut, name, 0) == 0 { result.temporaryFiles += 1 }
                } else if CacheRoot.Names.isEntry(name), isOld(status, oldest), unlinkat(fanOut, name, 0) == 0 {
                    result.entries += 1
                }
            }
            close(fanOut)
        }
        result.digests = digests.forgetMissingFiles()
        return result
    }
}
