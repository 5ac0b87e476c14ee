import Foundation

/// Fingerprints: the identity of a finding that survives edits around it.
///
/// A fingerprint hashes the rule, the file's path relative to the project root, the declaration
/// the finding is in (`Finding.scope`: class and method, or function) and what was found — for a
/// container access the access itself (container, accessor, service); for other findings their
/// source line with whitespace runs collapsed. Findings with equal hashes are told apart by an
/// ordinal in position order. Neither the line nor the rest of the line's text is part of it, so
/// moving code, renaming a local, reformatting the line or adding statements on it keep it; an
/// access copied into another declaration is a new one. Written as `<32 hex digits>:<ordinal>`;
/// baselines (format 2) and SARIF `partialFingerprints` use it.
///
/// Format-1 baselines hold `legacy` fingerprints (the line's text instead of the declaration);
/// they are still matched, and `--update-baseline` rewrites them in format 2.
public enum Fingerprints {
    /// Version tag of the scheme; the SARIF `partialFingerprints` key carries it.
    public static let scheme = "diLintFingerprint/v2"

    /// Sets `fingerprint` on every finding. `root` is the project root paths are made relative to;
    /// findings without a snippet get their line read from the file when it is needed.
    public static func assign(to findings: inout [Finding], root: String) {
        var relative = RelativePaths(root: root)
        var lines = SourceLines()
        number(&findings) { f in
            let what = f.access.map { "access\0\($0.container)\0\($0.accessor)\0\($0.service ?? "")" }
                ?? "line\0" + normalize(f.snippet ?? lines.line(f.line, of: f.path))
            return hash([f.rule, relative[f.path], f.scope ?? "", what])
        }
    }

    /// The format-1 fingerprints of the findings, in their order (for matching old baselines).
    public static func legacy(_ findings: [Finding], root: String) -> [String] {
        var relative = RelativePaths(root: root)
        var lines = SourceLines()
        var copy = findings
        number(&copy) { f in
            hash([f.rule, relative[f.path], normalize(f.snippet ?? lines.line(f.line, of: f.path)), f.access?.expression ?? ""])
        }
        return copy.map { $0.fingerprint ?? "" }
    }

    /// Sets `fingerprint` to `hash:ordinal`, the ordinal counting equal hashes in report order.
    private static func number(_ findings: inout [Finding], _ hashOf: (Finding) -> String) {
        var occurrences: [String: Int] = [:]
        let order = findings.indices.sorted { Finding.ordered(findings[$0], findings[$1]) }
        for i in order {
            let hash = hashOf(findings[i])
            let occurrence = occurrences[hash, default: 0]
            occurrences[hash] = occurrence + 1
            findings[i].fingerprint = "\(hash):\(occurrence)"
        }
    }

    static func hash(_ parts: [String]) -> String {
        String(SHA256.hex(parts.joined(separator: "\u{0}")).prefix(32))
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
            let text = (try? InputFile.read(path, limit: 64 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
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
            let plain = FileCollector.displayPath(path)
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
