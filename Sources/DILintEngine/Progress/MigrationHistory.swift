import Foundation

/// `di-lint report --history REV_RANGE`: the migration's counts at each commit of a range, as a
/// Markdown table, JSON, and an SVG burn-down chart.
public enum MigrationHistory {
    /// One commit of the range.
    public struct Commit: Equatable, Sendable {
        public var sha: String
        /// The committer date, ISO 8601.
        public var date: String
        public var subject: String
    }

    /// The counts at one commit.
    public struct Point: Codable, Equatable, Sendable {
        public var commit: String
        public var date: String
        public var subject: String
        public var counts: MigrationCounts
        public var filesLinted: Int
        public var filesNotLinted: Int

        public init(commit: Commit, progress: MigrationProgress) {
            self.commit = commit.sha
            date = commit.date
            subject = commit.subject
            counts = progress.total
            filesLinted = progress.filesLinted
            filesNotLinted = progress.filesNotLinted
        }
    }

    static let needs = "--history"

    /// A range as a title shows it: full commit ids cut to 10 characters.
    public static func shortRange(_ range: String) -> String {
        guard let full = try? NSRegularExpression(pattern: "\\b([0-9a-f]{10})[0-9a-f]{30}\\b") else { return range }
        return full.stringByReplacingMatches(
            in: range, range: NSRange(range.startIndex..., in: range), withTemplate: "$1")
    }

    /// The top of the git work tree holding `directory`.
    public static func topLevel(of directory: String) throws -> String {
        try ChangedFiles.git(
            ["rev-parse", "--show-toplevel"], in: directory,
            failure: "\(directory) is not inside a git work tree, so --history cannot be used", needs: needs
        )
        .trimmingCharacters(in: .newlines)
    }

    /// The commits of `range` on its first-parent line, oldest first (`git log --first-parent
    /// --reverse`): `A..B`, or a single commit and its ancestors.
    public static func commits(_ range: String, in top: String) throws -> [Commit] {
        guard !range.hasPrefix("-") else { throw ConfigError.invalid("--history: '\(range)' is not a revision range") }
        let text = try ChangedFiles.git(
            ["log", "--first-parent", "--reverse", "-z", "--format=%H%x1f%cI%x1f%s", range, "--"], in: top,
            failure: "--history: '\(range)' is not a revision range of the repository at \(top)", needs: needs)
        let commits = text.split(separator: "\0").compactMap { record -> Commit? in
            let fields = record.split(separator: "\u{1f}", maxSplits: 2, omittingEmptySubsequences: false).map(
                String.init)
            guard fields.count >= 2 else { return nil }
            return Commit(
                sha: fields[0].trimmingCharacters(in: .whitespacesAndNewlines), date: fields[1],
                subject: fields.count > 2 ? fields[2] : "")
        }
        guard !commits.isEmpty else { throw ConfigError.invalid("--history: '\(range)' holds no commit") }
        return commits
    }

    // MARK: Rendering

    /// A Markdown table: a row a commit, oldest first.
    public static func markdown(_ points: [Point]) -> String {
        var lines = [
            "| commit | date | direct | fallback | injected | migrated | not linted | subject |",
            "|---|---|---:|---:|---:|---:|---:|---|",
        ]
        for p in points {
            let percent = p.counts.percentMigrated.map { String(format: "%.1f%%", $0) } ?? "–"
            let subject = p.subject.replacingOccurrences(of: "|", with: "\\|").prefix(72)
            lines.append(
                "| \(p.commit.prefix(10)) | \(p.date.prefix(10)) | \(p.counts.direct) | \(p.counts.fallback) | \(p.counts.injected) | \(percent) | \(p.filesNotLinted) | \(subject) |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func json(_ points: [Point]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(["history": points])).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? "{}\n"
    }

    /// A stacked-area burn-down: injected at the bottom, then fallback, then direct on top, over
    /// the commits in order; the first, middle and last commits are labelled.
    public static func svg(_ points: [Point], title: String) -> String {
        let width = 880.0, height = 360.0, left = 64.0, right = 150.0, top = 40.0, bottom = 56.0
        let plotW = width - left - right, plotH = height - top - bottom
        let maxY = max(1, points.map(\.counts.accesses).max() ?? 1)
        let n = points.count
        func x(_ i: Int) -> Double { n <= 1 ? left + plotW / 2 : left + plotW * Double(i) / Double(n - 1) }
        func y(_ v: Int) -> Double { top + plotH - plotH * Double(v) / Double(maxY) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        // cumulative heights: injected, + fallback, + direct
        let layers: [(String, String, (MigrationCounts) -> Int)] = [
            ("injected", "#2e7d32", { $0.injected }),
            ("fallback", "#f9a825", { $0.injected + $0.fallback }),
            ("direct", "#c62828", { $0.accesses }),
        ]
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            "<text x=\"\(f(left))\" y=\"22\" font-size=\"15\" font-weight=\"bold\">\(escape(title))</text>",
        ]
        var below: (MigrationCounts) -> Int = { _ in 0 }
        for (name, colour, height) in layers {
            let lower = below
            var path = points.indices.map { "\($0 == 0 ? "M" : "L")\(f(x($0))),\(f(y(height(points[$0].counts))))" }
            if n == 1 { path.append("L\(f(x(0) + 1)),\(f(y(height(points[0].counts))))") }
            for i in points.indices.reversed() {
                path.append("L\(f(x(i) + (n == 1 ? 1 : 0))),\(f(y(lower(points[i].counts))))")
            }
            out.append(
                "<path d=\"\(path.joined(separator: " ")) Z\" fill=\"\(colour)\" fill-opacity=\"0.85\" stroke=\"\(colour)\"><title>\(name)</title></path>"
            )
            below = height
        }
        // axes and ticks
        out.append(
            "<line x1=\"\(f(left))\" y1=\"\(f(top + plotH))\" x2=\"\(f(left + plotW))\" y2=\"\(f(top + plotH))\" stroke=\"#333\"/>"
        )
        out.append(
            "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(top + plotH))\" stroke=\"#333\"/>")
        for v in Set([0, maxY / 2, maxY]).sorted() {
            out.append("<text x=\"\(f(left - 8))\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\">\(v)</text>")
            out.append(
                "<line x1=\"\(f(left - 4))\" y1=\"\(f(y(v)))\" x2=\"\(f(left))\" y2=\"\(f(y(v)))\" stroke=\"#333\"/>")
        }
        for i in Set([0, n / 2, n - 1]).filter({ $0 >= 0 && $0 < n }).sorted() {
            let anchor = i == 0 ? "start" : i == n - 1 ? "end" : "middle"
            out.append(
                "<text x=\"\(f(x(i)))\" y=\"\(f(top + plotH + 18))\" text-anchor=\"\(anchor)\">\(points[i].commit.prefix(8))</text>"
            )
            out.append(
                "<text x=\"\(f(x(i)))\" y=\"\(f(top + plotH + 34))\" text-anchor=\"\(anchor)\" fill=\"#555\">\(points[i].date.prefix(10))</text>"
            )
        }
        out.append(
            "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 6))\" text-anchor=\"middle\" fill=\"#555\">\(n) commit\(n == 1 ? "" : "s"), oldest first</text>"
        )
        // legend with the last counts
        let last = points.last?.counts ?? MigrationCounts()
        let legend: [(String, String, Int)] = [
            ("direct", "#c62828", last.direct), ("fallback", "#f9a825", last.fallback),
            ("injected", "#2e7d32", last.injected),
        ]
        for (k, entry) in legend.enumerated() {
            let ly = top + 10 + Double(k) * 22
            out.append(
                "<rect x=\"\(f(left + plotW + 16))\" y=\"\(f(ly - 10))\" width=\"12\" height=\"12\" fill=\"\(entry.1)\"/>"
            )
            out.append("<text x=\"\(f(left + plotW + 34))\" y=\"\(f(ly))\">\(entry.0): \(entry.2)</text>")
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }
}

/// A private work tree of the repository for `--history`, moved from commit to commit by git
/// itself (`read-tree -u --reset` against a private index): only the files that differ are
/// written, so the others keep their stat data and the incremental cache recognises them.
public struct HistoryTree {
    public let root: String
    let top: String
    let index: String

    /// Uses (or creates) `directory`: `tree/` holds the files, `index` git's index of them.
    public init(repository top: String, directory: String) throws {
        self.top = top
        do {
            try FileManager.default.createDirectory(
                atPath: directory + "/tree", withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw ConfigError.invalid(
                "--history: cannot create its work tree at \(directory): \(error.localizedDescription)")
        }
        root = directory + "/tree"
        index = directory + "/index"
    }

    /// Takes the lock of the work tree kept in `directory` (a `lock` file there, `flock(2)`),
    /// creating the directory: nil when another run holds it (that run is moving the tree from
    /// commit to commit, so this one must not use it).
    public static func lock(directory: String) throws -> FixTree.Lock? {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ConfigError.invalid(
                "--history: cannot create its work tree at \(directory): \(error.localizedDescription)")
        }
        return try FileLock.acquire(
            directory + "/lock", wait: 0, name: "--history: the work tree's lock",
            busy: "another report --history is using this work tree")
    }

    /// Makes the tree hold `sha`'s files and nothing else git tracks.
    public func checkout(_ sha: String) throws {
        let gitDirectory = try ChangedFiles.git(
            ["rev-parse", "--absolute-git-dir"], in: top, failure: "--history: git rev-parse failed",
            needs: MigrationHistory.needs
        ).trimmingCharacters(in: .newlines)
        _ = try ChangedFiles.git(
            ["--git-dir=\(gitDirectory)", "--work-tree=\(root)", "read-tree", "-u", "--reset", sha], in: top,
            failure: "--history: cannot check out \(sha) into \(root)", needs: MigrationHistory.needs,
            environment: ["GIT_INDEX_FILE": index])
    }
}
