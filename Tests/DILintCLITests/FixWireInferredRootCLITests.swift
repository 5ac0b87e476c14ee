import Foundation
import SeamTestSupport
import XCTest

/// `fix --phase wire` from the two-line config (`containers:`, `bridge-type:`), no
/// `composition-root:`: the root is inferred as the type that builds the migrated types and that
/// the run builds nowhere; the bridge it owns is read from the container there, which counts as
/// the composition root's read. The trees are `Fixtures/fix/bridgegen-*` with a root added, run
/// through the real binary (the chain helpers of `FixBridgePhaseCLITests`).
extension FixBridgePhaseCLITests {
    func testSwiftTreeTwoLineConfigInfersTheRoot() throws {
        let project = try wiredSwiftTree(root: Self.appRoot)
        XCTAssertEqual(
            try project.read(".di-lint.yml"), "containers: [Container.shared]\nbridge-type: ReporterBridge\n")
        let root = try project.read("Sources/App/AppRoot.swift")
        XCTAssertTrue(
            root.contains("    private let bridge: ReporterBridge = ReporterBridge(services: Container.shared)\n"), root
        )
        XCTAssertTrue(root.contains("Session(started: false, bridge: bridge)"), root)
        XCTAssertTrue(root.contains("Reporter(name: \"main\", bridge: bridge)"), root)
        try phase("finish", project)
        try typecheck(project, "after finish")
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0, "the owned bridge's read is the root's")
        XCTAssertEqual(t.fallback, 0)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }

    func testObjectiveCTreeTwoLineConfigInfersTheRootAndSetsTheBridgeBeforeInstall() throws {
        let (project, _) = try tree("bridgegen-objc")
        XCTAssertEqual(
            try project.read(".di-lint.yml"), "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n")
        // the original sends `install` right after building the object: the bridge goes between
        try project.write(
            "Sources/Crash/CrashIntegration.m",
            """
            #import <Foundation/Foundation.h>
            #import "Installation.h"
            #import "Session.h"

            @interface CrashIntegration : NSObject
            @property (nonatomic, strong) Installation *installation;
            @property (nonatomic, strong) Session *session;
            @end

            @implementation CrashIntegration

            - (void)start
            {
                Installation *installation = [[Installation alloc] init];
                [installation install];
                self.installation = installation;
                self.session = [[Session alloc] init];
            }

            @end

            """)
        // Session's interface in a header of its own, so the root can import it
        let session = try project.read("Sources/Crash/Session.m")
        try project.write(
            "Sources/Crash/Session.h", "#import <Foundation/Foundation.h>\n\n@interface Session : NSObject\n@end\n")
        try project.write(
            "Sources/Crash/Session.m",
            session.replacingOccurrences(of: "@interface Session : NSObject\n@end\n", with: "")
                .replacingOccurrences(
                    of: "#import \"Container.h\"\n", with: "#import \"Container.h\"\n#import \"Session.h\"\n"))
        try project.commitEverything()
        try phase("bridge", project)
        try phase("inject", project)
        let wired = try wire(project)
        XCTAssertEqual(wired.status, 0, wired.stderr)
        XCTAssertFalse(wired.stderr.contains("manual:"), wired.stderr)
        let root = try project.read("Sources/Crash/CrashIntegration.m")
        XCTAssertTrue(
            root.contains(
                "[[Installation alloc] init];\n    installation.bridge = self.bridge;\n    [installation install];"),
            root)
        XCTAssertTrue(
            root.contains("self.session = [[Session alloc] init];\n    self.session.bridge = self.bridge;\n"), root)
        XCTAssertTrue(
            root.contains("_bridge = [[CrashBridge alloc] initWithServices:[Container sharedInstance]];"), root)
        try phase("finish", project)
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0, "the root's getter reads the container: the root's read")
        XCTAssertEqual(t.fallback, 0)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }

    /// Swift, Objective-C and C functions of an Objective-C file, from the two-line config: the C
    /// functions get the file's `g_bridge` and its setter (no `c-bridge-global:`), which wire calls
    /// in the method that starts the component (`-[Monitor install]` calls `exceptions_install()`);
    /// the inferred root `AppRoot` owns the bridge and sets it on the Objective-C `Monitor` before
    /// `install`, which the original sends right after building it. (The Swift facade is `@objc`:
    /// Linux's `swiftc` has no Objective-C interop to type-check it.)
    func testMixedTreeWithCGlobalsTwoLineConfig() throws {
        let (project, _) = try tree("bridgegen-mixed-c")
        XCTAssertEqual(try project.read(".di-lint.yml"), "containers: [Container.shared]\nbridge-type: CrashBridge\n")
        // the header Swift generates is no file of the tree: the one manual item
        let bridge = try phase("bridge", project, status: 1)
        XCTAssertTrue(
            bridge.stderr.contains(
                "1 left for manual work (1 the bridge header declares the Swift bridge forward only"), bridge.stderr)
        try phase("inject", project)
        let exceptions = try project.read("Sources/App/exceptions.m")
        XCTAssertTrue(exceptions.contains("static CrashBridge *g_bridge;\n"), exceptions)
        XCTAssertTrue(
            exceptions.contains(
                "void exceptions_setBridge(CrashBridge *_Nullable bridge) {\n    g_bridge = bridge;\n}\n"), exceptions)
        XCTAssertTrue(
            try project.read("Sources/App/exceptions.h").contains(
                "void exceptions_setBridge(CrashBridge *_Nullable bridge);\n"))
        let wired = try wire(project)
        XCTAssertEqual(wired.status, 0, wired.stderr)
        XCTAssertFalse(wired.stderr.contains("manual:"), wired.stderr)
        let root = try project.read("Sources/App/AppRoot.swift")
        XCTAssertTrue(
            root.contains("    private let bridge: CrashBridge = CrashBridge(services: Container.shared)\n"), root)
        XCTAssertTrue(
            root.contains(
                "        let monitor = Monitor()\n        monitor.bridge = bridge\n        monitor.install()\n"), root)
        XCTAssertTrue(root.contains("Wrapper(label: \"main\", bridge: bridge)"), root)
        let monitor = try project.read("Sources/App/Monitor.m")
        XCTAssertTrue(
            monitor.contains("{\n    exceptions_setBridge(self.bridge);\n    exceptions_install();\n"), monitor)
        try phase("finish", project)
        XCTAssertTrue(try project.read("Sources/App/exceptions.m").contains("id reporter = g_bridge.crashReporter;"))
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0)
        XCTAssertEqual(t.fallback, 0)
        XCTAssertEqual(t.injected, 3)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }

    /// The type building the migrated types is itself built in the run (by `Main`): no root is the
    /// top of the build graph, so wire guesses none and says what to configure.
    func testNoRootInferredWhenTheBuilderIsBuiltInTheRun() throws {
        let (project, _) = try tree("bridgegen-swift")
        try project.write(
            "Sources/App/AppRoot.swift",
            "final class AppRoot {\n    func run() -> String {\n        Reporter(name: \"main\").report()\n    }\n}\n")
        try project.write("Sources/App/Main.swift", "enum Main {\n    static func main() { _ = AppRoot().run() }\n}\n")
        try project.commitEverything()
        try phase("bridge", project)
        try phase("inject", project)
        let dry = try project.run("fix", "--phase", "wire", "Sources")
        XCTAssertEqual(dry.status, 1, dry.stderr)
        XCTAssertEqual(dry.stdout, "")
        XCTAssertTrue(
            dry.stderr.contains(
                "Sources/App/AppRoot.swift:3:9: manual: Reporter(…): no bridge to pass where the type is built (no bridge in reach, and the place may not build one) (AppRoot has no bridge to pass, and builds none: the run builds AppRoot in Sources/App/Main.swift, so it is not the top of the build graph: name the type that owns the bridge under composition-root: types:)"
            ), dry.stderr)
    }
}
