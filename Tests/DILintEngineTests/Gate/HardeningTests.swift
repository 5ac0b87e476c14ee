import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// Bad input met in-process: exponential globs, damaged cache entries, YAML that expands without
/// bound, inconsistent shard outputs, includes of things that are not files.
final class HardeningTests: XCTestCase {
    func testGlobsKeepTheirMeaning() {
        let cases: [(String, String, Bool)] = [
            ("*.m", "a.m", true), ("*.m", "dir/a.m", false), ("**/*.m", "a.m", true), ("**/*.m", "x/y/a.m", true),
            ("Vendor/**", "Vendor/a/b.c", true), ("Vendor/**", "Other/a.c", false), ("a?c", "abc", true),
            ("a?c", "a/c", false),
            ("**", "", true), ("*", "", true), ("a**b", "a/x/b", true), ("x/**/y", "x/y", true),
            ("x/**/y", "x/a/b/y", true),
            ("x/**/y", "xy", false), ("", "", true), ("", "a", false), ("abc", "abc", true), ("abc", "abd", false),
        ]
        for (pattern, path, expected) in cases {
            XCTAssertEqual(Glob.matches(pattern, path), expected, "\(pattern) ~ \(path)")
        }
    }

    func testGlobMatchingIsNotExponential() {
        let pattern = String(repeating: "*a", count: 40) + "*b"
        let path = String(repeating: "a", count: 5000)
        let doubled = String(repeating: "**a", count: 40) + "**b"
        let start = Date()
        XCTAssertFalse(Glob.matches(pattern, path))
        XCTAssertFalse(Glob.matches(doubled, String(repeating: "a/", count: 2500)))
        XCTAssertTrue(Glob.matches(pattern, path + "b"))
        XCTAssertLessThan(
            Date().timeIntervalSince(start), 5, "a backtracking matcher takes longer than the universe's age here")
    }

    func testUnclosedBracketsKeepTheClassifierLinear() throws {
        // 2,000 lines that each open a block and a parenthesis and close neither, two accesses a
        // line, the bridge named at the top: every access used to walk back through every unclosed
        // block and scan to the end of the file for each bracket's partner (minutes in a debug build).
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("unclosed.m")
        let line = "  if (x) { id a = [Container sharedInstance].svc ? [[Container sharedInstance] s] : (\n"
        let guarded = "  if (!bridge) { [[Container sharedInstance] last]; }\n"
        try ("void g(id bridge);\nvoid f(void) {\n" + String(repeating: line, count: 2000) + guarded).write(
            to: file, atomically: true, encoding: .utf8)
        let start = Date()
        let result = try lint([file.path], configYAML: "containers: [Container.sharedInstance]\n")
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        XCTAssertEqual(result.findings.filter { $0.rule == "container-access" }.count, 4000)
        // the guard right around an access is still found past thousands of unclosed blocks
        XCTAssertEqual(result.accesses.last?.access.service, "last")
        XCTAssertEqual(result.accesses.last?.access.kind, .fallback)
    }

    func testMacroArgumentsNestedDeepCostWhatTheParseCosts() throws {
        // `M(M(…))` 1,600 deep: each level a message send only after expansion. libclang's table
        // of macro-argument locations (built when a location was asked for by offset) and a
        // per-kind bracket walk for every bracket made this minutes; clang parses it in 0.1 s.
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("nested-macro.m")
        let depth = 1600
        try
            ("#define M(x) [x foo]\nvoid f(id y) {\n  id z = " + String(repeating: "M(", count: depth)
            + "[Container sharedInstance]"
            + String(repeating: ")", count: depth) + ";\n}\n").write(to: file, atomically: true, encoding: .utf8)
        let start = Date()
        let result = try lint([file.path], configYAML: "containers: [Container.sharedInstance]\n")
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        XCTAssertEqual(result.filesFailed, 0)
        XCTAssertEqual(result.findings.map { "\($0.rule) \($0.line)" }, ["container-access 3"])
    }

    func testADamagedCacheEntryIsReparsedWithAWarningAndGivesTheSameFindings() throws {
        let project = try GateProject(
            self,
            files: [
                "a.m": objcSource(accesses: [
                    "[Container sharedInstance]", "[[Container sharedInstance] crashReporter]",
                ])
            ])
        let uncached = try project.lint()
        let directory = try temporaryDirectory(self)
        _ = try project.lint(
            cache: try IncrementalCache(directory: directory.path, configuration: try project.configuration))

        // Damage every entry where it still decodes: the line number of the first finding.
        let layout = directory.appendingPathComponent(IncrementalCache.layout)
        let entries = try FileManager.default.subpathsOfDirectory(atPath: layout.path).filter { $0.hasSuffix(".bin") }
        XCTAssertFalse(entries.isEmpty)
        for entry in entries {
            let url = layout.appendingPathComponent(entry)
            var bytes = [UInt8](try Data(contentsOf: url))
            let body = Array(bytes.dropLast(CacheEntryCodec.digestSize))
            let key = url.deletingPathExtension().lastPathComponent // an entry's digest covers its key
            var outcome = try XCTUnwrap(try? CacheEntryCodec.decode(bytes, binding: key))
            guard !outcome.findings.isEmpty else { continue }
            outcome.findings[0].line += 40
            let damaged = Array(CacheEntryCodec.encode(outcome, binding: key).dropLast(CacheEntryCodec.digestSize))
            XCTAssertEqual(damaged.count, body.count, "same length, different line")
            bytes = damaged + bytes.suffix(CacheEntryCodec.digestSize)
            try Data(bytes).write(to: url)
            XCTAssertThrowsError(try CacheEntryCodec.decode(bytes, binding: key))
        }
        let cache = try IncrementalCache(directory: directory.path, configuration: try project.configuration)
        let warnings = WarningLog()
        cache.warn = { warnings.add($0) }
        let reread = try project.lint(cache: cache)
        XCTAssertEqual(reread.findings, uncached.findings)
        XCTAssertEqual(reread.filesCached, 0)
        XCTAssertTrue(
            warnings.lines.contains { $0.contains("is damaged (its digest does not match); re-parsing the file") },
            "\(warnings.lines)")
    }

    func testYAMLAliasesThatExpandWithoutBoundAreRefused() throws {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...12 {
            yaml += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let start = Date()
        XCTAssertThrowsError(try BoundedYAML.load(yaml: yaml, Configuration.resolver)) { error in
            XCTAssertTrue("\(error)".contains("expands to more than 100000 YAML nodes"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // A few aliases are fine.
        let config = try Configuration.parse(
            yaml: "x: &c [Container.sharedInstance]\ncontainers: *c\n".replacingOccurrences(
                of: "x: ", with: "exclude: "), baseDirectory: "/")
        XCTAssertEqual(config.containers.count, 1)
    }

    func testConfigFilesAreBoundedInSize() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("big.yml").path
        try Data(("containers: [C.shared]\n" + "# " + String(repeating: "x", count: BoundedYAML.maxBytes) + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Configuration.load(path: path)) { error in
            XCTAssertTrue("\(error)".hasPrefix(path + ": it is "), "\(error)")
            XCTAssertTrue("\(error)".contains("for a config file"), "\(error)")
        }
    }

    func testMergeRefusesUnknownSeveritiesAndInconsistentCountsAndCountsARepeatOnce() throws {
        let project = try GateProject(self, files: ["a.m": objcSource(accesses: ["[Container sharedInstance]"])])
        let json = JSONReporter().render(try project.lint())
        let directory = try temporaryDirectory(self)
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let good = try file("good.json", json)
        let copy = try file("copy.json", json)
        let severity = try file(
            "severity.json", json.replacingOccurrences(of: "\"severity\" : \"error\"", with: "\"severity\" : \"fatal\"")
        )
        let counts = try file(
            "counts.json", json.replacingOccurrences(of: "\"findings\" : 1,", with: "\"findings\" : 7,"))
        XCTAssertNotEqual(counts, json)
        XCTAssertNoThrow(try ReportMerge.merge(files: [good]))
        let twice = try ReportMerge.merge(files: [good, copy])
        XCTAssertEqual(twice.repeats, [copy])
        XCTAssertEqual(
            twice.text, try ReportMerge.merge(files: [good]).text, "a repeated output's files are counted once")
        XCTAssertThrowsError(try ReportMerge.merge(files: [severity])) {
            XCTAssertTrue("\($0)".contains("'fatal' is not note, warning or error"), "\($0)")
        }
        XCTAssertThrowsError(try ReportMerge.merge(files: [counts])) {
            XCTAssertTrue("\($0)".contains("do not match the 1 findings listed"), "\($0)")
        }
    }

    func testIncludesResolvingToDevicesAreFoundBeforeParsing() throws {
        let check = IncludeCheck(limit: 1 << 20)
        func problem(_ source: String, _ arguments: [String] = []) -> String? {
            check.problem(source: "/tmp/x.c", bytes: Array(source.utf8), arguments: arguments)
        }
        XCTAssertEqual(
            problem("#include \"/dev/zero\"\n"),
            "it includes '/dev/zero', which is /dev/zero: it is a character device, not a regular file")
        XCTAssertNotNil(problem("  #  import </dev/urandom>\n"))
        XCTAssertNotNil(problem("#include <null>\n", ["-I/dev"]))
        XCTAssertNotNil(problem("#include <null>\n", ["-isystem", "/dev"]))
        XCTAssertNotNil(problem("int x;\n", ["-include", "/dev/zero"]))
        XCTAssertNil(
            problem(
                "#include <stdio.h>\n#include \"missing.h\"\n// #include \"/dev/zero\" in a comment is not at a line start\n"
            ))
    }
}

/// Warnings a cache reports, gathered from any thread.
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
