import Foundation

/// The journal of a `fix --apply` under way (see `FixApplier`), beside the tree's lock: one JSON
/// line per file, written as soon as the file's temporary exists (before any byte goes into it),
/// naming the file, its temporary and the digests of its contents before and after the plan;
/// then `{"commit":true}` once every file is replaced and checked. A run that holds the lock and
/// finds a journal knows the run that wrote it is gone (it held the lock while the journal
/// existed), and finishes its work: without the commit line every file is put back as it was,
/// with it only the originals are removed. The temporaries it removes are those the journal
/// names, by the name fix gives them, beside their file, owned by this user.
struct FixJournal {
    struct Line: Codable {
        var path: String?
        var temporary: String?
        var old: String?
        var new: String?
        var commit: Bool?
        var pid: Int32?
    }

    let path: String
    private var fd: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts a journal at `path` (replacing none: a journal there is recovered first).
    static func create(at path: String) throws -> FixJournal {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw Failure(description: "cannot create the journal \(path) (\(String(cString: strerror(errno))))")
        }
        var journal = FixJournal(path: path, fd: fd)
        try journal.append(Line(pid: getpid()))
        return journal
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    mutating func append(_ line: Line) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = Array((try? encoder.encode(line)) ?? Data("{}".utf8))
        bytes.append(UInt8(ascii: "\n"))
        guard writeAll(fd, bytes) else {
            throw Failure(description: "cannot write the journal \(path) (\(String(cString: strerror(errno))))")
        }
    }

    /// Makes what was written durable.
    func sync() throws {
        guard fsync(fd) == 0 else {
            throw Failure(description: "cannot write the journal \(path) (\(String(cString: strerror(errno))))")
        }
    }

    /// Records that every file is written and checked; from here a later run only removes originals.
    mutating func commit() throws {
        try append(Line(commit: true))
        try sync()
    }

    /// Removes the journal (the apply is over, or undone).
    mutating func remove() {
        unlink(path)
        close(fd)
        fd = -1
        FixJournal.syncDirectory(of: path)
    }

    /// `fsync` of the directory holding `path`, so that renames and removals in it are durable.
    static func syncDirectory(of path: String) {
        let fd = open(
            (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
            O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    // MARK: Recovery

    /// What recovering an interrupted apply did.
    struct Recovery {
        /// Files put back as they were before the interrupted apply.
        var restored: [String] = []
        /// Temporaries and originals removed.
        var removed = 0
        /// What could not be done, a line each (what is left where).
        var problems: [String] = []
        /// Whether the interrupted apply had finished writing (only its originals were left).
        var committed = false
    }

    /// Finishes the work of the apply that left the journal at `path` in `tree` (its lock held):
    /// puts every file back as it was unless the apply had committed, removes the temporaries,
    /// then the journal. Nil when there is no journal.
    static func recover(_ path: String, tree: FixTree) -> Recovery? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        var result = Recovery()
        guard st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid() || geteuid() == 0 else {
            result.problems.append(
                "\(path): an interrupted fix's journal that is not a regular file of this user; left as it is (remove it when no fix runs)"
            )
            return result
        }
        guard let bytes = readFileBytes(path, limit: 256 << 20) else {
            result.problems.append(
                "\(path): cannot read an interrupted fix's journal (\(String(cString: strerror(errno)))); left as it is"
            )
            return result
        }
        let decoder = JSONDecoder()
        let lines = bytes.split(separator: UInt8(ascii: "\n")).compactMap {
            try? decoder.decode(Line.self, from: Data($0))
        }
        result.committed = lines.contains { $0.commit == true }
        for line in lines {
            guard let file = line.path, let temporary = line.temporary, let old = line.old, let new = line.new else {
                continue
            }
            let directory = FixApplier.temporaryDirectory(of: file)
            // no link on the way out of the tree
            guard tree.contains(file), FixWorkspace.realPath(directory) == directory,
                temporary == directory + "/" + (temporary as NSString).lastPathComponent,
                FixApplier.isTemporaryName(
                    (temporary as NSString).lastPathComponent, of: (file as NSString).lastPathComponent)
            else {
                result.problems.append(
                    "\(path): an entry outside the tree or not naming a fix temporary (\(file), \(temporary)); ignored")
                continue
            }
            // the names that may hold this file's bytes: the temporary, and the original's link in the fallback (see FixApplier)
            let names = [temporary, temporary + FixApplier.originalSuffix].filter { name in
                var st = stat()
                return lstat(name, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
                    && (st.st_uid == geteuid() || geteuid() == 0)
            }
            let digest = { (name: String) in readFileBytes(name).map { SHA256.hex($0) } }
            func removeAll(_ names: [String]) { for name in names where unlink(name) == 0 { result.removed += 1 } }
            let current = digest(file)
            if result.committed || current == old {
                // written and checked (only the original is left), or never replaced (a staged temporary)
                removeAll(names)
            } else if current == new {
                guard let original = names.first(where: { digest($0) == old }) else {
                    result.problems.append(
                        "\(file): left as the interrupted fix wrote it (its original was not found beside it)")
                    continue
                }
                guard rename(original, file) == 0 else {
                    result.problems.append(
                        "\(file): left as the interrupted fix wrote it; its original is \(original) (\(String(cString: strerror(errno))))"
                    )
                    continue
                }
                result.restored.append(file)
                removeAll(names.filter { $0 != original })
            } else {
                // changed since by another program, or gone: the original's bytes are kept where they are
                let originals = names.filter { digest($0) == old }
                removeAll(names.filter { !originals.contains($0) })
                if !originals.isEmpty {
                    result.problems.append(
                        "\(file): changed since an interrupted fix (not by it); its contents before that fix are kept in \(originals[0])"
                    )
                }
            }
        }
        // a temporary made after its file was named and before its own line (killed in between):
        // any fix temporary of a named file that no line lists, this user's, is stale (the lock
        // is held, so no other run is writing one)
        let listed = Set(lines.compactMap(\.temporary))
        for file in Set(lines.compactMap(\.path)) {
            let directory = FixApplier.temporaryDirectory(of: file)
            guard tree.contains(file), FixWorkspace.realPath(directory) == directory,
                let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
            else { continue }
            let base = (file as NSString).lastPathComponent
            for name in names
            where FixApplier.isTemporaryName(name, of: base) && !listed.contains(directory + "/" + name) {
                var st = stat()
                let full = directory + "/" + name
                if lstat(full, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid() || geteuid() == 0,
                    unlink(full) == 0
                {
                    result.removed += 1
                }
            }
        }
        for file in Set(lines.compactMap(\.path)) { syncDirectory(of: file) }
        unlink(path)
        syncDirectory(of: path)
        return result
    }
}

/// Writes all of `bytes` to `fd` (a `socket`: with `send`, no `SIGPIPE` when the reader is
/// gone); false (with `errno`) on an error.
func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes {
            socket ? send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) : write(fd, $0.baseAddress, $0.count)
        }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
    }
    return true
}
