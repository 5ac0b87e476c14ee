@testable import DILintEngine
import Foundation
import XCTest

/// Forms that widened fix's reach on the replay corpus: reads in closures that hold self weakly,
/// and declarations read from the project's files outside the run (`--types-from`).
final class FixReachTests: XCTestCase {
    /// A closure holding self weakly captures the service (`[weak self, analytics =
    /// self.analytics]`) and reads the capture, nested closures too; the fixture pair checks
    /// the bytes, the re-lint, `git apply --check`, an empty second run and `swiftc -typecheck`.
    func testWeakSelfClosuresCaptureTheService() throws {
        try FixFixtureTests.runCase("swiftweakself", self)
        let (root, configuration) = try FixFixtureTests.tree("swiftweakself", self)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(plan.accepted.map(\.title), ["Swift type UpgradesViewModel: service analytics"])
        XCTAssertEqual(plan.accepted.map(\.safety), [.safe])
        XCTAssertEqual(plan.accepted.first?.targets.count, 4)
        XCTAssertTrue(plan.manual.isEmpty, "\(plan.manual)")
    }

    /// The bridge style still lists a read in such a closure: `self.bridge` there would hold self.
    func testTheBridgeStyleListsAWeakSelfClosure() throws {
        let (root, _) = try FixFixtureTests.tree("swiftweakself", self)
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.shared]\nbridge-type: CrashBridge\ninject: bridge\n", baseDirectory: root.path)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(plan.manual.filter { $0.reason == .blockAvoidingSelf }.map(\.line), [14, 17, 19])
    }

    /// A method that declares a local named like the service: the capture would change what the
    /// closure's uses of that local read, so the read is listed.
    func testALocalNamedLikeTheServiceKeepsTheClosureManual() throws {
        let (root, configuration) = try FixFixtureTests.tree("swiftweakself", self)
        let file = root.appendingPathComponent("Upgrades.swift")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "    func load() {\n", with: "    func load() {\n        let analytics = 1\n        _ = analytics\n")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(plan.manual.filter { $0.reason == .blockAvoidingSelf }.count, 3, "\(plan.manual)")
        XCTAssertEqual(plan.accepted.first?.targets.count, 1)
    }

    func testTheIndexReadsTheNamesAfterDeclaringKeywords() {
        let text = """
            public protocol OmniState: AnyObject {}
            final class  Helper {}
            extension Outer.Inner {}
            let protocolName = "x" // protocol
            struct
            Later {}
            """
        XCTAssertEqual(
            SwiftDeclarationIndex.declaredNames(in: Array(text.utf8)), ["OmniState", "Helper", "Outer"])
    }
}
