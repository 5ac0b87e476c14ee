import Foundation
import XCTest
@testable import DILintEngine

/// The run's header map: in-tree headers found by bare name (`"X.h"`) and framework-style
/// (`<Module/X.h>`) without flags, flags and the compile database winning over it.
final class HeaderMapTests: XCTestCase {
    /// A tree whose accesses hide in macros of headers living away from their includers.
    private func makeTree() throws -> URL {
        let dir = try temporaryDirectory(self)
        func write(_ path: String, _ text: String) throws {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write(
            "Core/Container.h",
            """
            @interface Container
            + (instancetype)sharedInstance;
            @property (readonly) id crashReporter;
            @end
            """)
        try write(
            "Core/Macros.h",
            """
            #import "Container.h"
            #define CURRENT_REPORTER [[Container sharedInstance] crashReporter]
            """)
        // Xcode's framework layout: <Kit/Public.h> names Kit/Headers/Public.h
        try write(
            "Kit/Headers/Public.h",
            """
            #import <Core/Container.h>
            #define KIT_REPORTER [[Container sharedInstance] crashReporter]
            """)
        try write(
            "App/Bare.m",
            """
            #import "Macros.h"
            void bare(void) { id r = CURRENT_REPORTER; }
            """)
        try write(
            "App/Framework.m",
            """
            #import <Kit/Public.h>
            void framework(void) { id r = KIT_REPORTER; }
            """)
        return dir
    }

    private static let yaml = "containers: [Container.sharedInstance]\nheader-map: true"

    /// Container-access findings of the tree's `.m` files; the map is written, as a run does, when the config asks for it.
    private func run(_ dir: URL, yaml: String = yaml, database: Bool = false) throws -> [String] {
        var config = try Configuration.parse(yaml: yaml, baseDirectory: dir.path)
        let files = try FileCollector(excludes: [], baseDirectory: dir.path).collect([dir.path])
        if config.headerMap { config.headerMapFile = try HeaderMap.write(files: files) }
        let linter = Linter(configuration: config)
        // the macros' headers are not in the run: only a parse of the .m files sees the accesses
        linter.parseEveryFile = true
        if database { linter.compileArguments = try CompilationDatabase.load(directory: dir.path) }
        return linter.lint(files: files.filter { $0.hasSuffix(".m") }).findings.filter { $0.rule == "container-access" }
            .map {
                "\(($0.path as NSString).lastPathComponent):\($0.line) \($0.access?.viaMacro ?? "")"
            }
    }

    func testBareAndFrameworkIncludesResolveThroughTheMap() throws {
        let dir = try makeTree()
        XCTAssertEqual(try run(dir), ["Bare.m:2 CURRENT_REPORTER", "Framework.m:2 KIT_REPORTER"])
        // Without the map (the default, or header-map: false) neither header is found: the macros are unknown names, no access.
        XCTAssertEqual(try run(dir, yaml: "containers: [Container.sharedInstance]"), [])
        XCTAssertEqual(try run(dir, yaml: "containers: [Container.sharedInstance]\nheader-map: false"), [])
    }

    /// Two `Macros.h`: the map holds the one with the shorter path; a flag naming the other's
    /// directory wins (with `-isystem` too, which clang searches before `-idirafter`).
    func testFlagsAndTheCompileDatabaseWin() throws {
        let dir = try makeTree()
        let quiet = dir.appendingPathComponent("Vendor/quiet/include")
        try FileManager.default.createDirectory(at: quiet, withIntermediateDirectories: true)
        try "#define CURRENT_REPORTER 0\n#define KIT_REPORTER 0\n".write(
            to: quiet.appendingPathComponent("Macros.h"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(dir), ["Bare.m:2 CURRENT_REPORTER", "Framework.m:2 KIT_REPORTER"])
        for flag in ["-I", "-isystem", "-iquote"] {
            XCTAssertEqual(
                try run(dir, yaml: Self.yaml + "\nclang-flags: ['\(flag)\(quiet.path)']"),
                ["Framework.m:2 KIT_REPORTER"], flag)
        }
        let database = """
            [{"directory": "\(dir.path)", "file": "App/Bare.m", "arguments": ["clang", "-x", "objective-c", "-isystem", "Vendor/quiet/include", "-c", "App/Bare.m"]}]
            """
        try database.write(to: dir.appendingPathComponent("compile_commands.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(dir, database: true), ["Framework.m:2 KIT_REPORTER"])
    }

    func testEntriesAndAmbiguity() {
        let (entries, ambiguous) = HeaderMap.entries(
            headers: ["a/b/c/X.h", "a/X.h", "z/x.h", "a/b/Y.hpp", "a/Z.m", "a/é.h"],
            workingDirectory: "/w")
        let map = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.path) })
        // X.h and x.h are one key for clang: the path with fewer components, then the shorter, then byte order
        XCTAssertEqual(map["X.h"], "/w/a/X.h")
        XCTAssertNil(map["x.h"])
        XCTAssertEqual(map["c/X.h"], "/w/a/b/c/X.h")
        // a nearer directory level wins: a/X.h is a/X.h's parent key and a/b/c/X.h's great-grandparent key
        XCTAssertEqual(map["b/X.h"], "/w/a/b/c/X.h")
        XCTAssertNil(map["b/c/X.h"])
        XCTAssertEqual(map["a/X.h"], "/w/a/X.h")
        XCTAssertEqual(map["b/Y.hpp"], "/w/a/b/Y.hpp")
        XCTAssertNil(map["Z.m"])
        XCTAssertNil(map["é.h"])
        // a directory name that is not ASCII gives no key; the header's other keys stay
        let (other, _) = HeaderMap.entries(headers: ["ü/W.h"], workingDirectory: "/w")
        XCTAssertEqual(other.map(\.key).sorted(), ["W.h", "w/W.h"])
        XCTAssertEqual(ambiguous, 1)
    }

    /// The bytes read back as clang reads them: probing, case-insensitive keys, prefix + suffix.
    func testEncodingRoundTrips() throws {
        let headers = (0..<300).map { "d\($0 % 7)/sub\($0)/H\($0).h" }
        let (entries, _) = HeaderMap.entries(headers: headers, workingDirectory: "/root")
        let bytes = HeaderMap.encode(entries)
        XCTAssertEqual(Array(bytes[0..<4]), Array("pamh".utf8)) // 'hmap' as a little-endian word
        let table = try XCTUnwrap(HeaderMap.Table(bytes: bytes))
        for e in entries { XCTAssertEqual(table.lookup(e.key), e.path) }
        XCTAssertEqual(table.lookup("sub12/h12.H"), "/root/d5/sub12/H12.h")
        XCTAssertNil(table.lookup("H300.h"))
        XCTAssertNil(HeaderMap.Table(bytes: Array(bytes.prefix(20))))
        var corrupt = bytes
        corrupt[16] = 3 // buckets not a power of two
        XCTAssertNil(HeaderMap.Table(bytes: corrupt))
    }

    /// The cache keys on the map's content, not on where the run wrote it.
    func testCacheKeyFollowsTheMapsDigest() throws {
        var a = Configuration(baseDirectory: "/w"), b = a, c = a
        a.headerMapFile = HeaderMapFile(
            path: "/tmp/1/headers.hmap", digest: "d1", headers: 1, keys: 2, ambiguousNames: 0)
        b.headerMapFile = HeaderMapFile(
            path: "/tmp/2/headers.hmap", digest: "d1", headers: 1, keys: 2, ambiguousNames: 0)
        c.headerMapFile = HeaderMapFile(
            path: "/tmp/1/headers.hmap", digest: "d2", headers: 1, keys: 2, ambiguousNames: 0)
        XCTAssertEqual(CanonicalDescription.of(a), CanonicalDescription.of(b))
        XCTAssertNotEqual(CanonicalDescription.of(a), CanonicalDescription.of(c))
    }

    func testConfigurationKey() throws {
        XCTAssertFalse(try Configuration.parse(yaml: "{}", baseDirectory: "/").headerMap)
        XCTAssertTrue(try Configuration.parse(yaml: "header-map: true", baseDirectory: "/").headerMap)
        XCTAssertFalse(try Configuration.parse(yaml: "header-map: false", baseDirectory: "/").headerMap)
        XCTAssertThrowsError(try Configuration.parse(yaml: "header-map: maybe", baseDirectory: "/"))
    }
}
