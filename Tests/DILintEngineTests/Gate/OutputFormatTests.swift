import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class OutputFormatTests: XCTestCase {
    private func sarif(_ project: GateProject, _ result: LintResult) throws -> [String: Any] {
        let text = SARIFReporter(root: project.root.path).render(result)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func results(_ log: [String: Any]) -> [[String: Any]] {
        ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
    }

    func testSARIFIsValidAgainstTheOfficialSchema() throws {
        let project = try GateProject(
            self,
            files: [
                "Sources/a b.m": objcSource(accesses: [
                    "[Container sharedInstance]", "[[Container sharedInstance] crashReporter]",
                ]),
                "Sources/c.c":
                    "void g(void) { container_shared()->now(); }\n// di-lint:disable-next-line container-access\nint h;\n",
            ])
        var result = try project.lint()
        result.findings[0].baselined = true
        XCTAssertGreaterThanOrEqual(result.findings.count, 4) // includes the unused suppression without reason
        let text = SARIFReporter(root: project.root.path).render(result)
        XCTAssertNil(try sarifSchemaViolation(text, in: project.root))

        // The validator does reject a broken document, so the check above can fail.
        let broken = text.replacingOccurrences(of: "\"level\" : \"error\"", with: "\"level\" : \"fatal\"")
        XCTAssertNotNil(try sarifSchemaViolation(broken, in: project.root))
    }

    func testSARIFCarriesWhatCodeScanningNeeds() throws {
        let project = try GateProject(
            self, files: ["Sources/a b.m": objcSource(accesses: ["[Container sharedInstance]"], padding: 2)])
        var result = try project.lint()
        var fallback = Finding(
            rule: "container-access", path: result.findings[0].path, line: 4, column: 1, severity: .warning,
            message: "m", access: ContainerAccess(container: "C", accessor: "shared", service: nil, kind: .fallback),
            snippet: "x")
        fallback.fingerprint = "f:0"
        result.findings.append(fallback)
        let log = try sarif(project, result)
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "di-lint")
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, RuleCatalog.shared.ids)
        for rule in rules {
            XCTAssertFalse(((rule["shortDescription"] as? [String: Any])?["text"] as? String ?? "").isEmpty)
            XCTAssertFalse(((rule["fullDescription"] as? [String: Any])?["text"] as? String ?? "").isEmpty)
            let help = try XCTUnwrap(rule["help"] as? [String: String])
            XCTAssertFalse(help["text", default: ""].isEmpty)
            XCTAssertTrue(help["markdown", default: ""].contains("di-lint rules"))
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            XCTAssertEqual(level, RuleCatalog.shared.rule(rule["id"] as! String)?.defaultSeverity.rawValue)
        }
        let first = try XCTUnwrap(results(log).first)
        XCTAssertEqual(first["ruleId"] as? String, "container-access")
        XCTAssertEqual(first["level"] as? String, "error")
        XCTAssertEqual(first["ruleIndex"] as? Int, RuleCatalog.shared.ids.firstIndex(of: "container-access"))
        let location = try XCTUnwrap(
            ((first["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let artifact = try XCTUnwrap(location["artifactLocation"] as? [String: Any])
        XCTAssertEqual(artifact["uri"] as? String, "Sources/a%20b.m")
        XCTAssertEqual(artifact["uriBaseId"] as? String, "%SRCROOT%")
        let region = try XCTUnwrap(location["region"] as? [String: Any])
        XCTAssertEqual(region["startLine"] as? Int, 4)
        XCTAssertEqual(region["startColumn"] as? Int, 12)
        let base = try XCTUnwrap((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any])
        XCTAssertEqual(
            base["uri"] as? String,
            project.root.standardizedFileURL.absoluteString.hasSuffix("/")
                ? project.root.standardizedFileURL.absoluteString
                : project.root.standardizedFileURL.absoluteString + "/")
        XCTAssertEqual(
            (first["partialFingerprints"] as? [String: String])?[Fingerprints.scheme], result.findings[0].fingerprint)
        XCTAssertEqual(first["baselineState"] as? String, "new")
        let second = results(log)[1]
        XCTAssertEqual((second["properties"] as? [String: Any])?["kind"] as? String, "fallback")
        XCTAssertEqual(second["level"] as? String, "warning")
    }

    func testSARIFFingerprintsStayPutWhenLinesShift() throws {
        let accesses = ["[Container sharedInstance]", "[[Container sharedInstance] crashReporter]"]
        let project = try GateProject(self, files: ["a.m": objcSource(accesses: accesses)])
        func prints() throws -> [String] {
            results(try sarif(project, try project.lint())).compactMap {
                ($0["partialFingerprints"] as? [String: String])?[Fingerprints.scheme]
            }
        }
        func lines() throws -> [Int] {
            results(try sarif(project, try project.lint())).compactMap {
                (((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])?["region"]
                    as? [String: Any])?["startLine"] as? Int
            }
        }
        let before = try prints()
        XCTAssertEqual(try lines(), [2, 3])
        try project.write("a.m", objcSource(accesses: accesses, padding: 20))
        XCTAssertEqual(try lines(), [22, 23])
        XCTAssertEqual(try prints(), before)
    }

    func testSARIFColumnsCountUTF16() {
        XCTAssertEqual(SARIFReporter.utf16Column(byteColumn: 5, line: "abcdX"), 5)
        XCTAssertEqual(SARIFReporter.utf16Column(byteColumn: 6, line: "é = X"), 5) // é is 2 bytes, 1 UTF-16 unit
        XCTAssertEqual(SARIFReporter.utf16Column(byteColumn: 9, line: "😀 = X"), 7) // 4 bytes, 2 units
        XCTAssertEqual(SARIFReporter.utf16Column(byteColumn: 40, line: "short"), 40) // line unknown: bytes kept
    }

    func testGitHubAnnotationsEscapeAsTheRunnerExpects() {
        var accepted = Finding(
            rule: "container-access", path: "old.m", line: 9, column: 1, severity: .error, message: "accepted")
        accepted.baselined = true
        let findings = [
            Finding(
                rule: "container-access", path: "dir,x/a:b.m", line: 3, column: 7, severity: .error,
                message: "100% bad\r\nreally"),
            Finding(rule: "unused-suppression", path: "a.m", line: 1, column: 1, severity: .warning, message: "w"),
            Finding(rule: "r", path: "a.m", line: 2, column: 1, severity: .note, message: "n"),
            accepted,
        ]
        let text = GitHubReporter().render(
            LintResult(findings: findings, filesChecked: 3, filesParsed: 3, filesFailed: 0, seconds: 0))
        XCTAssertEqual(
            text.split(separator: "\n"),
            [
                "::error file=dir%2Cx/a%3Ab.m,line=3,col=7,title=di-lint container-access::100%25 bad%0D%0Areally",
                "::warning file=a.m,line=1,col=1,title=di-lint unused-suppression::w",
                "::notice file=a.m,line=2,col=1,title=di-lint r::n",
            ])
    }

    func testJSONSaysWhetherEachFindingIsBaselinedAndListsStaleEntries() throws {
        let project = try GateProject(
            self,
            files: ["a.m": objcSource(accesses: ["[Container sharedInstance]", "[[Container sharedInstance] x]"])])
        var result = try project.lint()
        result.findings[1].baselined = true
        result.staleBaselineEntries = [
            BaselineEntry(
                fingerprint: "ab:0", rule: "container-access", path: "gone.m", line: 4, snippet: "s", expression: "e")
        ]
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReporter().render(result).utf8)) as? [String: Any])
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["baselined"] as? Bool }, [false, true])
        XCTAssertEqual(findings.map { $0["fingerprint"] as? String }, result.findings.map(\.fingerprint))
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["baselined"] as? Int, 1)
        XCTAssertEqual(summary["newErrors"] as? Int, 1)
        XCTAssertEqual(summary["stale"] as? Int, 1)
        XCTAssertEqual((object["stale"] as? [[String: Any]])?.first?["path"] as? String, "gone.m")
    }
}
