import Foundation

/// Refuses to write `output` when it is one of `inputs`: the same file (same device and inode,
/// whatever the path's spelling, symbolic or hard links), or, when the output does not exist yet,
/// the same place once every symbolic link on the way is followed (a dangling link, a `..`). A
/// report, patch or baseline written over a source, the config or the baseline would destroy it.
func refuseOverwriting(_ output: String?, option: String, inputs: [(role: String, path: String)]) throws {
    guard let output else { return }
    var st = stat()
    let exists = stat(output, &st) == 0
    // where a write to a path that does not exist would land (computed once, and only then)
    let target = exists ? nil : resolvedPlace(output)
    for (role, path) in inputs {
        var other = stat()
        let same =
            exists
            ? stat(path, &other) == 0 && other.st_dev == st.st_dev && other.st_ino == st.st_ino
            : resolvedPlace(path) == target
        if same {
            throw RunFailure(message: "\(option) \(output) is \(role) (\(path)); refusing to overwrite an input")
        }
    }
}

/// The absolute path `path` names once every symbolic link in it is followed, the last one
/// too when it dangles (at most 40 links, as the kernel), `.` and `..` applied.
func resolvedPlace(_ path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    var current = path.hasPrefix("/") ? path : cwd + "/" + path
    for _ in 0..<40 {
        if let real = realpath(current, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        // it does not exist: its directory resolved, then its last name when that is a link
        let directory = (current as NSString).deletingLastPathComponent
        let name = (current as NSString).lastPathComponent
        let base =
            realpath(directory, nil).map { real in
                defer { free(real) }
                return String(cString: real)
            } ?? directory
        let place = base == "/" ? "/" + name : base + "/" + name
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(place, &buffer, buffer.count - 1)
        guard n > 0 else { return URL(fileURLWithPath: place).standardizedFileURL.path }
        let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        current = target.hasPrefix("/") ? target : base + "/" + target
    }
    return current
}
