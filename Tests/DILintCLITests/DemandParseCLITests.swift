import Foundation
import XCTest

/// With `signal-handler-safety` on, lint parses only the files a finding can depend on: those
/// the file rules need, those that may install a handler, then those spelling a name the rule
/// looks up from what is parsed so far. Its output is `--parse-every-file`'s but for the count
/// of files parsed.
final class DemandParseCLITests: XCTestCase {
    private static let config = ".di-lint.yml"

    /// The JSON output without `seconds` and `parsed`, the count of files parsed, and the run.
    private func lint(_ p: Project, _ extra: [String] = []) throws -> (json: String, parsed: Int, run: CLIRunner.Run) {
        let run = try CLIRunner.run(["lint", ".", "--format", "json"] + extra, in: p.root)
        let (json, parsed) = try run.reportAndParsed()
        return (json, parsed, run)
    }

    /// Runs both ways: the same output, the expected findings, and fewer files parsed.
    private func check(
        _ p: Project, findings expected: [String], parsed: Int, of files: Int, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let demand = try lint(p)
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertEqual(
            demand.run.signalFindings, expected, demand.run.stdout + demand.run.stderr, file: file, line: line)
        XCTAssertEqual(demand.json, every.json, "the output differs from --parse-every-file's", file: file, line: line)
        XCTAssertEqual(every.parsed, files, every.run.stderr, file: file, line: line)
        XCTAssertEqual(demand.parsed, parsed, demand.run.stderr, file: file, line: line)
    }

    /// on_int → log_it (log.c) → helper2 (helper.c) → malloc: neither log.c nor helper.c names
    /// the container or an installer; each is parsed because the file before it calls its function.
    func testACalleeDefinedInAFileNamingNoContainerNorInstallerIsParsed() throws {
        let p = try Project(
            self,
            files: [
                Self.config: "containers: [NoSuchContainer.shared]\n",
                "src/install.c": """
                #include <signal.h>
                void log_it(const char *m);
                static void on_int(int s) { (void)s; log_it("x"); }
                void install(void) { signal(SIGINT, on_int); }

                """,
                "src/log.c": """
                void helper2(void);
                void log_it(const char *m) { (void)m; helper2(); }

                """,
                "src/helper.c": """
                #include <stdlib.h>
                void helper2(void) { void *p = malloc(8); free(p); }

                """,
                "src/other.c": "int unrelated(void) { return 1; }\n",
                "src/more.c": "int helper3(void) { return 2; }\n",
            ])
        try check(p, findings: ["src/helper.c:2", "src/helper.c:2"], parsed: 3, of: 5)
    }

    /// `INSTALL(on_usr1)` names neither `signal` nor a signal: the macro's body in the header
    /// does, so the file invoking it may install a handler and is parsed.
    func testAHandlerInstalledThroughAMacroIsFound() throws {
        let p = try Project(
            self,
            files: [
                Self.config: "containers: [NoSuchContainer.shared]\nclang-flags: [-Iinclude]\n",
                "include/install.h": """
                #include <signal.h>
                #define INSTALL(h) signal(SIGUSR1, h)

                """,
                "src/main.c": """
                #include "install.h"
                void write_log(void);
                static void on_usr1(int s) { (void)s; write_log(); }
                void setup(void) { INSTALL(on_usr1); }

                """,
                "src/log.c": """
                #include <stdio.h>
                void write_log(void) { printf("usr1\\n"); }

                """,
                "src/other.c": "int unrelated(void) { return 1; }\n",
            ])
        try check(p, findings: ["src/log.c:2"], parsed: 3, of: 4)
    }

    /// A wrapper that installs its parameter (sig.c) called from a file naming no installer.
    func testAHandlerInstalledThroughAWrapperInAnotherFileIsFound() throws {
        let p = try Project(
            self,
            files: [
                Self.config: "containers: [NoSuchContainer.shared]\n",
                "src/sig.c": """
                #include <signal.h>
                #include <string.h>
                void install_handler(int n, void (*h)(int)) {
                    struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = h; sigaction(n, &sa, 0);
                }

                """,
                "src/app.c": """
                #include <stdlib.h>
                void install_handler(int n, void (*h)(int));
                static void on_term(int s) { (void)s; exit(1); }
                void start(void) { install_handler(15, on_term); }

                """,
                "src/other.c": "int unrelated(void) { return 1; }\n",
            ])
        try check(p, findings: ["src/app.c:3"], parsed: 2, of: 3)
    }

    /// C++ across three files: the handler (a.cpp) calls `Journal::note` (b.cpp), which calls
    /// `flushAll` (c.cpp), which allocates; d.cpp names none of them.
    func testAChainAcrossThreeCxxFilesIsFollowed() throws {
        let p = try Project(
            self,
            files: [
                Self.config: "containers: [NoSuchContainer.shared]\nclang-flags: [-Iinclude]\n",
                "include/journal.h": """
                struct Journal { static void note(int); };
                void flushAll();

                """,
                "src/a.cpp": """
                #include <csignal>
                #include "journal.h"
                static void onSegv(int s) { Journal::note(s); }
                void arm() { std::signal(SIGSEGV, onSegv); }

                """,
                "src/b.cpp": """
                #include "journal.h"
                void Journal::note(int) { flushAll(); }

                """,
                "src/c.cpp": """
                #include <cstdlib>
                void flushAll() { void *p = std::malloc(4); std::free(p); }

                """,
                "src/d.cpp": "int other() { return 3; }\n",
            ])
        // journal.h is parsed too: it spells `note` and `flushAll`
        try check(p, findings: ["src/c.cpp:2", "src/c.cpp:2"], parsed: 4, of: 5)
    }

    /// e.m and f.m reach the container only through a header's macro: their text names neither
    /// the container nor an installer, yet the file rules need them (as `--parse-every-file` parses them).
    func testAFileExpandingAMacroThatReachesTheContainerIsParsed() throws {
        let container = "@interface Container\n+ (id)sharedInstance;\n- (id)crashReporter;\n@end\n"
        let p = try Project(
            self,
            files: [
                "Shared.h": container + "#define SHARED_REPORTER [[Container sharedInstance] crashReporter]\n",
                "Wrapper.h": "#import \"Shared.h\"\n",
                "e.m": "#import \"Shared.h\"\nvoid e(void) { id r = SHARED_REPORTER; }\n",
                "f.m": "#import \"Wrapper.h\"\nvoid f(void) { id r = SHARED_REPORTER; }\n",
                "g.m": "void g(void) { }\n",
            ])
        let demand = try lint(p)
        let paths = ((demand.run.json["findings"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        XCTAssertEqual(Set(paths), ["Shared.h", "e.m", "f.m"], demand.run.stdout)
        XCTAssertEqual(demand.json, try lint(p, ["--parse-every-file"]).json)
        XCTAssertEqual(demand.parsed, 3, demand.run.stderr)
    }

    /// The cache keeps only parsed outcomes: a second run, from the cache, still parses a file a
    /// new handler needs (held back in the first run).
    func testTheCacheDoesNotKeepAFileHeldBack() throws {
        let p = try Project(
            self,
            files: [
                Self.config: "containers: [NoSuchContainer.shared]\n",
                "src/install.c": """
                #include <signal.h>
                static void on_int(int s) { (void)s; }
                void install(void) { signal(SIGINT, on_int); }

                """,
                "src/log.c": """
                #include <stdlib.h>
                void log_it(void) { void *p = malloc(1); (void)p; }

                """,
            ])
        let first = try lint(p, ["--cache", "cache"])
        XCTAssertEqual(first.run.signalFindings, [], first.run.stdout + first.run.stderr)
        XCTAssertEqual(first.parsed, 1, first.run.stderr)
        try p.write(
            "src/install.c",
            """
            #include <signal.h>
            void log_it(void);
            static void on_int(int s) { (void)s; log_it(); }
            void install(void) { signal(SIGINT, on_int); }

            """)
        let second = try lint(p, ["--cache", "cache"])
        XCTAssertEqual(second.run.signalFindings, ["src/log.c:2"], second.run.stdout + second.run.stderr)
        XCTAssertEqual(second.json, try lint(p, ["--parse-every-file"]).json)
    }
}
