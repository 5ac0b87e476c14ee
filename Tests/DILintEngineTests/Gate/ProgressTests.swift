import Foundation
import XCTest
@testable import DILintEngine

final class ProgressTests: XCTestCase {
    private func access(_ path: String, _ line: Int, _ service: String?, _ kind: AccessKind, rule: String = "container-access") -> Finding {
        Finding(rule: rule, path: path, line: line, column: 5, severity: .warning, message: "m",
                access: ContainerAccess(container: "Container", accessor: "sharedInstance", service: service, kind: kind))
    }

    /// Fallback and injected accesses are built by hand until the classifier reports them.
    private var findings: [Finding] {
        [
            access("a.m", 1, "crashReporter", .direct), access("a.m", 2, "crashReporter", .fallback),
            access("a.m", 3, "dateProvider", .injected), access("a.m", 4, nil, .direct),
            access("b.m", 1, "crashReporter", .fallback), access("b.m", 2, "dateProvider", .fallback),
            access("c.m", 1, "dateProvider", .injected),
            access("d.m", 1, nil, .direct),
            // The same access reported by a second rule counts once; other findings not at all.
            access("a.m", 1, "crashReporter", .direct, rule: "another-rule"),
            Finding(rule: "unused-suppression", path: "e.m", line: 1, column: 1, severity: .warning, message: "m"),
        ]
    }

    func testCountsPercentagesAndStatusesPerFileAndService() {
        let p = MigrationProgress(findings: findings, filesLinted: 6)
        XCTAssertEqual(p.files.map(\.name), ["a.m", "b.m", "c.m", "d.m"])
        XCTAssertEqual(p.files.map(\.counts), [.init(direct: 2, fallback: 1, injected: 1), .init(fallback: 2),
                                               .init(injected: 1), .init(direct: 1)])
        XCTAssertEqual(p.files.map(\.counts.percentMigrated), [25, 0, 100, 0])
        XCTAssertEqual(p.files.map(\.counts.status), [.inProgress, .bridged, .migrated, .notStarted])
        XCTAssertEqual(p.services.map(\.name), ["(container)", "crashReporter", "dateProvider"])
        XCTAssertEqual(p.services.map(\.counts), [.init(direct: 2), .init(direct: 1, fallback: 2), .init(fallback: 1, injected: 2)])
        XCTAssertEqual(p.total, .init(direct: 3, fallback: 3, injected: 2))
        XCTAssertEqual(p.total.percentMigrated, 25)
        XCTAssertNil(MigrationCounts().percentMigrated)
    }

    func testMarkdownTables() {
        let markdown = MigrationProgress(findings: findings, filesLinted: 6).markdown()
        XCTAssertTrue(markdown.contains("8 container accesses in 4 of 6 linted files; 25.0% migrated"), markdown)
        XCTAssertTrue(markdown.contains("| a.m | 2 | 1 | 1 | 25.0% | in progress |\n"), markdown)
        XCTAssertTrue(markdown.contains("| b.m | 0 | 2 | 0 | 0.0% | bridged |\n"), markdown)
        XCTAssertTrue(markdown.contains("| dateProvider | 0 | 1 | 2 | 66.7% | bridged |\n"), markdown)
        XCTAssertTrue(markdown.contains("| **Total** | **3** | **3** | **2** | **25.0%** |"), markdown)
    }

    func testJSON() throws {
        let json = MigrationProgress(findings: findings, filesLinted: 6).json()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["name"] as? String }, ["a.m", "b.m", "c.m", "d.m"])
        XCTAssertEqual(files[1]["fallback"] as? Int, 2)
        XCTAssertEqual(files[1]["percentMigrated"] as? Double, 0)
        XCTAssertEqual(files[1]["status"] as? String, "bridged")
        let total = try XCTUnwrap(object["total"] as? [String: Any])
        XCTAssertEqual(total["accesses"] as? Int, 8)
        XCTAssertEqual(total["percentMigrated"] as? Double, 25)
        XCTAssertEqual(object["filesLinted"] as? Int, 6)
        let empty = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(MigrationProgress(findings: [], filesLinted: 1).json().utf8)) as? [String: Any])
        XCTAssertTrue((empty["total"] as? [String: Any])?["percentMigrated"] is NSNull)
    }

    func testCountsTheAccessesOfARealRun() throws {
        let project = try GateProject(self, files: [
            "a.m": objcSource(accesses: ["[Container sharedInstance]", "[[Container sharedInstance] crashReporter]"]),
            "b.c": "void g(void) { container_shared()->now(); }\n",
            "clean.m": "void h(void) {}\n",
        ])
        let result = try project.lint()
        let p = MigrationProgress(findings: result.findings, filesLinted: result.filesChecked)
        XCTAssertEqual(p.files.map { FileCollector.relative($0.name, to: project.root.path) }, ["a.m", "b.c"])
        XCTAssertEqual(p.total.direct, 3)
        XCTAssertEqual(p.services.map(\.name), ["(container)", "crashReporter", "now"])
        XCTAssertEqual(p.filesLinted, 3)
    }
}
