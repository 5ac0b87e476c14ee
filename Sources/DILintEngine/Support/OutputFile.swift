import Foundation

/// Writes a file the user named: atomically (a temporary file renamed over it) when it is, or will
/// be, a regular file; straight into it when it is something else — `/dev/null`, `/dev/stdout`, a
/// FIFO — which a rename would replace (as root, even `/dev/null` itself).
public enum OutputFile {
    public static func write(_ data: Data, to path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw failure(path) }
            defer { try? handle.close() }
            // Written with `write(2)`: FileHandle's error on a full device is a Cocoa error
            // ("NSCocoaErrorDomain Code=640"), not one naming the file and the problem.
            let fd = handle.fileDescriptor
            var written = 0
            while written < data.count {
                let n = data[data.startIndex + written..<data.endIndex].withUnsafeBytes {
                    Glibc.write(fd, $0.baseAddress, $0.count)
                }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure(path) }
                written += n
            }
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(getpid())")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data),
            rename(temporary.path, url.path) == 0
        else {
            let error = failure(path)
            unlink(temporary.path)
            throw error
        }
    }

    static func failure(_ path: String) -> ConfigError {
        .file(path: path, problem: "cannot write it (\(String(cString: strerror(errno))))")
    }
}
