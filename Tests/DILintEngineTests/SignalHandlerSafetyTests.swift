import Foundation
import XCTest
@testable import DILintEngine

/// `signal-handler-safety` on whole runs: chains across files, planted violations, the cache.
final class SignalHandlerSafetyTests: XCTestCase {
    let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures")

    func testChainCrossesFilesAndAFunctionPointerTable() throws {
        let config = try Configuration.load(path: fixtures.appendingPathComponent(".di-lint.yml").path)
        let files = try FileCollector(excludes: [], baseDirectory: fixtures.path).collect([
            fixtures.appendingPathComponent("signal").path
        ])
        let findings = Linter(configuration: config).lint(files: files).findings.filter {
            $0.rule == "signal-handler-safety"
        }
        let snprintf = try XCTUnwrap(findings.first { $0.message.contains("'snprintf'") })
        XCTAssertTrue(snprintf.path.hasSuffix("sigfx_writer.c"), snprintf.path)
        XCTAssertTrue(
            snprintf.message.contains("sigfx_on_crash → sigfx_step_write → sigfx_write_report → snprintf"),
            snprintf.message)
        XCTAssertTrue(snprintf.message.contains("sigaction at sigfx_install.c:"), snprintf.message)
        XCTAssertEqual(snprintf.snippet?.hasPrefix("snprintf(sigfx_line"), true)
    }

    /// A handler that passes, then the same code with one unsafe call planted two calls deep.
    func testPlantedViolationIsReportedWithItsChain() throws {
        let dir = try temporaryDirectory(self)
        let handler = dir.appendingPathComponent("handler.c").path
        let helper = dir.appendingPathComponent("helper.c").path
        try """
        #include <signal.h>
        #include <unistd.h>
        void helper_write(const char *s, unsigned long n);
        static void on_crash(int sig) { helper_write("crash\\n", 6); _exit(1); }
        void install(void) { struct sigaction sa = { .sa_handler = on_crash }; sigaction(SIGSEGV, &sa, 0); }
        """.write(toFile: handler, atomically: true, encoding: .utf8)
        let clean = """
            #include <unistd.h>
            static void emit(const char *s, unsigned long n) { write(2, s, n); }
            void helper_write(const char *s, unsigned long n) { emit(s, n); }
            """
        try clean.write(toFile: helper, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            try lint([handler, helper], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }, [])

        try clean.replacingOccurrences(of: "write(2, s, n);", with: "write(2, s, n); (void)malloc(n);")
            .replacingOccurrences(of: "#include <unistd.h>", with: "#include <unistd.h>\n#include <stdlib.h>")
            .write(toFile: helper, atomically: true, encoding: .utf8)
        let found = try lint([handler, helper], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first?.path, helper)
        XCTAssertEqual(found.first?.line, 3)
        XCTAssertTrue(found.first?.message.contains("on_crash → helper_write → emit → malloc") == true, "\(found)")
    }

    /// An Objective-C method whose types do not resolve (no SDK) drops out of the AST; its
    /// `sa_sigaction` store is still read from the tokens.
    /// A function-like-macro check one byte past a `#define` that ends the file read past the
    /// buffer and trapped the whole run (found by scripts/fuzz-lint).
    func testAMacroDefinitionThatEndsTheFileIsNoCrash() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("tail.mm").path
        try "// ends in a definition with no newline\n#define SIGFX_SAF".write(
            toFile: file, atomically: true, encoding: .utf8)
        let result = try lint([file], configYAML: "")
        XCTAssertEqual(result.findings.filter { $0.rule == "parse-failure" }.count, 0, "\(result.findings)")
    }

    func testRegistrationInCodeTheASTLostIsFoundInTheTokens() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("monitor.m").path
        try """
        #include <signal.h>
        #include <stdlib.h>
        static void on_crash(int sig, siginfo_t *info, void *ctx) { free(malloc(1)); }
        @implementation Monitor
        - (BOOL)installWithError:(NSError **)error {
            struct sigaction sa;
            UnknownSDKType *unused = [UnknownSDKType new];
            sa.sa_sigaction = &on_crash;
            return sigaction(SIGSEGV, &sa, NULL) == 0;
        }
        @end
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let found = try lint([file], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(found.map(\.line), [3, 3], "\(found)")
        XCTAssertTrue(found.allSatisfy { $0.message.contains("sigaction at monitor.m:8") }, "\(found)")
    }

    /// A C++ member defined in a project header inside a namespace opened by a macro, reached
    /// from a handler in another file; implicit constructors are not calls to report.
    func testMembersInMacroNamespacesOfHeadersAreFollowed() throws {
        let dir = try temporaryDirectory(self)
        let header = dir.appendingPathComponent("writer.hpp").path
        let source = dir.appendingPathComponent("handler.cpp").path
        try """
        #include <cstdlib>
        #define BEGIN_NS namespace seam { inline namespace v1 {
        #define END_NS } }
        BEGIN_NS
        struct Scratch { char bytes[64]; };
        template <typename T> class Writer {
        public:
            T *buffer() { return static_cast<T *>(std::malloc(sizeof(T))); }
        };
        END_NS
        """.write(toFile: header, atomically: true, encoding: .utf8)
        try """
        #include <csignal>
        #include "writer.hpp"
        static void on_crash(int) {
            static seam::Scratch scratch;
            seam::Writer<seam::Scratch> writer;
            (void)writer.buffer();
        }
        void install() { std::signal(SIGSEGV, on_crash); }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let found = try lint([header, source], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(
            found.map { "\(($0.path as NSString).lastPathComponent):\($0.line)" }, ["writer.hpp:8"], "\(found)")
        XCTAssertTrue(found.first?.message.contains("on_crash → seam::Writer::buffer → malloc") == true, "\(found)")
    }

    /// The crash library's own runtime must pass the rule (the gate the rule exists for).
    func testTheCrashRuntimePassesTheRule() throws {
        let runtime = packageRoot.appendingPathComponent("Sources/CrashRuntime")
        let files = try FileCollector(excludes: [], baseDirectory: runtime.path).collect([runtime.path])
        XCTAssertFalse(files.isEmpty)
        let include = "-I" + runtime.appendingPathComponent("include").path
        let result = try lint(files, configYAML: "clang-flags: ['\(include)']")
        XCTAssertEqual(result.filesFailed, 0)
        XCTAssertEqual(result.findings.filter { $0.rule == "signal-handler-safety" }.map(\.message), [])
    }

    /// Facts of project rules come back from the incremental cache and give the same findings.
    func testFactsFromTheCacheGiveTheSameFindings() throws {
        let config = try Configuration.load(path: fixtures.appendingPathComponent(".di-lint.yml").path)
        let files = try FileCollector(excludes: [], baseDirectory: fixtures.path).collect([
            fixtures.appendingPathComponent("signal").path
        ])
        let cache = MemoryCache()
        let first = Linter(configuration: config)
        first.cache = cache
        let cold = first.lint(files: files)
        let second = Linter(configuration: config)
        second.cache = cache
        let warm = second.lint(files: files)
        XCTAssertEqual(warm.filesCached, files.count)
        XCTAssertEqual(warm.findings, cold.findings)
        XCTAssertGreaterThan(cold.findings.filter { $0.rule == "signal-handler-safety" }.count, 5)
    }

    /// A handler in one file calling a helper defined in another, linted with the helper's file
    /// left out (`--changed-since`, `--shard`), with and without its facts in the cache.
    private func partialRunProject(helper: String) throws -> (handler: String, helper: String, linter: () -> Linter) {
        let dir = try temporaryDirectory(self)
        let handler = dir.appendingPathComponent("handler.c").path
        let helperFile = dir.appendingPathComponent("helper.c").path
        try """
        #include <signal.h>
        #include <stdio.h>
        #include <unistd.h>
        void helper_write(const char *s, unsigned long n);
        void external_flush(void);
        static void on_crash(int sig) {
            helper_write("crash\\n", 6);
            // di-lint:disable-next-line signal-handler-safety -- flushed by a safe platform call
            external_flush();
            printf("crash");
            _exit(1);
        }
        void install(void) { struct sigaction sa = { .sa_handler = on_crash }; sigaction(SIGSEGV, &sa, 0); }
        """.write(toFile: handler, atomically: true, encoding: .utf8)
        try helper.write(toFile: helperFile, atomically: true, encoding: .utf8)
        let configuration = try Configuration.parse(yaml: "containers: [container_shared()]\n", baseDirectory: dir.path)
        return (handler, helperFile, { Linter(configuration: configuration) })
    }

    func testAPartialRunBlamesNoFunctionDefinedOutsideIt() throws {
        let safe = "#include <unistd.h>\nvoid helper_write(const char *s, unsigned long n) { write(2, s, n); }\n"
        let project = try partialRunProject(helper: safe)
        func summary(_ r: LintResult) -> [String] {
            r.findings.map { "\(($0.path as NSString).lastPathComponent):\($0.line) \($0.rule)" }
        }

        let full = project.linter().lint(files: [project.handler, project.helper])
        XCTAssertEqual(
            summary(full), ["handler.c:10 signal-handler-safety"],
            "printf only: the helper is safe, external_flush suppressed")

        let partial = project.linter()
        partial.contextFiles = [project.helper] // no cache: its facts are not available
        let result = partial.lint(files: [project.handler])
        // Still reported: what the run itself shows (printf). Not reported: helper_write, whose
        // definition is outside the run, and the suppression it made look unused.
        XCTAssertEqual(summary(result), ["handler.c:10 signal-handler-safety"], "\(result.findings)")
    }

    func testContextFactsFromTheCacheCompleteAPartialRun() throws {
        let unsafe = "#include <stdlib.h>\nvoid helper_write(const char *s, unsigned long n) { free(malloc(n)); }\n"
        let project = try partialRunProject(helper: unsafe)
        let cache = MemoryCache()
        let full = project.linter()
        full.cache = cache
        let fullFindings = full.lint(files: [project.handler, project.helper]).findings.filter {
            $0.path.hasSuffix("helper.c")
        }
        XCTAssertEqual(fullFindings.count, 2, "malloc and free, reached through helper_write")

        let partial = project.linter()
        partial.cache = cache
        partial.contextFiles = [project.helper]
        let result = partial.lint(files: [project.handler])
        XCTAssertEqual(result.filesChecked, 1)
        XCTAssertEqual(
            result.findings.filter { $0.path.hasSuffix("helper.c") }, fullFindings,
            "the helper's cached facts complete the graph: its findings are reported")

        let uncached = project.linter()
        uncached.contextFiles = [project.helper]
        XCTAssertEqual(uncached.lint(files: [project.handler]).findings.filter { $0.path.hasSuffix("helper.c") }, [])
    }

    /// Findings of the signal fixtures, by file name and line.
    private func fixtureFindings(in files: [String]) throws -> [Finding] {
        let config = try Configuration.load(path: fixtures.appendingPathComponent(".di-lint.yml").path)
        let paths = files.map { fixtures.appendingPathComponent("signal/" + $0).path }
        return Linter(configuration: config).lint(files: paths).findings.filter { $0.rule == "signal-handler-safety" }
    }

    /// Calls read from a statement the AST lost say so, and the finding notes which function of
    /// the chain was read only partly.
    func testCallsOfLostStatementsCarryTheirNote() throws {
        let found = try fixtureFindings(in: ["sigfx_unresolved_type.c"])
        let free = try XCTUnwrap(found.first { $0.message.contains("'free'") })
        XCTAssertTrue(free.message.contains("sigfx_on_usr2 → sigfx_record → free"), free.message)
        XCTAssertTrue(
            free.message.contains("read only partly") && free.message.contains("'sigfx_on_usr2' (2 statements)"),
            free.message)
        let lost = try XCTUnwrap(found.first { $0.message.contains("'sigfx_current_state'") })
        XCTAssertTrue(lost.message.contains("call read from the tokens"), lost.message)
        XCTAssertFalse(free.message.contains("call read from the tokens"), free.message)
    }

    /// Registrations through a wrapper name the wrapper; a function passed to a function that
    /// does not install it is no handler.
    func testWrapperRegistrationsNameTheWrapper() throws {
        let found = try fixtureFindings(in: ["sigfx_wrapper.c"])
        XCTAssertEqual(found.map(\.line).sorted(), [19, 20, 21], "\(found)")
        XCTAssertTrue(
            found.contains { $0.message.contains("(sigaction through 'sigfx_install_via' at sigfx_wrapper.c:29)") },
            "\(found)")
        XCTAssertTrue(
            found.contains { $0.message.contains("(signal through 'sigfx_install_plain' at sigfx_wrapper.c:28)") },
            "\(found)")
    }

    /// A macro is known to be one when a file of the run defines it: without the header in the
    /// run, its use is a call to an unknown function.
    func testASiteReachedFromSeveralHandlersNamesTheOthers() throws {
        let found = try fixtureFindings(in: ["sigfx_two_handlers.c"])
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(
            found.first?.message.contains("sigfx_two_a → sigfx_two_log → syslog; also reached from 'sigfx_two_b'")
                == true, "\(found)")
    }

    func testRegistrationsThroughAMacroAndInANamespaceAreFound() throws {
        let found = try fixtureFindings(in: ["sigfx_macro_install.c", "sigfx_namespace_registration.cpp"])
        XCTAssertTrue(
            found.contains { $0.message.contains("(sigaction at sigfx_macro_install.c:12): sigfx_macro_hup → syslog") },
            "\(found)")
        XCTAssertTrue(found.contains { $0.message.contains("sigfx_app::SigfxNsHandler → printf") }, "\(found)")
    }

    func testMacroNamesAreNoCallsWhenTheRunDefinesThem() throws {
        XCTAssertEqual(try fixtureFindings(in: ["sigfx_macro_names.c", "sigfx_log.h"]), [])
        let alone = try fixtureFindings(in: ["sigfx_macro_names.c"]).map { $0.message.components(separatedBy: "'")[1] }
        XCTAssertEqual(alone.sorted(), ["SIGFX_SAFE_LOG", "SIGFX_TRACE"])
    }

    /// `strict: true` reports the functions that are only safe in practice.
    func testStrictReportsFunctionsSafeOnlyInPractice() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("quit.c").path
        try """
        #include <ctype.h>
        #include <signal.h>
        #include <stdlib.h>
        #include <unistd.h>
        static char arg[8];
        static void on_quit(int sig) { if (isalnum(arg[0])) _exit((int)strtol(arg, NULL, 10)); }
        void install(void) { signal(SIGQUIT, on_quit); }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try lint([file], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }, [])
        let strict = try lint([file], configYAML: "rules:\n  signal-handler-safety:\n    strict: true\n").findings
            .filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(
            strict.map { $0.message.components(separatedBy: "'")[1] }.sorted(), ["__ctype_b_loc", "strtol"], "\(strict)"
        ) // glibc's isalnum is a macro over __ctype_b_loc
    }

    /// A call kept by the AST only inside a recovery node (a variable's initializer, an `if`
    /// condition) whose other names come from a missing header is read from the node's tokens.
    func testCallsInsideRecoveryNodesAreRead() throws {
        let found = try fixtureFindings(in: ["sigfx_recovery_initializer.c"])
        XCTAssertEqual(found.map(\.line), [12, 13], "\(found)")
        XCTAssertTrue(found[0].message.contains("sigfx_rec_on_usr1 → sprintf"), found[0].message)
        XCTAssertTrue(found[1].message.contains("sigfx_rec_on_usr1 → fputs"), found[1].message)
        XCTAssertTrue(found.allSatisfy { $0.message.contains("call read from the tokens") }, "\(found)")
    }

    /// `ioctl` is a plain system call (glibc documents it AS-Safe): ppp's cleanup path from its
    /// fatal-signal handler makes dozens of them (`ioctl(fd, SIOCDIFADDR, &ifr)`); strict reports it.
    func testIoctlIsSafeInPractice() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("ifdown.c").path
        try """
        #include <signal.h>
        #include <sys/ioctl.h>
        #include <unistd.h>
        static int sock_fd;
        static void on_term(int sig) {
            int pending = 0;
            ioctl(sock_fd, FIONREAD, &pending);
            _exit(pending > 0);
        }
        void install(void) { signal(SIGTERM, on_term); }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try lint([file], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }, [])
        let strict = try lint([file], configYAML: "rules:\n  signal-handler-safety:\n    strict: true\n").findings
            .filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(strict.map { $0.message.components(separatedBy: "'")[1] }, ["ioctl"], "\(strict)")
    }

    /// `va_start`, `va_copy`, `__va_copy` and `va_end` are stdarg macros, no calls, also in code
    /// read from the tokens.
    func testStdargMacrosReadFromTokensAreNoCalls() throws {
        XCTAssertEqual(try fixtureFindings(in: ["sigfx_stdarg_tokens.c"]), [])
    }

    /// Darwin's `mach_error_string` indexes constant error tables and returns a static string, so
    /// a crash reporter's handler may name a kernel error with it (sentry-cocoa's and KSCrash's
    /// machine-context code does); `strict: true` still reports it. The header is missing here, as
    /// on any Linux checkout of a Darwin tree.
    func testMachErrorStringIsSafeInPractice() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("mach_ctx.c").path
        try """
        #include <signal.h>
        #include <string.h>
        #include <unistd.h>
        #include <mach/mach_error.h>
        static int last_kr;
        static void on_segv(int sig) {
            const char *text = mach_error_string(last_kr);
            write(2, text, strlen(text));
            _exit(1);
        }
        void install(void) { signal(SIGSEGV, on_segv); }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try lint([file], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }, [])
        let strict = try lint([file], configYAML: "rules:\n  signal-handler-safety:\n    strict: true\n").findings
            .filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(strict.map { $0.message.components(separatedBy: "'")[1] }, ["mach_error_string"], "\(strict)")
    }

    /// Definitions read from tokens keep their namespace, and a name called inside one is looked
    /// up in the caller's namespaces first: the project's `app::prof::backtrace` is not libc's.
    /// A libc stand-in under `#if` (`sigaction` over `sigvec`) is not taken for the real one.
    func testTokenDefinitionsKeepTheirNamespaces() throws {
        let dir = try temporaryDirectory(self)
        let file = dir.appendingPathComponent("prof.cpp").path
        try """
        #include <csignal>
        #include <cstdlib>
        #include "missing/Thread.hpp"
        namespace app { namespace prof {
        std::size_t counter(const ThreadHandle &h) { return (std::size_t)std::malloc(1); }
        std::size_t backtrace(const ThreadHandle &h, int n) { return counter(h) + n; }
        void on_prof(int sig) { ThreadHandle h; backtrace(h, 1); }
        } }
        #if defined(NO_SIGACTION) && defined(HAVE_SIGVEC)
        int sigaction(int sig, const struct sigaction *a, struct sigaction *o) { return sigvec(sig, 0, 0); }
        #endif
        extern "C" int backtrace(void **, int);
        static void on_sig(int s) { struct sigaction sa = {}; sigaction(SIGINT, &sa, nullptr); }
        void install() { signal(SIGPROF, app::prof::on_prof); signal(SIGINT, on_sig); }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let found = try lint([file], configYAML: "").findings.filter { $0.rule == "signal-handler-safety" }
        XCTAssertEqual(found.map(\.line), [5], "\(found)")
        XCTAssertTrue(
            found.first?.message.contains("app::prof::on_prof → app::prof::backtrace → app::prof::counter → malloc")
                == true, "\(found)")
    }

    func testTheSafeInPracticeListGivesAReasonAndOverlapsNoPOSIXName() {
        for (name, reason) in SafeInPracticeFunctions.reasons {
            XCTAssertFalse(reason.isEmpty, name)
            XCTAssertFalse(AsyncSignalSafeFunctions.isSafe(name, allow: []), "\(name) is on POSIX's list already")
        }
        XCTAssertNotNil(SafeInPracticeFunctions.reasons["backtrace_symbols_fd"])
    }

    func testTheAsyncSignalSafeTable() {
        for name in [
            "write", "memcpy", "strlen", "sigaction", "_exit", "clock_gettime", "syscall", "sigaltstack",
            "__atomic_load_n", "__sync_fetch_and_add", "__builtin_trap", "std::atomic::load", "__errno_location",
        ] {
            XCTAssertTrue(AsyncSignalSafeFunctions.isSafe(name, allow: []), name)
        }
        for name in ["malloc", "printf", "pthread_mutex_lock", "exit", "fork", "dladdr", "objc_msgSend"] {
            XCTAssertFalse(AsyncSignalSafeFunctions.isSafe(name, allow: []), name)
        }
        XCTAssertTrue(AsyncSignalSafeFunctions.isSafe("ksmc_suspend", allow: ["ksmc_*"]))
        XCTAssertTrue(AsyncSignalSafeFunctions.isSwiftMangled("$s4Main3fooyyF"))
        XCTAssertFalse(AsyncSignalSafeFunctions.isSwiftMangled("s_main"))
    }
}

/// An in-memory `OutcomeCache` keyed by path and content.
final class MemoryCache: OutcomeCache, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String: FileOutcome] = [:]

    var outcomes: [FileOutcome] {
        lock.lock(); defer { lock.unlock() }
        return Array(stored.values)
    }

    func outcome(path: String, status: stat, content: () -> [UInt8]?) -> FileOutcome? {
        guard let content = content() else { return nil }
        lock.lock(); defer { lock.unlock() }
        return stored[path + "#\(content.hashValue)"]
    }

    func store(_ outcome: FileOutcome, path: String, content: [UInt8]) {
        lock.lock(); defer { lock.unlock() }
        stored[path + "#\(content.hashValue)"] = outcome
    }
}
