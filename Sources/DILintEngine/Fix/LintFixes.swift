import Foundation

/// The fix `di-lint fix` would write for one finding (`lint --fixes`): the edits of the group
/// the finding's access belongs to, verified as `fix` verifies them.
public struct FindingFix: Codable, Equatable, Sendable {
    /// A byte-range replacement; `path` is relative to the run's root when inside it.
    public struct Edit: Codable, Equatable, Sendable {
        public var path: String
        public var offset: Int
        public var length: Int
        public var replacement: String
    }
    public var phase: FixPhase
    /// The group the edits belong to (`Objective-C class Reporter`, `Swift type Uploader`).
    public var group: String
    /// `safe` (behaviour kept) or `unsafe` (it may change): the group's tier.
    public var tier: FixTier
    public var edits: [Edit]

    init(phase: FixPhase, group: FixGroup, root: String) {
        let base = FixWorkspace.realPath(root)
        self.phase = phase
        self.group = group.title
        tier = group.safety
        edits = group.edits.sorted {
            ($0.path, $0.range.lowerBound, $0.order) < ($1.path, $1.range.lowerBound, $1.order)
        }.map {
            Edit(
                path: FileCollector.relative($0.path, to: base), offset: $0.range.lowerBound, length: $0.range.count,
                replacement: $0.replacement)
        }
    }
}

/// `lint --fixes`: plans `inject` for the run's `container-access` findings and `finish` for its
/// `container-fallback` findings (each only when there is such a finding), and gives each
/// finding whose access a verified group rewrites that group's edits. The fix parses in this
/// process, so a file the lint could not parse (its worker timed out, crashed or ran out of
/// memory: a `parse-failure`) is not handed to it.
public enum LintFixes {
    public static func attach(
        to findings: inout [Finding], files: [String], configuration: Configuration,
        compileArguments: [String: [String]], root: String
    ) {
        let failed = Set(findings.filter { $0.rule == ParseFailureRule.id }.map(\.path))
        let files = files.filter { !failed.contains(FileCollector.displayPath($0)) }
        for (phase, rule) in [(FixPhase.inject, ContainerAccessRule.id), (.finish, ContainerFallbackRule.id)] {
            guard findings.contains(where: { $0.rule == rule }) else { continue }
            let fixer = Fixer(configuration: configuration)
            fixer.compileArguments = compileArguments
            let plan = fixer.plan(files: files, phase: phase)
            var byPlace: [String: FindingFix] = [:]
            for group in plan.accepted {
                let fix = FindingFix(phase: phase, group: group, root: root)
                for target in group.targets { byPlace[target.accessPlace] = fix }
            }
            for i in findings.indices where findings[i].rule == rule {
                let f = findings[i]
                findings[i].fix = byPlace["\(FileCollector.displayPath(f.path)):\(f.line):\(f.column)"]
            }
        }
    }
}
