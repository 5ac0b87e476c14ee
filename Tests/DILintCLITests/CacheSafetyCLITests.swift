import Foundation
import SeamTestSupport
import XCTest

/// `--cache DIR` deletes only what di-lint made there and trusts only what this user wrote and
/// git does not track (issue 23, D9 and D17), through the real binary.
final class CacheSafetyCLITests: XCTestCase {
    private let fm = FileManager.default

    /// A directory outside any project, removed after the test.
    private func outsideDirectory() throws -> URL {
        let url = fm.temporaryDirectory.appendingPathComponent("di-lint-outside-\(UUID().uuidString)")
        try fm.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func write(_ text: String, to url: URL) throws {
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The cache's entry files, relative to the cache directory.
    private func entries(_ cache: URL) -> Set<String> {
        Set((fm.enumerator(atPath: cache.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".bin") })
    }

    /// Names the container in a comment: the file rules need it parsed, so its outcome is cached.
    private static let clean = "@implementation E\n- (void)r { id x = nil; } // not [Container sharedInstance]\n@end\n"
    private static let violating = "@implementation E\n- (void)r { id x = [Container sharedInstance].svc; }\n@end\n"

    // MARK: D9

    /// D9: `--cache .` deleted the tree's own `v1/` source directory.
    func testTheLintedTreeIsRefusedAsTheCacheAndNothingIsDeleted() throws {
        let project = try Project(self, files: ["v1/api.c": "int a;\n"])
        let run = try project.run("lint", ".", "--container", "C.shared", "--cache", ".")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(".: cannot be the cache directory: it is '.', an input of this run"), run.stderr)
        XCTAssertEqual(try project.read("v1/api.c"), "int a;\n")
        XCTAssertFalse(
            fm.fileExists(atPath: project.root.appendingPathComponent("CACHEDIR.TAG").path), "nothing written")

        // A cache directory above a linted file, or above the config, is refused the same way.
        let above = try project.run("lint", "v1/api.c", "--container", "C.shared", "--cache", "v1")
        XCTAssertEqual(above.status, 2, above.stderr)
        XCTAssertTrue(
            above.stderr.contains("v1: cannot be the cache directory: it holds 'v1/api.c', an input of this run"),
            above.stderr)
        XCTAssertEqual(try project.read("v1/api.c"), "int a;\n")
    }

    /// D9: a `.di-lint-cache` symbolic link deleted `v1`, `v2`, `v10` in the directory it points
    /// to, outside the tree. A directory holding other files is refused, naming the path and the file.
    func testACacheLinkToADirectoryOfOtherFilesIsRefusedAndNothingIsDeleted() throws {
        let project = try Project(self, files: ["a.c": "int a;\n"])
        let other = try outsideDirectory()
        for (path, text) in ["v1/notes.txt": "x\n", "v2/b.c": "int b;\n", "v10/c": "z\n"] {
            try write(text, to: other.appendingPathComponent(path))
        }
        try fm.createSymbolicLink(
            atPath: project.root.appendingPathComponent(".di-lint-cache").path, withDestinationPath: other.path)
        let run = try project.run("lint", ".", "--container", "C.shared", "--cache", ".di-lint-cache")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                ".di-lint-cache: cannot be the cache directory: it holds 'v1/notes.txt', which di-lint did not make"),
            run.stderr)
        XCTAssertEqual(Set(try fm.contentsOfDirectory(atPath: other.path)), ["v1", "v10", "v2"])
        for path in ["v1/notes.txt", "v2/b.c", "v10/c"] {
            XCTAssertTrue(fm.fileExists(atPath: other.appendingPathComponent(path).path), path)
        }

        // Directories that only look like di-lint's layouts (empty ones) are not adopted either.
        let empty = try outsideDirectory()
        for name in ["v1", "v2"] {
            try fm.createDirectory(at: empty.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let emptyRun = try project.run("lint", ".", "--container", "C.shared", "--cache", empty.path)
        XCTAssertEqual(emptyRun.status, 2, emptyRun.stderr)
        XCTAssertEqual(Set(try fm.contentsOfDirectory(atPath: empty.path)), ["v1", "v2"])
    }

    /// Pruning a di-lint cache removes only the files di-lint names in another layout's
    /// directory, never what else is there, and never follows a link out of the cache.
    func testPruningRemovesOnlyDiLintsFilesAndFollowsNoLink() throws {
        let project = try Project(self, files: ["a.m": legacySource()])
        let cache = project.root.appendingPathComponent(".di-lint-cache")
        // tags the directory, prunes (nothing yet)
        XCTAssertEqual(try project.run("--cache", ".di-lint-cache").status, 1)
        // this di-lint's
        let layout = try XCTUnwrap(try fm.contentsOfDirectory(atPath: cache.path).first { $0.hasPrefix("v") })
        let victim = try outsideDirectory()
        let key = String(repeating: "ab", count: 32) + ".bin"
        for path in ["v2/ab/" + key, "v9/ab/" + key, "v9/digests.tsv", "loose/" + key] {
            try write("theirs\n", to: victim.appendingPathComponent(path))
        }
        // An earlier layout of di-lint's, with a file that is not di-lint's in it.
        try write("1\n", to: cache.appendingPathComponent("v3/digests.tsv"))
        try write("x\n", to: cache.appendingPathComponent("v3/ab/" + key))
        try write("mine\n", to: cache.appendingPathComponent("v3/notes.txt"))
        // Links out of the cache where a layout, a fan-out folder, an entry and a temporary would be.
        try fm.createSymbolicLink(
            atPath: cache.appendingPathComponent("v2").path,
            withDestinationPath: victim.appendingPathComponent("v2").path)
        try fm.createDirectory(at: cache.appendingPathComponent("v4"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: cache.appendingPathComponent("v4/ab").path,
            withDestinationPath: victim.appendingPathComponent("v9/ab").path)
        try fm.createSymbolicLink(
            atPath: cache.appendingPathComponent("v4/digests.tsv").path,
            withDestinationPath: victim.appendingPathComponent("v9/digests.tsv").path)
        // a fan-out folder's name this run's entry does not use (its name follows from the build's id)
        let used = Set(try fm.contentsOfDirectory(atPath: cache.appendingPathComponent(layout).path))
        let fanOut = try XCTUnwrap(["cd", "ce", "cf"].first { !used.contains($0) })
        try fm.createSymbolicLink(
            atPath: cache.appendingPathComponent(layout + "/" + fanOut).path,
            withDestinationPath: victim.appendingPathComponent("loose").path)
        try fm.createSymbolicLink(
            atPath: cache.appendingPathComponent(layout + "/.tmp-old").path,
            withDestinationPath: victim.appendingPathComponent("loose/" + key).path)
        let old = Date(timeIntervalSinceNow: -90 * 86_400)
        for path in ["v2/ab/" + key, "v9/ab/" + key, "loose/" + key] {
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: victim.appendingPathComponent(path).path)
        }
        try fm.removeItem(at: cache.appendingPathComponent(layout + "/last-pruned")) // prune on this run

        let run = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.summary["cached"] as? Int, 1)
        XCTAssertTrue(
            fm.fileExists(atPath: cache.appendingPathComponent(layout + "/last-pruned").path), "pruned on this run")
        XCTAssertFalse(fm.fileExists(atPath: cache.appendingPathComponent("v3/digests.tsv").path))
        XCTAssertFalse(fm.fileExists(atPath: cache.appendingPathComponent("v3/ab").path))
        XCTAssertEqual(try String(contentsOf: cache.appendingPathComponent("v3/notes.txt"), encoding: .utf8), "mine\n")
        for path in ["v2/ab/" + key, "v9/ab/" + key, "v9/digests.tsv", "loose/" + key] {
            XCTAssertEqual(
                try String(contentsOf: victim.appendingPathComponent(path), encoding: .utf8), "theirs\n", path)
        }
    }

    /// A cache directory of an earlier di-lint (a layout, no tag) is adopted: tagged, its old
    /// layout pruned; a directory of another program's cache is not.
    func testAnEarlierDiLintCacheIsAdoptedAndAnotherProgramsIsRefused() throws {
        let project = try Project(self, files: ["a.m": legacySource()])
        let cache = project.root.appendingPathComponent(".di-lint-cache")
        try write("", to: cache.appendingPathComponent("v5/last-pruned"))
        try write("", to: cache.appendingPathComponent("v5/digests.tsv"))
        try write("x", to: cache.appendingPathComponent("v5/ab/" + String(repeating: "ab", count: 32) + ".bin"))
        let cold = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(cold.status, 1, cold.stderr)
        XCTAssertTrue(
            try project.read(".di-lint-cache/CACHEDIR.TAG").hasPrefix(
                "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by di-lint.\n"
            ))
        XCTAssertFalse(fm.fileExists(atPath: cache.appendingPathComponent("v5").path), "the old layout pruned")
        let warm = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(warm.summary["cached"] as? Int, 1, warm.stderr)

        let cargo = project.root.appendingPathComponent("target")
        try write(
            "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by cargo.\n",
            to: cargo.appendingPathComponent("CACHEDIR.TAG"))
        try write("x", to: cargo.appendingPathComponent("v1/ab/" + String(repeating: "ab", count: 32) + ".bin"))
        let refused = try project.run("--cache", "target")
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "target: cannot be the cache directory: its CACHEDIR.TAG was not written by di-lint"), refused.stderr)
        XCTAssertTrue(fm.fileExists(atPath: cargo.appendingPathComponent("v1/ab").path))
    }

    // MARK: D17

    /// A file linted clean, then changed to reach the container; its new entry overwritten with
    /// the clean content's (as another user, or a commit, could). Returns the cache and the
    /// overwritten entry.
    private func whitelistingCache(_ project: Project) throws -> (cache: URL, entry: URL) {
        let cache = project.root.appendingPathComponent(".di-lint-cache")
        try project.run("--cache", ".di-lint-cache")
        let others = entries(cache)
        try project.write("E.m", Self.clean)
        try project.run("--cache", ".di-lint-cache")
        let cleanEntries = entries(cache).subtracting(others)
        try project.write("E.m", Self.violating)
        XCTAssertEqual(try project.run("--cache", ".di-lint-cache").status, 1)
        XCTAssertEqual(cleanEntries.count, 1)
        let cleanEntry = try XCTUnwrap(cleanEntries.first)
        let violatingEntry = try XCTUnwrap(entries(cache).subtracting(others).subtracting(cleanEntries).first)
        let target = cache.appendingPathComponent(violatingEntry)
        try fm.removeItem(at: target)
        try fm.copyItem(at: cache.appendingPathComponent(cleanEntry), to: target)
        return (cache, target)
    }

    /// D17: an entry is used only for the key it was written under: the clean file's entry put
    /// in place of the changed file's does not hide the access.
    func testAnEntryCopiedToAnotherContentsKeyIsNotTrusted() throws {
        let project = try Project(self)
        _ = try whitelistingCache(project)
        let run = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(run.status, 1, "the access is found: \(run.stdout) \(run.stderr)")
        XCTAssertEqual(run.summary["cached"] as? Int, 0)
        XCTAssertEqual(run.findings.compactMap { $0["rule"] as? String }, ["container-access"])
        XCTAssertTrue(run.stderr.contains("is damaged (its digest does not match); re-parsing the file"), run.stderr)
    }

    /// D17: entries another user wrote are ignored (parsed again, not counted as cached, a note
    /// says how many), whatever they hold; a layout directory of another user is not used.
    func testEntriesWrittenByAnotherUserAreIgnored() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give files to another user") }
        let project = try Project(self, files: ["a.m": legacySource(), "b.m": legacySource()])
        let (cache, planted) = try whitelistingCache(project)
        XCTAssertEqual(chown(planted.path, 4242, 4242), 0)
        let run = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.summary["cached"] as? Int, 2, run.stderr)
        XCTAssertEqual(
            run.findings.filter { $0["path"] as? String == "E.m" }.count, 1, "the access is found: \(run.stdout)")
        XCTAssertTrue(
            run.stderr.contains("1 cache entry in ")
                && run.stderr.contains(".di-lint-cache/v6 written by another user ignored"), run.stderr)
        XCTAssertFalse(
            run.stderr.contains("damaged"), "ignored for its owner, before its digest is read: \(run.stderr)")

        // Every entry given away: none is used, and this run's own replace them.
        for entry in entries(cache) { XCTAssertEqual(chown(cache.appendingPathComponent(entry).path, 4242, 4242), 0) }
        let ignored = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(ignored.summary["cached"] as? Int, 0, ignored.stderr)
        XCTAssertEqual(ignored.findings.count, run.findings.count)
        XCTAssertEqual(try project.run("--cache", ".di-lint-cache", "--format", "json").summary["cached"] as? Int, 3)

        // A layout directory another user owns: the cache is not used at all, and said so.
        XCTAssertEqual(chown(cache.appendingPathComponent("v6").path, 4242, 4242), 0)
        let foreign = try project.run("--cache", ".di-lint-cache", "--format", "json")
        XCTAssertEqual(foreign.status, 1)
        XCTAssertEqual(foreign.summary["cached"] as? Int, 0)
        XCTAssertTrue(
            foreign.stderr.contains("v6 belongs to another user (uid 4242); the cache is not used for this run"),
            foreign.stderr)
    }

    /// D17: a cache committed to the repository is content a pull request controls: refused,
    /// naming it, before anything in it is read or written.
    func testACacheGitTracksIsRefused() throws {
        let project = try Project(self)
        let (cache, _) = try whitelistingCache(project)
        try project.commitEverything()
        let before = try fm.subpathsOfDirectory(atPath: cache.path).sorted()
        for arguments in [["--cache", ".di-lint-cache"], ["--cache", ".di-lint-cache", "--cache-read-only"]] {
            let run = try project.runArray(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stdout) \(run.stderr)")
            XCTAssertTrue(
                run.stderr.contains(".di-lint-cache: cannot be the cache directory: git tracks '.di-lint-cache/"),
                run.stderr)
            XCTAssertTrue(run.stderr.contains("git rm -r --cached .di-lint-cache"), run.stderr)
        }
        XCTAssertEqual(try fm.subpathsOfDirectory(atPath: cache.path).sorted(), before, "nothing written")
        // Untracked (and ignored), the same directory serves again, the access found.
        try project.git("rm", "-rq", "--cached", ".di-lint-cache")
        try project.write(".gitignore", ".di-lint-cache/\n")
        let run = try project.run("--cache", ".di-lint-cache")
        XCTAssertEqual(run.status, 1, run.stderr)
    }

    /// `--cache-read-only` reads entries and writes nothing: no entry, digest, stamp or tag, no
    /// directory made; a missing read-only cache is a note, not an error.
    func testAReadOnlyCacheIsReadAndNeverWritten() throws {
        let project = try Project(
            self,
            files: [
                "a.m": legacySource(), "b.m": legacySource(), "c.c": "void g(void) { container_shared()->now(); }\n",
            ])
        let cache = project.root.appendingPathComponent(".di-lint-cache")
        XCTAssertEqual(try project.run("--cache", ".di-lint-cache").status, 1)
        try fm.removeItem(at: cache.appendingPathComponent("v6/last-pruned"))
        let old = Date(timeIntervalSinceNow: -40 * 86_400)
        for entry in entries(cache) {
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: cache.appendingPathComponent(entry).path)
        }
        func snapshot() throws -> [String: Date] {
            var result: [String: Date] = [:]
            for path in try fm.subpathsOfDirectory(atPath: cache.path) {
                result[path] =
                    try fm.attributesOfItem(atPath: cache.appendingPathComponent(path).path)[.modificationDate] as? Date
            }
            return result
        }
        let before = try snapshot()
        try project.write("c.c", "void g(void) { container_shared()->now(); container_shared()->clock(); }\n")
        let run = try project.run(
            "--cache", ".di-lint-cache", "--cache-read-only", "--cache-max-age", "1", "--format", "json")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.summary["cached"] as? Int, 2, "old entries still read, not pruned: \(run.stderr)")
        XCTAssertEqual(run.findings.filter { $0["path"] as? String == "c.c" }.count, 2)
        XCTAssertEqual(try snapshot(), before, "nothing written, touched or pruned")

        let missing = try project.run("--cache", "nowhere", "--cache-read-only", "--format", "json")
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertEqual(missing.summary["cached"] as? Int, 0)
        XCTAssertTrue(
            missing.stderr.contains(
                "--cache nowhere: No such file or directory; nothing is read from it (--cache-read-only)"),
            missing.stderr)
        XCTAssertFalse(fm.fileExists(atPath: project.root.appendingPathComponent("nowhere").path))

        let alone = try project.run("--cache-read-only")
        XCTAssertEqual(alone.status, 2)
        XCTAssertTrue(alone.stderr.contains("--cache-read-only needs --cache DIR"), alone.stderr)
        let badAge = try project.run("--cache", "made", "--cache-max-age", "0")
        XCTAssertEqual(badAge.status, 2)
        XCTAssertFalse(
            fm.fileExists(atPath: project.root.appendingPathComponent("made").path),
            "refused before the directory is made")
    }
}
