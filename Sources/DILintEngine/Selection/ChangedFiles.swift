import Foundation

/// `--changed-since REF`: the files that differ from a git ref in the working tree (committed
/// since, staged or not), plus untracked files git does not ignore.
public enum ChangedFiles {
    /// Absolute paths, symbolic links resolved, of changed files in the repository holding `directory`.
    /// Throws a `ConfigError` when `directory` is not in a git work tree or `ref` names no commit.
    public static func since(_ ref: String, in directory: String) throws -> Set<String> {
        let top = try git(
            ["rev-parse", "--show-toplevel"], in: directory,
            failure: "\(directory) is not inside a git work tree, so --changed-since cannot be used"
        )
        .trimmingCharacters(in: .newlines)
        _ = try git(
            ["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"], in: top,
            failure: "--changed-since: '\(ref)' is not a commit in the repository at \(top)")
        let changed = try git(
            ["-c", "core.quotePath=false", "diff", "--name-only", "-z", ref, "--"], in: top,
            failure: "--changed-since: git diff against '\(ref)' failed")
        let untracked = try git(
            ["ls-files", "-z", "--others", "--exclude-standard"], in: top,
            failure: "--changed-since: git ls-files failed")
        let base = URL(fileURLWithPath: top, isDirectory: true)
        return Set(
            (changed + untracked).split(separator: "\0").map {
                base.appendingPathComponent(String($0)).resolvingSymlinksInPath().path
            })
    }

    /// The files of `files` (as collected) that are in `changed`, and those that include a
    /// changed (or deleted) file, directly or through headers (see `Includers`).
    public static func select(_ files: [String], changed: Set<String>) -> (changed: [String], includers: [String]) {
        let cwd = FileManager.default.currentDirectoryPath
        let direct = files.filter { path in
            let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
            return changed.contains(URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path)
        }
        let chosen = Set(direct)
        let includers = Includers.of(changed, among: files.filter { !chosen.contains($0) })
        return (direct, includers)
    }

    /// Runs git and returns its standard output; a failure throws `failure` with git's own words
    /// (`needs`: the option that needed git, for when it cannot be started).
    static func git(
        _ arguments: [String], in directory: String, failure: String, needs: String = "--changed-since",
        environment: [String: String] = [:]
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw ConfigError.invalid("\(needs) needs git, which could not be started: \(error.localizedDescription)")
        }
        // Drain stdout before waiting, so a long file list cannot fill the pipe and block git;
        // git's few lines of stderr fit in the pipe's buffer.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errorData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = String(decoding: errorData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw ConfigError.invalid(failure + (said.isEmpty ? "" : " (git: \(said))"))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
