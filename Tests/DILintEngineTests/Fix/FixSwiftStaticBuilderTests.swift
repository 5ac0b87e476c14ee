import Foundation
import XCTest
@testable import DILintEngine

/// A Swift type built in a static's initial value that the container's own initialization reads
/// (sentry-cocoa: `SentryDependencyContainer`'s `crashWrapper = Dependencies.crashWrapper`, and
/// `static let crashWrapper = SentryCrashWrapper(…)`): a bridge default reading the container
/// would run while the container is being built and re-enter it. With the run holding every reader
/// (`swift-callers-in-run: true`) the container builds the type itself, lazily, with a bridge made
/// from its own services, and the static goes; otherwise, or when a reader is outside the
/// container, inject leaves the type for manual work. Built in a static the container does not
/// read, it takes the bridge.
final class FixSwiftStaticBuilderTests: XCTestCase {
    let wrapper = """
        final class Wrapper {
            let n: Int

            init(n: Int) {
                self.n = n
            }

            func run() { _ = Container.sharedInstance().store }
        }

        """
    let dependencies = "enum Dependencies {\n    static let wrapper = Wrapper(n: 1)\n}\n"

    func container(reading: Bool) -> String {
        """
        final class Store {}
        final class Container {
            static let shared = Container()
            static func sharedInstance() -> Container { shared }
            let store = Store()
        \(reading ? "    let wrapper = Dependencies.wrapper\n" : "")}

        """
    }

    func plan(_ files: [String: String]) throws -> FixPlan {
        let root = try temporaryDirectory(self)
        for (name, text) in files {
            try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let yaml = "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"
        let configuration = try Configuration.parse(yaml: yaml, baseDirectory: root.path)
        return Fixer(configuration: configuration).plan(
            files: try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path]), phase: .inject)
    }

    func testRefusedWhenTheContainerReadsTheStaticThatBuildsIt() throws {
        let plan = try plan([
            "Wrapper.swift": wrapper, "Dependencies.swift": dependencies, "Container.swift": container(reading: true),
        ])
        XCTAssertEqual(plan.manual.map(\.reason), [.swiftInitializers])
        XCTAssertTrue(
            plan.manual.first?.detail?.contains("'Dependencies.wrapper' at ") == true
                && plan.manual.first?.detail?.contains("Dependencies.swift:2:26") == true, "\(plan.manual)")
        XCTAssertTrue(plan.accepted.allSatisfy { $0.edits.isEmpty })
    }

    func testRefusedWhenTheContainerIsNotInTheRun() throws {
        let plan = try plan(["Wrapper.swift": wrapper, "Dependencies.swift": dependencies])
        XCTAssertEqual(plan.manual.map(\.reason), [.swiftInitializers])
    }

    // MARK: The container builds the type

    let bridged = """
        final class CrashBridge {
            let store: Store
            init(store: Store) { self.store = store }
        }

        """
    let user = "final class User {\n    init(wrapper: Wrapper, n: Int) {}\n}\n"
    let readingContainer = """
        final class Store {}
        final class Container {
            static let shared = Container()
            static func sharedInstance() -> Container { shared }
            let store = Store()
            @objc public var wrapper = Dependencies.wrapper
            var user = User(wrapper: Dependencies.wrapper, n: 2)

            func current() -> Wrapper { Dependencies.wrapper }

            func later() -> Wrapper { Wrapper(n: 3) }
        }

        """
    let callersInRun =
        "swift-callers-in-run: true\nswift-bridge-default: \"CrashBridge(store: Container.sharedInstance().store)\"\n"

    func files(_ extra: [String: String] = [:]) -> [String: String] {
        [
            "Wrapper.swift": wrapper,
            "Dependencies.swift":
                "enum Dependencies {\n    /// The one wrapper.\n    static let wrapper = Wrapper(n: 1)\n    static let other = 2\n}\n",
            "Container.swift": readingContainer, "Bridge.swift": bridged, "User.swift": user,
        ].merging(extra) { $1 }
    }

    func run(_ files: [String: String], phase: FixPhase, config: String, apply: Bool, in root: URL? = nil) throws -> (
        FixPlan, URL
    ) {
        let root =
            try root
            ?? {
                let root = try temporaryDirectory(self)
                for (name, text) in files {
                    try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
                }
                return root
            }()
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n" + config,
            baseDirectory: root.path)
        let plan = Fixer(configuration: configuration).plan(
            files: try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path]), phase: phase)
        if apply { _ = try FixApplier.apply(plan) }
        return (plan, root)
    }

    func testTheContainerBuildsTheTypeLazilyFromItsOwnServicesAndTheStaticGoes() throws {
        let (inject, root) = try run(files(), phase: .inject, config: callersInRun, apply: true)
        XCTAssertEqual(inject.manual.map(\.reason), [], "\(inject.manual)")
        XCTAssertEqual(inject.accepted.count, 1, "\(inject.groups)")
        XCTAssertTrue(inject.isComplete)
        let container = try String(contentsOf: root.appendingPathComponent("Container.swift"), encoding: .utf8)
        XCTAssertEqual(
            container,
            readingContainer
                .replacingOccurrences(
                    of: "@objc public var wrapper = Dependencies.wrapper",
                    with: "@objc public lazy var wrapper = Wrapper(n: 1, bridge: CrashBridge(store: self.store))"
                )
                .replacingOccurrences(
                    of: "var user = User(wrapper: Dependencies.wrapper, n: 2)",
                    with: "lazy var user = User(wrapper: self.wrapper, n: 2)"
                )
                .replacingOccurrences(
                    of: "func current() -> Wrapper { Dependencies.wrapper }",
                    with: "func current() -> Wrapper { self.wrapper }"))
        XCTAssertEqual(
            try String(contentsOf: root.appendingPathComponent("Dependencies.swift"), encoding: .utf8),
            "enum Dependencies {\n    static let other = 2\n}\n", "the static and its comment are gone, nothing else")
        let notes = inject.accepted.flatMap { $0.notes ?? [] }
        XCTAssertEqual(notes.count, 3, "\(notes)")
        XCTAssertTrue(
            notes.contains {
                $0.contains("Container.swift:6:5: note: Container.wrapper is lazy now")
                    && $0.contains("not synchronised")
            }, "\(notes)")
        XCTAssertTrue(
            notes.contains {
                $0.contains("Container.swift:7:5: note: Container.user is lazy now: built on first read, after wrapper")
            }, "\(notes)")
        XCTAssertTrue(
            notes.contains { $0.contains("Dependencies.swift:3:5: note: 'Dependencies.wrapper' is removed") },
            "\(notes)")
        XCTAssertTrue(inject.details.contains { $0.contains("note: 'Dependencies.wrapper' is removed") })
        XCTAssertTrue(
            try run([:], phase: .inject, config: callersInRun, apply: false, in: root).0.groups.isEmpty,
            "a second run plans nothing")

        // finish: the default goes; the container's own method is given the bridge from its services
        let (finish, _) = try run([:], phase: .finish, config: callersInRun, apply: true, in: root)
        XCTAssertTrue(finish.isComplete, "\(finish.manual) \(finish.refusedGroups)")
        XCTAssertEqual(finish.acceptedCallers.map(\.argument), ["CrashBridge(store: self.store)"])
        XCTAssertEqual(finish.acceptedCallers.map(\.explicitDefault), [false])
        XCTAssertTrue(
            finish.summary.contains(
                "1 caller given the bridge: 0 from the bridge in reach, 1 built from the container's own services, 0 explicitly"
            ), finish.summary)
        let finished = try String(contentsOf: root.appendingPathComponent("Container.swift"), encoding: .utf8)
        XCTAssertTrue(
            finished.contains("func later() -> Wrapper { Wrapper(n: 3, bridge: CrashBridge(store: self.store)) }"),
            finished)
        XCTAssertFalse(
            try String(contentsOf: root.appendingPathComponent("Wrapper.swift"), encoding: .utf8).contains("Container"))
        XCTAssertTrue(try run([:], phase: .finish, config: callersInRun, apply: false, in: root).0.groups.isEmpty)
    }

    func testTheContainerDoesNotBuildItWhenAReaderIsElsewhereOrALet() throws {
        let elsewhere = try run(
            files(["Other.swift": "func peek() -> Wrapper { Dependencies.wrapper }\n"]), phase: .inject,
            config: callersInRun, apply: false
        ).0
        XCTAssertEqual(elsewhere.manual.map(\.reason), [.swiftInitializers])
        XCTAssertTrue(
            elsewhere.manual[0].detail?.contains("it is also read at ") == true
                && elsewhere.manual[0].detail?.contains("Other.swift:1:26, outside Container") == true,
            elsewhere.manual[0].detail ?? "")
        let objc = try run(
            files([
                "Peek.m": "void peek(void) { id w = [SentryDeps wrapper]; }\n",
                "Dependencies.swift":
                    "@objc(SentryDeps) final class Dependencies: NSObject {\n    @objc static let wrapper = Wrapper(n: 1)\n}\n",
            ]),
            phase: .inject, config: callersInRun, apply: false
        ).0
        XCTAssertTrue(objc.manual.first?.detail?.contains("Peek.m reads it") == true, "\(objc.manual)")
        let immutable = try run(
            files([
                "Container.swift": readingContainer.replacingOccurrences(
                    of: "@objc public var wrapper", with: "let wrapper")
            ]),
            phase: .inject, config: callersInRun, apply: false
        ).0
        XCTAssertTrue(
            immutable.manual.first?.detail?.contains("would have to become a lazy var") == true, "\(immutable.manual)")
        let unknownCallers = try run(
            files(), phase: .inject,
            config: "swift-bridge-default: \"CrashBridge(store: Container.sharedInstance().store)\"\n", apply: false
        ).0
        XCTAssertTrue(
            unknownCallers.manual.first?.detail?.contains("swift-callers-in-run: true") == true,
            "\(unknownCallers.manual)")
    }

    func testTakesTheBridgeWhenTheContainerDoesNotReadTheStatic() throws {
        let plan = try plan([
            "Wrapper.swift": wrapper, "Dependencies.swift": dependencies, "Container.swift": container(reading: false),
        ])
        XCTAssertEqual(plan.manual.map(\.reason), [])
        XCTAssertTrue(plan.accepted.flatMap(\.edits).map(\.replacement).contains("bridge"), "\(plan.accepted)")
    }
}
