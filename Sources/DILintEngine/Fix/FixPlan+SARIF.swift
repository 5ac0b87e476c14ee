import Foundation

/// SARIF's `fix` object: a description and, per file, byte-range replacements.
struct SARIFFix: Codable, Equatable {
    struct Text: Codable, Equatable { var text: String }
    struct Region: Codable, Equatable { var byteOffset: Int; var byteLength: Int }
    struct Replacement: Codable, Equatable { var deletedRegion: Region; var insertedContent: Text }
    struct Change: Codable, Equatable {
        var artifactLocation: SARIFLog.Result.Location
        var replacements: [Replacement]
    }
    var description: Text
    var artifactChanges: [Change]
}

extension FixPlan {
    /// The plan as SARIF 2.1.0, through the lint's SARIF reporter: one result per rewritten access
    /// (`container-access` for inject, `container-fallback` for finish), carrying its group's edits
    /// as `fixes`, then one result per manual item (no fix), with its reason.
    public func sarif(root: String = FileManager.default.currentDirectoryPath) -> String {
        let rule =
            phase == .inject
            ? "container-access" : phase == .wire ? "bridge-injected-after-install" : "container-fallback"
        let verb = phase == .inject ? "inject the bridge with a fallback" : "drop the fallback"
        var findings: [Finding] = []
        var fixes: [SARIFFix?] = []
        for group in accepted {
            let fix = sarifFix(group, root: root)
            for target in group.targets {
                let how = target.reads.map { "read \($0) instead" } ?? verb
                findings.append(
                    Finding(
                        rule: rule, path: target.path, line: target.line, column: target.column, severity: .warning,
                        message:
                            "di-lint fix can \(how): \(target.expression) (\(group.title); \(group.safety.rawValue))"))
                fixes.append(fix)
            }
        }
        for item in manual {
            findings.append(
                Finding(
                    rule: rule, path: item.path, line: item.line, column: item.column, severity: .warning,
                    message:
                        "left for manual work: \(item.expression): \(item.reason.rawValue)\(item.detail.map { " (\($0))" } ?? "")"
                ))
            fixes.append(nil)
        }
        var log = SARIFReporter(root: root).log(
            LintResult(findings: findings, filesChecked: 0, filesParsed: 0, filesFailed: 0, seconds: 0))
        for i in log.runs[0].results.indices { log.runs[0].results[i].fixes = fixes[i].map { [$0] } }
        return log.rendered()
    }

    private func sarifFix(_ group: FixGroup, root: String) -> SARIFFix {
        SARIFFix(FindingFix(phase: phase, group: group, root: root))
    }
}

extension SARIFFix {
    /// A finding's fix as SARIF: per file (relative to `%SRCROOT%` when inside the root), byte-range replacements.
    init(_ fix: FindingFix) {
        var order: [String] = []
        var byFile: [String: [FindingFix.Edit]] = [:]
        for edit in fix.edits {
            if byFile[edit.path] == nil { order.append(edit.path) }
            byFile[edit.path, default: []].append(edit)
        }
        self.init(
            description: .init(text: "\(fix.group) (\(fix.tier.rawValue))"),
            artifactChanges: order.map { path in
                .init(
                    artifactLocation: .init(
                        uri: SARIFReporter.uriPath(path), uriBaseId: path.hasPrefix("/") ? nil : SARIFReporter.rootBase),
                    replacements: byFile[path]!.map {
                        .init(
                            deletedRegion: .init(byteOffset: $0.offset, byteLength: $0.length),
                            insertedContent: .init(text: $0.replacement))
                    })
            })
    }
}
