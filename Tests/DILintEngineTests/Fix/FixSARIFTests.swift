import Foundation
import XCTest
@testable import DILintEngine

/// `fix --format sarif`: schema-valid, and the `fixes` it carries rebuild the fixture's expected output.
final class FixSARIFTests: XCTestCase {
    func testSARIFFixesAreSchemaValidAndReproduceTheExpectedFiles() throws {
        let (root, configuration) = try FixFixtureTests.tree("objc", self)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        let sarif = plan.sarif(root: root.path)
        XCTAssertNil(try sarifSchemaViolation(sarif, in: root))

        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let withFixes = results.filter { $0["fixes"] != nil }
        XCTAssertEqual(withFixes.count, plan.accepted.flatMap(\.targets).count)
        XCTAssertEqual(results.count - withFixes.count, plan.manual.count)

        try assertFixesRebuild(withFixes, root: root, tree: "objc", suffix: ".inject")
    }

    /// `lint --fixes`: each container-access finding whose access `fix` rewrites carries its group's
    /// edits, in JSON (`fix`) and SARIF (`fixes`, schema-valid), and they rebuild the expected files.
    func testLintFixesCarryTheVerifiedEdits() throws {
        let (root, configuration) = try FixFixtureTests.tree("swift", self)
        let files = try FixFixtureTests.files(root)
        let plan = Fixer(configuration: configuration).plan(files: files, phase: .inject)
        var result = Linter(configuration: configuration).lint(files: files)
        XCTAssertTrue(result.findings.allSatisfy { $0.fix == nil })
        LintFixes.attach(
            to: &result.findings, files: files, configuration: configuration, compileArguments: [:], root: root.path)
        let fixed = result.findings.filter { $0.fix != nil }
        XCTAssertEqual(fixed.count, plan.accepted.flatMap(\.targets).count)
        XCTAssertTrue(fixed.allSatisfy { $0.rule == "container-access" && $0.fix?.phase == .inject })
        XCTAssertEqual(
            result.findings.filter { $0.rule == "container-access" }.count - fixed.count,
            plan.manual.filter { $0.reason != .suppressed }.count) // a suppressed access is no finding

        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReporter().render(result).utf8)) as? [String: Any])
        XCTAssertEqual((json["findings"] as? [[String: Any]])?.filter { $0["fix"] != nil }.count, fixed.count)

        let sarif = SARIFReporter(root: root.path).render(result)
        XCTAssertNil(try sarifSchemaViolation(sarif, in: root))
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        try assertFixesRebuild(results.filter { $0["fixes"] != nil }, root: root, tree: "swift", suffix: ".inject")
    }

    /// Applies each group's fix once (results of one group share it) and compares with the fixture's expected files.
    private func assertFixesRebuild(_ withFixes: [[String: Any]], root: URL, tree: String, suffix: String) throws {
        // Apply each group's fix once (results of one group share it) and compare with the fixture's .inject files.
        var replacements: [String: [(offset: Int, length: Int, text: String)]] = [:]
        var seen = Set<String>()
        for result in withFixes {
            let fix = try XCTUnwrap((result["fixes"] as? [[String: Any]])?.first)
            let title = try XCTUnwrap((fix["description"] as? [String: Any])?["text"] as? String)
            guard seen.insert(title).inserted else { continue }
            for change in try XCTUnwrap(fix["artifactChanges"] as? [[String: Any]]) {
                let uri = try XCTUnwrap((change["artifactLocation"] as? [String: Any])?["uri"] as? String)
                for r in try XCTUnwrap(change["replacements"] as? [[String: Any]]) {
                    let region = try XCTUnwrap(r["deletedRegion"] as? [String: Int])
                    let text = try XCTUnwrap((r["insertedContent"] as? [String: String])?["text"])
                    replacements[uri, default: []].append((region["byteOffset"]!, region["byteLength"]!, text))
                }
            }
        }
        XCTAssertFalse(replacements.isEmpty)
        let expected = FixFixtureTests.fixtures.appendingPathComponent(tree)
        for (uri, list) in replacements {
            var bytes = Array(try Data(contentsOf: root.appendingPathComponent(uri)))
            var seenEdits = Set<String>()
            let ordered = list.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
                .map(\.element)
            for r in ordered.reversed() where seenEdits.insert("\(r.offset) \(r.length) \(r.text)").inserted {
                bytes.replaceSubrange(r.offset..<(r.offset + r.length), with: Array(r.text.utf8))
            }
            XCTAssertEqual(Data(bytes), try Data(contentsOf: expected.appendingPathComponent(uri + suffix)), uri)
        }
    }
}
