import Foundation
import XCTest

/// `--header-map` / `header-map: true` through the real binary: includes found by bare name, the
/// cache keyed on the map, the map file gone after the run.
final class HeaderMapCLITests: XCTestCase {
    private func project() throws -> Project {
        try Project(
            self,
            files: [
                "Core/Container.h":
                    "@interface Container\n+ (instancetype)sharedInstance;\n@property (readonly) id crashReporter;\n@end\n",
                "Core/Macros.h":
                    "#import \"Container.h\"\n#define CURRENT_REPORTER [[Container sharedInstance] crashReporter]\n",
                "App/Bare.m": "#import \"Macros.h\"\nvoid bare(void) { id r = CURRENT_REPORTER; }\n",
            ])
    }

    /// Findings in App/ (the macro's definition in Core/Macros.h is one too, map or not).
    private func findings(_ run: CLIRunner.Run) -> [String] {
        ((run.json["findings"] as? [[String: Any]]) ?? []).map { "\($0["path"] ?? ""):\($0["line"] ?? "")" }.filter {
            $0.hasPrefix("App/")
        }
    }

    func testOptionConfigAndDefault() throws {
        let p = try project()
        let tmp = p.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let off = try CLIRunner.run(["lint", "App", "Core", "--format", "json"], in: p.root)
        XCTAssertEqual(findings(off), [], off.stderr)
        let on = try CLIRunner.run(
            ["lint", "App", "Core", "--format", "json", "--header-map"], in: p.root,
            environment: ["TMPDIR": tmp.path])
        XCTAssertEqual(findings(on), ["App/Bare.m:2"], on.stderr)
        // the map lived in a private temporary directory, removed when the run ended
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
        try p.write(".di-lint.yml", Project.config + "header-map: true\n")
        XCTAssertEqual(
            findings(try CLIRunner.run(["lint", "App", "Core", "--format", "json"], in: p.root)), ["App/Bare.m:2"])
        XCTAssertEqual(
            findings(try CLIRunner.run(["lint", "App", "Core", "--format", "json", "--no-header-map"], in: p.root)), [])
        // a header name two headers share is counted on standard error
        try p.write("Vendor/lib/Macros.h", "#define CURRENT_REPORTER 0\n")
        let shared = try CLIRunner.run(["lint", "App", "Core", "Vendor", "--format", "json"], in: p.root)
        XCTAssertEqual(findings(shared), ["App/Bare.m:2"])
        XCTAssertTrue(
            shared.stderr.contains("header map: 1 of the tree's header names belong to several headers"), shared.stderr)
    }

    /// An outcome cached under one map is not reused under another: a header added elsewhere in the
    /// tree may be what an include now resolves to.
    func testCacheKeysOnTheMap() throws {
        let p = try project()
        let args = ["lint", ".", "--format", "json", "--header-map", "--cache", "cache"]
        XCTAssertEqual(findings(try CLIRunner.run(args, in: p.root)), ["App/Bare.m:2"])
        let again = try CLIRunner.run(args, in: p.root)
        // Core/Container.h names no container access and nothing signal-handler-safety needs: not parsed nor cached
        XCTAssertEqual((again.json["summary"] as? [String: Any])?["cached"] as? Int, 2, again.stdout)
        try p.write("Other/Unrelated.h", "int unrelated;\n")
        let changed = try CLIRunner.run(args, in: p.root)
        XCTAssertEqual((changed.json["summary"] as? [String: Any])?["cached"] as? Int, 0, changed.stdout)
        XCTAssertEqual(findings(changed), ["App/Bare.m:2"])
    }

    /// The include check before libclang follows the map as clang does: a header found only
    /// through it, including a FIFO beside it, fails the including file instead of hanging the run.
    func testIncludeCheckFollowsTheMap() throws {
        let p = try Project(
            self,
            files: [
                "App/Bare.m": "#import \"Evil.h\"\nvoid f(void) { id c = [Container sharedInstance]; }\n",
                "Core/Evil.h": "#include \"Inner.h\"\n",
            ])
        XCTAssertEqual(mkfifo(p.root.appendingPathComponent("Core/Inner.h").path, 0o644), 0)
        let run = try BoundedRun.run([".", "--header-map"], in: p.root, seconds: 30)
        assertBounded(run, status: 1, names: "Inner.h")
        let bare = run.stdout.split(separator: "\n").filter { $0.hasPrefix("App/Bare.m") }
        XCTAssertEqual(bare.count, 1, run.stdout)
        XCTAssertTrue(
            bare.first?.contains("through") == true && bare.first?.contains("Core/Evil.h") == true, run.stdout)
    }
}
