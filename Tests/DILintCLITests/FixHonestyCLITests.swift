import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix` verdicts that tell the truth: no declaration of a type the project does not
/// have, and an exit status of 0 only when nothing in scope is left direct (or, after finish,
/// fallback) — every such access is rewritten, listed with its reason or in a refused group.
final class FixHonestyCLITests: XCTestCase {
    static let swiftContainer = """
        final class TabStore { func count() -> Int { 0 } }
        final class Container {
            static let shared = Container()
            let tabs = TabStore()
        }

        """
    static let swiftModel = """
        final class Model {
            func n() -> Int { Container.shared.tabs.count() }
        }

        """

    // MARK: No invented bridge type

    /// With no bridge type configured the style is `service`: the service itself is injected
    /// (its type from the container's declaration), and no `bridge` is declared.
    func testSwiftInjectWithNoBridgeTypeInjectsTheServiceInsteadOfDeclaringBridge() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\n",
                "S/Container.swift": Self.swiftContainer, "S/Model.swift": Self.swiftModel,
            ])
        let run = try project.run("fix", "--phase", "inject", "S", "--apply")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("1 access rewritten in 1 file; 0 left for manual work"), run.stderr)
        XCTAssertEqual(
            try project.read("S/Model.swift"),
            """
            final class Model {
                let tabs: TabStore

                init(tabs: TabStore = Container.shared.tabs) {
                    self.tabs = tabs
                }

                func n() -> Int { tabs.count() }
            }

            """)
    }

    /// The service's type known nowhere in the run: listed, never guessed.
    func testSwiftServiceOfUnknownTypeIsListedNotGuessed() throws {
        let project = try Project(
            self, files: [".di-lint.yml": "containers: [Container.shared]\n", "S/Model.swift": Self.swiftModel])
        let run = try project.run("fix", "--phase", "inject", "S", "--apply")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "S/Model.swift:2:23: manual: Container.shared.tabs: the service's type is not known in the run"),
            run.stderr)
        XCTAssertEqual(try project.read("S/Model.swift"), Self.swiftModel)
    }

    func testSwiftInjectWithTheDefaultBridgeTypeDeclaredInTheRunStillInjects() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\ninject: bridge\n",
                "S/Container.swift": Self.swiftContainer
                    + "protocol Bridge { var tabs: TabStore { get } }\nextension Container: Bridge {}\n",
                "S/Model.swift": Self.swiftModel,
            ])
        let run = try project.run("fix", "--phase", "inject", "S")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("+    let bridge: Bridge\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("+    func n() -> Int { bridge.tabs.count() }\n"), run.stdout)
    }

    func testObjectiveCInjectWithNoBridgeTypeListsTheAccessUpFront() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.sharedInstance]\n", "Sources/Reporter.m": FixSamples.reporter,
            ])
        let run = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stdout, "")
        // the service style (no bridge-type): the container's declaration of the service is not in the run
        XCTAssertTrue(
            run.stderr.contains(
                "Sources/Reporter.m:6:12: manual: Container.sharedInstance.crashReporter: the service's type is not known in the run"
            ), run.stderr)
        // not a re-parse refusal naming the missing 'Bridge.h'
        XCTAssertFalse(run.stderr.contains("refused"), run.stderr)
        XCTAssertTrue(run.stderr.contains("0 conflicts"), run.stderr)
    }

    // MARK: Exit codes

    func testObjectiveCFinishListsADirectAccessLeftWithAndWithoutService() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": FixSamples.config, "Sources/Reporter.m": FixSamples.reporter,
                "Sources/CrashBridge.h": FixSamples.bridgeHeader,
            ])
        for service in [[], ["--service", "crashReporter"]] {
            let run = try project.runArray(["fix", "--phase", "finish", "Sources"] + service)
            XCTAssertEqual(run.status, 1, "\(service): \(run.stderr)")
            XCTAssertTrue(
                run.stderr.contains(
                    "Sources/Reporter.m:6:12: manual: Container.sharedInstance.crashReporter: "
                        + "a direct access of the service: run --phase inject first (in Reporter install)"), run.stderr)
        }
        // another service's direct access is out of scope: nothing left, exit 0
        let other = try project.run("fix", "--phase", "finish", "Sources", "--service", "uploader")
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertTrue(
            other.stderr.contains("0 accesses rewritten in 0 files; 0 left for manual work; 0 conflicts"), other.stderr)
    }

    static let swiftBridged = """
        final class Service { func run() {} }
        protocol CrashBridge { var reporter: Service { get }; var uploader: Service { get } }
        final class Container: CrashBridge {
            static let shared = Container()
            let reporter = Service()
            let uploader = Service()
        }

        """
    static let swiftInjected = """
        final class Model {
            let bridge: CrashBridge

            init(bridge: CrashBridge = Container.shared) {
                self.bridge = bridge
            }

            func go() {
                bridge.reporter.run()
                bridge.uploader.run()
            }
        }

        """

    func testSwiftFinishListsADirectAccessLeft() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\nbridge-type: CrashBridge\n",
                "S/Container.swift": Self.swiftBridged,
                "S/Other.swift": "final class Other {\n    func go() { Container.shared.reporter.run() }\n}\n",
            ])
        let run = try project.run("fix", "--phase", "finish", "S", "--service", "reporter")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "S/Other.swift:2:17: manual: Container.shared.reporter: a direct access of the service: run --phase inject first"
            ), run.stderr)
    }

    func testServiceFinishListsADefaultThatAlsoServesAnotherService() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\nbridge-type: CrashBridge\n",
                "S/Container.swift": Self.swiftBridged, "S/Model.swift": Self.swiftInjected,
            ])
        let run = try project.run("fix", "--phase", "finish", "S", "--service", "reporter")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "S/Model.swift:4:32: manual: Container.shared: the bridge parameter also serves services outside --service "
                    + "(Model also reads uploader through it)"), run.stderr)
        XCTAssertEqual(run.stdout, "")
        // both services selected: the default goes (exit 0)
        let both = try project.run("fix", "--phase", "finish", "S", "--service", "reporter", "--service", "uploader")
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertTrue(
            both.stdout.contains(
                "-    init(bridge: CrashBridge = Container.shared) {\n+    init(bridge: CrashBridge) {\n"), both.stdout)
    }

    // MARK: Only service reads move

    func testObjectiveCRegistrationAndSetterAreNotRewrittenOntoTheBridge() throws {
        let setup = """
            @interface Setup
            @end

            @implementation Setup
            - (void)install {
                [[Container sharedInstance] registerService:nil];
                [Container.sharedInstance setCrashReporter:nil];
                [[Container sharedInstance] unregisterAll];
            }
            @end

            """
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": FixSamples.config, "Sources/Setup.m": setup,
                "Sources/CrashBridge.h": FixSamples.bridgeHeader,
            ])
        let run = try project.run("fix", "--phase", "inject", "Sources", "--apply")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try project.read("Sources/Setup.m"), setup)
        XCTAssertTrue(
            run.stderr.contains(
                "Sources/Setup.m:6:6: manual: Container.sharedInstance.registerService: not a read of a service (a registration with the container)"
            ), run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "Sources/Setup.m:7:6: manual: Container.sharedInstance.setCrashReporter: the service is assigned to or its address taken"
            ), run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "Sources/Setup.m:8:6: manual: Container.sharedInstance.unregisterAll: not a read of a service"),
            run.stderr)
    }

    func testSwiftRegistrationAndAssignmentAreNotRewrittenOntoTheBridge() throws {
        let setup = """
            final class Setup {
                func install() {
                    Container.shared.register(service: Service())
                    Container.shared.reporter = Service()
                    Container.shared.count += 1
                    swap(&Container.shared.reporter, &spare)
                }
                var spare = Service()
            }

            """
        let container = Self.swiftBridged.replacingOccurrences(
            of: "    let reporter = Service()\n",
            with: "    var reporter = Service()\n    var count = 0\n    func register(service: Service) {}\n")
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\nbridge-type: CrashBridge\n",
                "S/Container.swift": container, "S/Setup.swift": setup,
            ])
        let run = try project.run("fix", "--phase", "inject", "S", "--apply")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try project.read("S/Setup.swift"), setup)
        XCTAssertTrue(
            run.stderr.contains(
                "S/Setup.swift:3:9: manual: Container.shared.register: not a read of a service (a registration with the container)"
            ), run.stderr)
        for line in [4, 5] {
            XCTAssertTrue(run.stderr.contains("S/Setup.swift:\(line):9: manual: Container.shared."), run.stderr)
        }
        XCTAssertTrue(
            run.stderr.contains(
                "S/Setup.swift:6:15: manual: Container.shared.reporter: the service is assigned to or its address taken"
            ), run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "0 accesses rewritten in 0 files; 4 left for manual work (3 the service is assigned to or its address taken, 1 not a read"
            ), run.stderr)
    }

    // MARK: Nested Swift types by their qualified name

    static func nested(_ outer: String, calls: String = "") -> String {
        """
        enum \(outer) {
            final class Editing {
                init(name: String) {
                    self.name = name
                }

                let name: String

                var hasVoice: Bool { Container.shared.reporter.run() }
        \(calls)    }
        }

        """
    }

    func project(nestedWith extra: [String: String] = [:]) throws -> Project {
        try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\nbridge-type: CrashBridge\n",
                "S/Container.swift": Self.swiftBridged.replacingOccurrences(
                    of: "final class Service { func run() {} }",
                    with: "final class Service { func run() -> Bool { true } }"),
                "S/Large.swift": Self.nested(
                    "LargeState", calls: "\n        func next() -> Editing { Editing(name: name) }\n"),
                "S/Small.swift": Self.nested("SmallState"),
                "S/Use.swift": "func make() -> LargeState.Editing { LargeState.Editing(name: \"x\") }\n",
            ].merging(extra) { $1 })
    }

    private func typecheck(_ project: Project, _ names: [String]) throws {
        let sources = names.map { project.root.appendingPathComponent("S/\($0).swift").path }
        let typecheck = try runProcess("/usr/bin/env", ["swiftc", "-typecheck"] + sources, in: project.root)
        XCTAssertEqual(typecheck.status, 0, typecheck.stderr)
    }

    func testNestedTypesOfOneSimpleNameAreTwoTypes() throws {
        let project = try project(nestedWith: [:])
        try project.commitEverything()
        let inject = try project.run("fix", "--phase", "inject", "S", "--apply")
        // before: 2 manual, "the Swift type is not declared exactly once"
        XCTAssertEqual(inject.status, 0, inject.stderr)
        XCTAssertTrue(inject.stderr.contains("2 accesses rewritten in 2 files; 0 left for manual work"), inject.stderr)
        for file in ["S/Large.swift", "S/Small.swift"] {
            let text = try project.read(file)
            XCTAssertTrue(
                text.contains(
                    "        let bridge: CrashBridge\n        init(name: String, bridge: CrashBridge = Container.shared) {\n"
                ), text)
        }
        // finish: LargeState.Editing's callers pass the bridge (by its qualified name outside
        // LargeState, by its simple name inside); 'Editing(name:)' in LargeState is not a call of
        // SmallState.Editing, whose default goes too
        let finish = try project.run("fix", "--phase", "finish", "S", "--apply")
        // the container read moved to make(), outside the composition root
        XCTAssertEqual(finish.status, 1, finish.stderr)
        XCTAssertTrue(
            finish.stderr.contains(
                "2 accesses rewritten in 3 files; 0 left for manual work; 0 conflicts; 2 callers given the bridge"),
            finish.stderr)
        XCTAssertTrue(
            try project.read("S/Large.swift").contains("func next() -> Editing { Editing(name: name, bridge: bridge) }")
        )
        XCTAssertEqual(
            try project.read("S/Use.swift"),
            "func make() -> LargeState.Editing { LargeState.Editing(name: \"x\", bridge: Container.shared) }\n")
        XCTAssertTrue(try project.read("S/Small.swift").contains("        init(name: String, bridge: CrashBridge) {\n"))
        try typecheck(project, ["Container", "Large", "Small", "Use"])
    }

    func testACallByTheSimpleNameOutsideTheOuterTypeKeepsTheDefault() throws {
        // 'Editing(name:)' through a typealias: fix cannot tell which Editing it builds
        let project = try project(nestedWith: [
            "S/Alias.swift":
                "typealias Editing = SmallState.Editing\nfunc other() -> Bool { Editing(name: \"y\").hasVoice }\n"
        ])
        try project.commitEverything()
        XCTAssertEqual(try project.run("fix", "--phase", "inject", "S", "--apply").status, 0)
        let finish = try project.run("fix", "--phase", "finish", "S", "--apply")
        XCTAssertEqual(finish.status, 1, finish.stderr)
        for type in ["LargeState", "SmallState"] {
            XCTAssertTrue(
                finish.stderr.contains(
                    "manual: Container.shared: callers still rely on the bridge parameter's default (\(type).Editing.init is called without 'bridge:' at "
                        + "S/Alias.swift:2:24 (a call of 'Editing' outside \(type): it may build another type of that name))"
                ), finish.stderr)
        }
        XCTAssertTrue(
            try project.read("S/Small.swift").contains("init(name: String, bridge: CrashBridge = Container.shared) {"))
        XCTAssertTrue(
            try project.read("S/Large.swift").contains("init(name: String, bridge: CrashBridge = Container.shared) {"))
        try typecheck(project, ["Container", "Large", "Small", "Use", "Alias"])
    }
}
