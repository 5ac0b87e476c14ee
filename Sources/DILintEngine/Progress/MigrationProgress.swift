import Foundation

/// How far a set of container accesses has moved onto the injected bridge.
public struct MigrationCounts: Codable, Equatable, Sendable {
    public var direct = 0
    public var fallback = 0
    public var injected = 0
    /// Accesses inside the composition root, where the container is meant to be touched: shown,
    /// not part of the percentage.
    public var compositionRoot = 0

    public init(direct: Int = 0, fallback: Int = 0, injected: Int = 0, compositionRoot: Int = 0) {
        self.direct = direct
        self.fallback = fallback
        self.injected = injected
        self.compositionRoot = compositionRoot
    }

    /// The accesses the migration has to move: direct, fallback and injected.
    public var accesses: Int { direct + fallback + injected }

    /// `injected / (direct + fallback + injected)` as a percentage, one decimal; nil with no access.
    /// A fallback still reaches the container when no bridge is injected, so it counts as not
    /// migrated: a file whose accesses are all fallbacks is 0% migrated (its status is `bridged`).
    public var percentMigrated: Double? {
        accesses == 0 ? nil : (Double(injected) * 1000 / Double(accesses)).rounded() / 10
    }

    /// Where this stands in the migration phases.
    public var status: MigrationStatus {
        if accesses == 0 { return .nothingToMigrate }
        if direct == 0 && fallback == 0 { return .migrated }
        if direct == 0 { return .bridged }
        return fallback + injected == 0 ? .notStarted : .inProgress
    }

    mutating func add(_ kind: AccessKind) {
        switch kind {
        case .direct: direct += 1
        case .fallback: fallback += 1
        case .injected: injected += 1
        case .compositionRoot: compositionRoot += 1
        }
    }

    static func + (a: MigrationCounts, b: MigrationCounts) -> MigrationCounts {
        MigrationCounts(
            direct: a.direct + b.direct, fallback: a.fallback + b.fallback, injected: a.injected + b.injected,
            compositionRoot: a.compositionRoot + b.compositionRoot)
    }
}

/// A file's or service's phase, from its counts.
public enum MigrationStatus: String, Codable, Sendable {
    /// Only direct accesses.
    case notStarted = "not started"
    /// Direct accesses next to fallbacks or injected ones.
    case inProgress = "in progress"
    /// No direct access left; some fallbacks remain (the bridge is used when injected).
    case bridged
    /// Only injected accesses.
    case migrated
    /// Composition-root accesses only (or none).
    case nothingToMigrate = "nothing to migrate"
}

/// `di-lint report`: migration progress per file and per service, from every access a run found
/// (`LintResult.accesses`, whatever its kind, suppressed or not, whether a rule reports it or not).
public struct MigrationProgress: Equatable, Sendable {
    public struct Row: Codable, Equatable, Sendable {
        /// File path, or service name.
        public var name: String
        public var counts: MigrationCounts
    }

    /// Files with at least one access, by path.
    public var files: [Row]
    /// Services reached, by name; accesses that reach no service are under `(container)`.
    public var services: [Row]
    public var total: MigrationCounts
    /// Files linted: their accesses are counted.
    public var filesLinted: Int
    /// Files that could not be linted (`parse-failure`): whatever accesses they hold are not counted.
    public var filesNotLinted: Int
    /// Those files with why, where the run reported them (none when `parse-failure` is off).
    public var notLinted: [NotLinted]

    public struct NotLinted: Codable, Equatable, Sendable {
        public var path: String
        public var reason: String
    }

    public static let noService = "(container)"

    /// The progress of a run: its accesses, and the files it linted and could not.
    public init(result: LintResult) {
        var seen = Set<String>()
        let failures = result.findings.filter { $0.rule == ParseFailureRule.id && seen.insert($0.path).inserted }
        self.init(
            accesses: result.accesses, filesLinted: result.filesChecked - result.filesFailed,
            filesNotLinted: result.filesFailed,
            notLinted: failures.map { NotLinted(path: $0.path, reason: $0.message) })
    }

    public init(accesses: [AccessRecord], filesLinted: Int, filesNotLinted: Int = 0, notLinted: [NotLinted] = []) {
        var byFile: [String: MigrationCounts] = [:], byService: [String: MigrationCounts] = [:]
        var total = MigrationCounts()
        for record in accesses {
            let kind = record.access.kind
            byFile[record.path, default: .init()].add(kind)
            byService[record.access.service ?? Self.noService, default: .init()].add(kind)
            total.add(kind)
        }
        files = byFile.map { Row(name: $0, counts: $1) }.sorted { $0.name < $1.name }
        services = byService.map { Row(name: $0, counts: $1) }.sorted { $0.name < $1.name }
        self.total = total
        self.filesLinted = filesLinted
        self.filesNotLinted = filesNotLinted
        self.notLinted = notLinted
    }

    // MARK: Rendering

    /// Two Markdown tables (files, services) with a total row each.
    public func markdown() -> String {
        func percent(_ c: MigrationCounts) -> String { c.percentMigrated.map { String(format: "%.1f%%", $0) } ?? "–" }
        func cell(_ s: String) -> String {
            s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\r")
        }
        func table(_ title: String, _ rows: [Row]) -> String {
            var out =
                "| \(title) | Direct | Fallback | Injected | Migrated | Status | Composition root |\n|---|---:|---:|---:|---:|---|---:|\n"
            for r in rows {
                let c = r.counts
                out +=
                    "| \(cell(r.name)) | \(c.direct) | \(c.fallback) | \(c.injected) | \(percent(c)) | \(c.status.rawValue) | \(c.compositionRoot) |\n"
            }
            let t = total
            out +=
                "| **Total** | **\(t.direct)** | **\(t.fallback)** | **\(t.injected)** | **\(percent(t))** | \(t.status.rawValue) | **\(t.compositionRoot)** |\n"
            return out
        }
        var out = "# Container migration progress\n\n"
        out +=
            "\(total.accesses) container access\(total.accesses == 1 ? "" : "es") in \(files.count) of \(filesLinted) linted file\(filesLinted == 1 ? "" : "s"); "
        out +=
            "\(percent(total)) migrated (injected / (direct + fallback + injected); composition-root accesses are allowed and not counted).\n\n"
        if filesNotLinted > 0 {
            out +=
                "**\(filesNotLinted) file\(filesNotLinted == 1 ? "" : "s") could not be linted**: \(filesNotLinted == 1 ? "its" : "their") accesses are not counted.\n\n"
            if !notLinted.isEmpty {
                out += "| Not linted | Why |\n|---|---|\n"
                for f in notLinted { out += "| \(cell(f.path)) | \(cell(f.reason)) |\n" }
                out += "\n"
            }
        }
        out += "## By file\n\n" + table("File", files)
        out += "\n## By service\n\n" + table("Service", services)
        return out
    }

    struct Document: Codable {
        struct Row: Codable {
            var name: String
            var direct: Int, fallback: Int, injected: Int, compositionRoot: Int, accesses: Int
            var percentMigrated: Double?
            var status: String

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(name, forKey: .name)
                try c.encode(direct, forKey: .direct)
                try c.encode(fallback, forKey: .fallback)
                try c.encode(injected, forKey: .injected)
                try c.encode(compositionRoot, forKey: .compositionRoot)
                try c.encode(accesses, forKey: .accesses)
                try c.encode(percentMigrated, forKey: .percentMigrated) // null when there is no access
                try c.encode(status, forKey: .status)
            }
        }
        var tool = JSONReporter.Document.Tool()
        var definition = "percentMigrated = 100 * injected / (direct + fallback + injected)"
        var filesLinted: Int
        var filesNotLinted: Int
        var notLinted: [NotLinted]
        var total: Row
        var files: [Row]
        var services: [Row]
    }

    /// The same figures as a JSON object (see docs/output-formats.md).
    public func json() -> String {
        func row(_ name: String, _ c: MigrationCounts) -> Document.Row {
            .init(
                name: name, direct: c.direct, fallback: c.fallback, injected: c.injected,
                compositionRoot: c.compositionRoot,
                accesses: c.accesses,
                percentMigrated: c.percentMigrated, status: c.status.rawValue)
        }
        let document = Document(
            filesLinted: filesLinted, filesNotLinted: filesNotLinted, notLinted: notLinted, total: row("total", total),
            files: files.map { row($0.name, $0.counts) }, services: services.map { row($0.name, $0.counts) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(document), as: UTF8.self) + "\n"
    }
}
