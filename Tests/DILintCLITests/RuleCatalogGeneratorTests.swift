import Foundation
import SeamTestSupport
import XCTest

/// `rule-catalog` (behind scripts/generate-rule-catalog) reads the rule files as di-lint does (Yams,
/// through `RuleFile`): YAML the old regex reader took word for word (a comment after a value, a
/// quoted string with an escaped quote) gives the values di-lint reads at run time.
final class RuleCatalogGeneratorTests: XCTestCase {
    private var generator: String {
        get throws {
            let path = packageRoot.appendingPathComponent(".build/debug/rule-catalog").path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw XCTSkip("needs rule-catalog built (swift build)")
            }
            return path
        }
    }

    /// A copy of what the generator reads and writes, in a temporary directory.
    private func copy() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-rule-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: copy.appendingPathComponent("Sources/DILintEngine"), withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: copy) }
        for path in ["Rules", "Sources/DILintEngine/Rules", "README.md"] {
            try FileManager.default.copyItem(
                at: packageRoot.appendingPathComponent(path), to: copy.appendingPathComponent(path))
        }
        return copy
    }

    func testTheCommittedCatalogIsWhatTheGeneratorWrites() throws {
        let run = try runProcess(try generator, ["--root", packageRoot.path, "--check"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "generate-rule-catalog: up to date\n")
    }

    func testYAMLIsReadAsDILintReadsIt() throws {
        let root = try copy()
        let rule = root.appendingPathComponent("Rules/container-access.yml")
        var text = try String(contentsOf: rule, encoding: .utf8)
        text = text.replacingOccurrences(of: "\nseverity: error\n", with: "\nseverity: error # the default\n")
        text = text.replacingOccurrences(
            of: "\nsummary: Direct access to the dependency container singleton\n",
            with: "\nsummary: 'The container''s singleton, read directly'\n")
        try text.write(to: rule, atomically: true, encoding: .utf8)
        let run = try runProcess(try generator, ["--root", root.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let index = try String(
            contentsOf: root.appendingPathComponent("Sources/DILintEngine/Rules/EmbeddedRules+Generated.swift"),
            encoding: .utf8)
        XCTAssertTrue(
            index.contains(
                "RuleIndexEntry(id: \"container-access\", defaultSeverity: .error, options: [\"swift-helper-types\"]"),
            "the comment is not part of the severity (the regex reader wrote `.error # the default`)")
        // the summary is rendered by the binary (`di-lint rules`, docs/rules.md), over the same reader
    }

    func testBadYAMLNamesTheFile() throws {
        let root = try copy()
        try "id: [unclosed\n".write(
            to: root.appendingPathComponent("Rules/broken.yml"), atomically: true, encoding: .utf8)
        try "id: bad-severity\nsummary: x\nseverity: loud\n".write(
            to: root.appendingPathComponent("Rules/bad-severity.yml"),
            atomically: true, encoding: .utf8)
        let run = try runProcess(try generator, ["--root", root.path])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("Rules/broken.yml: "), run.stderr)
        XCTAssertTrue(
            run.stderr.contains("Rules/bad-severity.yml: severity must be note, warning or error"), run.stderr)
    }
}
