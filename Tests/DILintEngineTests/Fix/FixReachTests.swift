@testable import DILintEngine
import Foundation
import XCTest

/// Forms that widened fix's reach: reads in closures that hold self weakly, a type built in a
/// stored property's initial value threaded through its owner's initializers, and declarations
/// read from the project's files outside the run (`--types-from`).
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
            yaml: "containers: [Container.shared]\nbridge-type: CrashBridge\ninject: bridge\n", baseDirectory: root.path
        )
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

    /// finish: a type built in a stored property's initial value of a type that holds the
    /// service gets it threaded through that type's initializers (a class's and a struct's; an
    /// initializer that only traps is left as it is).
    func testAStoredPropertysValueIsBuiltInTheOwnersInitializers() throws {
        try FixFixtureTests.runCase("swiftownerthread", self)
        let (root, configuration) = try FixFixtureTests.tree("swiftownerthread", self)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .finish)
        XCTAssertEqual(plan.accepted.map(\.title), ["finish Swift type TabsModel: service parameter tabStore"])
        XCTAssertEqual(plan.acceptedCallers.map(\.argument), ["tabStore", "store"])
    }

    /// An owner initializer that sets the service from something other than a parameter: the
    /// caller cannot be threaded, and the parameter keeps its default (listed with the reason).
    func testAnOwnerThatDoesNotTakeTheServiceKeepsTheDefault() throws {
        let (root, configuration) = try FixFixtureTests.tree("swiftownerthread", self)
        let file = root.appendingPathComponent("Tabs.swift")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "        self.store = store\n", with: "        self.store = TabStore()\n")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .finish)
        XCTAssertTrue(plan.accepted.isEmpty, "\(plan.accepted.map(\.title))")
        XCTAssertEqual(plan.manual.count, 1)
        XCTAssertTrue(
            plan.manual.first?.detail?.contains(
                "a stored property's initial value in TabsScreen: an initializer does not set 'store' from one of its parameters"
            ) == true, "\(plan.manual)")
    }

    /// An owner holding two stores: which one the type should get is not known; listed.
    func testAnOwnerHoldingTwoOfTheServicesTypeKeepsTheDefault() throws {
        let (root, configuration) = try FixFixtureTests.tree("swiftownerthread", self)
        let file = root.appendingPathComponent("Tabs.swift")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "    let store: TabStore\n", with: "    let store: TabStore\n    let backup = TabStore()\n"
        )
        .replacingOccurrences(of: "let backup = TabStore()", with: "let backup: TabStore = TabStore()")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .finish)
        XCTAssertTrue(plan.accepted.isEmpty, "\(plan.accepted.map(\.title))")
        XCTAssertTrue(
            plan.manual.first?.detail?.contains("TabsScreen, which holds several 'TabStore's") == true, "\(plan.manual)"
        )
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
