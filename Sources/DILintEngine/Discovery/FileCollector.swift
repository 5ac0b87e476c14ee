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

    /// A file or directory that could not be walked or named; the run reports it as a `parse-failure`.
    public struct Problem: Equatable, Sendable {
        public let path: String
        public let problem: String
    }

    /// Files under `paths`, sorted; skips `.build`, hidden directories and excluded globs.
    /// A file named explicitly is linted whatever its extension.
    public func collect(_ paths: [String]) throws -> [String] {
        try collectReporting(paths).files
    }

    /// `collect`, with what could not be walked: unreadable directories and names that are not
    /// UTF-8. A path on the command line that is neither a regular file nor a readable directory
    /// (a FIFO, `/dev/stdin`, `<(…)`, a device) throws, naming it.
    public func collectReporting(_ paths: [String]) throws -> (files: [String], problems: [Problem]) {
        var result: [String] = []
        var problems: [Problem] = []
        for path in paths {
            var st = stat()
            guard stat(path, &st) == 0 else {
                if path.unicodeScalars.contains("\u{FFFD}") {
                    throw InputFile.Refused(path: path, problem: "no such file; its name is not valid UTF-8 as given (di-lint reads names as UTF-8)")
                }
                throw MissingPath(path: path)
            }
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                if !isExcluded(path) { result.append(path) }
            case S_IFDIR:
                guard let handle = opendir(path) else {
                    throw InputFile.Refused(path: path, problem: "cannot read the directory (\(String(cString: strerror(errno))))")
                }
                closedir(handle)
                walk(path, into: &result, problems: &problems)
            case let kind:
                throw InputFile.Refused(path: path, problem: "it is \(InputFile.describe(kind)), not a regular file or a directory; di-lint lints files on disk")
            }
        }
        var seen = Set<String>()
        return (result.filter { seen.insert($0).inserted }.sorted(), problems)
    }

    private func walk(_ directory: String, into result: inout [String], problems: inout [Problem]) {
        guard let entries = Self.readEntries(of: directory) else {
            problems.append(Problem(path: directory, problem: "directory not linted: cannot read it (\(String(cString: strerror(errno))))"))
            return
        }
        for entry in entries {
            let name = entry.name
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if name.hasPrefix(".") || isExcluded(path) { continue }
            let linted = entry.kind == S_IFREG && name.contains(".") && name.split(separator: ".").last.map { extensions.contains(String($0)) } == true
            if !entry.utf8 && (entry.kind == S_IFDIR || linted) {
                problems.append(Problem(path: path, problem: "\(entry.kind == S_IFDIR ? "directory" : "file") not linted: its name is not valid UTF-8 (shown with \\x escapes); rename it"))
                continue
            }
            switch entry.kind {
            case S_IFDIR:
                walk(path, into: &result, problems: &problems)
            case S_IFREG:
                if linted { result.append(path) }
            default:
                continue // symlinks and special files are not followed
            }
        }
    }

    /// A directory's entries, sorted by name, with their file type (`S_IFDIR`, `S_IFREG`, …) as
    /// `readdir` reports it, so that the walk needs no `lstat` per entry (one only where the file
    /// system does not say). A name that is not UTF-8 comes with its other bytes as `\xNN` and
    /// `utf8` false. Nil (and `errno` set) for a directory that cannot be read.
    static func readEntries(of directory: String) -> [(name: String, kind: mode_t, utf8: Bool)]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var entries: [(name: String, kind: mode_t, utf8: Bool)] = []
        while let entry = readdir(handle) {
            let (name, utf8) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = raw.prefix { $0 != 0 }
                if let valid = String(validating: bytes, as: UTF8.self) { return (valid, true) }
                return (bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined(), false)
            }
            if name == "." || name == ".." { continue }
            var kind: mode_t
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = S_IFDIR
            case Int32(DT_REG): kind = S_IFREG
            case Int32(DT_UNKNOWN) where utf8:
                var st = stat()
                kind = lstat(directory + "/" + name, &st) == 0 ? st.st_mode & S_IFMT : 0
            default: kind = 0 // symlinks, devices, sockets
            }
            entries.append((name, kind, utf8))
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
        return displayPath(path)
    }

    /// How a collected path is shown and reported: without a leading `./`.
    public static func displayPath(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
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

