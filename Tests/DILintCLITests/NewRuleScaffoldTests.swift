import Foundation
import SeamTestSupport
import XCTest

/// `scripts/new-rule` proves that a rule is three files: it scaffolds one in a copy of the
/// package, which is then built (one `swift build` of di-lint) and run. Slow the first time (a
/// full build in the copy, which is kept in the temporary directory so later runs are
/// incremental); `SEAM_SKIP_SCAFFOLD_BUILD=1` skips it, nothing else does.
final class NewRuleScaffoldTests: XCTestCase {
    func testAScaffoldedRuleBuildsRunsAndIsDocumented() throws {
        if ProcessInfo.processInfo.environment["SEAM_SKIP_SCAFFOLD_BUILD"] == "1" {
            throw XCTSkip("SEAM_SKIP_SCAFFOLD_BUILD=1")
        }
        let fm = FileManager.default
        // one copy per checkout, at the same place every run (FNV-1a of the path: Swift's hashValue changes per process)
        let key = packageRoot.path.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        let copy = fm.temporaryDirectory.appendingPathComponent("seam-new-rule-\(String(key, radix: 16))")
        try fm.createDirectory(at: copy, withIntermediateDirectories: true)
        // The sources afresh (mtimes kept, so the copy's own .build stays incremental); the
        // dependencies' checkouts from this package's .build (no network needed).
        for entry in try fm.contentsOfDirectory(atPath: copy.path) where entry != ".build" {
            try fm.removeItem(at: copy.appendingPathComponent(entry))
        }
        for entry in try fm.contentsOfDirectory(atPath: packageRoot.path)
        where ![".build", ".git", ".swiftpm"].contains(entry) {
            try shell("cp -a '\(packageRoot.appendingPathComponent(entry).path)' '\(copy.path)/'")
        }
        let build = copy.appendingPathComponent(".build")
        if !fm.fileExists(atPath: build.appendingPathComponent("checkouts").path) {
            try fm.createDirectory(at: build, withIntermediateDirectories: true)
            for entry in ["checkouts", "repositories", "workspace-state.json"] {
                let source = packageRoot.appendingPathComponent(".build/\(entry)")
                if fm.fileExists(atPath: source.path) { try shell("cp -a '\(source.path)' '\(build.path)/'") }
            }
        }

        let scaffold = try runProcess(
            "/usr/bin/env",
            ["python3", "scripts/new-rule", "demo-service-read", "--summary", "A container read of a watched service"],
            in: copy)
        XCTAssertEqual(scaffold.status, 0, scaffold.stderr + scaffold.stdout)
        let written = [
            "Rules/demo-service-read.yml", "Sources/DILintEngine/Rules/DemoServiceReadRule.swift",
            "Tests/DILintEngineTests/Fixtures/demo-service-read/demo-service-read.m",
        ]
        for path in written { XCTAssertTrue(fm.fileExists(atPath: copy.appendingPathComponent(path).path), path) }
        let registry = try String(
            contentsOf: copy.appendingPathComponent("Sources/DILintEngine/Rules/RuleRegistry+Generated.swift"),
            encoding: .utf8)
        XCTAssertTrue(registry.contains("DemoServiceReadRule.self,"), registry)
        let again = try runProcess("/usr/bin/env", ["python3", "scripts/new-rule", "demo-service-read"], in: copy)
        XCTAssertNotEqual(again.status, 0, "a second scaffold of the same id must be refused")

        // one build
        let log = copy.appendingPathComponent("build.log").path
        try shell(
            "cd '\(copy.path)' && swift build --product di-lint -j 2 > '\(log)' 2>&1",
            because: { (try? String(contentsOfFile: log, encoding: .utf8)).map { String($0.suffix(4000)) } ?? "" })
        let binary = build.appendingPathComponent("debug/di-lint").path

        let rules = try runProcess(binary, ["rules", "demo-service-read"], in: copy)
        XCTAssertEqual(rules.status, 0, rules.stderr)
        XCTAssertTrue(rules.stdout.contains("A container read of a watched service"), rules.stdout)
        // docs/rules.md's catalog, as the binary renders it
        let catalog = try runProcess(binary, ["rules", "--format", "markdown"], in: copy)
        XCTAssertTrue(
            catalog.stdout.contains(
                "| [`demo-service-read`](#demo-service-read) | warning | — | A container read of a watched service |"),
            catalog.stdout)

        let fixture = "Tests/DILintEngineTests/Fixtures/demo-service-read"
        // in the fixture's folder, so that its .di-lint.yml is the config found
        let lint = try runProcess(binary, ["lint", ".", "--format", "json"], in: copy.appendingPathComponent(fixture))
        let json = try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any]
        let findings = (json?["findings"] as? [[String: Any]] ?? []).filter {
            $0["rule"] as? String == "demo-service-read"
        }
        XCTAssertEqual(
            findings.map { "\($0["line"] ?? ""):\($0["column"] ?? "")" }, ["3:20"], lint.stdout + lint.stderr)

        let check = try runProcess("/usr/bin/env", ["python3", "scripts/generate-rule-catalog", "--check"], in: copy)
        XCTAssertEqual(check.status, 0, check.stderr)
        // a YAML without a type is refused by the generator
        try "id: orphan\nsummary: x\nseverity: warning\n".write(
            to: copy.appendingPathComponent("Rules/orphan.yml"), atomically: true, encoding: .utf8)
        let orphan = try runProcess("/usr/bin/env", ["python3", "scripts/generate-rule-catalog"], in: copy)
        XCTAssertNotEqual(orphan.status, 0)
        XCTAssertTrue(orphan.stderr.contains("Rules/orphan.yml: no rule type declares"), orphan.stderr)
    }

    private func shell(_ command: String, because detail: () -> String = { "" }) throws {
        let result = try runProcess("/bin/sh", ["-c", command])
        guard result.status == 0 else {
            throw NSError(
                domain: "NewRuleScaffoldTests", code: Int(result.status),
                userInfo: [
                    NSLocalizedDescriptionKey: "\(command) failed (\(result.status)): \(result.stderr)\(detail())"
                ])
        }
    }
}
