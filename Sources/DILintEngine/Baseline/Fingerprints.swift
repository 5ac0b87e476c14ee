import Foundation

/// Fingerprints: the identity of a finding that survives edits elsewhere in its file.
///
/// A fingerprint hashes the rule, the file's path relative to the project root, the finding's
/// source line with whitespace runs collapsed, and the container access expression; findings
/// with equal hashes in one file are told apart by an occurrence index in line order. Line and
/// column are not part of it, so lines inserted or deleted above a finding leave it unchanged.
/// Written as `<32 hex digits>:<occurrence>`; baselines and SARIF `partialFingerprints` use it.
public enum Fingerprints {
    /// Version tag of the scheme; the SARIF `partialFingerprints` key carries it.
    public static let scheme = "diLintFingerprint/v1"

    /// Sets `fingerprint` on every finding. `root` is the project root paths are made relative to;
    /// findings without a snippet get their line read from the file.
    public static func assign(to findings: inout [Finding], root: String) {
        var lines = SourceLines()
        var relative = RelativePaths(root: root)
        var occurrences: [String: Int] = [:]
        let order = findings.indices.sorted { Finding.ordered(findings[$0], findings[$1]) }
        for i in order {
            let f = findings[i]
            let snippet = f.snippet ?? lines.line(f.line, of: f.path)
            let hash = self.hash(rule: f.rule, path: relative[f.path],
                                 snippet: snippet, expression: f.access?.expression)
            let occurrence = occurrences[hash, default: 0]
            occurrences[hash] = occurrence + 1
            findings[i].fingerprint = "\(hash):\(occurrence)"
        }
    }

    static func hash(rule: String, path: String, snippet: String, expression: String?) -> String {
        let text = [rule, path, normalize(snippet), expression ?? ""].joined(separator: "\u{0}")
        return String(SHA256.hex(text).prefix(32))
    }

    /// The line with leading/trailing whitespace removed and inner whitespace runs made one space,
    /// so re-indenting a line keeps its fingerprint.
    static func normalize(_ line: String) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" })
            .joined(separator: " ")
    }
}

/// Reads source lines of files on demand, each file once.
struct SourceLines {
    private var files: [String: [Substring]] = [:]

    /// The 1-based line of `path`, or "" when the file or line is not there.
    mutating func line(_ number: Int, of path: String) -> String {
        if files[path] == nil {
            let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
            files[path] = text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        let lines = files[path]!
        guard number >= 1, number <= lines.count else { return "" }
        return String(lines[number - 1])
    }
}

/// `FileCollector.relative` with each path worked out once, and plain relative paths (no `.` or
/// `..` components) joined to the working directory's place under the root without asking the
/// file system.
struct RelativePaths {
    let root: String
    /// The working directory relative to the root ("" when they are the same), nil when outside it.
    private let workingDirectory: String?
    private var known: [String: String] = [:]

    init(root: String) {
        self.root = root
        let base = URL(fileURLWithPath: root).standardizedFileURL.path
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        if cwd == base {
            workingDirectory = ""
        } else if cwd.hasPrefix(base == "/" ? "/" : base + "/") {
            workingDirectory = String(cwd.dropFirst(base == "/" ? 1 : base.count + 1))
        } else {
            workingDirectory = nil
        }
    }

    subscript(path: String) -> String {
        mutating get {
            if let r = known[path] { return r }
            var r: String
            let plain = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            if let cwd = workingDirectory, !plain.hasPrefix("/"),
               !plain.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." || $0.isEmpty }) {
                r = cwd.isEmpty ? plain : cwd + "/" + plain
            } else {
                r = FileCollector.relative(path, to: root)
            }
            known[path] = r
            return r
        }
    }
}
