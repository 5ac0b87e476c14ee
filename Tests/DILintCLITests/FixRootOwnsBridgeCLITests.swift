import Foundation
import SeamTestSupport
import XCTest

/// A composition root that reads the container itself owns its bridge (`fix --phase wire`), and a
/// builder method of the container's type that the root calls takes the root's one bridge instead
/// of building a facade per call (`finish`). The tree is `Fixtures/fix/bridgegen-swift` with a
/// root added that the run builds nowhere, that reads the container, builds `Reporter`, and asks
/// the container (through a protocol) for a `Session` in its initializer; run through the real
/// binary, and `swiftc -typecheck` after each phase. (Before: the root got a `bridge:` initializer
/// parameter, wire listed "pass 'bridge:' where AppRoot is built", and the builder built
/// `ReporterBridge(services: self)` at each call.)
extension FixBridgePhaseCLITests {
    static let readingRoot = """
        import Foundation

        protocol SessionBuilding {
            func makeSession(_ started: Bool) -> Session
        }

        extension Container: SessionBuilding {
            func makeSession(_ started: Bool) -> Session {
                Session(started: started)
            }
        }

        final class AppRoot {
            private let session: Session

            init(builder: SessionBuilding) {
                session = builder.makeSession(false)
            }

            func run() -> String {
                session.start()
                let reporter = Reporter(name: "main")
                return reporter.report() + " at \\(Container.shared.clock.now())"
            }
        }

        """

    func testARootReadingTheContainerOwnsItsBridgeAndPassesItToTheBuilder() throws {
        let project = try wiredSwiftTree(root: Self.readingRoot)
        var root = try project.read("Sources/App/AppRoot.swift")
        // the root owns one bridge, built once from the container; it takes none
        XCTAssertTrue(
            root.contains("    private let bridge: ReporterBridge = ReporterBridge(services: Container.shared)\n"), root
        )
        XCTAssertTrue(root.contains("    init(builder: SessionBuilding) {\n        session = "), root)
        XCTAssertFalse(root.contains("self.bridge = bridge"), root)
        XCTAssertTrue(root.contains("Reporter(name: \"main\", bridge: bridge)"), root)
        XCTAssertTrue(root.contains(" at \\(bridge.clock.now())"), root)
        try phase("finish", project)
        try typecheck(project, "after finish")
        root = try project.read("Sources/App/AppRoot.swift")
        // the builder takes the root's bridge: no facade built per call
        XCTAssertTrue(root.contains("    func makeSession(_ started: Bool, bridge: ReporterBridge) -> Session\n"), root)
        XCTAssertTrue(root.contains("        Session(started: started, bridge: bridge)\n"), root)
        XCTAssertTrue(root.contains("session = builder.makeSession(false, bridge: bridge)\n"), root)
        XCTAssertFalse(root.contains("ReporterBridge(services: self)"), root)
        XCTAssertEqual(root.components(separatedBy: "ReporterBridge(services:").count - 1, 1, root)
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0, "the owned bridge's read is the root's")
        XCTAssertEqual(t.fallback, 0)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }

    /// A root the run builds nowhere but that composes nothing (reads the container, builds no
    /// migrated type) is a leaf whose builder is outside the run: it keeps the `bridge:`
    /// parameter, and wire lists where it must be passed.
    func testALeafBuiltNowhereKeepsItsParameter() throws {
        let (project, _) = try tree("bridgegen-swift")
        try phase("bridge", project)
        try phase("inject", project)
        let wired = try project.run("fix", "--phase", "wire", "Sources")
        XCTAssertTrue(
            wired.stderr.contains("manual: Reporter: the run builds the type nowhere"), wired.stderr)
        XCTAssertEqual(wired.stdout, "")
    }

    /// A Swift wrapper that builds a migrated Objective-C object in its own initializer and keeps
    /// it (`SentryCrashSwift` holding `SentryCrash`): wire writes no forwarding setter, and the
    /// manual item says why and what to write (before: "no bridge in reach here (an initializer,
    /// a static member or top-level code): pass one in").
    func testAWrapperOfAMigratedObjectIsListedWithWhyNoSetterIsWritten() throws {
        let (project, _) = try tree("bridgegen-mixed-c")
        try project.write(
            "Sources/App/AppRoot.swift",
            """
            import Foundation

            final class MonitorHolder {
                private let monitor: Monitor

                init() {
                    monitor = Monitor()
                }

                func install() {
                    monitor.install()
                }
            }

            final class AppRoot {
                private let holder = MonitorHolder()

                func run() -> Date {
                    holder.install()
                    return Wrapper(label: "main").stamp()
                }
            }

            """)
        try project.commitEverything()
        try phase("bridge", project, status: 1)
        try phase("inject", project)
        let wired = try project.run("fix", "--phase", "wire", "Sources")
        XCTAssertTrue(
            wired.stderr.contains(
                "Sources/App/AppRoot.swift:7:19: manual: Monitor(…): no bridge to pass where the type is built (no bridge in reach, and the place may not build one) (MonitorHolder wraps Monitor in its stored 'monitor', built in its initializer, where no bridge is in reach; fix writes no forwarding setter: MonitorHolder is built in Sources/App/AppRoot.swift, whoever obtains it may share it, and Monitor's lifecycle messages go through it, so no place of the run is known to come before its first one: add a setter on MonitorHolder that sets monitor.bridge, and call it where the composition root obtains MonitorHolder, before Monitor is started)"
            ), wired.stderr)
        XCTAssertFalse(wired.stdout.contains("func setBridge"), wired.stdout)
        XCTAssertFalse(wired.stdout.contains("monitor.bridge ="), wired.stdout)
    }
}
