import Foundation
import XCTest

/// The baseline gate, run through the real binary.
final class BaselineCLITests: XCTestCase {
    func testBaselineGateSurvivesLineShiftsAndFailsOnlyOnNewFindings() throws {
        let project = try Project(
            self, files: ["Legacy.m": legacySource(), "Other.c": "void g(void) {\n    container_shared()->now();\n}\n"])
        let written = try project.run("--write-baseline", "baseline.json")
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertTrue(written.stderr.contains("wrote 4 entries to baseline baseline.json"), written.stderr)

        // 20 lines inserted at the top, another line edited: nothing new.
        let shifted =
            String(repeating: "// a new comment line\n", count: 20)
            + legacySource().replacingOccurrences(of: "NSLog(@\"installing\");", with: "NSLog(@\"installing now\");")
        try project.write("Legacy.m", shifted)
        let clean = try project.run("--baseline", "baseline.json", "--format", "json")
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.findings.count, 4)
        XCTAssertEqual(clean.newFindings.count, 0)
        XCTAssertEqual(clean.summary["stale"] as? Int, 0)

        // One access added: exactly one new finding, exit 1.
        try project.write(
            "Legacy.m",
            String(repeating: "// a new comment line\n", count: 20)
                + legacySource(extra: ["id clock = [[Container sharedInstance] dateProvider];"]))
        let added = try project.run("--baseline", "baseline.json", "--format", "json")
        XCTAssertEqual(added.status, 1, added.stderr)
        XCTAssertEqual(added.newFindings.count, 1)
        XCTAssertEqual(added.newFindings.first?["line"] as? Int, 32)
        XCTAssertEqual(added.summary["newErrors"] as? Int, 1)
        let text = try project.run("--baseline", "baseline.json")
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(
            text.stdout.split(separator: "\n").count, 1, "text output lists new findings only: \(text.stdout)")

        // One access removed: one stale entry, on stderr and in JSON, and still exit 0.
        try project.write(
            "Legacy.m",
            legacySource().replacingOccurrences(
                of: "    id center = Container.sharedInstance.notificationCenter;\n", with: ""))
        let removed = try project.run("--baseline", "baseline.json", "--format", "json")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual((removed.json["stale"] as? [[String: Any]])?.count, 1)
        XCTAssertEqual(
            (removed.json["stale"] as? [[String: Any]])?.first?["snippet"] as? String,
            "id center = Container.sharedInstance.notificationCenter;")
        XCTAssertEqual(removed.stderr.components(separatedBy: "stale baseline entry").count - 1, 1, removed.stderr)

        // --update-baseline drops it and adds nothing, even with a new finding around.
        try project.write(
            "Other.c", "void g(void) {\n    container_shared()->now();\n    container_shared()->clock();\n}\n")
        let updated = try project.run("--baseline", "baseline.json", "--update-baseline")
        XCTAssertEqual(updated.status, 1)
        let entries = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(project.read("baseline.json").utf8)) as? [String: Any])?[
                "entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 3)
        XCTAssertFalse(entries.contains { ($0["snippet"] as? String)?.contains("clock") == true })
        let after = try project.run("--baseline", "baseline.json", "--format", "json")
        XCTAssertEqual(after.summary["stale"] as? Int, 0)
        XCTAssertEqual(after.newFindings.count, 1)
    }

    func testCorruptBaselineExitsTwoNamingTheFile() throws {
        let project = try Project(self, files: ["Legacy.m": legacySource()])
        try project.write("broken-baseline.json", "{\"version\": 1, \"entries\": [{\"fingerprint\": ")
        let run = try project.run("--baseline", "broken-baseline.json")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("broken-baseline.json: not valid JSON"), run.stderr)
        XCTAssertEqual(run.stdout, "", "nothing is linted with a broken baseline")

        let missing = try project.run("--baseline", "nowhere.json")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("nowhere.json: no such baseline file"), missing.stderr)

        let misuse = try project.run("--update-baseline")
        XCTAssertEqual(misuse.status, 2)
        XCTAssertTrue(misuse.stderr.contains("--update-baseline needs --baseline"), misuse.stderr)
    }
}
