import Foundation

/// The directory `--cache DIR` names, and what di-lint may do in it.
///
/// di-lint marks the directories it makes its cache with a `CACHEDIR.TAG` (the Cache Directory
/// Tagging format, https://bford.info/cachedir/, so that tar `--exclude-caches`, borg and restic
/// skip it), whose comment line says di-lint wrote it. It uses and prunes only a directory that
/// carries that tag, or that it can tag: a new or empty one, or one whose every entry is a layout
/// directory of an earlier di-lint (`v<digits>` holding only the names di-lint writes there, and
/// at least one of them). Anything else — the linted tree, a directory holding an input of the
/// run, one holding other files, another program's cache, one git tracks files in — is refused,
/// naming the path. Inside the directory nothing is followed through a symbolic link: every
/// open is relative to a descriptor of the directory above, with `O_NOFOLLOW`, and pruning
/// removes with `unlinkat` only regular files of di-lint's names, then the emptied directories.
enum CacheRoot {
    static let markerName = "CACHEDIR.TAG"
    static let signature = "Signature: 8a477f597d28d172789f06886806bc55"
    static let identification = "# This file is a cache directory tag created by di-lint."
    static let marker =
        signature + "\n" + identification + "\n"
        + "# For information about cache directory tags, see:\n#\thttps://bford.info/cachedir/\n"

    /// The names di-lint gives what it writes under the cache root.
    enum Names {
        /// A layout directory: `v` and digits (`v5`, this di-lint's `IncrementalCache.layout` or another's).
        static func isLayout(_ name: String) -> Bool {
            name.count > 1 && name.first == "v" && name.utf8.dropFirst().allSatisfy { $0 >= 48 && $0 <= 57 }
        }

        /// A fan-out directory of a layout: the first two hex digits of the keys in it.
        static func isFanOut(_ name: String) -> Bool { name.utf8.count == 2 && name.utf8.allSatisfy(isHex) }

        /// An entry: a 64-hex-digit key and `.bin` (`.json` in the first layout).
        static func isEntry(_ name: String) -> Bool {
            let bytes = Array(name.utf8)
            guard bytes.count > 64, bytes[..<64].allSatisfy(isHex) else { return false }
            let suffix = String(decoding: bytes[64...], as: UTF8.self)
            return suffix == ".bin" || suffix == ".json"
        }

        /// A temporary file being written, or left by a killed run (`writeAtomically`).
        static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".tmp-") }

        /// The files a layout directory holds besides its fan-out directories.
        static func isLayoutFile(_ name: String) -> Bool { name == "digests.tsv" || name == "last-pruned" }

        private static func isHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
    }

    /// Opens the cache directory at `path` for a run whose inputs (the paths it lints, its config)
    /// are `inputs`, creating and tagging it when it is new or empty, or an earlier di-lint's.
    /// Nil when the run is to go without a cache (a read-only cache that is not there; git could
    /// not say whether the directory is committed), after saying why through `warn`. Throws a
    /// `ConfigError` naming the path when the directory cannot be di-lint's cache.
    static func prepare(_ path: String, inputs: [String], readOnly: Bool, warn: (String) -> Void) throws -> Int32? {
        func failure(_ problem: String) -> ConfigError { .file(path: path, problem: problem) }
        var st = stat()
        let exists = stat(path, &st) == 0
        if !exists && readOnly {
            warn("--cache \(path): \(String(cString: strerror(errno))); nothing is read from it (--cache-read-only)")
            return nil
        }
        // Checked before anything is made or written; a directory still to be made holds
        // neither inputs nor anything git could check out.
        if exists { try refuseInputs(path, inputs: inputs) }
        switch exists ? trackedFile(under: path) : nil {
        case .none:
            break
        case let .tracked(file)?:
            throw failure(
                "cannot be the cache directory: git tracks '\(file)' in it, and a committed cache is content a change could forge; untrack it (git rm -r --cached \(path)) and list it in .gitignore"
            )
        case let .unknown(problem)?:
            warn(
                "--cache \(path): cannot tell whether git tracks files in it (\(problem)); the cache is not used for this run"
            )
            return nil
        }
        if !exists {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw failure("cannot create the cache directory (\(error.localizedDescription))")
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw failure("cannot open it as the cache directory (\(String(cString: strerror(errno))))")
        }
        do {
            try checkMarker(path, fd: fd, readOnly: readOnly)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Refuses a root that is an input of the run or holds one (the linted tree, an ancestor of a
    /// linted file or of the config): pruning and tagging are for a directory of di-lint's own.
    private static func refuseInputs(_ path: String, inputs: [String]) throws {
        guard let root = resolved(path) else { return }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        for input in inputs {
            guard let real = resolved(input), real == root || real.hasPrefix(prefix) else { continue }
            throw ConfigError.file(
                path: path,
                problem: "cannot be the cache directory: "
                    + (real == root
                        ? "it is '\(input)', an input of this run" : "it holds '\(input)', an input of this run")
                    + "; the cache needs a directory of its own, such as .di-lint-cache")
        }
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    enum Tracking: Equatable {
        case tracked(String)
        case unknown(String)
    }

    /// Whether git tracks anything at or under `path` (the first such file), when `path` is in a
    /// git work tree: nil when it is not, or git tracks nothing there.
    static func trackedFile(under path: String) -> Tracking? {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let parent = url.deletingLastPathComponent().path
        guard RepositoryRoot.enclosing(parent) != nil else { return nil }
        do {
            let listed = try ChangedFiles.git(
                ["--literal-pathspecs", "ls-files", "-z", "--", url.lastPathComponent], in: parent,
                failure: "git ls-files failed", needs: "--cache")
            return listed.split(separator: "\0").first.map { .tracked(String($0)) }
        } catch {
            return .unknown("\(error)")
        }
    }

    /// Accepts a root tagged by di-lint; tags a new or empty one, or an earlier di-lint's (unless
    /// `readOnly`); refuses anything else.
    private static func checkMarker(_ path: String, fd: Int32, readOnly: Bool) throws {
        func refuse(_ problem: String) -> ConfigError {
            .file(path: path, problem: "cannot be the cache directory: " + problem)
        }
        var st = stat()
        if fstatat(fd, markerName, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            guard st.st_mode & S_IFMT == S_IFREG,
                let bytes = readFileBytes(markerName, limit: 4096, directory: fd, flags: O_NOFOLLOW),
                case let text = String(decoding: bytes, as: UTF8.self),
                text.hasPrefix(signature), text.split(separator: "\n").contains(Substring(identification))
            else {
                throw refuse("its \(markerName) was not written by di-lint (another program's cache?)")
            }
            return
        }
        let listing = entries(of: fd)
        if !listing.isEmpty, let foreign = foreignEntry(root: fd, listing: listing) {
            throw refuse(
                "it holds '\(foreign)', which di-lint did not make, and no \(markerName) of di-lint's; name a new or empty directory, or di-lint's own cache"
            )
        }
        guard !readOnly else { return }
        guard writeAtomically(Array(marker.utf8), directory: fd, name: markerName) else {
            throw ConfigError.file(
                path: path,
                problem:
                    "cannot write its \(markerName) (\(String(cString: strerror(errno)))); --cache-read-only reads a cache without writing to it"
            )
        }
    }

    /// The first entry of an untagged root that is not an earlier di-lint layout, or nil when all
    /// are and at least one file shows di-lint made them (an entry, a digest index, a prune stamp).
    private static func foreignEntry(root: Int32, listing: [(name: String, status: stat?)]) -> String? {
        var ours = 0
        for (name, status) in listing.sorted(by: { $0.name < $1.name }) {
            guard Names.isLayout(name), let status, status.st_mode & S_IFMT == S_IFDIR else { return name }
            let layout = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard layout >= 0 else { return name }
            defer { close(layout) }
            for (sub, subStatus) in entries(of: layout) {
                let kind = subStatus.map { $0.st_mode & S_IFMT }
                if kind == S_IFREG && (Names.isLayoutFile(sub) || Names.isTemporary(sub)) {
                    if Names.isLayoutFile(sub) { ours += 1 }
                    continue
                }
                guard kind == S_IFDIR, Names.isFanOut(sub) else { return name + "/" + sub }
                let fanOut = openat(layout, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard fanOut >= 0 else { return name + "/" + sub }
                defer { close(fanOut) }
                for (file, fileStatus) in entries(of: fanOut) {
                    guard let fileStatus, fileStatus.st_mode & S_IFMT == S_IFREG,
                        Names.isEntry(file) || Names.isTemporary(file)
                    else { return name + "/" + sub + "/" + file }
                    if Names.isEntry(file) { ours += 1 }
                }
            }
        }
        return ours > 0 ? nil : listing[0].name
    }

    /// The entries of the directory open at `fd` (not `.` and `..`), each with its `lstat` data
    /// (nil when it cannot be had, as for a name that is not UTF-8).
    static func entries(of fd: Int32) -> [(name: String, status: stat?)] {
        // A descriptor of its own, so that the listing has its own read position.
        let own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard own >= 0 else { return [] }
        guard let handle = fdopendir(own) else {
            close(own)
            return []
        }
        defer { closedir(handle) }
        var result: [(name: String, status: stat?)] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                result.append((String(decoding: bytes, as: UTF8.self), nil))
                continue
            }
            if name == "." || name == ".." { continue }
            var st = stat()
            result.append((name, fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st : nil))
        }
        return result
    }

    /// Removes the layout directory `name` of the root open at `root`: its regular files of
    /// di-lint's names, its fan-out directories' entries and temporaries, then each directory
    /// emptied. Anything else in it is left, and so is the directory. True when it is gone.
    static func removeLayout(_ name: String, root: Int32) -> Bool {
        let layout = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard layout >= 0 else { return false }
        for (sub, status) in entries(of: layout) {
            guard let status else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG where Names.isLayoutFile(sub) || Names.isTemporary(sub):
                unlinkat(layout, sub, 0)
            case S_IFDIR where Names.isFanOut(sub):
                let fanOut = openat(layout, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard fanOut >= 0 else { continue }
                for (file, fileStatus) in entries(of: fanOut)
                where fileStatus.map({ $0.st_mode & S_IFMT == S_IFREG }) == true
                    && (Names.isEntry(file) || Names.isTemporary(file))
                {
                    unlinkat(fanOut, file, 0)
                }
                close(fanOut)
                unlinkat(layout, sub, AT_REMOVEDIR)
            default:
                continue
            }
        }
        close(layout)
        return unlinkat(root, name, AT_REMOVEDIR) == 0
    }
}
