import Foundation

/// The repository a path belongs to: the nearest directory at or above it that holds `.git` (a
/// directory, or the `.git` file of a worktree or submodule), as `git rev-parse --show-toplevel`
/// finds it. Symbolic links in the tree are followed only inside their repository, and a config
/// found above it is named (see `ConfigurationDiscovery`).
public enum RepositoryRoot {
    /// The nearest directory at or above `directory` holding `.git`, as a resolved absolute path;
    /// nil when there is none (or `directory` does not exist).
    public static func enclosing(_ directory: String) -> String? {
        guard var current = realPath(directory) else { return nil }
        while true {
            var st = stat()
            if lstat(current == "/" ? "/.git" : current + "/.git", &st) == 0 { return current }
            guard current != "/" else { return nil }
            current = parent(of: current)
        }
    }

    /// Whether the resolved absolute `path` is `root` or lies below it.
    public static func contains(_ root: String, _ path: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? root : root + "/")
    }

    /// The directory holding a resolved absolute path (`/` for `/` and its children).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `realpath(3)`: the absolute path with every symbolic link, `.` and `..` resolved; nil when
    /// a component does not exist, a link loops (`ELOOP`) or cannot be read, with `errno` set.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
