import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// What an `IncrementalCache` trusts (issue 23, D17): an entry made exactly as di-lint makes one —
/// the right key, a digest bound to it — for a file's violating content, saying "no findings".
/// Another user's such entry is ignored; this user's is used, which is why a cache must be as
/// private as the account (and never tracked by git: `CacheSafetyCLITests`).
final class CacheTrustTests: XCTestCase {
    private static let violating = "@implementation E\n- (void)r { id x = [Container sharedInstance].svc; }\n@end\n"

    /// A forged entry ("parsed, nothing found") for the project's one file, stored under its key.
    private func forge(_ project: GateProject, cacheDirectory: URL) throws -> String {
        let cache = try IncrementalCache(directory: cacheDirectory.path, configuration: try project.configuration)
        let path = try XCTUnwrap(try project.files().first)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        let key = try XCTUnwrap(cache.key(path: path, status: st, content: { bytes }))
        var outcome = FileOutcome()
        outcome.parsed = true
        let folder = cache.directory.appendingPathComponent(String(key.prefix(2)))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let entry = folder.appendingPathComponent(key + ".bin").path
        try Data(CacheEntryCodec.encode(outcome, binding: key)).write(to: URL(fileURLWithPath: entry))
        return entry
    }

    func testAForgedEntryOfAnotherUserIsIgnored() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a file to another user") }
        let project = try GateProject(self, files: ["E.m": Self.violating])
        let directory = try temporaryDirectory(self)
        let entry = try forge(project, cacheDirectory: directory)
        XCTAssertEqual(chown(entry, 4242, 4242), 0)
        let cache = try IncrementalCache(directory: directory.path, configuration: try project.configuration)
        let warnings = WarningLog()
        cache.warn = { warnings.add($0) }
        let result = try project.lint(cache: cache)
        cache.flush()
        XCTAssertEqual(result.filesCached, 0)
        XCTAssertEqual(result.findings.map(\.rule), ["container-access"])
        XCTAssertEqual(
            warnings.lines.filter {
                $0.contains("1 cache entry in \(cache.directory.path) written by another user ignored")
            }.count, 1, "\(warnings.lines)")
    }

    /// The limit, stated: the same forged entry written by this user is trusted (nothing in an
    /// entry is secret). This is what the owner check above stands between.
    func testAForgedEntryOfThisUserIsTrusted() throws {
        let project = try GateProject(self, files: ["E.m": Self.violating])
        let directory = try temporaryDirectory(self)
        _ = try forge(project, cacheDirectory: directory)
        let result = try project.lint(
            cache: try IncrementalCache(directory: directory.path, configuration: try project.configuration))
        XCTAssertEqual(result.filesCached, 1)
        XCTAssertEqual(result.findings.count, 0)
    }

    /// A digest index another user wrote is not read: it could name a changed file's old digest.
    func testADigestIndexOfAnotherUserIsNotRead() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a file to another user") }
        let directory = try temporaryDirectory(self)
        let file = directory.appendingPathComponent("f.m")
        try Data("two".utf8).write(to: file)
        let indexFile = directory.appendingPathComponent("digests.tsv")
        let stamp = try XCTUnwrap(DigestIndex.Stamp(path: file.path))
        let line = ([SHA256.hex("one")] + stamp.fields + [file.path]).joined(separator: "\t")
        try Data((line + "\n").utf8).write(to: indexFile)
        XCTAssertEqual(
            DigestIndex(file: indexFile).digest(path: file.path, content: { Array("two".utf8) }), SHA256.hex("one"),
            "this user's: read")
        XCTAssertEqual(chown(indexFile.path, 4242, 4242), 0)
        XCTAssertEqual(
            DigestIndex(file: indexFile).digest(path: file.path, content: { Array("two".utf8) }), SHA256.hex("two"),
            "another's: not read")
    }

    /// The directory tag is written once, in the Cache Directory Tagging format; a later run
    /// accepts it, and a tag with di-lint's line missing is another program's.
    func testTheCacheDirectoryIsTaggedAndTheTagRecognised() throws {
        let project = try GateProject(self, files: ["E.m": Self.violating])
        let directory = try temporaryDirectory(self)
        _ = try IncrementalCache(directory: directory.path, configuration: try project.configuration)
        let tag = try String(contentsOf: directory.appendingPathComponent("CACHEDIR.TAG"), encoding: .utf8)
        XCTAssertEqual(tag, CacheRoot.marker)
        XCTAssertTrue(tag.hasPrefix("Signature: 8a477f597d28d172789f06886806bc55"), "the standard's signature, first")
        XCTAssertNoThrow(try IncrementalCache(directory: directory.path, configuration: try project.configuration))
        try Data("Signature: 8a477f597d28d172789f06886806bc55\n".utf8).write(
            to: directory.appendingPathComponent("CACHEDIR.TAG"))
        XCTAssertThrowsError(try IncrementalCache(directory: directory.path, configuration: try project.configuration))
        {
            XCTAssertTrue("\($0)".contains("its CACHEDIR.TAG was not written by di-lint"), "\($0)")
        }
    }
}
