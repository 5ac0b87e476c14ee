import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

final class CacheTests: XCTestCase {
    private func project() throws -> GateProject {
        try GateProject(
            self,
            files: [
                "a.m": objcSource(accesses: [
                    "[Container sharedInstance]", "[[Container sharedInstance] crashReporter]",
                ]),
                "b.m": objcSource(accesses: ["[[Container sharedInstance] dateProvider]"])
                    + "// di-lint:disable-next-line container-access\nint unused;\n",
                "c.c": "void g(void) { container_shared()->now(); }\n",
                "clean.m": "void h(void) {}\n",
            ])
    }

    private func cache(_ project: GateProject, _ directory: URL) throws -> IncrementalCache {
        try IncrementalCache(directory: directory.path, configuration: try project.configuration)
    }

    func testSecondRunComesFromTheCacheWithIdenticalFindings() throws {
        let project = try project()
        let directory = try temporaryDirectory(self)
        let first = try project.lint(cache: try cache(project, directory))
        XCTAssertEqual(first.filesCached, 0)
        // clean.m names no container and nothing signal-handler-safety needs: held back, never parsed nor cached
        XCTAssertEqual(first.filesParsed, 3)
        XCTAssertGreaterThanOrEqual(first.findings.count, 5)

        let second = try project.lint(cache: try cache(project, directory))
        XCTAssertEqual(second.filesCached, 3)
        XCTAssertEqual(second.findings, first.findings)

        // One file edited: only it is linted again, and its new finding shows.
        try project.write("c.c", "void g(void) { container_shared()->now(); container_shared()->clock(); }\n")
        let third = try project.lint(cache: try cache(project, directory))
        XCTAssertEqual(third.filesCached, 2)
        XCTAssertEqual(third.findings.count, first.findings.count + 1)
        XCTAssertEqual(
            third.findings.filter { $0.path.hasSuffix("a.m") }, first.findings.filter { $0.path.hasSuffix("a.m") })
    }

    func testADifferentConfigurationMissesTheCache() throws {
        let project = try project()
        let directory = try temporaryDirectory(self)
        _ = try project.lint(cache: try cache(project, directory))
        try project.write(".di-lint.yml", GateProject.config + "rules:\n  container-access: warning\n")
        let changed = try project.lint(cache: try cache(project, directory))
        XCTAssertEqual(changed.filesCached, 0)
        XCTAssertTrue(changed.findings.filter { $0.rule == "container-access" }.allSatisfy { $0.severity == .warning })
    }

    func testCorruptEntriesAreIgnoredAndRewritten() throws {
        let project = try project()
        let directory = try temporaryDirectory(self)
        let first = try project.lint(cache: try cache(project, directory))
        let entries = try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".bin")
        }
        XCTAssertEqual(entries.count, 3) // clean.m is held back (no parse, no entry)
        for (i, entry) in entries.enumerated() {
            let url = directory.appendingPathComponent(entry)
            try (i % 2 == 0 ? Data("{\"findings\": [tru".utf8) : Data([0xff, 0x00, 0x13])).write(to: url)
        }
        let second = try project.lint(cache: try cache(project, directory))
        XCTAssertEqual(second.filesCached, 0)
        XCTAssertEqual(second.findings, first.findings)
        XCTAssertEqual(try project.lint(cache: try cache(project, directory)).filesCached, 3)
    }

    func testDigestIndexIsUsedOnlyWhileTheFileIsUnchanged() throws {
        let directory = try temporaryDirectory(self)
        let file = directory.appendingPathComponent("f.m")
        try Data("one".utf8).write(to: file)
        // Age the file so that its digest may be remembered.
        let old = Date(timeIntervalSinceNow: -60)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        let indexFile = directory.appendingPathComponent("digests.tsv")
        let index = DigestIndex(file: indexFile)
        XCTAssertEqual(index.digest(path: file.path, content: { Array("one".utf8) }), SHA256.hex("one"))
        index.save()
        // The ctime is new (setAttributes changed it), so nothing may be remembered yet.
        let remembered = (try? String(contentsOf: indexFile, encoding: .utf8)) ?? ""
        XCTAssertFalse(remembered.contains("f.m"), remembered)

        // A remembered digest whose stat data no longer matches is not used.
        let stamp = try XCTUnwrap(DigestIndex.Stamp(path: file.path))
        let line = ([String(repeating: "0", count: 64)] + stamp.fields + [file.path]).joined(separator: "\t")
        try Data((line + "\n").utf8).write(to: indexFile)
        var read = false
        XCTAssertEqual(
            DigestIndex(file: indexFile).digest(
                path: file.path,
                content: {
                    read = true; return Array("one".utf8)
                }),
            String(repeating: "0", count: 64), "a matching stamp is trusted")
        XCTAssertFalse(read, "a file whose stamp matches is not read")
        try Data("two".utf8).write(to: file)
        XCTAssertEqual(
            DigestIndex(file: indexFile).digest(
                path: file.path,
                content: {
                    read = true; return Array("two".utf8)
                }), SHA256.hex("two"))
        XCTAssertTrue(read)
        XCTAssertNil(
            DigestIndex(file: indexFile).digest(path: file.path + ".gone", content: { nil }),
            "an unreadable file has no digest")
    }

    func testPruningKeepsWhatRunsUseAndDeletesTheRest() throws {
        let project = try project()
        let directory = try temporaryDirectory(self)
        let layout = directory.appendingPathComponent(IncrementalCache.layout)
        let fm = FileManager.default
        func age(_ url: URL, days: Double) throws {
            try fm.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -days * 86_400)], ofItemAtPath: url.path)
        }
        func make(_ url: URL, days: Double) throws {
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
            try age(url, days: days)
        }
        _ = try project.lint(cache: try cache(project, directory))
        let used = try fm.subpathsOfDirectory(atPath: layout.path).filter { $0.hasSuffix(".bin") }.map {
            layout.appendingPathComponent($0)
        }
        XCTAssertEqual(used.count, 3) // clean.m is held back (no parse, no entry)
        // Used entries whose mtime is old: the next run's hits refresh it.
        for entry in used { try age(entry, days: 40) }
        XCTAssertEqual(try project.lint(cache: try cache(project, directory)).filesCached, 3)
        // unused for 40 days
        try make(layout.appendingPathComponent("ab/" + String(repeating: "ab", count: 32) + ".bin"), days: 40)
        try make(layout.appendingPathComponent("cd/" + String(repeating: "cd", count: 32) + ".bin"), days: 2) // recent
        try make(layout.appendingPathComponent("ab/.tmp-killed"), days: 0.1) // a killed run's
        try make(layout.appendingPathComponent(".tmp-writing"), days: 0) // being written now
        try make(directory.appendingPathComponent("v1/ef/" + String(repeating: "ef", count: 32) + ".bin"), days: 0)
        try make(directory.appendingPathComponent("v2/digests.tsv"), days: 0)
        try make(directory.appendingPathComponent("notes.txt"), days: 90) // not ours: left alone

        let cache = try cache(project, directory)
        XCTAssertEqual(
            cache.prune(), IncrementalCache.PruneResult(entries: 1, temporaryFiles: 1, otherLayouts: 2, digests: 0))
        for entry in used {
            XCTAssertTrue(fm.fileExists(atPath: entry.path), "used entry \(entry.lastPathComponent) kept")
        }
        XCTAssertTrue(
            fm.fileExists(
                atPath: layout.appendingPathComponent("cd/" + String(repeating: "cd", count: 32) + ".bin").path))
        XCTAssertTrue(fm.fileExists(atPath: layout.appendingPathComponent(".tmp-writing").path))
        XCTAssertTrue(fm.fileExists(atPath: directory.appendingPathComponent("notes.txt").path))
        XCTAssertFalse(fm.fileExists(atPath: directory.appendingPathComponent("v1").path))
        XCTAssertEqual(try project.lint(cache: cache).filesCached, 3, "the cache still serves every file")

        // flush prunes at most once a day.
        let stale = layout.appendingPathComponent("ef/" + String(repeating: "ef", count: 32) + ".bin")
        cache.flush()
        try make(stale, days: 40)
        cache.flush()
        XCTAssertTrue(fm.fileExists(atPath: stale.path), "pruned within the last day: not again")
        try age(layout.appendingPathComponent("last-pruned"), days: 2)
        cache.flush()
        XCTAssertFalse(fm.fileExists(atPath: stale.path))
    }

    func testDigestsOfDeletedFilesAreForgotten() throws {
        let directory = try temporaryDirectory(self)
        let kept = directory.appendingPathComponent("kept.m")
        try Data("x".utf8).write(to: kept)
        let indexFile = directory.appendingPathComponent("digests.tsv")
        let stamp = try XCTUnwrap(DigestIndex.Stamp(path: kept.path))
        let lines = [kept.path, directory.appendingPathComponent("gone.m").path].map {
            ([String(repeating: "0", count: 64)] + stamp.fields + [$0]).joined(separator: "\t")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: indexFile)
        let index = DigestIndex(file: indexFile)
        XCTAssertEqual(index.forgetMissingFiles(), 1)
        index.save()
        let saved = try String(contentsOf: indexFile, encoding: .utf8)
        XCTAssertTrue(saved.contains("kept.m") && !saved.contains("gone.m"), saved)
    }

    func testCanonicalDescriptionIgnoresDictionaryOrder() {
        var a: [String: Int] = [:], b: [String: Int] = [:]
        for i in 0..<50 { a["k\(i)"] = i }
        for i in (0..<50).reversed() { b["k\(i)"] = i }
        XCTAssertEqual(CanonicalDescription.of(a), CanonicalDescription.of(b))
        XCTAssertNotEqual(CanonicalDescription.of(["a,b"]), CanonicalDescription.of(["a", "b"]))
        // Every configuration field, payload and case counts.
        let base = Configuration(baseDirectory: "/r")
        var other = base
        other.containers = [.function("Container")]
        var member = base
        member.containers = [.member(type: "Container", accessor: "shared")]
        var policy = base
        policy.fallback = .warn
        var size = base
        size.maxFileSize += 1
        var option = base
        option.rules["signal-handler-safety", default: RuleSettings()].options["allow"] = "x"
        let descriptions = [base, other, member, policy, size, option].map { CanonicalDescription.of($0) }
        XCTAssertEqual(Set(descriptions).count, descriptions.count, descriptions.joined(separator: "\n"))
        XCTAssertEqual(CanonicalDescription.of(base), CanonicalDescription.of(Configuration(baseDirectory: "/r")))
        XCTAssertFalse(BuildIdentity.executable.isEmpty)
        XCTAssertTrue(LibClang.identity.contains("libclang"), LibClang.identity)
        XCTAssertTrue(LibClang.identity.contains(":"), "resolved and stat'ed: \(LibClang.identity)")
    }
}
