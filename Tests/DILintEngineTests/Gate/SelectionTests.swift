import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class SelectionTests: XCTestCase {
    func testShardsPartitionTheFilesAndAddingAFileMovesNoOther() throws {
        let root = "/repo"
        let files = (0..<60).map { "/repo/Sources/Module\($0)/File\($0).m" }
        let shards = try (1...4).map { try Shard(index: $0, count: 4).select(files, root: root) }
        XCTAssertEqual(shards.flatMap { $0 }.sorted(), files.sorted())
        XCTAssertEqual(Set(shards.flatMap { $0 }).count, files.count)
        XCTAssertTrue(shards.allSatisfy { !$0.isEmpty }, "\(shards.map(\.count))")
        let grown = files + ["/repo/Sources/New.m"]
        let regrown = try (1...4).map { try Shard(index: $0, count: 4).select(grown, root: root) }
        for (old, new) in zip(shards, regrown) { XCTAssertEqual(new.filter { $0 != "/repo/Sources/New.m" }, old) }
        // The same file lands in the same shard whatever the checkout directory.
        XCTAssertEqual(
            Shard.shard(of: "Sources/Module3/File3.m", count: 4),
            (1...4).first { shards[$0 - 1].contains("/repo/Sources/Module3/File3.m") })
    }

    func testShardParsing() throws {
        XCTAssertEqual(try Shard(parsing: "2/5"), try Shard(index: 2, count: 5))
        for bad in ["0/3", "4/3", "1/0", "x", "1/2/3", "/2"] {
            XCTAssertThrowsError(try Shard(parsing: bad), bad)
        }
    }

    private func runGit(_ arguments: [String], in directory: URL) throws {
        let r = try runProcess(
            "/usr/bin/env",
            ["git", "-C", directory.path, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
                + arguments)
        XCTAssertEqual(r.status, 0, "git \(arguments): \(r.stderr)")
    }

    func testIncludeNamesAreReadFromDirectiveLines() {
        let text = """
            #import "a.h"
              #  include <b/c.h>
            #include_next <d.h>
            #include "../../up/e.h"
            #include "./here.h"
            // #include "commented.h" is not a directive line
            #define NAME "not-an-include.h"
            #include MACRO_NAME
            #include "unterminated.h
            @import Foundation;
            """
        XCTAssertEqual(Includers.names(in: Array(text.utf8)), ["a.h", "b/c.h", "d.h", "up/e.h", "here.h"])
    }

    func testIncludersAreFoundTransitivelyByPathSuffix() throws {
        let project = try GateProject(
            self,
            files: [
                "Net/Client.h": "int client;\n",
                "Net/Client.m": "#import \"Client.h\"\n",
                "App/Main.m": "#include <Net/Client.h>\n",
                "Wrapper.h": "#import \"Net/Client.h\"\n",
                "UsesWrapper.mm": "#import \"Wrapper.h\"\n",
                "Other.m": "#import \"OtherClient.h\"\n",
                "Commented.m": "// #import \"Net/Client.h\"\n",
                "Swift.swift": "// #import \"Net/Client.h\"\n",
            ])
        let files = try project.files()
        let header = project.root.appendingPathComponent("Net/Client.h").standardizedFileURL.path
        let found = Includers.of([header], among: files).map { FileCollector.relative($0, to: project.root.path) }
        XCTAssertEqual(found.sorted(), ["App/Main.m", "Net/Client.m", "UsesWrapper.mm", "Wrapper.h"])
        XCTAssertEqual(Includers.of([], among: files), [])
    }

    func testChangedSinceListsCommittedStagedUnstagedAndUntrackedChanges() throws {
        let project = try GateProject(
            self, files: ["a.m": "1\n", "b.m": "1\n", "c.m": "1\n", "d.m": "1\n", "sub/e.m": "1\n", "ignored.m": "1\n"])
        try project.write(".gitignore", "ignored.m\n")
        try runGit(["init", "-q"], in: project.root)
        try runGit(["add", "-A"], in: project.root)
        try runGit(["commit", "-qm", "one"], in: project.root)
        try runGit(["tag", "base"], in: project.root)
        try project.write("a.m", "2\n"); try runGit(["commit", "-qam", "two"], in: project.root) // committed since
        try project.write("b.m", "2\n"); try runGit(["add", "b.m"], in: project.root) // staged
        try project.write("sub/e.m", "2\n") // unstaged
        try project.write("new.m", "1\n") // untracked
        try project.write("ignored.m", "2\n") // ignored
        try FileManager.default.removeItem(at: project.root.appendingPathComponent("d.m")) // deleted
        let changed = try ChangedFiles.since("base", in: project.root.appendingPathComponent("sub").path)
        let names = changed.map { FileCollector.relative($0, to: project.root.resolvingSymlinksInPath().path) }.sorted()
        XCTAssertEqual(names, ["a.m", "b.m", "d.m", "new.m", "sub/e.m"])
        let collected = try project.files()
        XCTAssertEqual(
            ChangedFiles.select(collected, changed: changed).changed.map {
                FileCollector.relative($0, to: project.root.path)
            },
            ["a.m", "b.m", "new.m", "sub/e.m"])

        XCTAssertThrowsError(try ChangedFiles.since("no-such-ref", in: project.root.path)) { error in
            XCTAssertTrue("\(error)".contains("'no-such-ref' is not a commit"), "\(error)")
        }
        let outside = try temporaryDirectory(self)
        XCTAssertThrowsError(try ChangedFiles.since("HEAD", in: outside.path)) { error in
            XCTAssertTrue("\(error)".contains("is not inside a git work tree"), "\(error)")
        }
    }

    func testMergingShardedJSONAndSARIFGivesTheUnshardedOutput() throws {
        var files: [String: String] = [:]
        for i in 0..<12 {
            files["m\(i).m"] = objcSource(
                accesses: Array(repeating: "[[Container sharedInstance] s\(i % 3)]", count: 1 + i % 3))
        }
        let project = try GateProject(self, files: files)
        let all = try project.files()
        let whole = try project.lint(files: all)
        var shardJSON: [String] = [], shardSARIF: [String] = []
        for k in 1...3 {
            let part = try Shard(index: k, count: 3).select(all, root: project.root.path)
            let result = try project.lint(files: part)
            for (format, text) in [
                ("json", JSONReporter().render(result)),
                ("sarif", SARIFReporter(root: project.root.path).render(result)),
            ] {
                let path = project.root.appendingPathComponent("shard\(k).\(format)").path
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                if format == "json" { shardJSON.append(path) } else { shardSARIF.append(path) }
            }
        }
        // A shard repeated (a retried CI job) adds nothing.
        let merged = try ReportMerge.merge(files: shardJSON + [shardJSON[0]])
        func withoutTime(_ text: String) throws -> NSDictionary {
            var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var summary = object["summary"] as? [String: Any]
            summary?["seconds"] = nil
            object["summary"] = summary
            return object as NSDictionary
        }
        XCTAssertEqual(try withoutTime(merged.text), try withoutTime(JSONReporter().render(whole)))
        XCTAssertEqual(merged.findings, whole.findings.count)
        XCTAssertEqual(merged.newErrors, whole.newErrorCount)

        let mergedSARIF = try ReportMerge.merge(files: shardSARIF)
        let expected =
            try JSONSerialization.jsonObject(with: Data(SARIFReporter(root: project.root.path).render(whole).utf8))
            as? [String: Any]
        let got = try JSONSerialization.jsonObject(with: Data(mergedSARIF.text.utf8)) as? [String: Any]
        XCTAssertEqual(got?["runs"] as? NSArray, expected?["runs"] as? NSArray)
        XCTAssertNil(try sarifSchemaViolation(mergedSARIF.text, in: project.root))

        XCTAssertThrowsError(try ReportMerge.merge(files: [shardJSON[0], shardSARIF[0]])) { error in
            XCTAssertTrue("\(error)".contains("cannot be merged together"), "\(error)")
        }
        try project.write("other.json", "{\"something\": 1}")
        XCTAssertThrowsError(try ReportMerge.merge(files: [project.root.appendingPathComponent("other.json").path])) {
            error in
            XCTAssertTrue("\(error)".contains("other.json: neither di-lint JSON"), "\(error)")
        }
    }
}
