import Foundation

/// The bytes of the file at `path`, or nil when it cannot be opened or read. Plain POSIX reads:
/// a warm run reads hundreds of small files, and this skips `Data`'s and `FileManager`'s layers.
/// `status`, when given, receives the file's `fstat` data.
///
/// Only regular files are read, opened without blocking (a FIFO never stalls the open): for
/// anything else `errno` is 0 on return and `status` says what it is. A file growing past
/// `limit` while read gives nil with `errno` EFBIG. A relative `path` is taken from the directory
/// open at `directory` (`openat`), and `flags` (`O_NOFOLLOW`) are added to the open's.
func readFileBytes(
    _ path: String, status: UnsafeMutablePointer<stat>? = nil, limit: Int = .max,
    directory: Int32 = AT_FDCWD, flags: Int32 = 0
) -> [UInt8]? {
    var st = stat()
    guard let fd = openRegularFile(path, status: &st, limit: limit, directory: directory, flags: flags) else {
        status?.pointee = st
        return nil
    }
    defer { close(fd) }
    status?.pointee = st
    var bytes = [UInt8](repeating: 0, count: max(Int(st.st_size), 0))
    var filled = 0
    while true {
        let n: Int
        if filled < bytes.count {
            n = bytes[filled...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        } else {
            // All the bytes stat promised are in: confirm the end (or take what the file grew by).
            n = withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { more in
                let n = read(fd, more.baseAddress, more.count)
                if n > 0 { bytes.append(contentsOf: more[..<n]) }
                return n
            }
        }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { break }
        filled += n
        if filled > limit {
            errno = EFBIG
            return nil
        }
    }
    bytes.removeSubrange(filled...)
    return bytes
}

/// A descriptor open for reading on the regular file at `path` of at most `limit` bytes, or nil.
/// Opened without blocking (a FIFO never stalls the open) and checked with `fstat` on the open
/// descriptor, so what is read is what was checked. For a file that is not regular or is over the
/// limit `errno` is 0 on return and `status` says what it is; otherwise `errno` says why.
func openRegularFile(_ path: String, status: inout stat, limit: Int, directory: Int32 = AT_FDCWD, flags: Int32 = 0)
    -> Int32?
{
    let fd = openat(directory, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags)
    guard fd >= 0 else { return nil }
    guard fstat(fd, &status) == 0 else {
        let error = errno
        close(fd)
        errno = error
        return nil
    }
    guard status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= limit else {
        close(fd)
        errno = 0
        return nil
    }
    return fd
}
