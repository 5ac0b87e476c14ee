import Foundation
import XCTest

/// Exit codes, output formats, report, shards, changed-since and the cache, through the real binary.
final class GateCLITests: XCTestCase {
    func testExitCodes() throws {
        let project = try Project(self, files: ["clean/a.m": "void f(void) {}\n", "dirty/b.m": legacySource()])
        XCTAssertEqual(try project.run("clean").status, 0)
        XCTAssertEqual(try project.run("dirty").status, 1)
        XCTAssertEqual(try project.run("--no-such-option").status, 2)
        XCTAssertEqual(try project.run("missing-dir").status, 2)
        try project.write("bad.yml", "containers: [Container.sharedInstance]\nunknown-key: 1\n")
        let badConfig = try project.run("--config", "bad.yml", "dirty")
        XCTAssertEqual(badConfig.status, 2)
        XCTAssertTrue(badConfig.stderr.contains("bad.yml"), badConfig.stderr)
        // Warnings alone do not fail the run.
        try project.write("warn.yml", "containers: [Container.sharedInstance]\nrules:\n  container-access: warning\n")
        XCTAssertEqual(try project.run("--config", "warn.yml", "dirty").status, 0)
    }

    func testSARIFAndGitHubFormats() throws {
        let project = try Project(self, files: ["Sources/Legacy.m": legacySource()])
        let sarif = try project.run("--format", "sarif", "--output", "out.sarif")
        XCTAssertEqual(sarif.status, 1)
        XCTAssertEqual(sarif.stdout, "")
        let log = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(project.read("out.sarif").utf8)) as? [String: Any])
        let results = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 3)
        let uri =
            ((results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            .flatMap { $0["artifactLocation"] as? [String: Any] }?["uri"] as? String
        XCTAssertEqual(uri, "Sources/Legacy.m")

        let github = try project.run("--format", "github")
        XCTAssertEqual(github.status, 1)
        let lines = github.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(
            lines[0].hasPrefix(
                "::error file=Sources/Legacy.m,line=7,col=20,title=di-lint container-access::direct access"),
            String(lines[0]))
    }

    func testReportCountsDirectFallbackAndInjectedAccesses() throws {
        let project = try Project(
            self,
            files: [
                "Sources/Reporter.m": """
                @implementation Reporter
                - (void)install {
                    id a = [Container sharedInstance];
                    id b = self.bridge ? self.bridge.crashReporter : [[Container sharedInstance] crashReporter];
                    id c = self.bridge.dateProvider;
                    // di-lint:disable-next-line container-access -- counted by the report all the same
                    id d = [[Container sharedInstance] dateProvider];
                }
                @end

                """,
                "Sources/Bridged.m":
                    "void f(id bridge) {\n    id x = bridge ? [bridge crashReporter] : [[Container sharedInstance] crashReporter];\n}\n",
                "Sources/Done.m": "void g(id bridge) {\n    id x = [bridge crashReporter];\n}\n",
                "Sources/Clean.m": "void h(void) {}\n",
            ])
        let json = try project.run("report", "--format", "json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let total = try XCTUnwrap(json.json["total"] as? [String: Any])
        XCTAssertEqual(total["direct"] as? Int, 2)
        XCTAssertEqual(total["fallback"] as? Int, 2)
        XCTAssertEqual(total["injected"] as? Int, 4)
        XCTAssertEqual(total["percentMigrated"] as? Double, 50)
        XCTAssertEqual(json.json["filesLinted"] as? Int, 4)
        let files = try XCTUnwrap(json.json["files"] as? [[String: Any]])
        XCTAssertEqual(
            files.map { $0["name"] as? String }, ["Sources/Bridged.m", "Sources/Done.m", "Sources/Reporter.m"])
        XCTAssertEqual(files.map { $0["status"] as? String }, ["bridged", "migrated", "in progress"])
        XCTAssertEqual(files.map { $0["percentMigrated"] as? Double }, [50, 100, 40])
        let services = try XCTUnwrap(json.json["services"] as? [[String: Any]])
        XCTAssertEqual(services.map { $0["name"] as? String }, ["(container)", "crashReporter", "dateProvider"])

        let markdown = try project.run("report", "Sources", "--output", "progress.md")
        XCTAssertEqual(markdown.status, 0)
        let text = try project.read("progress.md")
        XCTAssertTrue(text.contains("| Sources/Bridged.m | 0 | 1 | 1 | 50.0% | bridged | 0 |"), text)
        XCTAssertTrue(text.contains("| **Total** | **2** | **2** | **4** | **50.0%** |"), text)
        // The same options as lint: a bad one is a usage error.
        XCTAssertEqual(try project.run("report", "--shard", "0/2").status, 2)
    }

    func testShardsCoverEveryFileOnceAndMergeToTheUnshardedRun() throws {
        var files: [String: String] = [:]
        for i in 0..<10 {
            files["Module\(i)/File\(i).m"] = legacySource(
                extra: Array(repeating: "id x = [Container sharedInstance];", count: i % 3))
        }
        let project = try Project(self, files: files)
        let whole = try project.run("--format", "json")
        var linted: [String] = []
        for k in 1...3 {
            let shard = try project.run("--shard", "\(k)/3", "--format", "json", "--output", "shard\(k).json")
            XCTAssertNotEqual(shard.status, 2, shard.stderr)
            let findings = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(project.read("shard\(k).json").utf8)) as? [String: Any])
            linted += Set(((findings["findings"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String })
            _ = try project.run("--shard", "\(k)/3", "--format", "sarif", "--output", "shard\(k).sarif")
        }
        XCTAssertEqual(linted.sorted(), (0..<10).map { "Module\($0)/File\($0).m" }, "each file in exactly one shard")

        let merged = try project.run("merge", "shard1.json", "shard2.json", "shard3.json")
        XCTAssertEqual(merged.status, 1)
        XCTAssertEqual(merged.findings as NSArray, whole.findings as NSArray)
        XCTAssertEqual(merged.summary["files"] as? Int, 10)
        XCTAssertEqual(merged.summary["errors"] as? Int, whole.summary["errors"] as? Int)

        let mergedSARIF = try project.run(
            "merge", "shard3.sarif", "shard1.sarif", "shard2.sarif", "--output", "merged.sarif")
        let runs = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(project.read("merged.sarif").utf8)) as? [String: Any])?["runs"]
                as? [[String: Any]])
        XCTAssertEqual(mergedSARIF.status, 1)
        XCTAssertEqual(runs.count, 1)
        XCTAssertEqual((runs[0]["results"] as? [Any])?.count, whole.findings.count)

        XCTAssertEqual(try project.run("--shard", "4/3").status, 2)
        XCTAssertEqual(try project.run("merge", "nothing.json").status, 2)
    }

    func testChangedSinceLintsOnlyChangedFiles() throws {
        let project = try Project(self, files: ["a.m": legacySource(), "b.m": legacySource(), "c.m": legacySource()])
        XCTAssertEqual(try project.run("--changed-since", "HEAD").status, 2, "not a git repository yet")
        try project.commitEverything()
        let none = try project.run("--changed-since", "HEAD", "--format", "json")
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.summary["files"] as? Int, 0)

        try project.write("b.m", legacySource(extra: ["id y = [Container sharedInstance];"]))
        try project.write("d.m", legacySource())
        let changed = try project.run("--changed-since", "HEAD", "--format", "json")
        XCTAssertEqual(changed.status, 1)
        XCTAssertEqual(Set(changed.findings.compactMap { $0["path"] as? String }), ["b.m", "d.m"])
        XCTAssertEqual(changed.summary["files"] as? Int, 2)

        let bad = try project.run("--changed-since", "no-such-branch")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("'no-such-branch' is not a commit"), bad.stderr)
    }

    /// A changed header changes what its includers expand to: they are linted too.
    func testChangedSinceLintsTheIncludersOfAChangedHeader() throws {
        let container = "@interface Container\n+ (id)sharedInstance;\n- (id)crashReporter;\n@end\n"
        let project = try Project(
            self,
            files: [
                "Shared.h": container + "#define SHARED_REPORTER nil\n",
                "Wrapper.h": "#import \"Shared.h\"\n",
                "e.m": "#import \"Shared.h\"\nvoid e(void) { id r = SHARED_REPORTER; }\n",
                "f.m": "#import \"Wrapper.h\"\nvoid f(void) { id r = SHARED_REPORTER; }\n",
                "g.m": "#import \"Unrelated.h\"\nvoid g(void) { }\n",
            ])
        try project.commitEverything()
        try project.write(
            "Shared.h", container + "#define SHARED_REPORTER [[Container sharedInstance] crashReporter]\n")
        let run = try project.run("--changed-since", "HEAD", "--format", "json")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.summary["files"] as? Int, 4, "Shared.h, its includer e.m, and f.m through Wrapper.h; not g.m")
        // The macro's own line, and each use (found through the expansion, libclang knowing Container).
        XCTAssertEqual(
            Set(run.findings.compactMap { $0["path"] as? String }), ["Shared.h", "e.m", "f.m"], "\(run.findings)")
        XCTAssertTrue(
            run.findings.filter { $0["path"] as? String == "e.m" }.allSatisfy {
                ($0["message"] as? String ?? "").contains("through macro 'SHARED_REPORTER'")
            },
            "\(run.findings)")
        XCTAssertTrue(run.stderr.contains("1 changed file(s), and 3 that include a changed header"), run.stderr)
    }

    /// signal-handler-safety follows calls across files: with the callee's file left out of the
    /// run it must not blame the call, and with that file's facts in the cache it sees through it.
    func testChangedSinceKeepsCrossFileHandlerChecksRight() throws {
        let project = try Project(
            self,
            files: [
                "a.c":
                    "#include <signal.h>\nvoid helper(void);\nstatic void on_crash(int s) { helper(); }\nvoid install(void) { signal(SIGSEGV, on_crash); }\n",
                "b.c": "#include <stdlib.h>\nvoid helper(void) { free(malloc(1)); }\n",
                ".gitignore": ".di-lint-cache/\n",
            ])
        try project.commitEverything()
        XCTAssertEqual(try project.run("--cache", ".di-lint-cache").status, 1, "malloc/free reached from the handler")
        try project.write("a.c", try project.read("a.c") + "// edited\n")

        let withCache = try project.run("--changed-since", "HEAD", "--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(withCache.status, 1, withCache.stderr)
        XCTAssertEqual(withCache.summary["files"] as? Int, 1)
        XCTAssertEqual(Set(withCache.findings.compactMap { $0["path"] as? String }), ["b.c"], "\(withCache.findings)")

        let withoutCache = try project.run("--changed-since", "HEAD", "--format", "json")
        XCTAssertEqual(
            withoutCache.status, 0,
            "no 'helper is not on the list' for a function defined outside the run: \(withoutCache.findings)")
    }

    func testCacheServesUnchangedFilesWithTheSameFindings() throws {
        let project = try Project(
            self,
            files: [
                "a.m": legacySource(), "b.m": legacySource(), "c.c": "void g(void) { container_shared()->now(); }\n",
            ])
        let cold = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(cold.summary["cached"] as? Int, 0)
        let warm = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(warm.summary["cached"] as? Int, 3)
        XCTAssertEqual(warm.findings as NSArray, cold.findings as NSArray)
        XCTAssertEqual(warm.status, cold.status)
        try project.write("c.c", "void g(void) { }\n")
        let edited = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(edited.summary["cached"] as? Int, 2)
        XCTAssertEqual(edited.findings.count, cold.findings.count - 1)
        try project.write("not-a-dir", "x")
        let badCache = try project.run("--cache", "not-a-dir/cache")
        XCTAssertEqual(badCache.status, 2)
        XCTAssertTrue(badCache.stderr.contains("not-a-dir/cache: cannot create the cache directory"), badCache.stderr)
    }

    func testBinaryWorksCopiedOutsideTheRepository() throws {
        let outside = try Project(self, files: ["code/a.m": legacySource()])
        let copy = outside.root.appendingPathComponent("bin/di-lint")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: diLintBinary, toPath: copy.path)
        let rules = try CLIRunner.run(["rules"], in: outside.root, binary: copy.path)
        XCTAssertEqual(rules.status, 0, rules.stderr)
        let ids = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Rules").path)
            .filter { $0.hasSuffix(".yml") }.map { String($0.dropLast(4)) }
        XCTAssertGreaterThanOrEqual(ids.count, 4)
        for id in ids { XCTAssertTrue(rules.stdout.contains(id), "\(id) missing from: \(rules.stdout)") }
        let lint = try CLIRunner.run(["code", "--format", "sarif"], in: outside.root, binary: copy.path)
        XCTAssertEqual(lint.status, 1, lint.stderr)
        let driver =
            ((lint.json["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?["driver"] as? [String: Any]
        XCTAssertEqual((driver?["rules"] as? [Any])?.count, ids.count)
    }
}
