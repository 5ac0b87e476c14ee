import Foundation

/// An exclusive `flock(2)` on a lock file: `di-lint fix --apply`'s tree lock and the work tree
/// of `report --history` take theirs here.
public enum FileLock {
    /// Takes the exclusive lock of the file at `path` (created, mode 0644, when missing; never
    /// through a symbolic link), waiting at most `wait` seconds for a process that holds it
    /// (`waiting` is called once when it starts to wait); nil when `wait` is 0 and it is held.
    /// `name` names the lock in errors (`the tree's lock`); `busy` says who holds it when the wait ends.
    public static func acquire(
        _ path: String, wait: Double, name: String, busy: String, waiting: () -> Void = {}
    ) throws -> FixTree.Lock? {
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            throw FixTree.LockFailure(description: "cannot open \(name) \(path) (\(String(cString: strerror(errno))))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FixTree.LockFailure(description: "\(name) \(path) is not a regular file")
        }
        let deadline = Date().addingTimeInterval(wait)
        var said = false
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                close(fd)
                throw FixTree.LockFailure(description: "cannot lock \(path) (\(String(cString: strerror(error))))")
            }
            if wait <= 0 { close(fd); return nil }
            guard Date() < deadline else {
                close(fd)
                throw FixTree.LockFailure(
                    description: "\(busy) (it holds \(path)); waited \(ParseDeadlines.seconds(wait)) s")
            }
            if !said { waiting(); said = true }
            usleep(50_000)
        }
        return FixTree.Lock(fd: fd)
    }
}
