import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class ProgressTests: XCTestCase {
    private func access(_ path: String, _ line: Int, _ service: String?, _ kind: AccessKind) -> AccessRecord {
        AccessRecord(
            path: path, line: line, column: 5,
            access: ContainerAccess(container: "Container", accessor: "sharedInstance", service: service, kind: kind))
    }

    private var accesses: [AccessRecord] {
        [
            access("a.m", 1, "crashReporter", .direct), access("a.m", 2, "crashReporter", .fallback),
            access("a.m", 3, "dateProvider", .injected), access("a.m", 4, nil, .direct),
            access("b.m", 1, "crashReporter", .fallback), access("b.m", 2, "dateProvider", .fallback),
            access("c.m", 1, "dateProvider", .injected),
            access("d.m", 1, nil, .direct), access("d.m", 2, "crashReporter", .compositionRoot),
            access("root.m", 1, nil, .compositionRoot),
        ]
    }

    func testCountsPercentagesAndStatusesPerFileAndService() {
        let p = MigrationProgress(accesses: accesses, filesLinted: 6)
        XCTAssertEqual(p.files.map(\.name), ["a.m", "b.m", "c.m", "d.m", "root.m"])
        XCTAssertEqual(
            p.files.map(\.counts),
            [
                .init(direct: 2, fallback: 1, injected: 1), .init(fallback: 2),
                .init(injected: 1), .init(direct: 1, compositionRoot: 1), .init(compositionRoot: 1),
            ])
        XCTAssertEqual(p.files.map(\.counts.percentMigrated), [25, 0, 100, 0, nil])
        XCTAssertEqual(
            p.files.map(\.counts.status), [.inProgress, .bridged, .migrated, .notStarted, .nothingToMigrate])
        XCTAssertEqual(p.services.map(\.name), ["(container)", "crashReporter", "dateProvider"])
        XCTAssertEqual(
            p.services.map(\.counts),
            [
                .init(direct: 2, compositionRoot: 1), .init(direct: 1, fallback: 2, compositionRoot: 1),
                .init(fallback: 1, injected: 2),
            ])
        XCTAssertEqual(p.total, .init(direct: 3, fallback: 3, injected: 2, compositionRoot: 2))
        XCTAssertEqual(p.total.percentMigrated, 25)
        XCTAssertNil(MigrationCounts().percentMigrated)
    }

    func testMarkdownTables() {
        let markdown = MigrationProgress(accesses: accesses, filesLinted: 6).markdown()
        XCTAssertTrue(markdown.contains("8 container accesses in 5 of 6 linted files; 25.0% migrated"), markdown)
        XCTAssertTrue(markdown.contains("| a.m | 2 | 1 | 1 | 25.0% | in progress | 0 |\n"), markdown)
        XCTAssertTrue(markdown.contains("| b.m | 0 | 2 | 0 | 0.0% | bridged | 0 |\n"), markdown)
        XCTAssertTrue(markdown.contains("| dateProvider | 0 | 1 | 2 | 66.7% | bridged | 0 |\n"), markdown)
        XCTAssertTrue(
            markdown.contains("| **Total** | **3** | **3** | **2** | **25.0%** | in progress | **2** |"), markdown)
        XCTAssertTrue(markdown.contains("| root.m | 0 | 0 | 0 | – | nothing to migrate | 1 |\n"), markdown)
    }

    func testJSON() throws {
        let json = MigrationProgress(accesses: accesses, filesLinted: 6).json()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["name"] as? String }, ["a.m", "b.m", "c.m", "d.m", "root.m"])
        XCTAssertEqual(files[3]["compositionRoot"] as? Int, 1)
        XCTAssertEqual(files[1]["fallback"] as? Int, 2)
        XCTAssertEqual(files[1]["percentMigrated"] as? Double, 0)
        XCTAssertEqual(files[1]["status"] as? String, "bridged")
        let total = try XCTUnwrap(object["total"] as? [String: Any])
        XCTAssertEqual(total["accesses"] as? Int, 8)
        XCTAssertEqual(total["percentMigrated"] as? Double, 25)
        XCTAssertEqual(object["filesLinted"] as? Int, 6)
        let empty = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(MigrationProgress(accesses: [], filesLinted: 1).json().utf8))
                as? [String: Any])
        XCTAssertTrue((empty["total"] as? [String: Any])?["percentMigrated"] is NSNull)
    }

    func testCountsTheAccessesOfARealRun() throws {
        let project = try GateProject(
            self,
            files: [
                "a.m": """
                @implementation Reporter
                - (void)install {
                    id a = [Container sharedInstance];
                    id b = self.bridge ? self.bridge.crashReporter : [[Container sharedInstance] crashReporter];
                    id c = self.bridge.dateProvider;
                }
                @end

                """,
                "b.c": "void g(void) { container_shared()->now(); }\n",
                "clean.m": "void h(void) {}\n",
            ])
        let result = try project.lint()
        let p = MigrationProgress(accesses: result.accesses, filesLinted: result.filesChecked)
        XCTAssertEqual(p.files.map { FileCollector.relative($0.name, to: project.root.path) }, ["a.m", "b.c"])
        XCTAssertEqual(p.files.first?.counts, MigrationCounts(direct: 1, fallback: 1, injected: 2))
        XCTAssertEqual(p.total, MigrationCounts(direct: 2, fallback: 1, injected: 2))
        XCTAssertEqual(p.services.map(\.name), ["(container)", "crashReporter", "dateProvider", "now"])
        XCTAssertEqual(p.filesLinted, 3)
    }
}
