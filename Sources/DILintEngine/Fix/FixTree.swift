import Foundation

/// The tree `di-lint fix` may write: the repository root (the nearest directory holding `.git`,
/// from the working directory up; without one, the working directory), its lock and its journal.
/// Fix rewrites only regular files whose real path is inside the root, whose owner and group it
/// can keep. `--apply` holds the lock (`flock`) while it writes, and keeps a journal of the files
/// it is replacing there, so that a run killed midway is undone by the next run (see `FixApplier`).
public struct FixTree: Sendable {
    /// The root's real path.
    public let root: String
    /// The lock file: in the repository's git directory, else `.di-lint-fix.lock` in the root.
    public let lockPath: String
    /// The journal of an apply under way, beside the lock.
    public let journalPath: String

    public init(root: String) {
        self.root = FixWorkspace.realPath(root)
        let state = Self.gitDirectory(of: self.root)
        lockPath = state.map { $0 + "/di-lint-fix.lock" } ?? Self.join(self.root, ".di-lint-fix.lock")
        journalPath = state.map { $0 + "/di-lint-fix.journal" } ?? Self.join(self.root, ".di-lint-fix.journal")
    }

    /// The tree of the repository holding `directory` (the working directory by default).
    public static func locate(from directory: String = FileManager.default.currentDirectoryPath) -> FixTree {
        FixTree(root: RepositoryRoot.enclosing(directory) ?? directory)
    }

    /// The git directory of a repository root: `.git` when it is a directory, the directory a
    /// `.git` file names (`gitdir: …`, a worktree's or a submodule's), nil when neither is.
    static func gitDirectory(of root: String) -> String? {
        let dotGit = join(root, ".git")
        var st = stat()
        guard lstat(dotGit, &st) == 0 else { return nil }
        if st.st_mode & S_IFMT == S_IFDIR { return dotGit }
        guard st.st_mode & S_IFMT == S_IFREG, let bytes = readFileBytes(dotGit, limit: 4096),
            let text = String(validating: bytes, as: UTF8.self), text.hasPrefix("gitdir: ")
        else { return nil }
        let named = text.dropFirst("gitdir: ".count).trimmingCharacters(in: .newlines)
        let directory = named.hasPrefix("/") ? named : join(root, named)
        guard stat(directory, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return nil }
        return FixWorkspace.realPath(directory)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Whether a real path lies inside the root.
    public func contains(_ realPath: String) -> Bool {
        realPath.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// Why fix may not rewrite the file at `realPath` (shown as `shown`), or nil when it may: it is
    /// outside the root (a symbolic link named on the command line may point there), not a
    /// regular file, or owned by a user or group this process cannot give a new file (a rewrite
    /// is a new file renamed over the old one, and must keep its owner).
    public func problem(writing realPath: String, shownAs shown: String) -> String? {
        guard contains(realPath) else {
            var st = stat()
            let link = lstat(shown, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
            return "\(link ? "a symbolic link to \(realPath), " : "\(realPath) is ")outside the repository root \(root)"
        }
        var st = stat()
        guard lstat(realPath, &st) == 0 else { return "cannot read it (\(String(cString: strerror(errno))))" }
        guard st.st_mode & S_IFMT == S_IFREG else {
            return "it is \(InputFile.describe(st.st_mode & S_IFMT)), not a regular file"
        }
        return Self.ownershipProblem(st)
    }

    /// Why a rewrite of a file with this status would not keep its owner or group, or nil.
    static func ownershipProblem(_ st: stat) -> String? {
        let uid = geteuid()
        guard uid != 0 else { return nil } // root gives any owner
        if st.st_uid != uid {
            return "it is owned by another user (uid \(st.st_uid)); a rewrite would not keep its owner"
        }
        guard st.st_gid != getegid() else { return nil }
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let n = getgroups(count, &groups)
        if n >= 0 && groups.prefix(Int(n)).contains(st.st_gid) { return nil }
        return "its group (gid \(st.st_gid)) is not one of this user's; a rewrite would not keep it"
    }

    // MARK: The lock

    /// The tree's lock, held until `release()` (or the process ends: `flock` locks go with the
    /// open file description).
    public final class Lock {
        private var fd: Int32
        init(fd: Int32) { self.fd = fd }
        public func release() {
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
        }
        deinit { release() }
    }

    /// Why the lock could not be taken.
    public struct LockFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Takes the tree's exclusive lock, waiting at most `wait` seconds for a run that holds it
    /// (`waiting` is called once when it starts to wait); nil when `wait` is 0 and it is held.
    public func lock(wait: Double, waiting: () -> Void = {}) throws -> Lock? {
        try FileLock.acquire(
            lockPath, wait: wait, name: "the tree's lock", busy: "another di-lint fix is writing this tree",
            waiting: waiting)
    }
}
