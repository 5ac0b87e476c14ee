import Foundation

extension BridgeWriter {
    /// The texts of the files an accepted group of the plan creates, by real path.
    static func createdContents(_ plan: FixPlan) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for group in plan.accepted {
            for path in group.creates ?? [] {
                files[path] = EditApplication.apply(group.edits.filter { $0.path == path }, to: [])
            }
        }
        return files
    }

    /// Why a file cannot be created at `realPath`, or nil: it must be inside the repository, in a
    /// folder that exists, and not exist (fix never replaces a file by a new one).
    static func creationProblem(_ realPath: String, tree: FixTree) -> String? {
        let folder = (realPath as NSString).deletingLastPathComponent
        guard tree.contains(FixWorkspace.realPath(folder) + "/") || tree.contains(realPath) else {
            return "\(realPath) is outside the repository root \(tree.root)"
        }
        var st = stat()
        if lstat(realPath, &st) == 0 { return "\(realPath) exists (fix does not replace a file by a new one)" }
        return nil
    }
}

extension FixPlan {
    /// The real paths the accepted groups create.
    var createdFiles: Set<String> { Set(accepted.flatMap { $0.creates ?? [] }) }

    /// Puts a plan made first in the same run (the bridge `inject` planned) ahead of this one.
    mutating func merge(before first: FixPlan) {
        groups = first.groups + groups
        manual = first.manual + manual
        digests.merge(first.digests) { current, _ in current }
        diagnostics.merge(first.diagnostics) { current, _ in current }
        secondRunEmpty = secondRunEmpty && first.secondRunEmpty
    }
}

extension UnifiedDiff {
    /// The diff that creates a file (`git apply` reads `/dev/null` as "no file before").
    static func creation(path: String, contents: [UInt8]) -> [UInt8] {
        let edit = TextEdit(path: path, range: 0..<0, replacement: String(decoding: contents, as: UTF8.self))
        var out = diff(path: path, old: [], edits: [edit])
        let header = Array("--- \(quoted("a/" + path))".utf8)
        if out.starts(with: header) {
            out.replaceSubrange(0..<header.count, with: Array("--- /dev/null".utf8))
        }
        return out
    }
}

/// Creates new files, each whole or not at all, never replacing one: the text goes to a
/// temporary beside it (`fsync`ed, mode 0666 less the umask), then `link(2)` gives it its name,
/// which fails when the name exists.
enum NewFiles {
    /// Creates every file or none (those made are removed on a failure); the paths created.
    static func create(_ files: [(path: String, contents: [UInt8])]) throws -> [String] {
        var made: [String] = []
        let mask = umask(0)
        umask(mask)
        for (path, contents) in files {
            func fail(_ why: String) -> FixApplier.Failure {
                for m in made { unlink(m) }
                return FixApplier.Failure(
                    unchanged: true, description: "\(path): \(why); nothing written", details: [])
            }
            let directory = FixApplier.temporaryDirectory(of: path)
            var template = Array(
                "\(directory)/.\((path as NSString).lastPathComponent)\(FixApplier.temporaryInfix)XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw fail("cannot create a temporary file beside it (\(String(cString: strerror(errno))))")
            }
            let temporary = String(cString: template)
            let ok = fchmod(fd, 0o666 & ~mode_t(mask)) == 0 && writeAll(fd, contents) && fsync(fd) == 0
            let error = errno
            close(fd)
            guard ok else {
                unlink(temporary)
                throw fail("cannot write it (\(String(cString: strerror(error))))")
            }
            let linked = link(temporary, path) == 0
            let linkError = errno
            unlink(temporary)
            guard linked else {
                throw fail(
                    linkError == EEXIST
                        ? "it exists now (fix does not replace a file by a new one)"
                        : "cannot create it (\(String(cString: strerror(linkError))))")
            }
            made.append(path)
        }
        for directory in Set(made.map { FixApplier.temporaryDirectory(of: $0) }) {
            FixJournal.syncDirectory(of: directory + "/.")
        }
        return made
    }

    /// Removes files `create` made (the apply of the other files failed).
    static func remove(_ paths: [String]) {
        for path in paths { unlink(path) }
    }
}
