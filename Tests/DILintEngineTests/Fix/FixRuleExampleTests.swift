import Foundation
import XCTest
@testable import DILintEngine

/// Runs every `fix-examples` pair of every rule file: `before` (with its support files) fixed by
/// `di-lint fix --phase` — planned through the rule type's `fix` — must become `after` byte for
/// byte, with nothing left for manual work, nothing refused, and a second run planning nothing.
final class FixRuleExampleTests: XCTestCase {
    func testEveryFixExample() throws {
        var checked = 0
        for rule in RuleCatalog.shared.rules {
            let type = RuleRegistry.fileRuleTypes.first { $0.id == rule.id }
            for example in rule.fixExamples {
                let label = "\(rule.id) fix example (\(example.phase)):\n\(example.before)"
                XCTAssertEqual(
                    type?.fixPhase, example.phase, "\(label)\nthe rule type's fix does not perform this phase")
                let dir = try temporaryDirectory(self)
                let ext = ["c": "c", "objective-c": "m", "c++": "cpp", "objective-c++": "mm", "swift": "swift"][
                    example.language.rawValue]!
                let file = dir.appendingPathComponent(example.fileName ?? "example.\(ext)")
                try Data(example.before.utf8).write(to: file)
                for (name, text) in example.support { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
                let configuration = try Configuration.parse(
                    yaml: rule.exampleConfig + "\n" + (example.config ?? ""), baseDirectory: dir.path)
                let files = try FileCollector(excludes: [], baseDirectory: dir.path).collect([dir.path])

                let plan = Fixer(configuration: configuration).plan(files: files, phase: example.phase)
                XCTAssertEqual(plan.manual.map(\.reason), [], label)
                XCTAssertEqual(plan.refusedGroups.map { $0.refused ?? "" }, [], label)
                XCTAssertFalse(plan.accepted.isEmpty, label)
                try FixApplier.apply(plan)
                XCTAssertEqual(String(decoding: try Data(contentsOf: file), as: UTF8.self), example.after, label)
                let again = Fixer(configuration: configuration).plan(files: files, phase: example.phase)
                XCTAssertTrue(
                    again.accepted.allSatisfy { $0.edits.isEmpty },
                    "\(label)\nsecond run plans \(again.accepted.map(\.title))")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 4)
    }
}
