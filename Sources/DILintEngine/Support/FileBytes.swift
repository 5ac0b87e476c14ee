import Foundation

/// The bytes of the file at `path`, or nil when it cannot be opened or read. Plain POSIX reads:
/// a warm run reads hundreds of small files, and this skips `Data`'s and `FileManager`'s layers.
/// `status`, when given, receives the file's `fstat` data.
///
/// Only regular files are read, opened without blocking (a FIFO never stalls the open): for
/// anything else `errno` is 0 on return and `status` says what it is. A file growing past
/// `limit` while read gives nil with `errno` EFBIG. A relative `path` is taken from the directory
/// open at `directory` (`openat`), and `flags` (`O_NOFOLLOW`) are added to the open's.
func readFileBytes(_ path: String, status: UnsafeMutablePointer<stat>? = nil, limit: Int = .max,
                   directory: Int32 = AT_FDCWD, flags: Int32 = 0) -> [UInt8]? {
    let fd = openat(directory, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return nil }
    status?.pointee = st
    guard st.st_mode & S_IFMT == S_IFREG else {
        errno = 0
        return nil
    }
    guard Int(st.st_size) <= limit else {
        errno = 0
        return nil
    }
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
