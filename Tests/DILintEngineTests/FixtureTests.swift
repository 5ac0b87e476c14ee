import Foundation
import XCTest
@testable import DILintEngine

/// Lints every fixture with real libclang and compares with the `expect:` comments in it.
final class FixtureTests: XCTestCase {
    let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures")

    func fixtureFiles() throws -> [String] {
        try FileCollector(excludes: [], baseDirectory: fixtures.path).collect([fixtures.path])
    }

    func testFixturesExist() throws {
        XCTAssertGreaterThanOrEqual(try fixtureFiles().count, 9)
    }

    /// Each fixture is linted with the nearest `.di-lint.yml` above it, as di-lint would.
    func lintFixtures() throws -> (files: [String], result: LintResult) {
        let files = try fixtureFiles()
        let groups = Dictionary(grouping: files) { file in
            Configuration.discover(from: URL(fileURLWithPath: file).deletingLastPathComponent().path)!
        }
        var findings: [Finding] = []
        var failed = 0
        for (configPath, group) in groups {
            let result = Linter(configuration: try Configuration.load(path: configPath)).lint(files: group)
            findings += result.findings
            failed += result.filesFailed
        }
        return (
            files,
            LintResult(findings: findings, filesChecked: files.count, filesParsed: 0, filesFailed: failed, seconds: 0)
        )
    }

    func testEveryFixtureMatchesItsInlineExpectations() throws {
        let (files, result) = try lintFixtures()
        XCTAssertEqual(result.filesFailed, 0, "\(result.findings.filter { $0.rule == "parse-failure" })")
        var total = 0
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let expected = Expectation.parse(fileText: text)
            total += expected.count
            var found = result.findings.filter { $0.path == file }
            for e in expected {
                if let i = found.firstIndex(where: e.matches) {
                    found.remove(at: i)
                } else {
                    let near = result.findings.filter { $0.path == file && $0.line == e.line }
                    XCTFail(
                        "\(file):\(e.line): expected \(e), got \(near.map { "\($0.column) \($0.rule) \($0.access?.expression ?? "")" })"
                    )
                }
            }
            for f in found {
                XCTFail(
                    "\(file):\(f.line):\(f.column): unexpected \(f.rule) \(f.access?.expression ?? ""): \(f.message)")
            }
        }
        XCTAssertGreaterThan(total, 30, "fixtures should carry their expectations")
    }

    /// Pre-filtering files by their text must not change what is found.
    func testPrefilterGivesTheSameFindingsAsParsingEveryFile() throws {
        let config = try Configuration.load(path: fixtures.appendingPathComponent(".di-lint.yml").path)
        let files = try fixtureFiles()
        let fast = Linter(configuration: config).lint(files: files)
        let full = Linter(configuration: config)
        full.parseEveryFile = true
        XCTAssertEqual(fast.findings, full.lint(files: files).findings)
    }

    func testRunsAreDeterministicAcrossJobCounts() throws {
        let config = try Configuration.load(path: fixtures.appendingPathComponent(".di-lint.yml").path)
        let files = try fixtureFiles()
        let one = Linter(configuration: config)
        one.jobs = 1
        let four = Linter(configuration: config)
        four.jobs = 4
        XCTAssertEqual(one.lint(files: files).findings, four.lint(files: files).findings)
    }
}
