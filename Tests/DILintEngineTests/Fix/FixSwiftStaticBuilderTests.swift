import Foundation
import XCTest
@testable import DILintEngine

/// A Swift type built in a static's initial value that the container's own initialization reads
/// (sentry-cocoa: `SentryDependencyContainer`'s `crashWrapper = Dependencies.crashWrapper`, and
/// `static let crashWrapper = SentryCrashWrapper(…)`): a bridge default reading the container
/// would run while the container is being built and re-enter it, so inject leaves the type for
/// manual work; built in a static the container does not read, it takes the bridge.
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
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let yaml = "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"
        let configuration = try Configuration.parse(yaml: yaml, baseDirectory: root.path)
        return Fixer(configuration: configuration).plan(files: try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path]), phase: .inject)
    }

    func testRefusedWhenTheContainerReadsTheStaticThatBuildsIt() throws {
        let plan = try plan(["Wrapper.swift": wrapper, "Dependencies.swift": dependencies, "Container.swift": container(reading: true)])
        XCTAssertEqual(plan.manual.map(\.reason), [.swiftInitializers])
        XCTAssertTrue(plan.manual.first?.detail?.contains("'Dependencies.wrapper' at ") == true && plan.manual.first?.detail?.contains("Dependencies.swift:2:26") == true, "\(plan.manual)")
        XCTAssertTrue(plan.accepted.allSatisfy { $0.edits.isEmpty })
    }

    func testRefusedWhenTheContainerIsNotInTheRun() throws {
        let plan = try plan(["Wrapper.swift": wrapper, "Dependencies.swift": dependencies])
        XCTAssertEqual(plan.manual.map(\.reason), [.swiftInitializers])
    }

    func testTakesTheBridgeWhenTheContainerDoesNotReadTheStatic() throws {
        let plan = try plan(["Wrapper.swift": wrapper, "Dependencies.swift": dependencies, "Container.swift": container(reading: false)])
        XCTAssertEqual(plan.manual.map(\.reason), [])
        XCTAssertTrue(plan.accepted.flatMap(\.edits).map(\.replacement).contains("bridge"), "\(plan.accepted)")
    }
}
