import Foundation
import SeamTestSupport
import XCTest

/// Service style, two services of one type in one run. Each service's group lands or is refused
/// alone, so an initializer both groups would write (the type has none) or a parameter list both
/// would start (`init()`) cannot be shared: both reads are listed, one service at a time works,
/// and a type whose initializer already takes parameters gets both.
final class FixSwiftServiceTogetherCLITests: XCTestCase {
    static let locator = """
        final class Clock { func now() -> Int { 0 } }
        final class Store { func save() {} }
        enum ServiceLocator {
            static var clock: Clock = Clock()
            static var store: Store = Store()
        }

        """
    static let config = "containers: [ServiceLocator.*]\ninject: service\n"

    private func ticker(initializer: String) -> String {
        """
        final class Ticker {
            private var start = 0
        \(initializer)
            func tick() -> Int {
                ServiceLocator.store.save()
                return ServiceLocator.clock.now() - start
            }
        }

        """
    }

    private func project(_ ticker: String) throws -> Project {
        let project = try Project(
            self, files: ["ServiceLocator.swift": Self.locator, "Ticker.swift": ticker, ".di-lint.yml": Self.config])
        try project.commitEverything()
        return project
    }

    func testATypeWithNoInitializerIsNotGivenOnePerService() throws {
        let source = ticker(initializer: "")
        let project = try project(source)
        let run = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertTrue(run.stderr.contains("0 accesses rewritten"), run.stderr)
        XCTAssertTrue(
            run.stderr.contains("no initializer of its own and the run injects 2 of its services (clock, store)"),
            run.stderr)
        XCTAssertEqual(try project.read("Ticker.swift"), source)

        let one = try project.run("fix", "--phase", "inject", "--apply", "--service", "store", ".")
        XCTAssertTrue(one.stderr.contains("1 access rewritten in 1 file"), one.stderr)
        let after = try project.read("Ticker.swift")
        XCTAssertTrue(after.contains("init(store: Store = ServiceLocator.store) {"), after)
        XCTAssertTrue(after.contains("store.save()") && after.contains("ServiceLocator.clock.now()"), after)
        try typecheck(project)
    }

    func testAnEmptyParameterListIsNotStartedTwice() throws {
        let source = ticker(initializer: "\n    init() {\n        start = 1\n    }\n")
        let project = try project(source)
        let run = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertTrue(run.stderr.contains("its 'init()' takes no parameters"), run.stderr)
        XCTAssertFalse(run.stderr.contains("refused"), run.stderr)
        XCTAssertEqual(try project.read("Ticker.swift"), source)
    }

    func testAnInitializerWithParametersTakesBoth() throws {
        let project = try project(ticker(initializer: "\n    init(start: Int) {\n        self.start = start\n    }\n"))
        let run = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertTrue(run.stderr.contains("2 accesses rewritten in 1 file"), run.stderr)
        let after = try project.read("Ticker.swift")
        XCTAssertTrue(
            after.contains(
                "init(start: Int, clock: Clock = ServiceLocator.clock, store: Store = ServiceLocator.store) {")
                || after.contains(
                    "init(start: Int, store: Store = ServiceLocator.store, clock: Clock = ServiceLocator.clock) {"),
            after)
        let again = try project.run("fix", "--phase", "inject", ".")
        XCTAssertTrue(again.stderr.contains("0 accesses rewritten"), again.stderr)
        try typecheck(project)
    }

    private func typecheck(_ project: Project) throws {
        let check = try runProcess(
            "/usr/bin/env", ["swiftc", "-typecheck", "ServiceLocator.swift", "Ticker.swift"], in: project.root)
        XCTAssertEqual(check.status, 0, check.stderr)
    }
}
