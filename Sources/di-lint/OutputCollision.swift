import Foundation

/// Refuses to write `output` when it is the same file as one of `inputs` (same device and inode,
/// whatever the path's spelling or links): a report written over a source, the config or the
/// baseline would destroy it.
func refuseOverwriting(_ output: String?, option: String, inputs: [(role: String, path: String)]) throws {
    guard let output else { return }
    var st = stat()
    guard stat(output, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
    for (role, path) in inputs {
        var other = stat()
        if stat(path, &other) == 0 && other.st_dev == st.st_dev && other.st_ino == st.st_ino {
            throw RunFailure(message: "\(option) \(output) is \(role) (\(path)); refusing to overwrite an input")
        }
    }
}
