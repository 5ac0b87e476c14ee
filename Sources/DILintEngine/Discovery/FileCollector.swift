import Foundation

/// Turns the command line's paths into the list of files to lint.
public struct FileCollector {
    public var extensions: Set<String> = SourceLanguage.lintedExtensions
    /// Globs (`*`, `**`, `?`) matched against paths relative to the base directory and against file names.
    public var excludes: [String]
    public var baseDirectory: String
    /// Bounds the symbolic links met where no directory above them holds `.git`: links are
    /// followed inside this directory (default: the working directory) or, for a tree outside
    /// it, inside the tree named on the command line.
    public var directoryWithoutRepository = FileManager.default.currentDirectoryPath

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
    public struct Problem: Hashable, Sendable {
        public let path: String
        public let problem: String

        /// `path` shown as the run shows files (no leading `./`).
        init(path: String, problem: String) {
            self.path = FileCollector.displayPath(path)
            self.problem = problem
        }
    }

    /// Files under `paths`, sorted; skips `.build`, hidden directories and excluded globs.
    /// A file named explicitly is linted whatever its extension. A symbolic link (named, or met
    /// in a walk) is linted at its target when the target lies inside the link's repository
    /// (`RepositoryRoot`); one that points outside is a `Problem`. Each directory is walked once
    /// and each file listed once, however many links reach it.
    public func collect(_ paths: [String]) throws -> [String] {
        try collectReporting(paths).files
    }

    /// `collect`, with what could not be walked: unreadable directories, names that are not
    /// UTF-8, symbolic links out of the repository. A path on the command line that is neither a
    /// regular file nor a readable directory (a FIFO, `/dev/stdin`, `<(…)`, a device) throws, naming it.
    public func collectReporting(_ paths: [String]) throws -> (files: [String], problems: [Problem]) {
        var walk = Walk(collector: self)
        for path in paths {
            var st = stat()
            guard stat(path, &st) == 0 else {
                if path.unicodeScalars.contains("\u{FFFD}") {
                    throw InputFile.Refused(
                        path: path,
                        problem: "no such file; its name is not valid UTF-8 as given (di-lint reads names as UTF-8)")
                }
                throw MissingPath(path: path)
            }
            let kind = st.st_mode & S_IFMT
            switch kind {
            case S_IFREG:
                break
            case S_IFDIR:
                guard let handle = opendir(path) else {
                    throw InputFile.Refused(
                        path: path, problem: "cannot read the directory (\(String(cString: strerror(errno))))")
                }
                closedir(handle)
            default:
                throw InputFile.Refused(
                    path: path,
                    problem:
                        "it is \(InputFile.describe(kind)), not a regular file or a directory; di-lint lints files on disk"
                )
            }
            var target = path
            walk.absolute = path.hasPrefix("/")
            var link = stat()
            // `link/` would be the directory it leads to: the name itself is looked at
            var name = Substring(path)
            while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
            if lstat(String(name), &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                walk.anchor = nil
                switch walk.resolve(
                    link: String(name), in: name.contains("/") ? RepositoryRoot.parent(of: String(name)) : ".")
                {
                case let .outside(why):
                    walk.problems.append(
                        Problem(path: path, problem: "\(kind == S_IFDIR ? "directory" : "file") not linted: \(why)"))
                    continue
                case let .inside(shown):
                    target = shown
                }
            }
            if kind == S_IFREG {
                if !isExcluded(path) && !isExcluded(target) { walk.add(target, throughLink: target != path) }
            } else {
                walk.anchor = RepositoryRoot.realPath(target).map { (real: $0, shown: target) }
                walk.walk(target, throughLink: target != path)
            }
        }
        var seen = Set<Problem>()
        return (walk.files(), walk.problems.filter { seen.insert($0).inserted })
    }

    /// One collection: the files and problems found so far, the directories walked, the
    /// repositories of the links met.
    private struct Walk {
        let collector: FileCollector
        var problems: [Problem] = []
        /// Files reached without a symbolic link, and through one.
        var direct: [String] = []
        var linked: [String] = []
        /// Directories walked, by device and inode: none twice, and no link loop.
        var walked = Set<[UInt64]>()
        /// The path named on the command line that the walk is under: its resolved path and how it
        /// was written, so that a link's target below it is shown as the walk shows its files.
        var anchor: (real: String, shown: String)?
        /// Whether that path was written absolute: targets elsewhere are then shown absolute too.
        var absolute = false
        /// Resolved directory → the repository holding it (nil: none), for the links met.
        var repositories: [String: String?] = [:]
        /// `directoryWithoutRepository` and the working directory, resolved.
        let workingDirectory: String?
        let currentDirectory = RepositoryRoot.realPath(".")

        init(collector: FileCollector) {
            self.collector = collector
            workingDirectory = RepositoryRoot.realPath(collector.directoryWithoutRepository)
        }

        enum Target {
            /// Inside the repository, as the run shows it.
            case inside(String)
            /// Not followed, with why.
            case outside(String)
        }

        mutating func add(_ path: String, throughLink: Bool) {
            if throughLink { linked.append(path) } else { direct.append(path) }
        }

        /// Where the link `path` (in the directory `directory`) leads, if it may be followed.
        mutating func resolve(link path: String, in directory: String) -> Target {
            guard let real = RepositoryRoot.realPath(path) else { return .outside(Self.leadsNowhere(path)) }
            guard let parent = RepositoryRoot.realPath(directory) else {
                return .outside(
                    "a symbolic link in a directory that cannot be resolved (\(String(cString: strerror(errno))))")
            }
            if repositories[parent] == nil { repositories[parent] = .some(RepositoryRoot.enclosing(parent)) }
            let bound: String
            let named: String
            if let root = repositories[parent]! {
                bound = root
                named = "the repository \(root)"
            } else if let cwd = workingDirectory, RepositoryRoot.contains(cwd, parent) {
                bound = cwd
                named = "the working directory \(cwd) (no directory above the link holds .git)"
            } else {
                // a tree outside the working directory: the one named on the command line
                bound = anchor?.real ?? parent
                named = "the linted tree \(bound) (no directory above the link holds .git)"
            }
            guard RepositoryRoot.contains(bound, real) else {
                return .outside("a symbolic link to \(real), outside \(named)")
            }
            return .inside(shown(real))
        }

        /// A resolved path as the run shows it: below the path named on the command line as under
        /// it, else (for a relative one) relative to the working directory when below it, else absolute.
        func shown(_ real: String) -> String {
            func under(_ base: String, _ shown: String) -> String? {
                guard RepositoryRoot.contains(base, real) else { return nil }
                let rest = real.dropFirst(base == "/" ? 1 : base.count + 1)
                if rest.isEmpty { return shown }
                return shown.isEmpty ? String(rest) : shown.hasSuffix("/") ? shown + rest : shown + "/" + rest
            }
            if let anchor, let path = under(anchor.real, anchor.shown) { return path }
            if !absolute, let cwd = currentDirectory, let path = under(cwd, cwd == real ? "." : "") { return path }
            return real
        }

        mutating func walk(_ directory: String, throughLink: Bool) {
            var st = stat()
            if stat(directory, &st) == 0 {
                guard walked.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return } // walked already
            }
            guard let entries = FileCollector.readEntries(of: directory) else {
                problems.append(
                    Problem(
                        path: directory,
                        problem: "directory not linted: cannot read it (\(String(cString: strerror(errno))))"))
                return
            }
            for entry in entries {
                let name = entry.name
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                if name.hasPrefix(".") || collector.isExcluded(path) { continue }
                let linted = (entry.kind == S_IFREG || entry.kind == S_IFLNK) && collector.hasLintedExtension(name)
                if !entry.utf8 && (entry.kind == S_IFDIR || entry.kind == S_IFLNK || linted) {
                    problems.append(
                        Problem(
                            path: path,
                            problem:
                                "\(entry.kind == S_IFDIR ? "directory" : entry.kind == S_IFLNK ? "symbolic link" : "file") not linted: its name is not valid UTF-8 (shown with \\x escapes); rename it"
                        ))
                    continue
                }
                switch entry.kind {
                case S_IFDIR:
                    walk(path, throughLink: throughLink)
                case S_IFREG:
                    if linted { add(path, throughLink: throughLink) }
                case S_IFLNK:
                    follow(path, in: directory, linted: linted)
                default:
                    continue // FIFOs, devices, sockets
                }
            }
        }

        /// A symbolic link met in a walk: a directory is walked, and a file with a linted
        /// extension listed, at the target, when the target is inside the repository; else a
        /// problem. A link to anything else is passed over as the walk passes over such files.
        private mutating func follow(_ path: String, in directory: String, linted: Bool) {
            var st = stat()
            guard stat(path, &st) == 0 else {
                if linted {
                    problems.append(Problem(path: path, problem: "file not linted: " + Self.leadsNowhere(path)))
                }
                return
            }
            let kind = st.st_mode & S_IFMT
            guard kind == S_IFDIR || (kind == S_IFREG && linted) else { return }
            switch resolve(link: path, in: directory) {
            case let .outside(why):
                problems.append(
                    Problem(path: path, problem: "\(kind == S_IFDIR ? "directory" : "file") not linted: \(why)"))
            case let .inside(target):
                guard !collector.isExcluded(target) else { return }
                if kind == S_IFDIR { walk(target, throughLink: true) } else { add(target, throughLink: true) }
            }
        }

        /// Why a link whose target does not resolve is not followed (call with `errno` still set).
        static func leadsNowhere(_ path: String) -> String {
            let why = String(cString: strerror(errno))
            let to = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " to \($0)" } ?? ""
            return "a symbolic link\(to) that leads nowhere (\(why))"
        }

        /// The files, sorted, each once: by name as shown, and a file reached through a link
        /// also by device and inode (two names of one file through links; hard links stay as before).
        func files() -> [String] {
            var seen = Set<String>()
            var result = direct.filter { seen.insert(FileCollector.displayPath($0)).inserted }
            if !linked.isEmpty {
                func identity(_ path: String) -> [UInt64]? {
                    var st = stat()
                    return stat(path, &st) == 0 ? [UInt64(st.st_dev), UInt64(st.st_ino)] : nil
                }
                var identities = Set(result.compactMap(identity))
                for path in linked where seen.insert(FileCollector.displayPath(path)).inserted {
                    if let id = identity(path), !identities.insert(id).inserted { continue }
                    result.append(path)
                }
            }
            return result.sorted()
        }
    }

    func hasLintedExtension(_ name: String) -> Bool {
        name.contains(".") && name.split(separator: ".").last.map { extensions.contains(String($0)) } == true
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
                return (
                    bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }
                        .joined(), false
                )
            }
            if name == "." || name == ".." { continue }
            var kind: mode_t
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = S_IFDIR
            case Int32(DT_REG): kind = S_IFREG
            case Int32(DT_LNK): kind = S_IFLNK
            case Int32(DT_UNKNOWN) where utf8:
                var st = stat()
                kind = lstat(directory + "/" + name, &st) == 0 ? st.st_mode & S_IFMT : 0
            default: kind = 0 // devices, sockets, FIFOs
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
