import Foundation
import SeamTestSupport
import XCTest

/// `fix --phase wire` at the point of receipt: the root obtains an object of a migrated
/// Objective-C class from a provider (it builds it nowhere) and starts it; wire gives the root
/// its one bridge and sets it on the object right after obtaining it, before `install` — which
/// the original sends right after. The tree is `Fixtures/fix/bridgegen-mixed-c` with the root
/// rewritten, run through the real binary (the chain helpers of `FixBridgePhaseCLITests`).
extension FixBridgePhaseCLITests {
    private static let receivingRoot = """
        import Foundation

        protocol MonitorProvider {
            func makeMonitor() -> Monitor
        }

        final class AppRoot {
            private var monitor: Monitor?
            private let provider: MonitorProvider

            init(provider: MonitorProvider) {
                self.provider = provider
            }

            func run() -> Date {
                if monitor == nil {
                    self.monitor = provider.makeMonitor()
                }
                monitor?.install()
                return Wrapper(label: "main").stamp()
            }

            func restart(with other: MonitorProvider) {
                let fresh: Monitor = other.makeMonitor()
                fresh.install()
                monitor = fresh
            }
        }

        """

    func testSwiftRootObtainingAnObjectiveCObjectSetsItsBridgeBeforeInstall() throws {
        let (project, _) = try tree("bridgegen-mixed-c")
        try project.write("Sources/App/AppRoot.swift", Self.receivingRoot)
        try project.commitEverything()
        try phase("bridge", project, status: 1)
        try phase("inject", project)
        let wired = try wire(project)
        XCTAssertEqual(wired.status, 0, wired.stderr)
        XCTAssertFalse(wired.stderr.contains("manual:"), wired.stderr)
        let root = try project.read("Sources/App/AppRoot.swift")
        XCTAssertTrue(
            root.contains(
                "final class AppRoot {\n    private let bridge: CrashBridge = CrashBridge(services: Container.shared)\n"
            ),
            root)
        XCTAssertEqual(root.components(separatedBy: "private let bridge").count, 2, "one bridge per root: \(root)")
        XCTAssertTrue(
            root.contains(
                "            self.monitor = provider.makeMonitor()\n            self.monitor?.bridge = bridge\n        }\n        monitor?.install()\n"
            ), root)
        XCTAssertTrue(
            root.contains(
                "        let fresh: Monitor = other.makeMonitor()\n        fresh.bridge = bridge\n        fresh.install()\n"
            ),
            root)
        try phase("finish", project)
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0)
        XCTAssertEqual(t.fallback, 0)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }

    /// A set the root already makes after `install` (the order `bridge-injected-after-install`
    /// reports) moves right after the receipt; the group is unsafe (`install` now runs with it).
    func testSwiftRootSettingTheBridgeAfterInstallMovesTheSet() throws {
        let (project, _) = try tree("bridgegen-mixed-c")
        try project.write("Sources/App/AppRoot.swift", Self.receivingRoot)
        try project.commitEverything()
        try phase("bridge", project, status: 1)
        try phase("inject", project)
        let root = try project.read("Sources/App/AppRoot.swift")
        try project.write(
            "Sources/App/AppRoot.swift",
            root.replacingOccurrences(
                of: "final class AppRoot {\n",
                with: "final class AppRoot {\n    private let bridge = CrashBridge(services: Container.shared)\n"
            ).replacingOccurrences(
                of: "        fresh.install()\n", with: "        fresh.install()\n        fresh.bridge = bridge\n"))
        try project.commitEverything()
        let safe = try project.run("fix", "--phase", "wire", "Sources")
        XCTAssertFalse(
            safe.stdout.contains("-        fresh.bridge = bridge\n"), "unsafe only with --unsafe: \(safe.stdout)")
        let dry = try project.run("fix", "--phase", "wire", "--unsafe", "Sources")
        XCTAssertTrue(dry.stdout.contains("-        fresh.bridge = bridge\n"), dry.stdout)
        let applied = try project.run("fix", "--phase", "wire", "--unsafe", "Sources", "--apply")
        XCTAssertFalse(applied.stderr.contains("refused"), applied.stderr)
        let after = try project.read("Sources/App/AppRoot.swift")
        XCTAssertTrue(
            after.contains(
                "        let fresh: Monitor = other.makeMonitor()\n        fresh.bridge = bridge\n        fresh.install()\n        monitor = fresh\n"
            ),
            after)
        XCTAssertEqual(after.components(separatedBy: "private let bridge").count, 2, after)
        XCTAssertEqual(try project.run("fix", "--phase", "wire", "--unsafe", "Sources").stdout, "")
    }

    /// The Objective-C root obtains its `Installation` from a provider and sends `install` right
    /// after: the bridge it now owns is set between the two.
    func testObjectiveCRootObtainingAnObjectSetsItsBridgeBeforeInstall() throws {
        let (project, _) = try tree("bridgegen-objc", leaving: ["Sources/Crash/Session.m"])
        try phase("bridge", project)
        try phase("inject", project)
        // the root, written after inject (it reads no service); NSObject as Foundation declares it (the tree is parsed without an SDK): the getter's
        // `[CrashBridge alloc]` resolves
        try project.write(
            "Sources/Crash/Base.h", "@interface NSObject\n+ (instancetype)alloc;\n- (instancetype)init;\n@end\n")
        try project.write(
            "Sources/Crash/CrashIntegration.m",
            """
            #import "Base.h"
            #import "Installation.h"

            @protocol InstallationProvider
            - (Installation *)makeInstallation;
            @end

            @interface CrashIntegration : NSObject
            @property (nonatomic, strong) Installation *installation;
            @end

            @implementation CrashIntegration

            - (void)startWith:(id<InstallationProvider>)provider
            {
                self.installation = [provider makeInstallation];
                [self.installation install];
            }

            - (void)restartWith:(id<InstallationProvider>)provider
            {
                Installation *fresh = [provider makeInstallation];
                [fresh install];
                _installation = fresh;
            }

            @end

            """)
        try project.commitEverything()
        let wired = try wire(project)
        XCTAssertEqual(wired.status, 0, wired.stderr)
        XCTAssertFalse(wired.stderr.contains("manual:"), wired.stderr)
        let root = try project.read("Sources/Crash/CrashIntegration.m")
        XCTAssertTrue(
            root.contains(
                "    self.installation = [provider makeInstallation];\n    self.installation.bridge = self.bridge;\n    [self.installation install];\n"
            ), root)
        XCTAssertTrue(
            root.contains(
                "    Installation *fresh = [provider makeInstallation];\n    fresh.bridge = self.bridge;\n    [fresh install];\n    _installation = fresh;\n"
            ), root)
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
