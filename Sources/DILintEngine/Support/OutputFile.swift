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
            try handle.write(contentsOf: data)
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data),
              rename(temporary.path, url.path) == 0 else {
            let error = failure(path)
            unlink(temporary.path)
            throw error
        }
    }

    static func failure(_ path: String) -> ConfigError {
        .file(path: path, problem: "cannot write it (\(String(cString: strerror(errno))))")
    }
}
