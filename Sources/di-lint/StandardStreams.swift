import DILintEngine
import Foundation

/// Standard output and error as a command-line tool treats them: `SIGPIPE` kills quietly (as
/// with `cat`, `grep`), a write error (`ENOSPC` on `/dev/full`, a closed descriptor) is a run
/// failure with one line on standard error and exit 2 — never a Foundation exception.
enum StandardStreams {
    /// Set when standard output was closed when di-lint started.
    nonisolated(unsafe) static var outputWasClosed = false

    /// Call first in `main`. A closed descriptor 0, 1 or 2 gets `/dev/null` in its place, so no
    /// file di-lint opens later becomes "standard output"; output to a closed standard output
    /// still fails (see `write`).
    static func prepare() {
        signal(SIGPIPE, SIG_DFL)
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            if fd == 1 { outputWasClosed = true }
            let null = open("/dev/null", O_RDWR)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }

    /// Writes all of `text` to standard output; throws a `RunFailure` naming the error.
    static func writeOutput(_ text: String) throws {
        var text = text
        try text.withUTF8 { try writeOutput(bytes: $0) }
    }

    /// Writes these bytes to standard output as they are (a diff holds the files' bytes, which
    /// need not be UTF-8); throws a `RunFailure` naming the error.
    static func writeOutput(bytes: UnsafeBufferPointer<UInt8>) throws {
        guard !outputWasClosed else { throw closedOutput }
        if let error = write(bytes, to: 1) {
            throw RunFailure(
                message: "cannot write the report to standard output (\(String(cString: strerror(error))))")
        }
    }

    /// The failure of a run that writes to a standard output that was closed when it started.
    static let closedOutput = RunFailure(message: "cannot write the report: standard output is closed")

    /// One line on standard error; errors there are ignored (there is nowhere left to say them).
    static func note(_ line: String) {
        raw(line + "\n")
    }

    /// Text on standard error as it is.
    static func raw(_ text: String) {
        var text = text
        _ = text.withUTF8 { write($0, to: 2) }
    }

    /// The `errno` of a failed write, or nil when every byte went out.
    private static func write(_ buffer: UnsafeBufferPointer<UInt8>, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}
