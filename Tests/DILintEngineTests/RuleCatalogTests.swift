import Foundation
import XCTest
@testable import DILintEngine

/// The binary embeds `Rules/` at build time; these tests prove the two agree.
final class RuleCatalogTests: XCTestCase {
    func testEmbeddedRulesMatchTheRulesDirectoryByteForByte() throws {
        let dir = packageRoot.appendingPathComponent("Rules")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".yml") }.sorted()
        XCTAssertEqual(EmbeddedRules.files.map(\.name).sorted(), onDisk, "run scripts/generate-rule-catalog")
        for file in EmbeddedRules.files {
            let text = try String(contentsOf: dir.appendingPathComponent(file.name), encoding: .utf8)
            XCTAssertEqual(file.text, text, "\(file.name) differs from the embedded copy: run scripts/generate-rule-catalog")
        }
    }

    func testTheGeneratedIndexAgreesWithTheRuleFiles() {
        let parsed = RuleCatalog.shared.rules.map { RuleIndexEntry(id: $0.id, defaultSeverity: $0.defaultSeverity, options: $0.options.map(\.name)) }
        XCTAssertEqual(EmbeddedRules.index.sorted { $0.id < $1.id }, parsed, "run scripts/generate-rule-catalog")
        XCTAssertEqual(RuleCatalog.knownIDs, RuleCatalog.shared.ids)
    }

    func testEveryCatalogRuleIsImplementedAndEveryImplementationDocumented() {
        let implemented = Set(fileRules.map(\.id) + swiftFileRules.map(\.id) + projectRules.map(\.id) + [EngineRuleID.parseFailure, EngineRuleID.suppressionWithoutReason, EngineRuleID.unusedSuppression])
        XCTAssertEqual(Set(RuleCatalog.shared.ids), implemented)
    }

    func testRuleFilesCarryTheirDocumentation() {
        for rule in RuleCatalog.shared.rules {
            XCTAssertFalse(rule.summary.isEmpty, rule.id)
            XCTAssertGreaterThan(rule.rationale.count, 80, "\(rule.id): rationale too thin")
            XCTAssertTrue(rule.pitfall.lowercased().contains("seed"), "\(rule.id): the pitfall must name the seed it comes from")
        }
    }

    func testABrokenRuleFileIsReportedWithItsName() {
        XCTAssertThrowsError(try RuleCatalog(files: [("bad.yml", "id: bad\nsummary: x\n")])) { error in
            XCTAssertTrue("\(error)".contains("bad.yml"), "\(error)")
        }
    }
}
