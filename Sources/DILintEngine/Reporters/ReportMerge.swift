import Foundation

/// `di-lint merge`: combines the JSON or SARIF outputs of sharded runs into the output one
/// unsharded run would have given. Findings are deduplicated by fingerprint (by rule and place
/// when a finding has none), file counts are added up, `seconds` is the longest shard's.
///
/// Each input is checked before it is used, and refused naming the file and the field: JSON
/// syntax and numbers first (`JSONScanner`: integers whole and in range, no number past a
/// double's), then what di-lint writes — lines and columns from 1, counts from 0 that add up,
/// durations finite, known levels and states — so the merged output is what di-lint would have
/// written (its SARIF valid against the schema). All inputs must come from one di-lint version:
/// fingerprints and the rule catalog are a version's, and shards of two versions would count a
/// finding twice or point at the wrong rule. The merged output carries that version.
public enum ReportMerge {
    public struct Merged {
        /// The merged document, rendered.
        public var text: String
        /// Error-severity findings no baseline accepts.
        public var newErrors: Int
        public var findings: Int
        /// Inputs left out as repeats of an earlier one (a retried shard).
        public var repeats: [String] = []
    }

    /// Reads and merges the files, which must all be di-lint JSON or all SARIF.
    public static func merge(files: [String]) throws -> Merged {
        guard !files.isEmpty else { throw ConfigError.invalid("merge: name at least one JSON or SARIF file") }
        var json: [JSONReporter.Document] = [], sarif: [SARIFLog] = []
        var seen = Set<String>()
        var repeats: [String] = []
        var version: (value: String, file: String)?
        for path in files {
            func fail(_ problem: String) -> ConfigError { .file(path: path, problem: problem) }
            let bytes: [UInt8]
            do { bytes = try InputFile.read(path, limit: Baseline.maxFileSize) } catch let refused as InputFile.Refused
            {
                throw fail("cannot read the file: \(refused.problem)")
            }
            let keys: Set<String>?
            do {
                keys = try JSONScanner.check(
                    bytes, integers: integerKeys, subject: "di-lint output",
                    remedy: "expected the output of di-lint --format json or --format sarif")
            } catch let problem as JSONScanner.Problem {
                throw fail(problem.description)
            }
            guard let keys else {
                throw fail(
                    "not di-lint output: expected a JSON object, the output of di-lint --format json or --format sarif")
            }
            let tool: String
            do {
                if keys.contains("runs") {
                    let log = try decode(SARIFLog.self, bytes)
                    if let problem = check(log) { throw fail(problem) }
                    tool = log.runs.first?.tool.driver.version ?? DILintVersion.current
                    sarif.append(log)
                } else if keys.contains("findings") {
                    let document = try decode(JSONReporter.Document.self, bytes)
                    if let problem = check(document) { throw fail(problem) }
                    tool = document.tool.version
                    // A retried shard repeats an output but for its time; counting it would count its files twice.
                    if seen.insert(repeatKey(document)).inserted { json.append(document) } else { repeats.append(path) }
                } else {
                    throw fail("neither di-lint JSON (no 'findings') nor SARIF (no 'runs')")
                }
            } catch let error as DecodingError {
                throw fail("not di-lint output: \(Baseline.describe(error))")
            }
            if !json.isEmpty && !sarif.isEmpty { throw fail("JSON and SARIF outputs cannot be merged together") }
            if let version, version.value != tool {
                throw fail(
                    "it is the output of di-lint \(Excerpt.quoted(tool)), \(version.file) of di-lint \(Excerpt.quoted(version.value)): merge the outputs of one di-lint version (fingerprints and rules differ between versions)"
                )
            }
            version = version ?? (tool, path)
        }
        var merged = sarif.isEmpty ? try mergeJSON(json) : try mergeSARIF(sarif)
        merged.repeats = repeats
        return merged
    }

    /// Keys whose numbers di-lint writes as integers (the others are finite doubles: `seconds`).
    static let integerKeys: Set<String> = [
        "line", "column", "files", "parsed", "notLinted", "cached", "findings", "errors", "warnings", "baselined",
        "newErrors",
        "stale", "handlerFunctionsReadPartly", "startLine", "startColumn", "ruleIndex", "scheme", "offset", "length",
        "byteOffset", "byteLength",
    ]

    /// A checked input decoded; `JSONScanner` has refused what `JSONDecoder` would call "not valid JSON".
    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { raw in
            try JSONDecoder().decode(
                type,
                from: Data(
                    bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count,
                    deallocator: .none))
        }
    }

    /// The longest duration a summary may give: a century, in seconds.
    static let maxSeconds = 3.2e9

    /// What tells a shard's output from a repeat of it: everything but the time taken. Two
    /// different clean shards with the same counts look alike, so an output with no finding is
    /// never taken for a repeat.
    private static func repeatKey(_ document: JSONReporter.Document) -> String {
        guard !document.findings.isEmpty else { return UUID().uuidString }
        var copy = document
        copy.summary.seconds = 0
        return SHA256.hex(copy.text())
    }

    /// What is inconsistent in a JSON output: an unknown severity, a negative count, a summary
    /// that does not add up to the findings listed (an edited or truncated output).
    static func check(_ document: JSONReporter.Document) -> String? {
        if document.tool.name != "di-lint" { return "tool.name is \(Excerpt.quoted(document.tool.name)), not di-lint" }
        for (i, item) in document.findings.enumerated() {
            if Severity(rawValue: item.severity) == nil {
                return "findings[\(i)].severity \(Excerpt.quoted(item.severity)) is not note, warning or error"
            }
            if item.line < 1 { return "findings[\(i)].line is \(item.line), not a line number (1 or more)" }
            if item.column < 1 { return "findings[\(i)].column is \(item.column), not a column number (1 or more)" }
            for (j, edit) in (item.fix?.edits ?? []).enumerated() where edit.offset < 0 || edit.length < 0 {
                return
                    "findings[\(i)].fix.edits[\(j)]: offset \(edit.offset) and length \(edit.length) are not a byte range (0 or more)"
            }
        }
        if let problem = check(stale: document.stale, at: "stale") { return problem }
        let s = document.summary
        if let (name, value) = [
            ("files", s.files), ("parsed", s.parsed), ("notLinted", s.notLinted), ("cached", s.cached),
            ("stale", s.stale),
            ("findings", s.findings), ("errors", s.errors), ("warnings", s.warnings), ("baselined", s.baselined),
            ("newErrors", s.newErrors), ("handlerFunctionsReadPartly", s.handlerFunctionsReadPartly ?? 0),
        ]
        .first(where: { $0.1 < 0 }) {
            return "summary.\(name) is \(value), not a count"
        }
        guard s.seconds.isFinite, s.seconds >= 0, s.seconds <= maxSeconds else {
            return "summary.seconds is \(s.seconds), not a run's duration (0 to \(Int(maxSeconds)) seconds)"
        }
        let recomputed = JSONReporter.Document.summary(
            findings: document.findings, stale: document.stale.count, files: s.files, parsed: s.parsed,
            notLinted: s.notLinted, cached: s.cached, seconds: s.seconds)
        if (
            recomputed.findings, recomputed.errors, recomputed.warnings, recomputed.baselined, recomputed.newErrors,
            recomputed.stale
        )
            != (s.findings, s.errors, s.warnings, s.baselined, s.newErrors, s.stale)
        {
            return
                "the summary's counts (\(s.findings) findings, \(s.errors) errors, \(s.newErrors) new) do not match the \(document.findings.count) findings listed; the output was edited or cut"
        }
        let (parsedOrCached, overflow) = s.parsed.addingReportingOverflow(s.cached)
        if overflow || parsedOrCached > s.files || s.notLinted > s.files {
            return "summary: \(s.parsed) parsed and \(s.cached) cached of \(s.files) files do not add up"
        }
        return nil
    }

    /// What di-lint cannot have written in a SARIF output, where the merged log would break the
    /// SARIF 2.1.0 schema or di-lint's own facts: another tool or version of SARIF, an undefined
    /// level, state or kind, a line or column before the first, a negative byte range or count.
    static func check(_ log: SARIFLog) -> String? {
        if log.version != "2.1.0" { return "version is \(Excerpt.quoted(log.version)), not SARIF 2.1.0" }
        let levels = ["none", "note", "warning", "error"]
        guard !log.runs.isEmpty else { return "runs is empty: no run to merge" }
        let version = log.runs[0].tool.driver.version
        for (r, run) in log.runs.enumerated() {
            let at = "runs[\(r)]"
            let driver = run.tool.driver
            if driver.name != "di-lint" {
                return "\(at).tool.driver.name is \(Excerpt.quoted(driver.name)), not di-lint"
            }
            if driver.version != version {
                return
                    "\(at).tool.driver.version \(Excerpt.quoted(driver.version)) is not runs[0]'s \(Excerpt.quoted(version))"
            }
            var ids = Set<String>()
            for (i, rule) in driver.rules.enumerated() {
                if !ids.insert(rule.id).inserted {
                    return "\(at).tool.driver.rules[\(i)].id \(Excerpt.quoted(rule.id)) is given twice"
                }
                if !levels.contains(rule.defaultConfiguration.level) {
                    return
                        "\(at).tool.driver.rules[\(i)].defaultConfiguration.level \(Excerpt.quoted(rule.defaultConfiguration.level)) is not none, note, warning or error"
                }
                if Set(rule.properties.tags).count != rule.properties.tags.count {
                    return "\(at).tool.driver.rules[\(i)].properties.tags repeat a tag"
                }
            }
            if let kind = run.columnKind, !["utf16CodeUnits", "unicodeCodePoints"].contains(kind) {
                return "\(at).columnKind \(Excerpt.quoted(kind)) is not utf16CodeUnits or unicodeCodePoints"
            }
            for (i, result) in run.results.enumerated() {
                let at = "\(at).results[\(i)]"
                if !levels.contains(result.level) {
                    return "\(at).level \(Excerpt.quoted(result.level)) is not none, note, warning or error"
                }
                for (l, location) in result.locations.enumerated() {
                    let region = location.physicalLocation.region
                    if region.startLine < 1 {
                        return
                            "\(at).locations[\(l)].physicalLocation.region.startLine is \(region.startLine), not a line number (1 or more)"
                    }
                    if region.startColumn < 1 {
                        return
                            "\(at).locations[\(l)].physicalLocation.region.startColumn is \(region.startColumn), not a column number (1 or more)"
                    }
                }
                if let state = result.baselineState, !["new", "unchanged", "updated", "absent"].contains(state) {
                    return "\(at).baselineState \(Excerpt.quoted(state)) is not new, unchanged, updated or absent"
                }
                let suppressions = result.suppressions ?? []
                for (k, suppression) in suppressions.enumerated() {
                    if !["inSource", "external"].contains(suppression.kind) {
                        return
                            "\(at).suppressions[\(k)].kind \(Excerpt.quoted(suppression.kind)) is not inSource or external"
                    }
                    if !["accepted", "underReview", "rejected"].contains(suppression.status) {
                        return
                            "\(at).suppressions[\(k)].status \(Excerpt.quoted(suppression.status)) is not accepted, underReview or rejected"
                    }
                    if suppressions[..<k].contains(suppression) {
                        return "\(at).suppressions[\(k)] repeats an earlier one"
                    }
                }
                let fixes = result.fixes ?? []
                for (f, fix) in fixes.enumerated() {
                    if fixes[..<f].contains(fix) { return "\(at).fixes[\(f)] repeats an earlier one" }
                    if fix.artifactChanges.isEmpty { return "\(at).fixes[\(f)].artifactChanges is empty" }
                    for (c, change) in fix.artifactChanges.enumerated() {
                        if change.replacements.isEmpty {
                            return "\(at).fixes[\(f)].artifactChanges[\(c)].replacements is empty"
                        }
                        for (k, replacement) in change.replacements.enumerated()
                        where replacement.deletedRegion.byteOffset < 0 || replacement.deletedRegion.byteLength < 0 {
                            return
                                "\(at).fixes[\(f)].artifactChanges[\(c)].replacements[\(k)].deletedRegion: byteOffset \(replacement.deletedRegion.byteOffset) and byteLength \(replacement.deletedRegion.byteLength) are not a byte range (0 or more)"
                        }
                    }
                }
            }
            if let s = run.properties?.diLint {
                if let (name, value) = [
                    ("files", s.files), ("parsed", s.parsed), ("notLinted", s.notLinted), ("cached", s.cached),
                    ("handlerFunctionsReadPartly", s.handlerFunctionsReadPartly ?? 0),
                ].first(where: { $0.1 < 0 }) {
                    return "\(at).properties.diLint.\(name) is \(value), not a count"
                }
                let (parsedOrCached, overflow) = s.parsed.addingReportingOverflow(s.cached)
                if overflow || parsedOrCached > s.files || s.notLinted > s.files {
                    return
                        "\(at).properties.diLint: \(s.parsed) parsed and \(s.cached) cached of \(s.files) files do not add up"
                }
                if let problem = check(stale: s.stale, at: "\(at).properties.diLint.stale") { return problem }
            }
        }
        return nil
    }

    /// What is wrong with the first stale baseline entry di-lint cannot have written.
    private static func check(stale: [BaselineEntry], at place: String) -> String? {
        for (i, entry) in stale.enumerated() {
            if let problem = entry.problem { return "\(place)[\(i)]: \(problem)" }
        }
        return nil
    }

    /// The sum of one count over the inputs; an error past `Int.max`.
    private static func sum(_ values: [Int], _ name: String) throws -> Int {
        try values.reduce(0) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else {
                throw ConfigError.invalid("merge: the inputs' \(name) counts add up past \(Int.max)")
            }
            return sum
        }
    }

    static func mergeJSON(_ documents: [JSONReporter.Document]) throws -> Merged {
        var seen = Set<String>()
        var items: [JSONReporter.Document.Item] = []
        for item in documents.flatMap(\.findings) {
            let key =
                item.fingerprint.map { "\(item.rule)\0\(item.path)\0\($0)" }
                ?? "\(item.rule)\0\(item.path)\0\(item.line)\0\(item.column)\0\(item.message)"
            if seen.insert(key).inserted { items.append(item) }
        }
        items.sort { ($0.path, $0.line, $0.column, $0.rule) < ($1.path, $1.line, $1.column, $1.rule) }
        let stale = uniqueStale(documents.flatMap(\.stale))
        let s = documents.map(\.summary)
        let summary = JSONReporter.Document.summary(
            findings: items, stale: stale.count, files: try sum(s.map(\.files), "summary.files"),
            parsed: try sum(s.map(\.parsed), "summary.parsed"),
            notLinted: try sum(s.map(\.notLinted), "summary.notLinted"),
            cached: try sum(s.map(\.cached), "summary.cached"), seconds: s.map(\.seconds).max() ?? 0,
            // each shard walks the project's call graph (the other shards' facts from the cache, when there): the largest count, not the sum
            handlerFunctionsReadPartly: s.compactMap(\.handlerFunctionsReadPartly).max())
        var merged = JSONReporter.Document(summary: summary, findings: items, stale: stale)
        merged.tool = documents.first?.tool ?? merged.tool // the inputs' version (one, checked)
        return Merged(text: merged.text(), newErrors: summary.newErrors, findings: items.count)
    }

    static func mergeSARIF(_ logs: [SARIFLog]) throws -> Merged {
        let runs = logs.flatMap(\.runs)
        guard var run = runs.first else { throw ConfigError.invalid("merge: the SARIF files hold no run") }
        var seen = Set<String>()
        var results: [SARIFLog.Result] = []
        for r in runs.flatMap(\.results) {
            let location = r.locations.first?.physicalLocation
            let uri = location?.artifactLocation.uri ?? ""
            let key =
                r.partialFingerprints?[Fingerprints.scheme].map { "\(r.ruleId)\0\(uri)\0\($0)" }
                ?? "\(r.ruleId)\0\(uri)\0\(location?.region.startLine ?? 0)\0\(location?.region.startColumn ?? 0)\0\(r.message.text)"
            if seen.insert(key).inserted { results.append(r) }
        }
        func sortKey(_ r: SARIFLog.Result) -> (String, Int, Int, String) {
            let l = r.locations.first?.physicalLocation
            return (l?.artifactLocation.uri ?? "", l?.region.startLine ?? 0, l?.region.startColumn ?? 0, r.ruleId)
        }
        results.sort { sortKey($0) < sortKey($1) }
        // Rule indices point into the driver's rule list, which is the same catalog in every shard
        // of one di-lint version; recompute them anyway from the merged run's list.
        let index = Dictionary(run.tool.driver.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for i in results.indices { results[i].ruleIndex = index[results[i].ruleId] }
        run.results = results
        let summaries = runs.compactMap { $0.properties?.diLint }
        run.properties = .init(
            diLint: .init(
                files: try sum(summaries.map(\.files), "diLint.files"),
                parsed: try sum(summaries.map(\.parsed), "diLint.parsed"),
                notLinted: try sum(summaries.map(\.notLinted), "diLint.notLinted"),
                cached: try sum(summaries.map(\.cached), "diLint.cached"),
                stale: uniqueStale(summaries.flatMap(\.stale)),
                handlerFunctionsReadPartly: summaries.compactMap(\.handlerFunctionsReadPartly).max()))
        run.invocations = [
            .init(executionSuccessful: runs.allSatisfy { $0.invocations?.allSatisfy(\.executionSuccessful) ?? true })
        ]
        let newErrors = results.filter { $0.level == "error" && $0.baselineState != "unchanged" }.count
        return Merged(text: SARIFLog(runs: [run]).text(), newErrors: newErrors, findings: results.count)
    }

    private static func uniqueStale(_ entries: [BaselineEntry]) -> [BaselineEntry] {
        var seen = Set<String>()
        return entries.filter { seen.insert($0.fingerprint).inserted }
            .sorted { ($0.path, $0.line, $0.fingerprint) < ($1.path, $1.line, $1.fingerprint) }
    }
}
