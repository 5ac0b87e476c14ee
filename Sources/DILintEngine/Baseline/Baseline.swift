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
}

/// A baseline: the findings a legacy codebase already has, accepted so that only new ones fail.
/// The file format is documented in docs/output-formats.md.
public struct Baseline: Equatable, Sendable {
    /// The format version this build reads and writes.
    public static let formatVersion = 1

    public var entries: [BaselineEntry]

    public init(entries: [BaselineEntry]) {
        self.entries = entries.sorted { ($0.path, $0.line, $0.fingerprint) < ($1.path, $1.line, $1.fingerprint) }
    }

    /// A baseline accepting every finding (which must carry fingerprints).
    public init(findings: [Finding], root: String) {
        var relative = RelativePaths(root: root)
        self.init(entries: findings.map { f in
            BaselineEntry(fingerprint: f.fingerprint ?? "", rule: f.rule, path: relative[f.path],
                          line: f.line, snippet: f.snippet, expression: f.access?.expression)
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
        guard let data = FileManager.default.contents(atPath: path) else {
            throw fail(FileManager.default.fileExists(atPath: path) ? "cannot read the baseline" : "no such baseline file (create one with --write-baseline)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw fail("not valid JSON (truncated or corrupt); restore it from version control or write a new one with --write-baseline")
        }
        guard object is [String: Any] else { throw fail("not a di-lint baseline: expected a JSON object with 'version' and 'entries'") }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw fail("not a valid baseline: \(Self.describe(error))")
        }
        guard file.version == formatVersion else {
            throw fail("baseline format version \(file.version) is not supported (this di-lint reads version \(formatVersion))")
        }
        for (i, e) in file.entries.enumerated() where e.fingerprint.isEmpty || !e.fingerprint.contains(":") {
            throw fail("entries[\(i)]: '\(e.fingerprint)' is not a fingerprint")
        }
        return Baseline(entries: file.entries)
    }

    /// Writes the baseline atomically (see `OutputFile`).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(File(version: Self.formatVersion, tool: "di-lint", toolVersion: DILintVersion.current, entries: entries))
        try OutputFile.write(data + Data("\n".utf8), to: path)
    }

    /// Marks the findings the baseline accepts and records the entries in scope that matched no
    /// finding as stale. An entry is in scope when its file was linted in this run or no longer
    /// exists, so a run over part of the tree (`--changed-since`, `--shard`, a sub-directory)
    /// never calls the rest of the baseline stale.
    public func apply(to result: inout LintResult, lintedFiles: [String], root: String) {
        var relative = RelativePaths(root: root)
        let linted = Set(lintedFiles.map { relative[$0] })
        var matched = Set<String>()
        let accepted = Set(entries.map(\.fingerprint))
        for i in result.findings.indices {
            guard let fp = result.findings[i].fingerprint, accepted.contains(fp) else { continue }
            result.findings[i].baselined = true
            matched.insert(fp)
        }
        let rootURL = URL(fileURLWithPath: root)
        result.staleBaselineEntries = entries.filter { e in
            !matched.contains(e.fingerprint)
                && (linted.contains(e.path) || !FileManager.default.fileExists(atPath: rootURL.appendingPathComponent(e.path).path))
        }
    }

    /// This baseline without the given entries (`--update-baseline`).
    public func removing(_ stale: [BaselineEntry]) -> Baseline {
        let drop = Set(stale.map(\.fingerprint))
        return Baseline(entries: entries.filter { !drop.contains($0.fingerprint) })
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
            return "\(at(context.codingPath)) should be \(type == String.self ? "a string" : type == Int.self ? "a number" : "a \(type)")"
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
    public var newErrorCount: Int { findings.filter { $0.severity == .error && !$0.baselined }.count }
    public var baselinedCount: Int { findings.filter(\.baselined).count }
}
