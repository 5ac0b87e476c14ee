import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix --split service|directory|owners --patch-dir DIR`: one git patch per unit, in
/// landing order, each verified on the tree the ones before it leave; applied in order they give
/// the tree one `fix --apply` gives, byte for byte.
final class FixSplitCLITests: XCTestCase {
    static let bridge =
        "@interface CrashBridge\n@property (nonatomic, readonly) id clock;\n@property (nonatomic, readonly) id store;\n@property (nonatomic, readonly) id net;\n@end\n"

    /// Three classes in three folders: `Ticker` (Leaf/) reads the clock; `Builder` (App/) builds a
    /// `Ticker` from the store it reads; `Uploader` (Net/) reads the net and the clock.
    private func tree(codeOwners: String? = nil) throws -> Project {
        var files = [
            ".di-lint.yml": FixSamples.config,
            "Container.h":
                "@interface Container\n+ (instancetype)sharedInstance;\n@property (nonatomic, readonly) id clock;\n@property (nonatomic, readonly) id store;\n@property (nonatomic, readonly) id net;\n@end\n",
            "Leaf/Ticker.h": "@interface Ticker\n- (void)tick;\n@end\n",
            "Leaf/Ticker.m":
                "#import \"Ticker.h\"\n#import \"Container.h\"\n\n@implementation Ticker\n- (void)tick {\n    id c = [Container sharedInstance].clock;\n}\n@end\n",
            "App/Builder.h": "@interface Builder\n- (void)build;\n@end\n",
            "App/Builder.m":
                "#import \"Builder.h\"\n#import \"Ticker.h\"\n#import \"Container.h\"\n\n@implementation Builder\n- (void)build {\n    Ticker *t = [[Ticker alloc] initWithStore:[Container sharedInstance].store];\n}\n+ (id)shared {\n    return [Container sharedInstance].store;\n}\n@end\n",
            "Net/Uploader.h": "@interface Uploader\n- (void)upload;\n@end\n",
            "Net/Uploader.m":
                "#import \"Uploader.h\"\n#import \"Container.h\"\n\n@implementation Uploader\n- (void)upload {\n    id n = [Container sharedInstance].net;\n    id c = [Container sharedInstance].clock;\n}\n@end\n",
        ]
        for dir in ["Leaf", "App", "Net"] { files["\(dir)/CrashBridge.h"] = Self.bridge }
        if let codeOwners { files[".github/CODEOWNERS"] = codeOwners }
        let project = try Project(self, files: files)
        try project.commitEverything()
        return project
    }

    /// Splits, then checks the patches against the one run: each applies (`git apply --check`,
    /// then `git apply`) on the tree the ones before it leave, and the last tree is the one-run
    /// tree; the project itself is untouched and the directory holds only the patches and summary.
    @discardableResult
    private func splitAndReplay(_ project: Project, mode: String) throws -> (patches: [[String: Any]], dir: URL) {
        let dir = try splitScratch("patches")
        let run = try project.run("fix", "--phase", "inject", "--split", mode, "--patch-dir", dir.path)
        XCTAssertEqual(run.status, 1, run.stderr) // the class method of Builder is left for manual work
        XCTAssertTrue(run.stdout.contains("--split \(mode)"), run.stdout)
        XCTAssertEqual(
            try splitGit(["status", "--porcelain"], in: project.root).stdout, "", "the split wrote in the tree")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let patches = try splitSummary(dir)
        XCTAssertEqual(names, patches.map { $0["file"] as? String ?? "" } + ["summary.json", "summary.txt"])
        let replay = try splitCopy(project)
        for name in names where name.hasSuffix(".patch") {
            let path = dir.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.contains("Subject: [PATCH "), text)
            let check = try splitGit(["apply", "--check", path], in: replay)
            XCTAssertEqual(
                check.status, 0, "\(name) does not apply on the tree the patches before it leave: \(check.stderr)")
            XCTAssertEqual(try splitGit(["apply", path], in: replay).status, 0)
        }
        let oneRun = try splitCopy(project)
        let applied = try CLIRunner.run(["fix", "--phase", "inject", "--apply"], in: oneRun)
        XCTAssertEqual(applied.status, 1, applied.stderr)
        let together = try splitDiff(replay), one = try splitDiff(oneRun)
        XCTAssertFalse(one.isEmpty)
        XCTAssertEqual(together, one, "the patches together are not the one-run diff byte for byte")
        XCTAssertEqual(try splitGit(["status", "--porcelain"], in: replay).stdout.isEmpty, false)
        XCTAssertTrue(patches.allSatisfy { $0["verified"] as? Bool == true }, "\(patches)")
        return (patches, dir)
    }

    /// By directory: the leaf (Leaf/, whose Ticker the builder in App/ creates) lands before App/,
    /// though App/ sorts first; each file is in one patch, and the patches' file diffs are the
    /// one-run diff's, byte for byte.
    func testDirectoryPatchesLandLeavesBeforeTheirBuilders() throws {
        let project = try tree()
        let (patches, dir) = try splitAndReplay(project, mode: "directory")
        XCTAssertEqual(patches.map { $0["unit"] as? String }, ["Leaf", "App", "Net"])
        XCTAssertEqual(patches[1]["after"] as? [Int], [1], "\(patches[1])")
        XCTAssertEqual(patches.map { $0["accesses"] as? Int }, [1, 1, 2])
        XCTAssertEqual(patches.map { $0["manual"] as? Int }, [0, 1, 0])
        XCTAssertEqual(patches[0]["files"] as? [String], ["Leaf/Ticker.h", "Leaf/Ticker.m"])
        // the one-run diff, file by file, is the patches' diffs
        let dryRun = try project.run("fix", "--phase", "inject")
        func sections(_ text: String) -> [String: String] {
            var result: [String: String] = [:]
            for part in text.components(separatedBy: "--- a/").dropFirst() {
                let body = part.components(separatedBy: "\ndiff --git ").first ?? part
                result[String(body.prefix { $0 != "\n" })] = "--- a/" + body.trimmingCharacters(in: .newlines)
            }
            return result
        }
        var fromPatches: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".patch") {
            fromPatches.merge(sections(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8))) {
                a, _ in a
            }
        }
        XCTAssertEqual(fromPatches, sections(dryRun.stdout))
        XCTAssertEqual(fromPatches.count, 6)
    }

    /// By service: Uploader moves the net and the clock in one group, so those two services are one
    /// patch (and it says why); the store's patch builds a Ticker, so it lands after the clock's.
    func testServicePatchesJoinServicesOneClassMoves() throws {
        let project = try tree()
        let (patches, dir) = try splitAndReplay(project, mode: "service")
        XCTAssertEqual(patches.map { $0["unit"] as? String }, ["clock + net", "store"])
        XCTAssertEqual(patches.map { $0["accesses"] as? Int }, [3, 1])
        XCTAssertEqual(patches[1]["after"] as? [Int], [1])
        let merged = patches[0]["merged"] as? [String] ?? []
        XCTAssertTrue(merged.contains { $0.contains("Objective-C class Uploader") }, "\(merged)")
        let first = try String(contentsOf: dir.appendingPathComponent(patches[0]["file"] as! String), encoding: .utf8)
        XCTAssertTrue(first.contains("Subject: [PATCH 1/2] di-lint fix --phase inject, service clock + net"), first)
        XCTAssertTrue(first.contains("Joined: 'Objective-C class Uploader' moves"), first)
        // the store's manual item (a class method) is in the store's patch
        XCTAssertEqual(patches.map { $0["manual"] as? Int }, [0, 1])
    }

    /// By owner: from .github/CODEOWNERS, the last matching rule wins (App/Builder.m's own rule
    /// over App/, `/Leaf/*.m` over `*`); the owner column names the owners of every file a patch edits.
    func testOwnerPatchesFollowCodeOwners() throws {
        let project = try tree(
            codeOwners: """
                # owners
                *                   @everyone
                App/                @app-team
                App/Builder.m       @builder
                /Leaf/*.m           @leaf-team
                Net/Uploader.m      @net-a @net-b

                """)
        let (patches, dir) = try splitAndReplay(project, mode: "owners")
        XCTAssertEqual(patches.map { $0["unit"] as? String }, ["@leaf-team", "@builder", "@net-a @net-b"])
        XCTAssertEqual(patches[0]["owners"] as? [String], ["@everyone", "@leaf-team"]) // Ticker.h is everyone's
        XCTAssertEqual(patches[1]["owners"] as? [String], ["@app-team", "@builder"]) // Builder.h: App/
        let table = try String(contentsOf: dir.appendingPathComponent("summary.txt"), encoding: .utf8)
        XCTAssertTrue(table.contains("(owners from .github/CODEOWNERS)"), table)
        XCTAssertTrue(table.contains("together, the patches equal the one-run diff byte for byte ("), table)
    }

    /// A patch directory that is a file, is not empty, or cannot be created: a clear error,
    /// exit 2, nothing planned nor written; --force replaces an earlier split's files only.
    func testBadPatchDirectories() throws {
        let project = try tree()
        try project.write("notes.txt", "x\n")
        let file = try project.run("fix", "--phase", "inject", "--split", "service", "--patch-dir", "notes.txt")
        XCTAssertEqual(file.status, 2)
        XCTAssertTrue(file.stderr.contains("--patch-dir notes.txt: is a file, not a directory"), file.stderr)
        let nested = try project.run("fix", "--phase", "inject", "--split", "service", "--patch-dir", "notes.txt/p")
        XCTAssertEqual(nested.status, 2)
        XCTAssertTrue(
            nested.stderr.contains("--patch-dir notes.txt/p: cannot create it (Not a directory)"), nested.stderr)
        let unwritable = getuid() == 0 ? "/proc/di-lint-split" : "/di-lint-split-\(UUID().uuidString)"
        let denied = try project.run("fix", "--phase", "inject", "--split", "service", "--patch-dir", unwritable)
        XCTAssertEqual(denied.status, 2)
        XCTAssertTrue(denied.stderr.contains("--patch-dir \(unwritable): cannot create it ("), denied.stderr)
        let dir = try splitScratch("full")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "keep\n".write(to: dir.appendingPathComponent("mine.txt"), atomically: true, encoding: .utf8)
        try "old\n".write(to: dir.appendingPathComponent("0009-old.patch"), atomically: true, encoding: .utf8)
        let full = try project.run("fix", "--phase", "inject", "--split", "service", "--patch-dir", dir.path)
        XCTAssertEqual(full.status, 2)
        XCTAssertTrue(full.stderr.contains("not empty (2 entries); --force"), full.stderr)
        let forced = try project.run(
            "fix", "--phase", "inject", "--split", "service", "--patch-dir", dir.path, "--force")
        XCTAssertEqual(forced.status, 1, forced.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
            ["0001-clock-net.patch", "0002-store.patch", "mine.txt", "summary.json", "summary.txt"])
        let alone = try project.run("fix", "--phase", "inject", "--split", "service")
        XCTAssertEqual(alone.status, 2)
        XCTAssertTrue(alone.stderr.contains("--split service needs --patch-dir DIR"), alone.stderr)
        let applying = try project.run(
            "fix", "--phase", "inject", "--split", "owners", "--patch-dir", dir.path, "--force", "--apply")
        XCTAssertEqual(applying.status, 2)
        XCTAssertTrue(applying.stderr.contains("cannot be combined with --apply"), applying.stderr)
        XCTAssertEqual(try splitGit(["status", "--porcelain"], in: project.root).stdout, "?? notes.txt\n")
    }
}
