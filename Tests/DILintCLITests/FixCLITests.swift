import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix` through the real binary: dry run, --patch, --format json, --apply, exit codes.
final class FixCLITests: XCTestCase {
    static let reporter = FixSamples.reporter

    func project(extra: [String: String] = [:]) throws -> Project {
        try Project(
            self,
            files: [
                "Sources/Reporter.m": Self.reporter,
                "Sources/CrashBridge.h": FixSamples.bridgeHeader, ".di-lint.yml": FixSamples.config,
            ]
            .merging(extra) { $1 })
    }

    func testDryRunPrintsTheDiffAndWritesNothing() throws {
        let project = try project()
        let dry = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.hasPrefix("--- a/Sources/Reporter.m\n+++ b/Sources/Reporter.m\n"), dry.stdout)
        XCTAssertTrue(
            dry.stdout.contains(
                "+    id r = self.bridge ? self.bridge.crashReporter : [Container sharedInstance].crashReporter;\n"),
            dry.stdout)
        XCTAssertTrue(
            dry.stdout.contains("+@property (nonatomic, strong, nullable) CrashBridge *bridge;\n"), dry.stdout)
        XCTAssertTrue(dry.stdout.contains("+#import \"CrashBridge.h\"\n"), dry.stdout)
        XCTAssertTrue(
            dry.stderr.contains("1 access rewritten in 1 file; 0 left for manual work; 0 conflicts (dry run"),
            dry.stderr)
        XCTAssertEqual(try project.read("Sources/Reporter.m"), Self.reporter)

        let patched = try project.run("fix", "--phase", "inject", "Sources", "--patch", "fix.patch")
        XCTAssertEqual(patched.status, 0, patched.stderr)
        XCTAssertEqual(patched.stdout, "")
        XCTAssertEqual(try project.read("fix.patch"), dry.stdout)

        let json = try project.run("fix", "--phase", "inject", "Sources", "--format", "json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let groups = try XCTUnwrap(json.json["groups"] as? [[String: Any]])
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(groups.first?["title"] as? String, "Objective-C class Reporter")
        XCTAssertEqual((groups.first?["edits"] as? [Any])?.count, 3) // the access, the bridge's #import, the property
        XCTAssertEqual(json.json["secondRunEmpty"] as? Bool, true)
    }

    func testApplyWritesThenASecondRunChangesNothing() throws {
        let project = try project()
        let applied = try project.run("fix", "--phase", "inject", "Sources", "--apply")
        XCTAssertEqual(applied.status, 0, applied.stderr)
        XCTAssertEqual(applied.stdout, "")
        let text = try project.read("Sources/Reporter.m")
        XCTAssertTrue(
            text.contains("id r = self.bridge ? self.bridge.crashReporter : [Container sharedInstance].crashReporter;"),
            text)
        let again = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "")
        XCTAssertTrue(again.stderr.contains("0 accesses rewritten in 0 files"), again.stderr)
        // lint agrees: no direct access left
        XCTAssertEqual(try project.run("Sources").status, 0)
    }

    func testManualItemsExitOneAndAreListed() throws {
        let project = try project(extra: [
            "Sources/Factory.m": """
            @implementation Factory
            + (id)make {
                return [Container sharedInstance].crashReporter;
            }
            @end

            """
        ])
        let run = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains("Sources/Factory.m:3:12: manual: Container.sharedInstance.crashReporter: class method"),
            run.stderr)
        XCTAssertTrue(
            run.stderr.contains("1 left for manual work (1 class method (no instance to hold the bridge))"), run.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        let project = try project()
        XCTAssertEqual(try project.run("fix", "Sources").status, 2) // no --phase
        XCTAssertEqual(try project.run("fix", "--phase", "sideways", "Sources").status, 2)
        try project.write("bad.yml", "containers: [Container.sharedInstance]\nbridge-type: 'not a name'\n")
        let bad = try project.run("fix", "--phase", "inject", "--config", "bad.yml", "Sources")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("bridge-type"), bad.stderr)
    }
}
