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
        // The hashed text is `rule \0 path \0 scope \0 what` (as `hash` joins it), written into
        // one reused buffer: a joined string and a digest array per finding cost more than the digest.
        var text: [UInt8] = []
        let all = findings
        number(&findings) { i in
            text.removeAll(keepingCapacity: true)
            text.append(contentsOf: all[i].rule.utf8)
            text.append(0)
            text.append(contentsOf: relative[all[i].path].utf8)
            text.append(0)
            if let scope = all[i].scope { text.append(contentsOf: scope.utf8) }
            text.append(0)
            if let access = all[i].access {
                text.append(contentsOf: "access".utf8)
                text.append(0)
                text.append(contentsOf: access.container.utf8)
                text.append(0)
                text.append(contentsOf: access.accessor.utf8)
                text.append(0)
                if let service = access.service { text.append(contentsOf: service.utf8) }
            } else {
                text.append(contentsOf: "line".utf8)
                text.append(0)
                text.append(contentsOf: normalize(all[i].snippet ?? lines.line(all[i].line, of: all[i].path)).utf8)
            }
            return text.withUnsafeBytes { SHA256.hexPrefix32($0) }
        }
    }

    /// The format-1 fingerprints of the findings, in their order (for matching old baselines).
    public static func legacy(_ findings: [Finding], root: String) -> [String] {
        var relative = RelativePaths(root: root)
        var lines = SourceLines()
        return numbered(findings) { i in
            let f = findings[i]
            return hash([
                f.rule, relative[f.path], normalize(f.snippet ?? lines.line(f.line, of: f.path)),
                f.access?.expression ?? "",
            ])
        }
    }

    /// Sets `fingerprint` to `hash:ordinal`, the ordinal counting equal hashes in report order.
    /// `hashOf` is given an index of `findings`.
    private static func number(_ findings: inout [Finding], _ hashOf: (Int) -> String) {
        let fingerprints = numbered(findings, hashOf)
        for i in findings.indices { findings[i].fingerprint = fingerprints[i] }
    }

    /// The fingerprints of `findings`, by index (hashed without the findings held for writing).
    private static func numbered(_ findings: [Finding], _ hashOf: (Int) -> String) -> [String] {
        var occurrences: [String: Int] = [:]
        occurrences.reserveCapacity(findings.count)
        // Findings usually come in report order already (`Linter.lint` sorts them); the sort is
        // stable, so then it is the identity and is skipped.
        let order =
            Finding.inOrder(findings)
            ? Array(findings.indices) : findings.indices.sorted { Finding.ordered(findings[$0], findings[$1]) }
        var fingerprints = [String](repeating: "", count: findings.count)
        for i in order {
            let hash = hashOf(i)
            let occurrence = occurrences[hash, default: 0]
            occurrences[hash] = occurrence + 1
            fingerprints[i] = "\(hash):\(occurrence)"
        }
        return fingerprints
    }

    static func hash(_ parts: [String]) -> String {
        var text = parts.joined(separator: "\u{0}")
        return text.withUTF8 { SHA256.hexPrefix32(UnsafeRawBufferPointer($0)) }
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
    /// A file's bytes and where each line starts (a line ends at the newline before the next start).
    private struct File {
        var bytes: [UInt8]
        var starts: [Int]
        /// Lines decoded so far, with how many leading bytes of the decoded line are ASCII.
        var decoded: [Int: (text: String, ascii: Int)] = [:]
    }

    private var files: [String: File] = [:]

    /// The 1-based line of `path`, or "" when the file or line is not there.
    mutating func line(_ number: Int, of path: String) -> String {
        decodedLine(number, of: path).text
    }

    /// As `SARIFReporter.utf16Column(byteColumn:line:)` on `line(number, of: path)`, without
    /// copying the line: on a line whose bytes before the column are ASCII the two counts agree.
    mutating func utf16Column(byteColumn: Int, line number: Int, of path: String) -> Int {
        let line = decodedLine(number, of: path)
        if byteColumn <= 1 || byteColumn - 1 > line.text.utf8.count { return byteColumn }
        if byteColumn - 1 <= line.ascii { return byteColumn }
        return SARIFReporter.utf16Column(byteColumn: byteColumn, line: line.text)
    }

    private mutating func decodedLine(_ number: Int, of path: String) -> (text: String, ascii: Int) {
        if files[path] == nil {
            let bytes = (try? InputFile.read(path, limit: 64 << 20)) ?? []
            var starts = [0]
            bytes.withUnsafeBufferPointer { b in
                // as `String.split(separator: "\n")` splits: "\r\n" is one character, no "\n"
                for i in b.indices where b[i] == 0x0A && (i == 0 || b[i - 1] != 0x0D) { starts.append(i + 1) }
            }
            files[path] = File(bytes: bytes, starts: starts)
        }
        guard number >= 1, number <= files[path]!.starts.count else { return ("", 0) }
        if let known = files[path]!.decoded[number] { return known }
        // Decoding each line alone gives the lines of the decoded file: a newline is never part
        // of a malformed sequence the decoding repairs.
        let file = files[path]!
        let start = file.starts[number - 1]
        let end = number < file.starts.count ? file.starts[number] - 1 : file.bytes.count
        var text = String(decoding: file.bytes[start..<end], as: UTF8.self)
        let ascii = text.withUTF8 { b in b.firstIndex(where: { $0 >= 0x80 }) ?? b.count }
        files[path]!.decoded[number] = (text, ascii)
        return (text, ascii)
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
                !plain.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
                    $0 == "." || $0 == ".." || $0.isEmpty
                })
            {
                r = cwd.isEmpty ? plain : cwd + "/" + plain
            } else {
                r = FileCollector.relative(path, to: root)
            }
            known[path] = r
            return r
        }
    }
}
