import Foundation
import XCTest

/// The C++ sources only the file rules read (parsed without system headers' bodies, after the
/// demand rounds) read the headers most of them begin with from one precompiled prefix
/// (`SharedPrefixHeader`), with real libclang: built once, read by each source that begins with
/// one of its headers, not kept for a source that clashes with it, and the report is the plain
/// parse's, byte for byte.
final class SharedPrefixHeaderCLITests: XCTestCase {
    private func project() throws -> Project {
        var files: [String: String] = [
            ".di-lint.yml": EnvironmentFixture.config,
            "include/env.hpp": EnvironmentFixture.header,
            "include/common.hpp": """
            #ifndef COMMON_HPP
            #define COMMON_HPP
            #include <map>
            struct Shared { int y = 0; std::map<int, int> index; };
            #endif

            """,
            // an error of its own (not a clash): read with the prefix all the same
            "src/own.cpp":
                "#include <env.hpp>\nint own() { missing(); return MWBase::Environment::get().getWorld()->x; }\n",
            // a `Shared` of its own: with the prefix, a redefinition; parsed without it
            "src/clash.cpp":
                "#include <env.hpp>\nstruct Shared { long z; };\nint clash() { return (int)Shared{}.z + MWBase::Environment::get().getWorld()->x; }\n",
            // begins with none of the prefix's headers (its `#include` of one comes after a line of code)
            "src/odd.cpp":
                "#include <cstddef>\nint odd();\n#include \"../include/env.hpp\"\nint odd() { return MWBase::Environment::get().getWorld()->x; }\n",
        ]
        for i in 0..<9 {
            files["src/a\(i).cpp"] =
                "#include <env.hpp>\n#include \"../include/common.hpp\"\n#include <vector>\n"
                + "int a\(i)() { std::vector<int> v; return (int)v.size() + Shared{}.y + MWBase::Environment::get().getWorld()->x; }\n"
        }
        return try Project(self, files: files)
    }

    func testSourcesOnlyTheFileRulesReadShareOnePrefixAndReportWhatThePlainParseReports() throws {
        let p = try project()
        let tmp = p.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let trace = p.root.appendingPathComponent("trace")
        let parses = p.root.appendingPathComponent("parses")
        let plain = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root, environment: ["DI_LINT_HEADER_REUSE": "0"])
        XCTAssertEqual(plain.findingPlaces.count, 12, plain.stdout + plain.stderr)
        XCTAssertEqual(Set(plain.findingPlaces.map { $0.split(separator: " ").last! }), ["container-access"])
        let reused = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root,
            environment: [
                "TMPDIR": tmp.path, "DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_TRACE": trace.path,
                "DI_LINT_PARSE_TRACE": parses.path,
            ])
        XCTAssertEqual(try reused.reportWithoutTiming(), try plain.reportWithoutTiming(), reused.stdout + reused.stderr)
        // every source parsed the cheaper way, the prefix built once
        XCTAssertEqual(pchTraceLines(parses).filter { !$0.hasPrefix("bodies-skipped ") }, [], reused.stderr)
        let lines = pchTraceLines(trace).map { $0.hasPrefix("prefix-built ") ? "prefix-built" : $0 }
        XCTAssertEqual(
            lines,
            ["prefix-built", "prefix-errors src/clash.cpp"] + (0..<9).map { "prefix-read src/a\($0).cpp" }
                + ["prefix-read src/own.cpp"],
            reused.stderr)
        // the run's directory is gone with it
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }

    func testWithNoProjectRuleEverySourceReadsThePrefix() throws {
        let p = try project()
        // the file rules alone: no demand run, every C++ source parsed the cheaper way as it comes
        try Data((EnvironmentFixture.config + "rules:\n  signal-handler-safety: off\n").utf8).write(
            to: p.root.appendingPathComponent(".di-lint.yml"))
        let trace = p.root.appendingPathComponent("trace")
        let parses = p.root.appendingPathComponent("parses")
        let plain = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root, environment: ["DI_LINT_HEADER_REUSE": "0"])
        XCTAssertEqual(plain.findingPlaces.count, 12, plain.stdout + plain.stderr)
        let reused = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root,
            environment: [
                "DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_TRACE": trace.path, "DI_LINT_PARSE_TRACE": parses.path,
            ])
        XCTAssertEqual(try reused.reportWithoutTiming(), try plain.reportWithoutTiming(), reused.stdout + reused.stderr)
        XCTAssertEqual(pchTraceLines(parses).count, 12, reused.stderr)
        XCTAssertEqual(pchTraceLines(parses).filter { !$0.hasPrefix("bodies-skipped ") }, [], reused.stderr)
        XCTAssertEqual(
            pchTraceLines(trace).map { $0.hasPrefix("prefix-built ") ? "prefix-built" : $0 },
            ["prefix-built", "prefix-errors src/clash.cpp"] + (0..<9).map { "prefix-read src/a\($0).cpp" }
                + ["prefix-read src/own.cpp"],
            reused.stderr)
    }

    func testAPrefixReachingAnIncludeTheCheckRefusesIsNotParsed() throws {
        var files = [
            ".di-lint.yml": EnvironmentFixture.config,
            "include/env.hpp": EnvironmentFixture.header,
            // read without end: the sources that include it are refused, and so is a prefix with it
            "include/zero.hpp": "#pragma once\n#include \"/dev/zero\"\n",
        ]
        for i in 0..<8 {
            files["src/z\(i).cpp"] =
                "#include <env.hpp>\n#include <zero.hpp>\nint z\(i)() { return MWBase::Environment::get().getWorld()->x; }\n"
        }
        for i in 0..<4 {
            files["src/e\(i).cpp"] =
                "#include <env.hpp>\nint e\(i)() { return MWBase::Environment::get().getWorld()->x; }\n"
        }
        let p = try Project(self, files: files)
        let trace = p.root.appendingPathComponent("trace")
        let plain = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root, environment: ["DI_LINT_HEADER_REUSE": "0"])
        XCTAssertEqual(plain.findingPlaces.filter { $0.hasSuffix("container-access") }.count, 4, plain.stdout)
        XCTAssertEqual(plain.findingPlaces.filter { $0.hasSuffix("parse-failure") }.count, 8, plain.stdout)
        let reused = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_TRACE": trace.path])
        XCTAssertEqual(try reused.reportWithoutTiming(), try plain.reportWithoutTiming(), reused.stdout + reused.stderr)
        XCTAssertEqual(
            pchTraceLines(trace).map { String($0.split(separator: " ")[0]) }, ["prefix-unusable"], reused.stderr)
    }

    func testNoPrefixWithoutTheHeaderReuse() throws {
        let p = try project()
        let trace = p.root.appendingPathComponent("trace")
        let run = try CLIRunner.run(
            ["lint", "src", "--format", "json"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "0", "DI_LINT_PCH_TRACE": trace.path])
        XCTAssertEqual(run.findingPlaces.count, 12, run.stdout + run.stderr)
        XCTAssertEqual(pchTraceLines(trace), [], run.stderr)
    }
}
