import Foundation

/// Files di-lint reads that the linted project controls — sources, included headers, the config,
/// the baseline — are read only when they are regular files within a size limit. A device
/// (`/dev/zero`, `/dev/urandom`), a FIFO, a socket or a terminal would make a reader wait
/// forever or read without end, so it is refused, naming the path, before anything opens it.
public enum InputFile {
    /// A path that is not a regular file within the limit.
    public struct Refused: Error, CustomStringConvertible, Equatable {
        public let path: String
        public let problem: String
        public var description: String { "\(path): \(problem)" }
    }

    /// Why the file described by `status` cannot be read as an input, or nil when it can.
    public static func problem(_ status: stat, limit: Int) -> String? {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else { return "it is \(describe(kind)), not a regular file" }
        if Int(status.st_size) > limit {
            return "it is \(status.st_size) bytes, over the \(limit)-byte limit (max-file-size)"
        }
        return nil
    }

    /// `problem(_:limit:)` for a path (symbolic links followed), or the `stat` error.
    public static func problem(path: String, limit: Int) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return "cannot read it (\(String(cString: strerror(errno))))" }
        return problem(st, limit: limit)
    }

    /// "a FIFO", "a character device"… for a `st_mode & S_IFMT`.
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (a pipe: standard input or a process substitution?)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a file"
        }
    }

    /// The bytes of a regular file within `limit`. Opened without blocking and checked with
    /// `fstat` on the open descriptor, so a FIFO or device put in the file's place after a check
    /// is refused too; never reads more than `limit + 1` bytes.
    public static func read(_ path: String, limit: Int) throws -> [UInt8] {
        var st = stat()
        guard let bytes = readFileBytes(path, status: &st, limit: limit) else { throw refusal(path, st, limit: limit) }
        return bytes
    }

    /// A descriptor open for reading on a regular file within `limit` (checked as `read` checks
    /// it), and the file's size, for a reader that takes the file in pieces; the caller closes it
    /// and stops at `limit` bytes (`grewPastLimit`).
    static func open(_ path: String, limit: Int) throws -> (descriptor: Int32, size: Int) {
        var st = stat()
        guard let fd = openRegularFile(path, status: &st, limit: limit) else { throw refusal(path, st, limit: limit) }
        return (fd, Int(st.st_size))
    }

    /// Why a file could not be read, from `errno` after `readFileBytes` or `openRegularFile`.
    private static func refusal(_ path: String, _ status: stat, limit: Int) -> Refused {
        let error = errno
        if error == 0, let problem = problem(status, limit: limit) { return Refused(path: path, problem: problem) }
        if error == EFBIG { return grewPastLimit(path, limit: limit) }
        return Refused(path: path, problem: "cannot read it (\(String(cString: strerror(error))))")
    }

    /// A file that grew past `limit` while it was read.
    static func grewPastLimit(_ path: String, limit: Int) -> Refused {
        Refused(path: path, problem: "it grew past the \(limit)-byte limit (max-file-size) while being read")
    }
}
