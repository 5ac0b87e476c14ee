import Foundation
import XCTest
@testable import DILintEngine

/// An `@objc` Swift initializer (its selector gains `bridge:`), which swiftc on this platform
/// cannot type-check, so it is not in the fixture trees: refused by default, rewritten with
/// `swift-callers-in-run: true`, refused again when an Objective-C file of the run creates the type.
final class FixSwiftObjCInitializerTests: XCTestCase {
    let probe = """
        import Foundation

        @objc final class Probe: NSObject {
            let n: Int

            @objc init(n: Int) {
                self.n = n
                super.init()
            }

            func run() { Container.sharedInstance().store.load("p") }
        }

        """

    func plan(_ files: [String: String], callersInRun: Bool) throws -> FixPlan {
        let root = try temporaryDirectory(self)
        for (name, text) in files {
            try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let yaml =
            "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"
            + (callersInRun ? "swift-callers-in-run: true\n" : "")
        let configuration = try Configuration.parse(yaml: yaml, baseDirectory: root.path)
        return Fixer(configuration: configuration).plan(
            files: try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path]), phase: .inject)
    }

    func testRefusedByDefault() throws {
        let plan = try plan(["Probe.swift": probe], callersInRun: false)
        XCTAssertEqual(plan.manual.map(\.reason), [.swiftInitializers])
        XCTAssertTrue(plan.manual[0].detail?.contains("swift-callers-in-run") == true, "\(plan.manual)")
        XCTAssertTrue(plan.accepted.allSatisfy { $0.edits.isEmpty })
    }

    func testTakesTheBridgeWhenEveryCallerIsInTheRun() throws {
        let plan = try plan(["Probe.swift": probe], callersInRun: true)
        XCTAssertEqual(plan.manual.map(\.reason), [])
        XCTAssertEqual(plan.refusedGroups.map { $0.refused ?? "" }, [])
        let replacements = plan.accepted.flatMap(\.edits).map(\.replacement)
        XCTAssertTrue(replacements.contains(", bridge: CrashBridge = Container.sharedInstance()"), "\(replacements)")
        XCTAssertTrue(replacements.contains("bridge"), "\(replacements)")
    }

    func testRefusedWhenAnObjectiveCFileOfTheRunCreatesTheType() throws {
        let maker = "@class Probe;\nvoid make(void) { (void)[[Probe alloc] initWithN:1]; }\n"
        let plan = try plan(["Probe.swift": probe, "Maker.m": maker], callersInRun: true)
        XCTAssertEqual(plan.manual.map(\.reason), [.swiftInitializers])
        XCTAssertTrue(plan.manual[0].detail?.contains("Maker.m creates a Probe") == true, "\(plan.manual)")
    }
}
