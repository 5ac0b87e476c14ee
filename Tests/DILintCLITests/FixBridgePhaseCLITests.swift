import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix --phase bridge`, and `inject` on a tree whose config names only the containers
/// and the bridge type: the trees in `Fixtures/fix/bridgegen-*` (each `X.in` is the file `X`,
/// `config.yml` the `.di-lint.yml`, `X.bridge` the file the bridge phase must write), run through
/// the real binary, real libclang and the toolchain's `swiftc`.
final class FixBridgePhaseCLITests: XCTestCase {
    /// A composition root that builds both of `bridgegen-swift`'s types and starts the session.
    static let appRoot = """
        import Foundation

        final class AppRoot {
            func run() -> String {
                let session = Session(started: false)
                session.start()
                let reporter = Reporter(name: "main")
                return reporter.report()
            }
        }

        """

    static let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix")

    /// The fixture's tree in a new git repository (committed); the expected bridge files by path.
    func tree(_ name: String, leaving left: Set<String> = []) throws -> (Project, [String: String]) {
        let source = Self.fixtures.appendingPathComponent(name)
        var files: [String: String] = [
            ".di-lint.yml": try String(contentsOf: source.appendingPathComponent("config.yml"), encoding: .utf8)
        ]
        var expected: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: source.path)
        while let relative = walker?.nextObject() as? String {
            let text = { try String(contentsOf: source.appendingPathComponent(relative), encoding: .utf8) }
            if relative.hasSuffix(".in"), !left.contains(String(relative.dropLast(3))) {
                files[String(relative.dropLast(3))] = try text()
            } else if relative.hasSuffix(".bridge") {
                expected[String(relative.dropLast(7))] = try text()
            }
        }
        let project = try Project(self, files: files)
        try project.commitEverything()
        return (project, expected)
    }

    func typecheck(_ project: Project, _ when: String) throws {
        let swift = try FileManager.default.subpathsOfDirectory(atPath: project.root.path).filter {
            $0.hasSuffix(".swift")
        }.sorted()
        let result = try runProcess("/usr/bin/env", ["swiftc", "-typecheck"] + swift, in: project.root)
        XCTAssertEqual(result.status, 0, "\(when): swiftc -typecheck: \(result.stderr)")
    }

    /// The dry run's diff applies (`git apply --check`) to the tree as it is.
    func checkApplies(_ diff: String, _ project: Project, _ when: String) throws {
        guard !diff.isEmpty else { return }
        try project.write("../\(project.root.lastPathComponent).patch", diff)
        let patch = project.root.deletingLastPathComponent().appendingPathComponent(
            "\(project.root.lastPathComponent).patch")
        defer { try? FileManager.default.removeItem(at: patch) }
        let result = try runProcess("/usr/bin/env", ["git", "apply", "--check", patch.path], in: project.root)
        XCTAssertEqual(result.status, 0, "\(when): git apply --check: \(result.stderr)")
    }

    /// The report's totals as JSON: direct and fallback accesses left.
    func totals(_ project: Project) throws -> (direct: Int, fallback: Int, injected: Int) {
        let report = try project.run("report", "--format", "json", "Sources")
        let json = (try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8))) as? [String: Any] ?? [:]
        let total = json["total"] as? [String: Any] ?? json["totals"] as? [String: Any] ?? [:]
        return (total["direct"] as? Int ?? -1, total["fallback"] as? Int ?? -1, total["injected"] as? Int ?? -1)
    }

    /// A phase whose dry run is checked to apply, then applied; a second dry run plans nothing.
    @discardableResult
    func phase(_ name: String, _ project: Project, status: Int32 = 0) throws -> CLIRunner.Run {
        let dry = try project.run("fix", "--phase", name, "Sources")
        try checkApplies(dry.stdout, project, name)
        let applied = try project.run("fix", "--phase", name, "Sources", "--apply")
        XCTAssertEqual(applied.status, status, "\(name): \(applied.stderr)")
        XCTAssertFalse(applied.stderr.contains("refused"), "\(name): \(applied.stderr)")
        let again = try project.run("fix", "--phase", name, "Sources")
        XCTAssertEqual(again.stdout, "", "\(name) again changes nothing")
        XCTAssertTrue(again.stderr.contains("0 accesses rewritten in 0 files"), "\(name) again: \(again.stderr)")
        return applied
    }

    func testSwiftTreeBridgeInjectFinishEndsMigrated() throws {
        let (project, expected) = try tree("bridgegen-swift")
        try typecheck(project, "before")
        // before (5f957f1): "--phase bridge" is not a phase (exit 2)
        let dry = try project.run("fix", "--phase", "bridge", "Sources")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        let file = "Sources/App/ReporterBridge.swift"
        let want = try XCTUnwrap(expected[file])
        let lines = want.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(
            dry.stdout,
            "--- /dev/null\n+++ b/\(file)\n@@ -0,0 +1,\(lines.count) @@\n" + lines.map { "+\($0)\n" }.joined())
        try phase("bridge", project)
        XCTAssertEqual(try project.read(file), want)
        try typecheck(project, "after bridge")
        try phase("inject", project)
        try typecheck(project, "after inject")
        XCTAssertTrue(
            try project.read("Sources/App/Reporter.swift").contains(
                "init(name: String, bridge: ReporterBridge = ReporterBridge(services: Container.shared)) {"))
        try phase("finish", project)
        try typecheck(project, "after finish")
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0)
        XCTAssertEqual(t.fallback, 0)
        XCTAssertEqual(t.injected, 3)
        XCTAssertEqual(try project.run("fix", "--phase", "bridge", "Sources").stdout, "")
        XCTAssertEqual(try project.read(file), want)
    }

    func testARerunAddsOnlyTheServiceTheRunNewlyReads() throws {
        // the tree without Session.swift: the bridge has two services; with it, a third
        let (project, expected) = try tree("bridgegen-swift", leaving: ["Sources/App/Session.swift"])
        try phase("bridge", project)
        let file = "Sources/App/ReporterBridge.swift"
        XCTAssertFalse(try project.read(file).contains("analytics"))
        try project.write(
            "Sources/App/Session.swift",
            try String(
                contentsOf: Self.fixtures.appendingPathComponent("bridgegen-swift/Sources/App/Session.swift.in"),
                encoding: .utf8))
        let rerun = try project.run("fix", "--phase", "bridge", "Sources")
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let changed = rerun.stdout.split(separator: "\n").filter {
            ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
        }
        XCTAssertTrue(changed.contains("+    let analytics: Analytics"), rerun.stdout)
        XCTAssertEqual(
            changed.filter { $0.hasPrefix("-") },
            ["-typealias ReporterBridgeServices = ClockProvider & TabStoreProvider"])
        try phase("bridge", project)
        XCTAssertEqual(try project.read(file), expected[file], "the same file as one run over the whole tree")
        try typecheck(project, "after the re-run")
    }

    func testAHandEditedBridgeFileIsNeverRewritten() throws {
        let (project, _) = try tree("bridgegen-swift", leaving: ["Sources/App/Session.swift"])
        try phase("bridge", project)
        let file = "Sources/App/ReporterBridge.swift"
        let edited = try project.read(file) + "// ours now\n"
        try project.write(file, edited)
        try project.write(
            "Sources/App/Session.swift",
            try String(
                contentsOf: Self.fixtures.appendingPathComponent("bridgegen-swift/Sources/App/Session.swift.in"),
                encoding: .utf8))
        let rerun = try project.run("fix", "--phase", "bridge", "Sources", "--apply")
        XCTAssertEqual(rerun.status, 1, rerun.stderr)
        XCTAssertTrue(
            rerun.stderr.contains(
                "Sources/App/ReporterBridge.swift:1:1: manual: analytics: fix does not rewrite the file (the bridge file exists and is not the bridge phase's own as written: add the service 'analytics' to it)"
            ), rerun.stderr)
        XCTAssertEqual(try project.read(file), edited)
    }

    func testObjectiveCTreeFirstInjectWritesTheBridgeAndEndsMigrated() throws {
        let (project, expected) = try tree("bridgegen-objc")
        // before (5f957f1): every group refused, "re-parse of Sources/Crash/Installation.m: new
        // error: 'CrashBridge.h' file not found"
        let inject = try phase("inject", project)
        XCTAssertTrue(
            inject.stderr.contains("5 accesses rewritten in 5 files; 0 left for manual work; 0 conflicts"),
            inject.stderr)
        for (file, text) in expected { XCTAssertEqual(try project.read(file), text, file) }
        XCTAssertTrue(try project.read("Sources/Crash/Session.m").contains("#import \"CrashBridge.h\"\n"))
        try phase("finish", project)
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0)
        XCTAssertEqual(t.fallback, 0)
        XCTAssertEqual(t.injected, 5)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout)
        XCTAssertEqual(try project.run("fix", "--phase", "bridge", "Sources").stdout, "")
    }

    /// The inject that plans the facade first reuses the bridge phase's parses of the files as they
    /// are when no parse can read a file the facade adds: here the facade is not written (a
    /// service's type is unknown), so the inject's parses are those of the tree as it is. When the
    /// facade adds a header (`CrashBridge.h`), the inject parses every file itself.
    func testInjectReusesTheBridgePhaseParsesOnlyWhenNoParseCanReadTheFacade() throws {
        let trace = ["DI_LINT_FIX_TRACE": "1"]
        let (written, _) = try tree("bridgegen-objc")
        let withFacade = try CLIRunner.run(
            ["fix", "--phase", "inject", "Sources"], in: written.root, environment: trace)
        XCTAssertFalse(withFacade.stderr.contains("adopted"), withFacade.stderr)
        XCTAssertTrue(withFacade.stderr.contains("5 accesses rewritten in 5 files"), withFacade.stderr)

        let (unknown, _) = try tree("bridgegen-objc")
        try unknown.write(
            "Sources/Crash/Probe.m",
            "#import \"Container.h\"\n\n@interface Probe : NSObject\n@end\n\n@implementation Probe\n\n"
                + "- (id)mystery\n{\n    return Container.sharedInstance.mysteryService;\n}\n\n@end\n")
        try unknown.commitEverything()
        let without = try CLIRunner.run(["fix", "--phase", "inject", "Sources"], in: unknown.root, environment: trace)
        XCTAssertTrue(without.stderr.contains("adopted 3 of 3 parses"), without.stderr)
        // the plan of a run that parses every file itself (the build before the reuse gave this)
        XCTAssertTrue(
            without.stderr.contains(
                "di-lint fix: 0 accesses rewritten in 0 files; 0 left for manual work; 3 conflicts (6 accesses in refused groups)"
            ), without.stderr)
        XCTAssertTrue(
            without.stderr.contains(
                "refused Objective-C class Probe: re-parse of Sources/Crash/Probe.m: new error: 'CrashBridge.h' file not found at line 2"
            ), without.stderr)
        XCTAssertEqual(without.stdout, "")
    }

    func testObjectiveCBridgeDryRunAppliesAndNeverReplacesAFile() throws {
        let (project, expected) = try tree("bridgegen-objc")
        let dry = try project.run("fix", "--phase", "bridge", "Sources")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        try checkApplies(dry.stdout, project, "bridge")
        XCTAssertTrue(dry.stdout.hasPrefix("--- /dev/null\n+++ b/Sources/Crash/CrashBridge.h\n"), dry.stdout)
        // a file at one of the bridge's paths that is not the phase's own stays as it is, and the
        // other file is not written either
        try project.write("Sources/Crash/CrashBridge.m", "// someone else's\n")
        let applied = try project.run("fix", "--phase", "bridge", "Sources", "--apply")
        XCTAssertNotEqual(applied.status, 0, applied.stderr)
        XCTAssertEqual(try project.read("Sources/Crash/CrashBridge.m"), "// someone else's\n")
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: project.root.appendingPathComponent("Sources/Crash/CrashBridge.h").path))
        try FileManager.default.removeItem(at: project.root.appendingPathComponent("Sources/Crash/CrashBridge.m"))
        try phase("bridge", project)
        for (file, text) in expected { XCTAssertEqual(try project.read(file), text, file) }
    }

    func testMixedTreeSwiftBridgeForObjectiveCAndCLeftListed() throws {
        let (project, expected) = try tree("bridgegen-mixed")
        let inject = try project.run("fix", "--phase", "inject", "Sources", "--apply")
        XCTAssertEqual(inject.status, 1, inject.stderr)
        XCTAssertFalse(inject.stderr.contains("refused"), inject.stderr)
        XCTAssertTrue(
            inject.stderr.contains(
                "Sources/App/signals.c:5:27: manual: container_shared(): the container itself is used, not one of its services"
            ),
            inject.stderr)
        XCTAssertTrue(
            inject.stderr.contains(
                "Sources/App/CrashBridge.h:1:1: manual: CrashBridge: the bridge header declares the Swift bridge forward only"
            ),
            inject.stderr)
        for (file, text) in expected { XCTAssertEqual(try project.read(file), text, file) }
        XCTAssertTrue(
            try project.read("Sources/App/Monitor.m").contains(
                "self.bridge ? self.bridge.crashReporter : Container.shared.crashReporter"))
        let finish = try project.run("fix", "--phase", "finish", "Sources", "--apply")
        XCTAssertFalse(finish.stderr.contains("refused"), finish.stderr)
        let t = try totals(project)
        XCTAssertEqual(t.direct, 1, "the C function's read, listed")
        XCTAssertEqual(t.fallback, 0)
        XCTAssertEqual(t.injected, 2)
        XCTAssertEqual(try project.run("fix", "--phase", "bridge", "Sources").stdout, "")
    }

    /// The Swift tree with `root` as `Sources/App/AppRoot.swift`, through bridge, inject and wire,
    /// typechecked after each; wire exits 0 and leaves nothing manual.
    func wiredSwiftTree(root: String) throws -> Project {
        let (project, wired) = try wireSwiftTree(root: root)
        XCTAssertFalse(wired.stderr.contains("manual:"), wired.stderr)
        return project
    }

    /// The same, with `config` appended to the tree's config; returns the applied wire's run.
    func wireSwiftTree(root: String, config: String = "") throws -> (Project, CLIRunner.Run) {
        let (project, _) = try tree("bridgegen-swift")
        if !config.isEmpty { try project.write(".di-lint.yml", try project.read(".di-lint.yml") + config) }
        try project.write("Sources/App/AppRoot.swift", root)
        try project.commitEverything()
        for name in ["bridge", "inject"] {
            try phase(name, project)
            try typecheck(project, "after \(name)")
        }
        let wired = try wire(project)
        XCTAssertEqual(wired.status, 0, wired.stderr)
        try typecheck(project, "after wire")
        return (project, wired)
    }

    /// A dry run of `wire` that applies, applied, then planned again with nothing to do.
    func wire(_ project: Project) throws -> CLIRunner.Run {
        let dry = try project.run("fix", "--phase", "wire", "Sources")
        try checkApplies(dry.stdout, project, "wire")
        let applied = try project.run("fix", "--phase", "wire", "Sources", "--apply")
        XCTAssertFalse(applied.stderr.contains("refused"), "wire: \(applied.stderr)")
        XCTAssertEqual(try project.run("fix", "--phase", "wire", "Sources").stdout, "", "wire again changes nothing")
        return applied
    }

    func testSwiftTreeFromATwoLineConfigBridgeInjectWireFinish() throws {
        // the two-line config, plus where the composition root is: AppRoot builds both types
        let (project, _) = try wireSwiftTree(root: Self.appRoot, config: "composition-root: {types: [AppRoot]}\n")
        let root = try project.read("Sources/App/AppRoot.swift")
        XCTAssertTrue(
            root.contains("private let bridge: ReporterBridge = ReporterBridge(services: Container.shared)"), root)
        XCTAssertTrue(root.contains("Session(started: false, bridge: bridge)"), root)
        XCTAssertTrue(root.contains("Reporter(name: \"main\", bridge: bridge)"), root)
        try phase("finish", project)
        try typecheck(project, "after finish")
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0)
        XCTAssertEqual(t.fallback, 0)
        XCTAssertEqual(try project.run("Sources").status, 0)
    }

    func testObjectiveCTreeWiringSetsTheBridgeBeforeTheFirstInstall() throws {
        // the composition root sends `install` right after building the object: the bridge goes between
        let (project, _) = try tree("bridgegen-objc")
        try project.write(
            ".di-lint.yml", try project.read(".di-lint.yml") + "composition-root: {types: [CrashIntegration]}\n")
        try project.write(
            "Sources/Crash/CrashIntegration.m",
            """
            #import <Foundation/Foundation.h>
            #import "Installation.h"

            @interface CrashIntegration : NSObject
            @property (nonatomic, strong) Installation *installation;
            @end

            @implementation CrashIntegration

            - (void)start
            {
                Installation *installation = [[Installation alloc] init];
                [installation install];
                self.installation = installation;
            }

            @end

            """)
        try project.commitEverything()
        try phase("bridge", project)
        try phase("inject", project)
        let wired = try wire(project)
        XCTAssertTrue(wired.stderr.contains("Session: the run builds the type nowhere"), wired.stderr)
        let root = try project.read("Sources/Crash/CrashIntegration.m")
        XCTAssertTrue(
            root.contains(
                "[[Installation alloc] init];\n    installation.bridge = self.bridge;\n    [installation install];"),
            root)
        XCTAssertTrue(
            root.contains("_bridge = [[CrashBridge alloc] initWithServices:[Container sharedInstance]];"), root)
        try phase("finish", project)
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0)
        XCTAssertEqual(t.fallback, 0)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }
}
