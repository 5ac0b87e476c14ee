import Foundation

/// Turns the command line's paths into the list of files to lint.
public struct FileCollector {
    public var extensions: Set<String> = SourceLanguage.lintedExtensions
    /// Globs (`*`, `**`, `?`) matched against paths relative to the base directory and against file names.
    public var excludes: [String]
    public var baseDirectory: String

    public init(excludes: [String], baseDirectory: String) {
        self.excludes = excludes
        self.baseDirectory = baseDirectory
    }

    /// A path on the command line that does not exist.
    public struct MissingPath: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path): no such file or directory" }
    }

    /// Files under `paths`, sorted; skips `.build`, hidden directories and excluded globs.
    /// A file named explicitly is linted whatever its extension.
    public func collect(_ paths: [String]) throws -> [String] {
        var result: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw MissingPath(path: path) }
            if !isDirectory.boolValue {
                if !isExcluded(path) { result.append(path) }
                continue
            }
            walk(path, into: &result)
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }.sorted()
    }

    private func walk(_ directory: String, into result: inout [String]) {
        for (name, kind) in Self.entries(of: directory) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if name.hasPrefix(".") || isExcluded(path) { continue }
            switch kind {
            case S_IFDIR:
                walk(path, into: &result)
            case S_IFREG:
                if let ext = name.split(separator: ".").last, name.contains("."), extensions.contains(String(ext)) {
                    result.append(path)
                }
            default:
                continue // symlinks and special files are not followed
            }
        }
    }

    /// A directory's entries, sorted by name, with their file type (`S_IFDIR`, `S_IFREG`, …) as
    /// `readdir` reports it, so that the walk needs no `lstat` per entry (one only where the file
    /// system does not say). Nothing for a directory that cannot be read.
    static func entries(of directory: String) -> [(name: String, kind: mode_t)] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var entries: [(name: String, kind: mode_t)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var kind: mode_t
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = S_IFDIR
            case Int32(DT_REG): kind = S_IFREG
            case Int32(DT_UNKNOWN):
                var st = stat()
                kind = lstat(directory + "/" + name, &st) == 0 ? st.st_mode & S_IFMT : 0
            default: kind = 0 // symlinks, devices, sockets
            }
            entries.append((name, kind))
        }
        return entries.sorted { $0.name < $1.name }
    }

    func isExcluded(_ path: String) -> Bool {
        guard !excludes.isEmpty else { return false }
        let relative = Self.relative(path, to: baseDirectory)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return excludes.contains { Glob.matches($0, relative) || Glob.matches($0, name) || Glob.matches($0, path) }
    }

    /// `path` relative to `base` when it lies below it, else as given (without a leading `./`).
    /// Both are made absolute and normalized lexically (`.` and `..` resolved, symlinks not).
    public static func relative(_ path: String, to base: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let standard = normalized(path.hasPrefix("/") ? path : cwd + "/" + path)
        let root = normalized(base.hasPrefix("/") ? base : cwd + "/" + base)
        let prefix = root == "/" ? root : root + "/"
        if standard.hasPrefix(prefix) { return String(standard.dropFirst(prefix.count)) }
        return path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    /// An absolute path with empty and `.` components dropped and `..` applied to the one before.
    static func normalized(_ absolute: String) -> String {
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}

/// Shell-style globs: `*` within a path component, `**` across components, `?` one character.
public enum Glob {
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        match(Array(pattern.utf8)[...], Array(path.utf8)[...])
    }

    private static func match(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
        var p = p, s = s
        while let c = p.first {
            if c == UInt8(ascii: "*") {
                let double = p.dropFirst().first == UInt8(ascii: "*")
                var rest = p.dropFirst(double ? 2 : 1)
                if double && rest.first == UInt8(ascii: "/") {
                    // `**/` also matches no directory at all
                    if match(rest.dropFirst(), s) { return true }
                    rest = rest.dropFirst(0)
                }
                var t = s
                while true {
                    if match(rest, t) { return true }
                    guard let next = t.first, double || next != UInt8(ascii: "/") else { return false }
                    t = t.dropFirst()
                }
            }
            guard let d = s.first else { return false }
            if c != UInt8(ascii: "?") && c != d { return false }
            if c == UInt8(ascii: "?") && d == UInt8(ascii: "/") { return false }
            p = p.dropFirst(); s = s.dropFirst()
        }
        return s.isEmpty
    }
}
