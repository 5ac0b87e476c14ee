import Foundation
import XCTest
@testable import DILintEngine

/// Fix runs a file rule over a file as planned only when the verification asks for that rule's
/// findings (`RuleFindings`), after libclang's translation unit is freed: the findings are those
/// the rules find while it is alive. And the byte search the pre-filters use (memchr + memcmp)
/// answers as the byte-by-byte walk.
final class FixRuleFindingsTests: XCTestCase {
    private let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures")

    private func analyses(_ relative: String, findingsNow: Bool) throws -> FixFileAnalysis {
        let path = FixWorkspace.realPath(fixtures.appendingPathComponent(relative).path)
        let configuration = try Configuration.load(path: fixtures.appendingPathComponent(".di-lint.yml").path)
        let workspace = FixWorkspace(configuration: configuration, compileArguments: [:])
        let rules = FileRules(configuration: configuration, except: Fixer.comparedWithoutRules)
        return FixFileAnalysis(
            path: path, file: try workspace.parse(path), frontEnd: workspace.frontEnd, rules: rules,
            findingsNow: findingsNow)
    }

    func testFindingsRunLaterAreThoseFoundBeforeTheUnitIsFreed() throws {
        // crash_integration.m: a container read in an initializer beside a block (the blocks
        // libclang resolved are read from the unit), lifecycle events, weak bridges
        for file in ["lifecycle/crash_integration.m", "objc/headerless_forms.m", "lifecycle/reporter.c"] {
            let eager = try analyses(file, findingsNow: true).findings
            let later = try analyses(file, findingsNow: false)
            let rules = Set(eager.map(\.rule))
            if file.hasPrefix("lifecycle/crash") {
                XCTAssertTrue(
                    rules.isSuperset(of: ["container-access-in-initializer", "bridge-injected-after-install"]),
                    "\(rules)")
            }
            for rule in rules {
                XCTAssertEqual(later.findings(ofRules: [rule]), eager.filter { $0.rule == rule }, "\(file) \(rule)")
            }
            XCTAssertEqual(later.findings(ofRules: []), [], file)
            XCTAssertEqual(later.findings, eager, file)
        }
    }

    func testContainsASCIIFindsWhatTheByteWalkFinds() {
        func walked(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
            guard !needle.isEmpty, needle.count <= hay.count else { return false }
            return (0...(hay.count - needle.count)).contains { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        let hays = [
            "", "a", "ab", "aab", "abab", "xxabx", "Container.shared", "ContaineContainer", "éContainer", "b\u{0}ab",
        ]
        let needles = ["", "a", "b", "ab", "ba", "aab", "Container", "Contai", "r", "xxabxy", "\u{0}a"]
        for hay in hays {
            for needle in needles {
                let bytes = Array(hay.utf8)
                XCTAssertEqual(
                    bytes.withUnsafeBytes { $0.containsASCII(needle) }, walked(bytes, Array(needle.utf8)),
                    "\(hay.debugDescription) \(needle.debugDescription)")
            }
        }
    }
}
