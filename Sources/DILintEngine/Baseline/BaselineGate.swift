import Foundation

/// A lint's result gated on a baseline, as `di-lint lint --baseline` does it, for any user of
/// the engine: fingerprints assigned, the findings the baseline accepts marked `baselined`, its
/// entries whose finding is gone put in `staleBaselineEntries`; then, if asked, the baseline
/// rewritten without its stale entries (`--update-baseline`), or every finding written to a new
/// baseline (`--write-baseline`).
public struct BaselineGate {
    /// The baseline the findings are gated on (read with `Baseline.load`), nil for none.
    public var accepted: Baseline?
    /// The baseline file `accepted` was read from: rewritten without its stale entries when
    /// `update` is set.
    public var path: String?
    public var update = false
    /// Writes every finding to this baseline file, accepting them all.
    public var writePath: String?

    public init(accepted: Baseline? = nil, path: String? = nil, update: Bool = false, writePath: String? = nil) {
        self.accepted = accepted
        self.path = path
        self.update = update
        self.writePath = writePath
    }

    /// Whether the result's findings need fingerprints for this gate (a baseline matches by them).
    public var needsFingerprints: Bool { accepted != nil || writePath != nil }

    /// Gates the result of linting `lintedFiles` (the files of the run; entries of other files
    /// that still exist are never stale): assigns the findings' fingerprints when `fingerprints`
    /// or the gate needs them, applies the baseline, updates or writes the files asked for.
    /// Returns what it did, a line each (for the run's notes). The baseline's entries are moved
    /// into the result, not copied, unless it is to be updated; `accepted` is empty after.
    /// Throws when a baseline file cannot be written.
    public mutating func apply(
        to result: inout LintResult, lintedFiles: [String], root: String, fingerprints: Bool = false
    ) throws -> [String] {
        if needsFingerprints || fingerprints { Fingerprints.assign(to: &result.findings, root: root) }
        var notes: [String] = []
        if var baseline = accepted {
            accepted = nil // a large baseline's entries are most of the run's memory
            if update {
                baseline.apply(to: &result, lintedFiles: lintedFiles, root: root)
            } else {
                baseline.applyTakingStale(to: &result, lintedFiles: lintedFiles, root: root)
            }
            if update, let path, !result.staleBaselineEntries.isEmpty || baseline.hasLegacyEntries {
                let updated = baseline.updated(with: result, root: root)
                try updated.write(to: path)
                let n = result.staleBaselineEntries.count
                notes.append("di-lint: removed \(n) stale entr\(n == 1 ? "y" : "ies") from \(path)")
                if baseline.hasLegacyEntries {
                    notes.append(
                        "di-lint: rewrote \(path) in baseline format \(Baseline.formatVersion) (structural fingerprints)\(updated.hasLegacyEntries ? "; entries of files outside this run keep their format-1 fingerprints" : "")"
                    )
                }
            }
        }
        if let writePath {
            try Baseline(findings: result.findings, root: root).write(to: writePath)
            for i in result.findings.indices { result.findings[i].baselined = true }
            notes.append(
                "di-lint: wrote \(result.findings.count) entr\(result.findings.count == 1 ? "y" : "ies") to baseline \(writePath)"
            )
        }
        return notes
    }

    /// The line a stale entry is reported by (`di-lint: stale baseline entry (fixed): …`), cut at 1 KiB
    /// (a baseline di-lint wrote has short fields; a hand-made one may not).
    public static func staleLine(_ e: BaselineEntry) -> String {
        Excerpt.message(
            "di-lint: stale baseline entry (fixed): \(e.path):\(e.line): [\(e.rule)] \(e.snippet ?? e.expression ?? "")",
            limit: 1024)
    }
}
