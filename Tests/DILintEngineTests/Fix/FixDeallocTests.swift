import Foundation
import XCTest
@testable import DILintEngine

/// `-dealloc` (the objc fixture's Teardown.m): rewritten under ARC, left with its own reason when
/// the bridge may be gone there.
final class FixDeallocTests: XCTestCase {
    func testDeallocRewrittenUnlessTheBridgeMayBeGone() throws {
        let root = try temporaryDirectory(self)
        let source = FixFixtureTests.fixtures.appendingPathComponent("objc")
        for name in ["Teardown.m", "CrashBridge.h"] {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name + ".in"), to: root.appendingPathComponent(name))
        }
        let yaml = "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"
        let configuration = try Configuration.parse(yaml: yaml, baseDirectory: root.path)
        let plan = Fixer(configuration: configuration).plan(
            files: [root.appendingPathComponent("Teardown.m").path], phase: .inject)
        XCTAssertEqual(plan.accepted.flatMap(\.targets).map(\.expression), ["Container.sharedInstance.notificationHub"])
        XCTAssertEqual(plan.manual.map(\.reason), Array(repeating: .deallocMayLoseBridge, count: 3))
        XCTAssertEqual(
            plan.manual.compactMap(\.detail),
            ["in CountedTeardown dealloc", "in LateTeardown dealloc", "in ClearingTeardown dealloc"])
    }
}
