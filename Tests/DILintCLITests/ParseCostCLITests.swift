import Foundation
import XCTest

/// A C-family file only the file rules read is parsed without the bodies of system headers'
/// functions (`ClangParser.unitWithoutSystemBodies`); a file whose call-graph facts
/// `signal-handler-safety` reads is parsed in full. `sys/syslib.h` (`-isystem sys`) defines
/// `sys_note`: with its body read, the rule takes a call of it for the system's inline code (no
/// finding); without, for an unknown external function (a finding). So a file the rule reads
/// that kept the cheaper parse would change the findings, and each test compares them with
/// `--parse-every-file`'s (every file parsed in full). `DI_LINT_PARSE_TRACE` shows the parses.
final class ParseCostCLITests: XCTestCase {
    private static let files: [String: String] = [
        ".di-lint.yml": "containers: [\"Env::get\"]\nclang-flags: [-isystem, sys]\n",
        "sys/syslib.h": """
        #pragma once
        static inline int sys_note(int x) { return x * 2; }
        namespace lib { template <class T> T twice(T v) { return v + v; } }

        """,
        "src/env.hpp": """
        #pragma once
        struct Service { int value(); };
        struct Env { static Service &get(); };

        """,
        // the file rules need it (it names the container); it spells no installer word
        "src/user.cpp": """
        #include "env.hpp"
        #include <syslib.h>
        int use() { return Env::get().value() + lib::twice(1); }

        """,
    ]

    /// Lints `src` with the parse trace; the trace's lines (`what path-from-src`), sorted.
    private func lint(_ p: Project, _ extra: [String] = []) throws -> (run: CLIRunner.Run, trace: [String]) {
        let trace = p.root.appendingPathComponent("parse-trace")
        try? FileManager.default.removeItem(at: trace)
        let run = try CLIRunner.run(
            ["lint", "src", "--format", "json"] + extra, in: p.root, environment: ["DI_LINT_PARSE_TRACE": trace.path])
        let lines = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").map { line in
            // `what path`: the path from `src/` on
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let path = parts.count > 1 ? parts[1] : ""
            return parts[0] + " " + (path.range(of: "src/").map { String(path[$0.lowerBound...]) } ?? path)
        }
        return (run, lines.sorted())
    }

    /// The findings as JSON text, sorted (the run's summary counts the files parsed, which differ).
    private func findings(_ run: CLIRunner.Run) throws -> String {
        let sorted = run.findings.map {
            String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }.sorted()
        return sorted.joined(separator: "\n")
    }

    /// `signal-handler-safety`'s findings as `path:line message`.
    private func signalMessages(_ run: CLIRunner.Run) -> [String] {
        run.findings.filter { $0["rule"] as? String == "signal-handler-safety" }.map {
            "\($0["path"] ?? ""):\($0["line"] ?? "") \($0["message"] ?? "")"
        }
    }

    /// The only file parsed is read only by the file rules: the cheaper parse, the same findings.
    func testAFileOnlyTheContainerRuleReadsSkipsSystemBodiesWithTheSameFindings() throws {
        let p = try Project(self, files: Self.files)
        let (run, trace) = try lint(p)
        XCTAssertEqual(trace, ["bodies-skipped src/user.cpp"], run.stderr)
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertEqual(every.trace, ["full src/env.hpp", "full src/user.cpp"], every.run.stderr)
        XCTAssertEqual(run.findingPlaces, ["src/user.cpp:3 container-access"], run.stdout + run.stderr)
        XCTAssertEqual(try findings(run), try findings(every.run))
    }

    /// An include not found is a fatal error for libclang 14's indexer, after which clang
    /// instantiates no template (`std::string`'s `operator<` loses its callee): such a file is
    /// parsed in full, with the full parse's findings.
    func testAFileWithAnIncludeNotFoundIsParsedInFull() throws {
        var files = Self.files
        files["sys/str.h"] = """
            #pragma once
            namespace lib {
            template <class T> struct Box { T v; bool operator<(const Box &o) const { return v < o.v; } };
            }

            """
        files["src/user.cpp"] = """
            #include <no_such_header.h>
            #include <str.h>
            #include "env.hpp"
            bool less(lib::Box<int> a, lib::Box<int> b) { return a < b; }
            int use() { return Env::get().value(); }

            """
        let p = try Project(self, files: files)
        let (run, trace) = try lint(p)
        XCTAssertEqual(trace, ["full src/user.cpp"], run.stderr)
        XCTAssertEqual(run.findingPlaces, ["src/user.cpp:5 container-access"], run.stdout + run.stderr)
        XCTAssertEqual(try findings(run), try findings(try lint(p, ["--parse-every-file"]).run))
    }

    /// One parse worker makes the cheaper parse of several files in turn (libclang's indexer
    /// hands back units that must outlive nothing of the indexing): no parse fails, the same
    /// findings as the full parse.
    func testOneWorkerParsesSeveralFilesWithoutSystemBodies() throws {
        var files = Self.files
        for n in 2...4 {
            files["src/user\(n).cpp"] = files["src/user.cpp"]!.replacingOccurrences(of: "use()", with: "use\(n)()")
        }
        let p = try Project(self, files: files)
        let (run, trace) = try lint(p, ["--jobs", "1"])
        XCTAssertEqual(
            trace, ["src/user.cpp", "src/user2.cpp", "src/user3.cpp", "src/user4.cpp"].map { "bodies-skipped " + $0 },
            run.stderr)
        XCTAssertEqual(run.findingPlaces.filter { $0.hasSuffix("container-access") }.count, 4, run.stdout + run.stderr)
        XCTAssertFalse(run.stdout.contains("parse-failure"), run.stdout)
        XCTAssertEqual(try findings(run), try findings(try lint(p, ["--parse-every-file", "--jobs", "1"]).run))
    }

    /// The run found `malloc` at `place`, nothing on `sys_note` (whose body the full parse reads),
    /// and the findings of `--parse-every-file`.
    private func assertMallocOnlyAsTheFullParse(
        _ run: CLIRunner.Run, at place: String, in p: Project, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertTrue(
            signalMessages(run).contains { $0.hasPrefix(place) && $0.contains("'malloc'") }, run.stdout,
            file: file, line: line)
        XCTAssertFalse(run.stdout.contains("sys_note"), run.stdout, file: file, line: line)
        XCTAssertEqual(try findings(run), try findings(every.run), file: file, line: line)
    }

    /// The handler's file names the container too (the file rules need it) and calls the system
    /// header's `static inline` function: it is parsed in full, the finding on `malloc` is there,
    /// and none on `sys_note`.
    func testAHandlerCallingASystemHeadersInlineFunctionKeepsTheFullParse() throws {
        var files = Self.files
        files["src/handler.cpp"] = """
            #include <signal.h>
            #include <stdlib.h>
            #include <syslib.h>
            #include "env.hpp"
            static void on_usr1(int s) { void *p = malloc(8); (void)p; sys_note(s); }
            void install() { Env::get().value(); signal(SIGUSR1, on_usr1); }

            """
        let p = try Project(self, files: files)
        let (run, trace) = try lint(p)
        XCTAssertEqual(trace, ["bodies-skipped src/user.cpp", "full src/handler.cpp"], run.stderr)
        try assertMallocOnlyAsTheFullParse(run, at: "src/handler.cpp:5", in: p)
    }

    /// `helper.cpp` names the container and spells no installer word: it waits for the rounds;
    /// the handler in `install.cpp` calls its `helper`, so a round parses it in full, once, before
    /// the rule reads its facts (which then find `sys_note`'s body). `user.cpp`, which no round
    /// needs, is parsed without system bodies after the rounds.
    func testAFileTheHandlerReachesIsParsedInFullOnly() throws {
        var files = Self.files
        files["src/helper.cpp"] = """
            #include <stdlib.h>
            #include <syslib.h>
            #include "env.hpp"
            void helper(int s) { Env::get().value(); void *p = malloc(8); (void)p; sys_note(s); }

            """
        files["src/install.cpp"] = """
            #include <signal.h>
            void helper(int s);
            static void on_usr1(int s) { helper(s); }
            void install() { signal(SIGUSR1, on_usr1); }

            """
        let p = try Project(self, files: files)
        let (run, trace) = try lint(p)
        XCTAssertEqual(
            trace,
            ["bodies-skipped src/user.cpp", "full src/helper.cpp", "full src/install.cpp"],
            run.stderr)
        try assertMallocOnlyAsTheFullParse(run, at: "src/helper.cpp:4", in: p)
    }

    /// The cache keeps the mark of the cheaper parse: a second run reads `helper.cpp`'s outcome
    /// and, the handler reaching it, parses it again in full rather than trust its facts.
    func testACachedOutcomeOfTheCheaperParseIsNotTrustedForTheCallGraph() throws {
        var files = Self.files
        files["src/helper.cpp"] = """
            #include <stdlib.h>
            #include <syslib.h>
            #include "env.hpp"
            void helper(int s) { Env::get().value(); void *p = malloc(8); (void)p; sys_note(s); }

            """
        let p = try Project(self, files: files)
        // first run: no handler, helper.cpp kept the cheaper parse (and is cached so)
        let cache = ["--cache", "cache"]
        let first = try lint(p, cache)
        XCTAssertEqual(first.trace, ["bodies-skipped src/helper.cpp", "bodies-skipped src/user.cpp"], first.run.stderr)
        try p.write(
            "src/install.cpp",
            """
            #include <signal.h>
            void helper(int s);
            static void on_usr1(int s) { helper(s); }
            void install() { signal(SIGUSR1, on_usr1); }

            """)
        let second = try lint(p, cache)
        XCTAssertEqual(second.trace, ["full src/helper.cpp", "full src/install.cpp"], second.run.stderr)
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertFalse(second.run.stdout.contains("sys_note"), second.run.stdout)
        XCTAssertEqual(try findings(second.run), try findings(every.run))
    }
}
