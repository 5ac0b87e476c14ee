import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system problem with one report file or the reports directory.
public struct ReportFileError: Error, Equatable, CustomStringConvertible {
    /// The file or directory concerned.
    public let path: String
    /// What went wrong, e.g. "cannot read: Permission denied".
    public let problem: String

    public var description: String { "\(path): \(problem)" }

    static func posix(_ path: String, _ action: String, errno code: Int32 = errno) -> ReportFileError {
        ReportFileError(path: path, problem: "\(action): \(String(cString: strerror(code)))")
    }
}

/// An exclusive hold on one pending report, so no two uploaders (threads or processes) send
/// it at the same time.
///
/// The hold is an `flock` on the report file itself: the kernel drops it when the holder
/// exits for any reason, kill -9 included, so a dead uploader never leaves a stale claim and
/// its report is simply pending again. The file is removed or moved only while held, and a
/// claim is granted only if the path still names the locked inode; a second uploader that
/// opened the file just before it was delivered therefore sees it gone instead of sending it
/// again.
final class ReportClaim {
    enum Attempt {
        case claimed(ReportClaim)
        /// Another uploader holds it right now.
        case heldElsewhere
        /// Delivered, rejected or removed since it was listed.
        case gone
    }

    let file: URL
    private var descriptor: Int32

    private init(file: URL, descriptor: Int32) {
        self.file = file
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Tries to take the hold without waiting.
    static func attempt(_ file: URL) throws -> Attempt {
        guard let opened = try Opened(file) else { return .gone }
        return try opened.claim()
    }

    /// The first half of `attempt`: the file opened, not yet locked. Apart so tests can let
    /// another uploader deliver the file between the two halves.
    struct Opened {
        let file: URL
        let descriptor: Int32

        /// Nil when the file no longer exists.
        init?(_ file: URL) throws {
            let fd = open(file.path, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { return nil }
                throw ReportFileError.posix(file.path, "cannot open")
            }
            self.file = file
            descriptor = fd
        }

        /// Locks the opened file; grants the claim only if its path still names this inode.
        func claim() throws -> Attempt {
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK { return .heldElsewhere }
                throw ReportFileError.posix(file.path, "cannot lock", errno: code)
            }
            var held = stat()
            var named = stat()
            guard fstat(descriptor, &held) == 0, stat(file.path, &named) == 0,
                held.st_ino == named.st_ino, held.st_dev == named.st_dev
            else {
                close(descriptor)
                return .gone
            }
            return .claimed(ReportClaim(file: file, descriptor: descriptor))
        }
    }

    /// The bytes of the held file.
    func contents() throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReportFileError.posix(file.path, "cannot read")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
    }

    /// Deletes the held file (after delivery), then releases the hold.
    func remove() throws {
        defer { release() }
        if unlink(file.path) != 0 && errno != ENOENT {
            throw ReportFileError.posix(file.path, "cannot delete after delivery")
        }
    }

    /// Moves the held file to `destination`, then releases the hold.
    func move(to destination: URL) throws {
        defer { release() }
        if rename(file.path, destination.path) != 0 {
            throw ReportFileError.posix(file.path, "cannot move to \(destination.path)")
        }
    }

    /// Gives the hold up, leaving the file where it is.
    func release() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }
}
