import Foundation
import XCTest
@testable import DILintEngine

/// The binary embeds `Rules/` at build time and lists the rule types in a generated registry;
/// these tests prove the YAML files, the types and the generated files agree (docs/rules.md: scripts/check-docs).
final class RuleCatalogTests: XCTestCase {
    func testEmbeddedRulesMatchTheRulesDirectoryByteForByte() throws {
        let dir = packageRoot.appendingPathComponent("Rules")
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".yml") }
            .sorted()
        XCTAssertEqual(EmbeddedRules.files.map(\.name).sorted(), onDisk, "run scripts/generate-rule-catalog")
        for file in EmbeddedRules.files {
            let text = try String(contentsOf: dir.appendingPathComponent(file.name), encoding: .utf8)
            XCTAssertEqual(
                file.text, text, "\(file.name) differs from the embedded copy: run scripts/generate-rule-catalog")
        }
    }

    func testTheGeneratedIndexAgreesWithTheRuleFiles() {
        let parsed = RuleCatalog.shared.rules.map { rule in
            RuleIndexEntry(
                id: rule.id, defaultSeverity: rule.defaultSeverity, options: rule.options.map(\.name),
                defaults: Dictionary(
                    uniqueKeysWithValues: rule.options.filter { !$0.defaultValue.isEmpty }
                        .map { ($0.name, RuleOptionValue(defaultText: $0.defaultValue)) }))
        }
        XCTAssertEqual(EmbeddedRules.index.sorted { $0.id < $1.id }, parsed, "run scripts/generate-rule-catalog")
        XCTAssertEqual(RuleCatalog.knownIDs, RuleCatalog.shared.ids)
    }

    func testEveryRuleIDHasExactlyOneTypeAndOneYAMLFile() throws {
        let typeIDs = RuleRegistry.all.map(\.id)
        XCTAssertEqual(typeIDs.count, Set(typeIDs).count, "a rule id is implemented by two types: \(typeIDs.sorted())")
        let yamlIDs = try FileManager.default.contentsOfDirectory(
            atPath: packageRoot.appendingPathComponent("Rules").path
        )
        .filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }
        XCTAssertEqual(yamlIDs.count, Set(yamlIDs).count)
        XCTAssertEqual(Set(typeIDs), Set(yamlIDs), "every Rules/<id>.yml needs a type, every type a YAML file")
        XCTAssertEqual(Set(typeIDs), Set(RuleCatalog.shared.ids))
        // each rule type in a file of its own
        let typesDir = packageRoot.appendingPathComponent("Sources/DILintEngine/Rules")
        for name in try FileManager.default.contentsOfDirectory(atPath: typesDir.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: typesDir.appendingPathComponent(name), encoding: .utf8)
            let count = text.components(separatedBy: "\n").filter { $0.hasPrefix("    static let id = \"") }.count
            XCTAssertLessThanOrEqual(count, 1, "\(name) holds \(count) rule types")
        }
    }

    func testEachRuleTypeReadsExactlyTheOptionsItsYAMLDeclares() {
        for rule in RuleRegistry.all {
            XCTAssertEqual(
                rule.optionNamesRead, Set(RuleCatalog.shared.rule(rule.id)?.options.map(\.name) ?? []), rule.id)
        }
    }

    func testTheGeneratedRegistryAndREADMETableAreUpToDate() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", packageRoot.appendingPathComponent("scripts/generate-rule-catalog").path, "--check",
        ]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
    }

    func testRuleFilesCarryTheirDocumentationAndPointAtAPitfallThatExists() throws {
        let pitfalls = try String(
            contentsOf: packageRoot.appendingPathComponent("docs/migration-pitfalls.md"), encoding: .utf8)
        for rule in RuleCatalog.shared.rules {
            XCTAssertFalse(rule.summary.isEmpty, rule.id)
            XCTAssertGreaterThan(rule.rationale.count, 80, "\(rule.id): rationale too thin")
            let anchors = rule.pitfall.components(separatedBy: "docs/migration-pitfalls.md#").dropFirst()
                .map { String($0.prefix { $0.isLetter || $0.isNumber }) }
            XCTAssertFalse(anchors.isEmpty, "\(rule.id): the pitfall must point into docs/migration-pitfalls.md")
            for anchor in anchors {
                XCTAssertTrue(
                    pitfalls.contains("<a id=\"\(anchor)\"></a>"),
                    "\(rule.id): docs/migration-pitfalls.md has no #\(anchor)")
            }
        }
    }

    func testABrokenRuleFileIsReportedWithItsName() {
        XCTAssertThrowsError(try RuleCatalog(files: [("bad.yml", "id: bad\nsummary: x\n")])) { error in
            XCTAssertTrue("\(error)".contains("bad.yml"), "\(error)")
        }
    }
}
