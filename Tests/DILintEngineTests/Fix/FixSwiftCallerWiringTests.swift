import Foundation
import XCTest
@testable import DILintEngine

/// Swift `finish` with calls of the initializer that omit `bridge:`: what each caller is given,
/// and the callers it leaves (with the type's default) for a person.
final class FixSwiftCallerWiringTests: XCTestCase {
    /// A type as inject leaves it: a stored bridge and a defaulted parameter.
    static let probe = """
        final class Probe {
            let bridge: CrashBridge
            let tag: String

            init(tag: String, bridge: CrashBridge = Container.sharedInstance()) {
                self.bridge = bridge
                self.tag = tag
            }

            func run() { bridge.store.load(tag) }
        }

        """

    static let owner = """
        final class Owner {
            let bridge: CrashBridge

            init(bridge: CrashBridge) {
                self.bridge = bridge
            }

            func later(_ f: @escaping () -> Void) {}

        """

    private func finish(_ files: [String: String]) throws -> FixPlan {
        let root = try temporaryDirectory(self)
        for (name, text) in files { try Data(text.utf8).write(to: root.appendingPathComponent(name)) }
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n", baseDirectory: root.path)
        let paths = try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path])
        return Fixer(configuration: configuration).plan(files: paths, phase: .finish)
    }

    private func assertLeft(_ caller: String, _ why: String, file: StaticString = #filePath, line: UInt = #line) throws
    {
        let plan = try finish(["Probe.swift": Self.probe, "Owner.swift": Self.owner + caller + "\n}\n"])
        XCTAssertTrue(plan.accepted.isEmpty, "\(plan.accepted.map(\.title))", file: file, line: line)
        // a direct access the caller makes is listed as well (finish leaves it direct)
        let items = plan.manual.filter { $0.reason != .directInFinish }
        XCTAssertEqual(items.map(\.reason), [.callersRelyOnDefault], file: file, line: line)
        XCTAssertTrue(items.first?.detail?.contains(why) == true, items.first?.detail ?? "", file: file, line: line)
    }

    func testWeakSelfClosureIsLeft() throws {
        try assertLeft(
            "    func go() { later { [weak self] in _ = self; _ = Probe(tag: \"w\") } }",
            "in a closure that holds self weakly")
    }

    func testInitializerWithoutTheBridgeIsLeft() throws {
        try assertLeft(
            "    convenience init() { self.init(bridge: Container.sharedInstance()); _ = Probe(tag: \"i\") }",
            "an initializer of Owner that does not take the bridge")
    }

    func testStoredPropertyOfBridgedTypeIsLeft() throws {
        try assertLeft("    let probe = Probe(tag: \"p\")", "a stored property's initial value in Owner")
    }

    func testDelegatingInitializerIsLeft() throws {
        let plan = try finish([
            "Probe.swift": Self.probe + "extension Probe {\n    convenience init() { self.init(tag: \"x\") }\n}\n"
        ])
        XCTAssertTrue(plan.accepted.isEmpty)
        XCTAssertTrue(
            plan.manual.first?.detail?.contains("a delegating initializer") == true, plan.manual.first?.detail ?? "")
    }

    /// A call that fits only an initializer without the bridge does not rely on the default.
    func testCallOfAnotherInitializerIsNotACaller() throws {
        let plan = try finish([
            "Probe.swift": Self.probe
                + "extension Probe {\n    convenience init(number: Int) {\n        self.init(tag: \"\\(number)\", bridge: CrashBridge())\n    }\n}\nlet p = Probe(number: 1)\n"
        ])
        XCTAssertEqual(plan.manual.map(\.reason), [])
        XCTAssertEqual(plan.accepted.map(\.title), ["finish Swift type Probe"])
        XCTAssertEqual(plan.acceptedCallers.count, 0)
    }

    /// In a deinit and a computed property the bridge is in reach; in a `lazy` value it is `self.bridge`.
    func testDeinitComputedAndLazy() throws {
        let plan = try finish([
            "Probe.swift": Self.probe,
            "Owner.swift": Self.owner + """
                    deinit { _ = Probe(tag: "d") }
                    var current: Probe { Probe(tag: "c") }
                    lazy var first = Probe(tag: "l")
                }

                """,
        ])
        XCTAssertEqual(plan.manual.map(\.reason), [])
        XCTAssertEqual(plan.acceptedCallers.map(\.argument), ["bridge", "bridge", "self.bridge"])
        XCTAssertTrue(plan.isComplete)
    }

    func testSeveralTrailingClosuresAreLeft() throws {
        let job = """
            final class Job {
                let bridge: CrashBridge

                init(a: () -> Void, b: () -> Void, bridge: CrashBridge = Container.sharedInstance()) {
                    self.bridge = bridge
                }

                func run() { bridge.store.load("") }
            }
            func make() { _ = Job {} b: {} }

            """
        let plan = try finish(["Job.swift": job])
        XCTAssertTrue(plan.accepted.isEmpty)
        XCTAssertTrue(
            plan.manual.first?.detail?.contains("several trailing closures") == true, plan.manual.first?.detail ?? "")
    }

    /// A bridge parameter that is not the last (a type that took the bridge before inject): a
    /// call filling a parameter after it is left; one omitting those gets `bridge:` last.
    func testBridgeParameterNotLast() throws {
        func source(_ call: String) -> String {
            """
            final class Early {
                let bridge: CrashBridge

                init(bridge: CrashBridge = Container.sharedInstance(), name: String = "") {
                    self.bridge = bridge
                }

                func run() { bridge.store.load("") }
            }
            let e = \(call)

            """
        }
        let left = try finish(["Early.swift": source("Early(name: \"x\")")])
        XCTAssertTrue(left.accepted.isEmpty)
        XCTAssertTrue(
            left.manual.first?.detail?.contains("an argument fills a parameter after the bridge parameter") == true,
            left.manual.first?.detail ?? "")
        let wired = try finish(["Early.swift": source("Early()")])
        XCTAssertEqual(wired.acceptedCallers.map(\.argument), ["Container.sharedInstance()"])
        XCTAssertEqual(wired.manual.map(\.reason), [])
    }
}
