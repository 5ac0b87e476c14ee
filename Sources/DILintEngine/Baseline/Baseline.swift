import Foundation

/// One accepted finding in a baseline file. Only `fingerprint` takes part in matching; the other
/// fields say what the entry was, for people reading the file and for the stale report.
public struct BaselineEntry: Codable, Equatable, Sendable {
    public var fingerprint: String
    public var rule: String
    /// Relative to the project root.
    public var path: String
    /// Where the finding was when the entry was written; informational.
    public var line: Int
    public var snippet: String?
    public var expression: String?
    /// The declaration the finding was in (informational; the fingerprint holds it).
    public var scope: String?
    /// 1 for an entry of a format-1 baseline, whose fingerprint hashes the line's text
    /// (`Fingerprints.legacy`); absent for structural fingerprints.
    public var scheme: Int?

    /// What makes the entry one di-lint cannot have written, or nil: a fingerprint without its
    /// `:ordinal`, a line before the first, an unknown scheme. (`merge` checks shards' stale
    /// entries with it too.)
    var problem: String? {
        if fingerprint.isEmpty || !fingerprint.utf8.contains(UInt8(ascii: ":")) {
            return "\(Excerpt.quoted(fingerprint)) is not a fingerprint"
        }
        if line < 1 { return "line \(line) is not a line number (1 or more)" }
        if let scheme, scheme != 1 { return "scheme \(scheme) is not known (1 or none)" }
        return nil
    }
}

extension BaselineEntry {
    /// As `encode(to:)` through a `JSONEncoder` writing pretty-printed sorted keys: baselines and
    /// the stale entries of reports (see `PrettyJSON`).
    func write(to w: inout PrettyJSON) {
        w.element()
        w.beginObject()
        if let expression {
            w.key("expression")
            w.string(expression)
        }
        w.key("fingerprint")
        w.string(fingerprint)
        w.key("line")
        w.int(line)
        w.key("path")
        w.string(path)
        w.key("rule")
        w.string(rule)
        if let scheme {
            w.key("scheme")
            w.int(scheme)
        }
        if let scope {
            w.key("scope")
            w.string(scope)
        }
        if let snippet {
            w.key("snippet")
            w.string(snippet)
        }
        w.endObject()
    }

    /// About the bytes `write` takes for these entries, their members at `indent` (to reserve once).
    static func writtenSize(_ entries: [BaselineEntry], indent: Int) -> Int {
        entries.reduce(0) { size, e in
            size + e.fingerprint.utf8.count + e.path.utf8.count + e.rule.utf8.count + (e.snippet?.utf8.count ?? 0)
                + (e.expression?.utf8.count ?? 0) + (e.scope?.utf8.count ?? 0) + 8 * indent + 100
        }
    }

    /// `text` (a report rendered with an empty `stale` array at `indent`) with these entries
    /// written into that array, their members at `indent + 2`; nil when the array is not found.
    static func splice(_ entries: [BaselineEntry], into text: String, indent: Int) -> String? {
        PrettyJSON.splice(
            text, key: "stale", indent: indent, capacity: writtenSize(entries, indent: indent + 2),
            write: { w in for i in entries.indices { entries[i].write(to: &w) } })
    }
}

/// A baseline: the findings a legacy codebase already has, accepted so that only new ones fail.
/// The file format is documented in docs/output-formats.md.
public struct Baseline: Equatable, Sendable {
    /// The format version this build writes; it reads this one and format 1.
    public static let formatVersion = 2
    /// The largest baseline file read (a million entries take about 250 MB).
    public static let maxFileSize = 1 << 30

    public var entries: [BaselineEntry]

    public init(entries: [BaselineEntry]) {
        // A file di-lint wrote is in order already: one pass instead of a sort.
        self.entries = Self.isSorted(entries) ? entries : entries.sorted(by: Self.inOrder)
    }

    /// Entries known to be in order.
    private init(sorted entries: [BaselineEntry]) { self.entries = entries }

    private static func inOrder(_ a: BaselineEntry, _ b: BaselineEntry) -> Bool {
        (a.path, a.line, a.fingerprint) < (b.path, b.line, b.fingerprint)
    }

    private static func isSorted(_ entries: [BaselineEntry]) -> Bool {
        zip(entries, entries.dropFirst()).allSatisfy { !inOrder($1, $0) }
    }

    /// A baseline accepting every finding (which must carry fingerprints).
    public init(findings: [Finding], root: String) {
        var relative = RelativePaths(root: root)
        self.init(
            entries: findings.map { f in
                BaselineEntry(
                    fingerprint: f.fingerprint ?? "", rule: f.rule, path: relative[f.path],
                    line: f.line, snippet: f.snippet.map(Self.clipped), expression: f.access?.expression, scope: f.scope
                )
            })
    }

    private struct File: Codable {
        var version: Int
        var tool: String?
        var toolVersion: String?
        var entries: [BaselineEntry]
    }

    /// Reads a baseline; errors name the file and what is wrong with it.
    public static func load(path: String) throws -> Baseline {
        func fail(_ problem: String) -> ConfigError { .file(path: path, problem: problem) }
        // The file is read as it streams in: its bytes are never all held beside the entries.
        var (version, entries) = try decode(path: path, fail: fail)
        guard version == formatVersion || version == 1 else {
            throw fail(
                "baseline format version \(version) is not supported (this di-lint reads versions 1 and \(formatVersion))"
            )
        }
        for i in entries.indices {
            if let problem = entries[i].problem { throw fail("entries[\(i)]: \(problem)") }
            if version == 1 { entries[i].scheme = 1 }
        }
        // sorted here, in place: the array is this function's alone (`init` would sort a copy)
        if !isSorted(entries) { entries.sort(by: inOrder) }
        return Baseline(sorted: entries)
    }

    /// The version and entries of a baseline file, read as it streams in (`BaselineScanner`).
    private static func decode(path: String, fail: (String) -> ConfigError) throws -> (
        version: Int, entries: [BaselineEntry]
    ) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw fail("no such baseline file (create one with --write-baseline)")
        }
        do {
            return try BaselineScanner.read(path: path, limit: maxFileSize)
        } catch let refused as InputFile.Refused {
            throw fail(
                "cannot read the baseline: "
                    + refused.problem.replacingOccurrences(of: "(max-file-size)", with: "for a baseline"))
        } catch let problem as BaselineScanner.Problem {
            throw fail(problem.description)
        }
    }

    /// Writes the baseline atomically (see `OutputFile`).
    public func write(to path: String) throws {
        try OutputFile.write(Data(text().utf8), to: path)
    }

    /// The file's text: what `JSONEncoder` writes (pretty-printed, keys sorted), the entries written
    /// by `PrettyJSON` (encoding a million entries through `Codable` took gigabytes).
    func text() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // strings and integers only: encoding never throws
        func encoded(_ entries: [BaselineEntry]) -> String {
            let file = File(
                version: Self.formatVersion, tool: "di-lint", toolVersion: DILintVersion.current, entries: entries)
            return String(decoding: try! encoder.encode(file), as: UTF8.self) + "\n"
        }
        let entries = entries
        guard !entries.isEmpty else { return encoded([]) }
        return PrettyJSON.splice(
            encoded([]), key: "entries", indent: 2, capacity: BaselineEntry.writtenSize(entries, indent: 4),
            write: { w in
                for i in entries.indices { entries[i].write(to: &w) }
            }) ?? encoded(entries)
    }

    /// Marks the findings the baseline accepts and records the entries in scope that matched no
    /// finding as stale. An entry is in scope when its file was linted in this run or no longer
    /// exists, so a run over part of the tree (`--changed-since`, `--shard`, a sub-directory)
    /// never calls the rest of the baseline stale.
    public func apply(to result: inout LintResult, lintedFiles: [String], root: String) {
        result.staleBaselineEntries = entries.filter(staleness(marking: &result, lintedFiles: lintedFiles, root: root))
    }

    /// `apply`, for a baseline not needed afterwards: its entries are filtered in place into the
    /// stale ones, which move into `result` (a copy of a million entries is a hundred megabytes
    /// more); the baseline is left empty.
    public mutating func applyTakingStale(to result: inout LintResult, lintedFiles: [String], root: String) {
        let stale = staleness(marking: &result, lintedFiles: lintedFiles, root: root)
        entries.removeAll { !stale($0) }
        result.staleBaselineEntries = entries
        entries = []
    }

    /// Marks the findings the baseline accepts, and returns the test of an entry being stale.
    private func staleness(marking result: inout LintResult, lintedFiles: [String], root: String) -> (BaselineEntry) ->
        Bool
    {
        var relative = RelativePaths(root: root)
        let linted = Set(lintedFiles.map { relative[$0] })
        // The findings are few and the entries may be a million: the sets are of the findings'
        // fingerprints, each entry is looked up in them once, and nothing is hashed for an entry
        // when no finding has a fingerprint of its kind.
        let legacy = hasLegacyEntries ? Fingerprints.legacy(result.findings, root: root) : []
        let found = Set(result.findings.compactMap(\.fingerprint)), foundLegacy = Set(legacy)
        var accepted = Set<String>(), acceptedLegacy = Set<String>()
        for e in entries {
            if e.scheme == nil {
                if !found.isEmpty, found.contains(e.fingerprint) { accepted.insert(e.fingerprint) }
            } else if e.scheme == 1, !foundLegacy.isEmpty, foundLegacy.contains(e.fingerprint) {
                acceptedLegacy.insert(e.fingerprint)
            }
        }
        var matched = Set<String>(), matchedLegacy = Set<String>()
        for i in result.findings.indices {
            if let fp = result.findings[i].fingerprint, accepted.contains(fp) {
                result.findings[i].baselined = true
                matched.insert(fp)
            } else if !legacy.isEmpty, acceptedLegacy.contains(legacy[i]) {
                result.findings[i].baselined = true
                matchedLegacy.insert(legacy[i])
            }
        }
        matched.formUnion(
            Self.matchScopeGained(&result.findings, entries: entries, matched: matched, relative: &relative))
        let rootURL = URL(fileURLWithPath: root)
        // Entries come grouped by path (the file's order): a path is looked up once per run of it.
        var exists: [String: Bool] = [:]
        var lastPath: String?, lastInScope = false
        return { e in
            let hit = e.scheme == 1 ? matchedLegacy : matched
            guard hit.isEmpty || !hit.contains(e.fingerprint) else { return false }
            if let lastPath, lastPath == e.path { return lastInScope }
            lastPath = e.path
            if linted.contains(e.path) {
                lastInScope = true
            } else if let known = exists[e.path] {
                lastInScope = !known
            } else {
                let found = FileManager.default.fileExists(atPath: rootURL.appendingPathComponent(e.path).path)
                exists[e.path] = found
                lastInScope = !found
            }
            return lastInScope
        }
    }

    /// Findings that gained a declaration since their entry was written: the entry has no scope
    /// (the parse had lost the method or function, which the front end now finds in the tokens),
    /// the finding has one, and rule, path and what was found (the access's expression, else
    /// the line) are the same. Each such entry accepts one such finding, in order; returns the
    /// entries' fingerprints. Only findings no fingerprint accepted are looked at, so a run
    /// without them costs one pass over nothing.
    private static func matchScopeGained(
        _ findings: inout [Finding], entries: [BaselineEntry], matched: Set<String>,
        relative: inout RelativePaths
    ) -> Set<String> {
        func key(_ rule: String, _ path: String, _ what: String?) -> String { rule + "\0" + path + "\0" + (what ?? "") }
        var waiting: [String: [Int]] = [:]
        for i in findings.indices where !findings[i].baselined && findings[i].scope != nil {
            let f = findings[i]
            waiting[key(f.rule, relative[f.path], f.access?.expression ?? f.snippet.map(Self.clipped)), default: []]
                .append(i)
        }
        guard !waiting.isEmpty else { return [] }
        var taken = Set<String>()
        for e in entries where e.scheme == nil && e.scope == nil && !matched.contains(e.fingerprint) {
            let k = key(e.rule, e.path, e.expression ?? e.snippet)
            guard var list = waiting[k], !list.isEmpty else { continue }
            findings[list.removeFirst()].baselined = true
            waiting[k] = list
            taken.insert(e.fingerprint)
        }
        return taken
    }

    /// Whether some entries have format-1 fingerprints (`--update-baseline` rewrites them).
    public var hasLegacyEntries: Bool { entries.contains { $0.scheme == 1 } }

    /// This baseline for `--update-baseline`: without its stale entries, and with each format-1
    /// entry that a finding of `result` matched rewritten with the finding's structural
    /// fingerprint (format-1 entries of files outside the run stay as they are). Never adds.
    public func updated(with result: LintResult, root: String) -> Baseline {
        var kept = removing(result.staleBaselineEntries).entries
        guard hasLegacyEntries else { return Baseline(entries: kept) }
        let legacy = Fingerprints.legacy(result.findings, root: root)
        var rewritten: [String: BaselineEntry] = [:]
        let current = Baseline(findings: result.findings, root: root).entries
        let byFingerprint = Dictionary(current.map { ($0.fingerprint, $0) }, uniquingKeysWith: { a, _ in a })
        for (finding, old) in zip(result.findings, legacy) where finding.baselined {
            if let fp = finding.fingerprint, let entry = byFingerprint[fp] { rewritten[old] = entry }
        }
        kept = kept.map { e in e.scheme == 1 ? rewritten[e.fingerprint] ?? e : e }
        var seen = Set<String>()
        return Baseline(entries: kept.filter { seen.insert("\($0.scheme ?? 0):\($0.fingerprint)").inserted })
    }

    /// This baseline without the given entries.
    public func removing(_ stale: [BaselineEntry]) -> Baseline {
        let drop = Set(stale.map { "\($0.scheme ?? 0):\($0.fingerprint)" })
        return Baseline(entries: entries.filter { !drop.contains("\($0.scheme ?? 0):\($0.fingerprint)") })
    }

    /// A snippet as kept in a baseline: a long line is cut to its first 200 characters.
    static func clipped(_ snippet: String) -> String {
        snippet.count > 200 ? String(snippet.prefix(200)) + "…" : snippet
    }

    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case let .keyNotFound(key, context):
            let place = at(context.codingPath)
            return "missing '\(key.stringValue)'" + (place.isEmpty ? "" : " in \(place)")
        case let .typeMismatch(type, context):
            let name = "\(type)"
            let expected =
                type == String.self
                ? "a string"
                : type == Int.self || type == Double.self
                    ? "a number"
                    : type == Bool.self
                        ? "true or false"
                        : name.hasPrefix("Dictionary")
                            ? "an object" : name.hasPrefix("Array") ? "an array" : "a \(name)"
            return "\(at(context.codingPath)) should be \(expected)"
        case let .valueNotFound(_, context):
            return "\(at(context.codingPath)) is null"
        case let .dataCorrupted(context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension LintResult {
    /// Error-severity findings no baseline accepts: these, and only these, fail the run.
    public var newErrorCount: Int {
        var n = 0
        for i in findings.indices where findings[i].severity == .error && !findings[i].baselined { n += 1 }
        return n
    }

    public var baselinedCount: Int {
        var n = 0
        for i in findings.indices where findings[i].baselined { n += 1 }
        return n
    }
}
