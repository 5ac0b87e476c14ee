import Foundation

/// `di-lint merge`: combines the JSON or SARIF outputs of sharded runs into the output one
/// unsharded run would have given. Findings are deduplicated by fingerprint (by rule and place
/// when a finding has none), file counts are added up, `seconds` is the longest shard's.
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
        for path in files {
            func fail(_ problem: String) -> ConfigError { .file(path: path, problem: problem) }
            let data: Data
            do { data = Data(try InputFile.read(path, limit: Baseline.maxFileSize)) } catch let refused as InputFile.Refused {
                throw fail("cannot read the file: \(refused.problem)")
            }

            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw fail("not JSON: expected the output of di-lint --format json or --format sarif")
            }
            do {
                if object["runs"] != nil {
                    let log = try JSONDecoder().decode(SARIFLog.self, from: data)
                    if let problem = check(log) { throw fail(problem) }
                    sarif.append(log)
                } else if object["findings"] != nil {
                    let document = try JSONDecoder().decode(JSONReporter.Document.self, from: data)
                    if let problem = check(document) { throw fail(problem) }
                    // A retried shard repeats an output but for its time; counting it would count its files twice.
                    if seen.insert(repeatKey(document)).inserted { json.append(document) } else { repeats.append(path) }
                } else {
                    throw fail("neither di-lint JSON (no 'findings') nor SARIF (no 'runs')")
                }
            } catch let error as DecodingError {
                throw fail("not di-lint output: \(Baseline.describe(error))")
            }
            if !json.isEmpty && !sarif.isEmpty { throw fail("JSON and SARIF outputs cannot be merged together") }
        }
        var merged = sarif.isEmpty ? mergeJSON(json) : try mergeSARIF(sarif)
        merged.repeats = repeats
        return merged
    }

    /// What tells a shard's output from a repeat of it: everything but the time taken. Two
    /// different clean shards with the same counts look alike, so an output with no finding is
    /// never taken for a repeat.
    private static func repeatKey(_ document: JSONReporter.Document) -> String {
        guard !document.findings.isEmpty else { return UUID().uuidString }
        var copy = document
        copy.summary.seconds = 0
        return SHA256.hex(copy.rendered())
    }

    /// What is inconsistent in a JSON output: an unknown severity, a negative count, a summary
    /// that does not add up to the findings listed (an edited or truncated output).
    static func check(_ document: JSONReporter.Document) -> String? {
        if let (i, item) = document.findings.enumerated().first(where: { Severity(rawValue: $0.element.severity) == nil }) {
            return "findings[\(i)].severity '\(item.severity)' is not note, warning or error"
        }
        let s = document.summary
        if let (name, value) = [("files", s.files), ("parsed", s.parsed), ("notLinted", s.notLinted), ("cached", s.cached), ("stale", s.stale)]
            .first(where: { $0.1 < 0 }) {
            return "summary.\(name) is \(value), not a count"
        }
        if let n = s.handlerFunctionsReadPartly, n < 0 { return "summary.handlerFunctionsReadPartly is \(n), not a count" }
        let recomputed = JSONReporter.Document.summary(findings: document.findings, stale: document.stale.count, files: s.files, parsed: s.parsed,
                                                       notLinted: s.notLinted, cached: s.cached, seconds: s.seconds)
        if (recomputed.findings, recomputed.errors, recomputed.warnings, recomputed.baselined, recomputed.newErrors, recomputed.stale)
            != (s.findings, s.errors, s.warnings, s.baselined, s.newErrors, s.stale) {
            return "the summary's counts (\(s.findings) findings, \(s.errors) errors, \(s.newErrors) new) do not match the \(document.findings.count) findings listed; the output was edited or cut"
        }
        if s.parsed + s.cached > s.files || s.notLinted > s.files {
            return "summary: \(s.parsed) parsed and \(s.cached) cached of \(s.files) files do not add up"
        }
        return nil
    }

    /// What is inconsistent in a SARIF output: a result level SARIF does not define.
    static func check(_ log: SARIFLog) -> String? {
        for (r, run) in log.runs.enumerated() {
            if let (i, result) = run.results.enumerated().first(where: { !["none", "note", "warning", "error"].contains($0.element.level) }) {
                return "runs[\(r)].results[\(i)].level '\(result.level)' is not none, note, warning or error"
            }
        }
        return nil
    }

    static func mergeJSON(_ documents: [JSONReporter.Document]) -> Merged {
        var seen = Set<String>()
        var items: [JSONReporter.Document.Item] = []
        for item in documents.flatMap(\.findings) {
            let key = item.fingerprint.map { "\(item.rule)\0\(item.path)\0\($0)" }
                ?? "\(item.rule)\0\(item.path)\0\(item.line)\0\(item.column)\0\(item.message)"
            if seen.insert(key).inserted { items.append(item) }
        }
        items.sort { ($0.path, $0.line, $0.column, $0.rule) < ($1.path, $1.line, $1.column, $1.rule) }
        let stale = uniqueStale(documents.flatMap(\.stale))
        let s = documents.map(\.summary)
        let summary = JSONReporter.Document.summary(
            findings: items, stale: stale.count, files: s.map(\.files).reduce(0, +), parsed: s.map(\.parsed).reduce(0, +),
            notLinted: s.map(\.notLinted).reduce(0, +), cached: s.map(\.cached).reduce(0, +), seconds: s.map(\.seconds).max() ?? 0,
            // each shard walks the project's call graph (the other shards' facts from the cache, when there): the largest count, not the sum
            handlerFunctionsReadPartly: s.compactMap(\.handlerFunctionsReadPartly).max())
        let merged = JSONReporter.Document(summary: summary, findings: items, stale: stale)
        return Merged(text: merged.rendered(), newErrors: summary.newErrors, findings: items.count)
    }

    static func mergeSARIF(_ logs: [SARIFLog]) throws -> Merged {
        let runs = logs.flatMap(\.runs)
        guard var run = runs.first else { throw ConfigError.invalid("merge: the SARIF files hold no run") }
        if let other = runs.first(where: { $0.tool.driver.name != "di-lint" }) {
            throw ConfigError.invalid("merge: a SARIF run is from '\(other.tool.driver.name)', not di-lint")
        }
        var seen = Set<String>()
        var results: [SARIFLog.Result] = []
        for r in runs.flatMap(\.results) {
            let location = r.locations.first?.physicalLocation
            let uri = location?.artifactLocation.uri ?? ""
            let key = r.partialFingerprints?[Fingerprints.scheme].map { "\(r.ruleId)\0\(uri)\0\($0)" }
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
        run.properties = .init(diLint: .init(
            files: summaries.map(\.files).reduce(0, +), parsed: summaries.map(\.parsed).reduce(0, +),
            notLinted: summaries.map(\.notLinted).reduce(0, +), cached: summaries.map(\.cached).reduce(0, +),
            stale: uniqueStale(summaries.flatMap(\.stale)),
            handlerFunctionsReadPartly: summaries.compactMap(\.handlerFunctionsReadPartly).max()))
        run.invocations = [.init(executionSuccessful: runs.allSatisfy { $0.invocations?.allSatisfy(\.executionSuccessful) ?? true })]
        let newErrors = results.filter { $0.level == "error" && $0.baselineState != "unchanged" }.count
        return Merged(text: SARIFLog(runs: [run]).rendered(), newErrors: newErrors, findings: results.count)
    }

    private static func uniqueStale(_ entries: [BaselineEntry]) -> [BaselineEntry] {
        var seen = Set<String>()
        return entries.filter { seen.insert($0.fingerprint).inserted }
            .sorted { ($0.path, $0.line, $0.fingerprint) < ($1.path, $1.line, $1.fingerprint) }
    }
}
