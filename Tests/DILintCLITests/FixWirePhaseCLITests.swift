import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix --phase wire`: each migrated type is given the bridge where the run builds it.
/// Each tree of `Fixtures/fix/wire-*` goes inject → wire → finish through the binary, with
/// `--apply`; after each phase every file is compared byte for byte with its `NAME.<phase>` (else
/// the latest earlier phase's, else `NAME.in`), the dry-run diff applies with `git apply
/// --check`, a second run of the phase changes nothing, and Swift trees type-check. At the end
/// `report` counts 0 direct and 0 fallback accesses and `lint` finds nothing.
final class FixWirePhaseCLITests: XCTestCase {
    static let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix")

    /// Property injection: `self.installer.bridge = self.bridge;` right after the construction and
    /// before `install`, which the original code sends on the next line; the composition-root class
    /// owns the bridge (a property whose getter builds it once); a bridge set after `install` (the
    /// order `bridge-injected-after-install` reports) moves before it.
    func testObjectiveCTree() throws {
        let project = try runTree("wire-objc")
        let integration = try project.read("Integration.m")
        let construction = try XCTUnwrap(integration.range(of: "self.installer = [[Installer alloc] init];"))
        let set = try XCTUnwrap(integration.range(of: "self.installer.bridge = self.bridge;"))
        let install = try XCTUnwrap(integration.range(of: "[self.installer install];"))
        XCTAssertTrue(construction.upperBound < set.lowerBound && set.upperBound < install.lowerBound, integration)
        // the original's late set is gone: the rule that reports it finds nothing now
        let original = try String(
            contentsOf: Self.fixtures.appendingPathComponent("wire-objc/Integration.m.in"), encoding: .utf8)
        XCTAssertTrue(original.contains("    [legacy install];\n    legacy.bridge = bridge;\n"))
        XCTAssertTrue(integration.contains("    legacy.bridge = bridge;\n    [legacy install];\n"), integration)
    }

    /// The generated C setter is called at the start of the composition-root function, which
    /// imports the header declaring it.
    func testCGlobalTree() throws { try runTree("wire-c") }

    /// Constructor injection: the composition-root type gets `let bridge: CrashBridge = …` once,
    /// and every construction in it passes it; a migrated type building another passes its own.
    func testSwiftTree() throws { try runTree("wire-swift") }

    /// Without `lifecycle:`, the bridge goes before any other message to the object: a set after
    /// a configuration message moves; with `lifecycle: [install]` the same set is in order, kept.
    func testLifecycleKeyDecidesWhatTheBridgeMustPrecede() throws {
        let files = [
            "Base.h": "@interface NSObject\n+ (instancetype)alloc;\n- (instancetype)init;\n@end\n",
            "CrashBridge.h": "#import \"Base.h\"\n@interface CrashBridge : NSObject\n@end\n",
            "Uploader.h":
                "#import \"Base.h\"\n@class CrashBridge;\n@interface Uploader : NSObject\n@property (nonatomic, strong, nullable) CrashBridge *bridge;\n@property (nonatomic) int limit;\n- (void)install;\n@end\n",
            "Root.m":
                "#import \"Uploader.h\"\n\nvoid root(CrashBridge *bridge)\n{\n    Uploader *uploader = [[Uploader alloc] init];\n    uploader.limit = 3;\n    uploader.bridge = bridge;\n    [uploader install];\n}\n",
        ]
        let strict = try Project(
            self,
            files: files.merging([".di-lint.yml": "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"])
            { a, _ in a })
        // moving the set changes behaviour (the message now runs with the bridge): unsafe
        let withheld = try strict.run("fix", "--phase", "wire", ".")
        XCTAssertEqual(withheld.status, 1, withheld.stderr)
        XCTAssertEqual(withheld.stdout, "")
        XCTAssertTrue(
            withheld.stderr.contains(
                "withheld (unsafe; --unsafe writes it) wire C function root: uploader's bridge set moved before 'limit' (line 6)"
            ), withheld.stderr)
        let moved = try strict.run("fix", "--phase", "wire", "--unsafe", ".")
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertTrue(
            moved.stdout.hasPrefix("# di-lint fix: unsafe (behaviour may change): wire C function root"), moved.stdout)
        XCTAssertTrue(
            moved.stdout.contains(
                "     Uploader *uploader = [[Uploader alloc] init];\n+    uploader.bridge = bridge;\n     uploader.limit = 3;\n-    uploader.bridge = bridge;\n     [uploader install];\n"
            ), moved.stdout)
        let named = try Project(
            self,
            files: files.merging([
                ".di-lint.yml":
                    "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\nlifecycle: [install]\n"
            ]) { a, _ in a })
        let kept = try named.run("fix", "--phase", "wire", "--unsafe", ".")
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(kept.stdout, "")
        try named.write("bad.yml", "containers: [C.shared]\nlifecycle: install\n")
        let invalid = try named.run("fix", "--phase", "wire", "--config", "bad.yml", ".")
        XCTAssertEqual(invalid.status, 2, invalid.stderr)
        XCTAssertTrue(invalid.stderr.contains("lifecycle must be a list of method names"), invalid.stderr)
    }

    /// An Objective-C class with a bridge property built in Swift: the composition-root type gets
    /// its own bridge once, and each statement keeping a new object is followed by its bridge set
    /// (through `?.` for an optional property); a second run plans nothing.
    func testSwiftBuildsAnObjectiveCClass() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml":
                    "containers: [Container.shared]\nbridge-type: CrashBridge\nswift-bridge-default: \"CrashBridge(container: Container.shared)\"\ncomposition-root:\n  types: [Integration]\n",
                "Base.h": "@interface NSObject\n+ (instancetype)alloc;\n- (instancetype)init;\n@end\n",
                "Crash.h":
                    "#import \"Base.h\"\n@class CrashBridge;\n@interface Crash : NSObject\n@property (nonatomic, strong, nullable) CrashBridge *bridge;\n- (void)install;\n@end\n",
                "Integration.swift": """
                /// The composition root: builds the Objective-C reporter and installs it.
                final class Integration {
                    private var crash: Crash?

                    func start() {
                        let crash = Crash()
                        crash.install()
                        self.crash = crash
                    }

                    func restart() {
                        self.crash = Crash()
                        self.crash?.install()
                    }
                }

                """,
            ])
        try project.commitEverything()
        let dry = try project.run("fix", "--phase", "wire", ".")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(
            dry.stdout,
            """
            --- a/Integration.swift
            +++ b/Integration.swift
            @@ -1,15 +1,18 @@
             /// The composition root: builds the Objective-C reporter and installs it.
             final class Integration {
            +    private let bridge: CrashBridge = CrashBridge(container: Container.shared)
                 private var crash: Crash?
             
                 func start() {
                     let crash = Crash()
            +        crash.bridge = bridge
                     crash.install()
                     self.crash = crash
                 }
             
                 func restart() {
                     self.crash = Crash()
            +        self.crash?.bridge = bridge
                     self.crash?.install()
                 }
             }

            """)
        XCTAssertEqual(try project.run("fix", "--phase", "wire", "--apply", ".").status, 0)
        let again = try project.run("fix", "--phase", "wire", ".")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
    }

    /// A composition-root type that builds a Swift migrated type and an Objective-C one gets one
    /// bridge, which both wirings use, in one group.
    func testOneBridgePerComposingType() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml":
                    "containers: [Container.shared]\nbridge-type: CrashBridge\nswift-bridge-default: \"CrashBridge(container: Container.shared)\"\ncomposition-root:\n  types: [Integration]\n",
                "Base.h": "@interface NSObject\n+ (instancetype)alloc;\n- (instancetype)init;\n@end\n",
                "Crash.h":
                    "#import \"Base.h\"\n@class CrashBridge;\n@interface Crash : NSObject\n@property (nonatomic, strong, nullable) CrashBridge *bridge;\n- (void)install;\n@end\n",
                "Wrapper.swift":
                    "final class Wrapper {\n    let bridge: CrashBridge\n    let name: String\n\n    init(name: String, bridge: CrashBridge = CrashBridge(container: Container.shared)) {\n        self.bridge = bridge\n        self.name = name\n    }\n\n    func run() { bridge.store.load(name) }\n}\n",
                "Integration.swift":
                    "final class Integration {\n    func start() {\n        let crash = Crash()\n        crash.install()\n        Wrapper(name: \"w\").run()\n    }\n}\n",
            ])
        let run = try project.run("fix", "--phase", "wire", ".")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            run.stdout,
            "--- a/Integration.swift\n+++ b/Integration.swift\n@@ -1,7 +1,9 @@\n final class Integration {\n+    private let bridge: CrashBridge = CrashBridge(container: Container.shared)\n     func start() {\n         let crash = Crash()\n+        crash.bridge = bridge\n         crash.install()\n-        Wrapper(name: \"w\").run()\n+        Wrapper(name: \"w\", bridge: bridge).run()\n     }\n }\n"
        )
        XCTAssertTrue(run.stderr.contains("1 composing type or function wired in 1 file"), run.stderr)
    }

    /// A migrated type the run builds nowhere, and one built where no bridge is in reach and none
    /// may be built (outside the composition root): manual items naming the type and what to wire.
    func testTypesNotWiredAreListed() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml":
                    "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\nlifecycle: [install, start]\ncomposition-root: {types: [Integration]}\n",
                "Base.h": "@interface NSObject\n+ (instancetype)alloc;\n- (instancetype)init;\n@end\n",
                "Orphan.h":
                    "#import \"Base.h\"\n@class CrashBridge;\n@interface Orphan : NSObject\n@property (nonatomic, strong, nullable) CrashBridge *bridge;\n@end\n",
                "Worker.h":
                    "#import \"Base.h\"\n@class CrashBridge;\n@interface Worker : NSObject\n@property (nonatomic, strong, nullable) CrashBridge *bridge;\n- (void)start;\n@end\n",
                "Pool.m":
                    "#import \"Worker.h\"\n@interface Pool : NSObject\n@end\n@implementation Pool\n- (void)grow {\n    Worker *w = [[Worker alloc] init];\n    [w start];\n}\n@end\n",
            ])
        let run = try project.run("fix", "--phase", "wire", ".")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(
            run.stderr.contains(
                "Orphan.h:4:54: manual: Orphan: the run builds the type nowhere (or never calls the setter): wire its bridge where it is built (set 'bridge' on each new Orphan right after it is built and before 'install' or 'start')"
            ), run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "Pool.m:6:17: manual: [[Worker alloc] init]: no bridge to pass where the type is built (no bridge in reach, and the place may not build one) (Pool has no bridge to pass, and may not build one (it is not in composition-root:))"
            ), run.stderr)
    }

    // MARK: The chain

    /// Runs inject, wire and finish over a copy of the tree, checking each as described above
    /// (with `--unsafe`: wire-objc moves a bridge set made after `install`, an unsafe group).
    @discardableResult
    private func runTree(_ name: String) throws -> Project {
        let source = Self.fixtures.appendingPathComponent(name)
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path) where file.hasSuffix(".in") {
            files[String(file.dropLast(3))] = try String(
                contentsOf: source.appendingPathComponent(file), encoding: .utf8)
        }
        files[".di-lint.yml"] = try String(contentsOf: source.appendingPathComponent("fix.yml"), encoding: .utf8)
        let project = try Project(self, files: files)
        try project.commitEverything()
        let swift = files.keys.filter { $0.hasSuffix(".swift") }.sorted()
        try typeCheck(project, swift, "\(name) before")
        let phases = ["inject", "wire", "finish"]
        for (n, phase) in phases.enumerated() {
            let dry = try project.run("fix", "--phase", phase, "--unsafe", ".")
            XCTAssertEqual(dry.status, 0, "\(name) \(phase): \(dry.stderr)")
            XCTAssertFalse(dry.stdout.isEmpty, "\(name) \(phase): nothing planned")
            try project.write("\(phase).patch", dry.stdout)
            let check = try runProcess(
                "/usr/bin/env", ["git", "apply", "--check", "\(phase).patch"], in: project.root)
            XCTAssertEqual(check.status, 0, "\(name) \(phase): git apply --check: \(check.stderr)\n\(dry.stdout)")
            try FileManager.default.removeItem(at: project.root.appendingPathComponent("\(phase).patch"))
            let apply = try project.run("fix", "--phase", phase, "--apply", "--unsafe", ".")
            XCTAssertEqual(apply.status, 0, "\(name) \(phase) --apply: \(apply.stderr)")
            for base in files.keys where base != ".di-lint.yml" {
                let candidates = phases[...n].reversed().map { "\(base).\($0)" } + ["\(base).in"]
                let want = try XCTUnwrap(
                    candidates.first { FileManager.default.fileExists(atPath: source.appendingPathComponent($0).path) })
                XCTAssertEqual(
                    try project.read(base),
                    try String(contentsOf: source.appendingPathComponent(want), encoding: .utf8),
                    "\(name) \(phase): \(base) differs from \(want)")
            }
            try typeCheck(project, swift, "\(name) \(phase)")
            let again = try project.run("fix", "--phase", phase, ".")
            XCTAssertEqual(again.status, 0, "\(name) \(phase) again: \(again.stderr)")
            XCTAssertEqual(again.stdout, "", "\(name) \(phase): a second run changes something")
        }
        let report = try project.run("report", "--format", "json", ".")
        let total = try XCTUnwrap(report.json["total"] as? [String: Any], report.stdout + report.stderr)
        XCTAssertEqual(total["direct"] as? Int, 0, "\(name): \(report.stdout)")
        XCTAssertEqual(total["fallback"] as? Int, 0, "\(name): \(report.stdout)")
        XCTAssertGreaterThan(total["injected"] as? Int ?? 0, 0, "\(name): \(report.stdout)")
        let lint = try project.run("lint", "--format", "json", ".")
        XCTAssertEqual(lint.status, 0, "\(name): lint after finish: \(lint.stdout)")
        return project
    }

    /// `swiftc -typecheck` of the tree's Swift files (Foundation only), when it has any.
    private func typeCheck(_ project: Project, _ sources: [String], _ when: String) throws {
        guard !sources.isEmpty else { return }
        let result = try runProcess("/usr/bin/env", ["swiftc", "-typecheck"] + sources, in: project.root)
        XCTAssertEqual(result.status, 0, "\(when): swiftc -typecheck: \(result.stderr)")
    }
}
