import Foundation
import SeamTestSupport
import XCTest

/// `lint` parses in worker processes: a file that crashes libclang, outlives `--parse-timeout` or
/// runs a worker out of memory is that file's `parse-failure`, and every other file's findings
/// are kept. Real binaries, real libclang, under `BoundedRun`'s 1 GB of address space and time
/// bound.
final class IsolationCLITests: XCTestCase {
    /// `#define M(x) [x foo]` then `M(M(…M(y)…))` `depth` deep: the expansion nests Objective-C
    /// messages past what clang's parser recurses through. On this machine's libclang 14, 3,000
    /// levels end the process with SIGSEGV in about 2 s (5,000 and 10,000 too).
    private static func nestedMacro(_ depth: Int) -> String {
        "#define M(x) [x foo]\nvoid f(id y) { id z = " + String(repeating: "M(", count: depth) + "y"
            + String(repeating: ")", count: depth) + "; }\n"
    }

    /// One function redeclaring `y` 50,000 times (550 KB): libclang 14's own parse grows with the
    /// square of the redeclarations (Sema's lookups; `clang -fsyntax-only -w` takes 10 s at 25,000
    /// and 40 s at 50,000 on this machine), then a container access.
    private static let slow =
        "void f(void) {\n" + String(repeating: "int y = 1;\n", count: 50_000) + "}\n"
        + "void g(void) { container_shared()->clock(); }\n"

    private static let fine = "void g(void) { container_shared()->clock(); }\n"

    func testAFileThatCrashesLibclangIsAParseFailureNamingTheSignalAndTheOthersAreKept() throws {
        // with a container access: a file no rule needs is not parsed (signal-handler-safety's demand-driven parse)
        let project = try Project(self, files: ["Crash.m": Self.crashing, "Fine.c": Self.fine])
        let run = try BoundedRun.run(["."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "Crash.m")
        XCTAssertTrue(
            run.stdout.contains(
                "Crash.m:1:1: error: file not linted: the parser crashed (signal 11, SIGSEGV) [parse-failure]"),
            run.stdout)
        XCTAssertTrue(
            run.stdout.contains("Fine.c:1:16: error: direct access to container 'container_shared()'"), run.stdout)
        XCTAssertTrue(run.stderr.contains("2 files (1 parsed, 1 not linted)"), run.stderr)
    }

    func testAFileOverTheParseTimeoutIsAParseFailureAndTheRunEnds() throws {
        var files = ["Slow.m": Self.slow, "Fine.c": Self.fine]
        for i in 0..<4 { files["More\(i).c"] = "void h\(i)(void) { container_shared()->service\(i)(); }\n" }
        let project = try Project(self, files: files)
        let run = try BoundedRun.run(["--parse-timeout", "2", "--jobs", "2", "."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "Slow.m")
        XCTAssertTrue(
            run.stdout.contains("Slow.m:1:1: error: file not linted: took longer than 2 s to parse"), run.stdout)
        XCTAssertLessThan(run.seconds, 30, "the slow file alone takes about 40 s")
        XCTAssertTrue(run.stdout.contains("Fine.c:1:16: error: direct access"), run.stdout)
        for i in 0..<4 {
            XCTAssertTrue(
                run.stdout.contains("More\(i).c:1:"),
                "a fresh worker took the files after the killed one: \(run.stdout)")
        }

        // The key in the config does the same; the option wins over it.
        try project.write(".di-lint.yml", Project.config + "parse-timeout: 1.5\n")
        let configured = try BoundedRun.run(["."], in: project.root, seconds: 120)
        XCTAssertTrue(
            configured.stdout.contains("Slow.m:1:1: error: file not linted: took longer than 1.5 s to parse"),
            configured.stdout)
        let overridden = try BoundedRun.run(["--parse-timeout", "3", "."], in: project.root, seconds: 120)
        XCTAssertTrue(overridden.stdout.contains("took longer than 3 s to parse"), overridden.stdout)
    }

    func testLintFixesLeavesOutAFileItsWorkerCouldNotParse() throws {
        // `--fixes` plans in di-lint's own process: the slow file, a parse-failure in its worker,
        // must not be parsed there again (about 40 s, with no deadline).
        let slow = Self.slow
        let project = try Project(self, files: ["Slow.m": slow, "Fine.c": Self.fine])
        let run = try BoundedRun.run(
            ["--parse-timeout", "2", "--fixes", "--format", "json", "."], in: project.root, seconds: 60)
        assertBounded(run, status: 1, names: "Slow.m")
        XCTAssertTrue(run.stdout.contains("took longer than 2 s to parse"), run.stdout)
        XCTAssertTrue(run.stdout.contains("Fine.c"), run.stdout)
        XCTAssertLessThan(run.seconds, 30)
    }

    func testFixWithoutIsolationEndsAtTheParseTimeoutNamingTheFileAndWritesNothing() throws {
        // `fix --no-isolation` parses in its own process; past the deadline it stops, names the
        // file, and exits 2 (what every `fix` did before it ran isolated).
        let slow = Self.slow
        let project = try fixProject(["Sources/Slow.m": slow])
        let run = try BoundedRun.run(
            ["fix", "--phase", "inject", "--apply", "--no-isolation", "--parse-timeout", "2", "Sources"],
            in: project.root, seconds: 60)
        assertBounded(run, status: 2, names: "Slow.m", onStderr: true)
        XCTAssertTrue(run.stderr.contains("Slow.m took longer than 2 s to parse; nothing was written"), run.stderr)
        XCTAssertLessThan(run.seconds, 30)
        XCTAssertEqual(try project.read("Sources/Slow.m"), slow)
        XCTAssertEqual(try project.read("Sources/Reporter.m"), FixSamples.reporter)

        // and a file that crashes libclang ends it with the signal
        try project.write("Sources/Slow.m", Self.crashing)
        let crashed = try BoundedRun.run(
            ["fix", "--phase", "inject", "--no-isolation", "Sources"], in: project.root, seconds: 60)
        XCTAssertEqual(crashed.status, SIGSEGV, crashed.stderr)
        XCTAssertEqual(crashed.stdout, "")
    }

    // MARK: fix, isolated

    /// A project `fix --phase inject` rewrites one access in (Sources/Reporter.m), and `files`.
    private func fixProject(_ files: [String: String]) throws -> Project {
        try Project(
            self,
            files: [
                "Sources/Reporter.m": FixSamples.reporter, "Sources/CrashBridge.h": FixSamples.bridgeHeader,
                ".di-lint.yml": Project.config + "bridge-type: CrashBridge\n",
            ].merging(files) { $1 })
    }

    /// The line of Reporter.m's fix.
    private static let rewritten =
        "    id r = self.bridge ? self.bridge.crashReporter : [Container sharedInstance].crashReporter;\n"
    /// `nestedMacro(3_000)` with a container access, so that `fix` parses it.
    private static let crashing = nestedMacro(3_000) + "void g(void) { container_shared()->now(); }\n"

    /// Runs `fix --phase inject` over the project (dry, then `--apply`): exit 1, each of `leftOut`
    /// (path → the reason's start) a manual item and untouched, Reporter.m's edit in the diff and written.
    private func assertFixLeavesOut(
        _ leftOut: [String: String], in project: Project, options: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let dry = try BoundedRun.run(
            ["fix", "--phase", "inject"] + options + ["Sources"], in: project.root, seconds: 120)
        for (path, reason) in leftOut {
            assertBounded(dry, status: 1, names: path, onStderr: true, file: file, line: line)
            XCTAssertTrue(
                dry.stderr.contains(
                    "\(path):1:1: manual: : the file could not be parsed (its accesses are not planned) (\(reason)"),
                dry.stderr, file: file, line: line)
            XCTAssertFalse(dry.stdout.contains(path), dry.stdout, file: file, line: line)
        }
        XCTAssertTrue(
            dry.stdout.hasPrefix("--- a/Sources/Reporter.m\n+++ b/Sources/Reporter.m\n"), dry.stdout, file: file,
            line: line)
        XCTAssertTrue(dry.stdout.contains("+" + Self.rewritten), dry.stdout, file: file, line: line)
        XCTAssertTrue(
            dry.stderr.contains(
                "di-lint fix: 1 access rewritten in 1 file; \(leftOut.count) left for manual work (\(leftOut.count) the file could not be parsed"
            ),
            dry.stderr, file: file, line: line)
        XCTAssertLessThan(dry.seconds, 30, file: file, line: line)
        XCTAssertEqual(try project.read("Sources/Reporter.m"), FixSamples.reporter, file: file, line: line)

        let applied = try BoundedRun.run(
            ["fix", "--phase", "inject", "--apply"] + options + ["Sources"], in: project.root, seconds: 120)
        assertBounded(applied, status: 1, names: "wrote 1 file", onStderr: true, file: file, line: line)
        XCTAssertTrue(try project.read("Sources/Reporter.m").contains(Self.rewritten), file: file, line: line)
        for path in leftOut.keys {
            XCTAssertEqual(
                try project.read(path),
                try String(contentsOf: project.root.appendingPathComponent(path + ".orig"), encoding: .utf8),
                "\(path) is not written", file: file, line: line)
        }
    }

    /// Writes `files` into the project, each with a copy (`.orig`, not a source file) to compare with.
    private func write(_ files: [String: String], into project: Project) throws {
        for (path, text) in files {
            try project.write(path, text)
            try project.write(path + ".orig", text)
        }
    }

    func testFixLeavesOutAFileThatCrashesLibclangAndFixesTheOthers() throws {
        let project = try fixProject([:])
        try write(["Sources/Crash.m": Self.crashing], into: project)
        try assertFixLeavesOut(["Sources/Crash.m": "the parser crashed (signal 11, SIGSEGV))"], in: project)
    }

    func testFixLeavesOutTwoFilesThatCrashLibclangAtOnce() throws {
        // parsed on a thread each, both crash the process: the next run parses one at a time
        let project = try fixProject([:])
        try write(["Sources/Crash1.m": Self.crashing, "Sources/Crash2.m": Self.crashing], into: project)
        try assertFixLeavesOut(
            [
                "Sources/Crash1.m": "the parser crashed (signal 11, SIGSEGV))",
                "Sources/Crash2.m": "the parser crashed (signal 11, SIGSEGV))",
            ], in: project)
    }

    func testFixLeavesOutAFileOverTheParseTimeout() throws {
        let project = try fixProject([:])
        try write(["Sources/Slow.m": Self.slow], into: project)
        try assertFixLeavesOut(
            ["Sources/Slow.m": "took longer than 2 s to parse (left out of the fix; see --parse-timeout))"],
            in: project, options: ["--parse-timeout", "2"])
    }

    func testFixLeavesOutAFileThatRunsItOutOfMemory() throws {
        let project = try fixProject([:])
        try write(
            [
                "Sources/Evil.m":
                    "#define EVIL \"/dev/zero\"\n#include EVIL\nvoid f(void) { container_shared()->now(); }\n"
            ], into: project)
        // the run's memory limit: the 1 GB `ulimit -v` it inherits
        try assertFixLeavesOut(
            [
                "Sources/Evil.m":
                    "ran out of memory (over the fix process's 1024 MiB address-space limit; see parse-memory-limit))"
            ],
            in: project)
        let run = try BoundedRun.run(["fix", "--phase", "inject", "Sources"], in: project.root, seconds: 60)
        XCTAssertFalse(
            run.stderr.contains("LLVM ERROR"), "the output of a run started again is not shown: \(run.stderr)")
    }

    func testIsolatedAndInProcessFixGiveTheSameBytesAndACrashingFileChangesNoOtherEdit() throws {
        var files: [String: String] = [
            "Sources/Use.swift": "func f() { let x = Container.sharedInstance.clock }\n",
            "Sources/Fine.c": Self.fine,
        ]
        for i in 0..<8 {
            files["Sources/Gen\(i).m"] = FixSamples.reporter.replacingOccurrences(
                of: "@interface Reporter", with: "@interface Reporter\(i)"
            )
            .replacingOccurrences(of: "@implementation Reporter", with: "@implementation Reporter\(i)")
        }
        let project = try fixProject(files)
        var outputs: [[String]] = []
        for options in [[], ["--no-isolation"]] {
            var output: [String] = []
            for format in ["diff", "json", "sarif"] {
                let run = try project.runArray(["fix", "--phase", "inject", "--format", format, "Sources"] + options)
                XCTAssertEqual(run.status, 1, run.stderr)
                output += [run.stdout, run.stderr]
            }
            outputs.append(output)
        }
        XCTAssertTrue(outputs[0][0].contains("Gen7.m"), outputs[0][0])
        XCTAssertEqual(outputs[0], outputs[1])

        // With a file that crashes libclang: the same diff, the file a manual item; in-process, the run crashes.
        try project.write("Sources/Crash.m", Self.crashing)
        let isolated = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertEqual(isolated.status, 1, isolated.stderr)
        XCTAssertEqual(isolated.stdout, outputs[0][0])
        XCTAssertTrue(isolated.stderr.contains("Sources/Crash.m:1:1: manual: "), isolated.stderr)
        let inProcess = try project.run("fix", "--phase", "inject", "--no-isolation", "Sources")
        XCTAssertNotEqual(inProcess.status, 1, inProcess.stderr)
        XCTAssertEqual(inProcess.stdout, "")
    }

    func testIsolatedFixEndsQuietlyOnAClosedPipeAsBefore() throws {
        // the child dies of SIGPIPE writing the diff (outside any parse): so does the run, nothing said
        var files: [String: String] = [:]
        for i in 0..<200 {
            files["Sources/Gen\(i).m"] = FixSamples.reporter.replacingOccurrences(
                of: "@interface Reporter", with: "@interface Reporter\(i)"
            )
            .replacingOccurrences(of: "@implementation Reporter", with: "@implementation Reporter\(i)")
        }
        let project = try fixProject(files)
        let run = try BoundedRun.run(
            ["fix", "--phase", "inject", "Sources"], in: project.root, seconds: 120,
            pipeline: "| head -c 10 >/dev/null; echo \"status ${PIPESTATUS[0]}\" >&2")
        XCTAssertTrue(
            run.stderr.hasSuffix("status 141\n"),
            "killed by SIGPIPE (128 + 13), nothing else said: \(run.stderr.suffix(2000))")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testFixAndRulesOnAFullStandardOutputEndWithAnErrorNotACrash() throws {
        // Foundation's FileHandle.write traps on a write error (SIGILL); the report goes out
        // through the same checked writes as lint's: exit 2, one line naming the error, and
        // nothing written (the diff is written before --apply would write the files).
        let project = try fixProject([:])
        for extra in [[], ["--no-isolation"], ["--format", "json"], ["--format", "json", "--apply"]] {
            let run = try BoundedRun.run(
                ["fix", "--phase", "inject"] + extra + ["Sources"], in: project.root, seconds: 60,
                redirect: ">/dev/full")
            XCTAssertEqual(run.status, 2, "\(extra): \(run.stderr)")
            XCTAssertTrue(
                run.stderr.contains(
                    "di-lint: error: cannot write the report to standard output (No space left on device)\n"),
                "\(extra): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("SIG"), run.stderr)
            XCTAssertEqual(try project.read("Sources/Reporter.m"), FixSamples.reporter)
        }
        let rules = try BoundedRun.run(["rules"], in: project.root, seconds: 60, redirect: ">/dev/full")
        XCTAssertEqual(rules.status, 2, rules.stderr)
        XCTAssertTrue(
            rules.stderr.contains("cannot write the report to standard output (No space left on device)"), rules.stderr)
    }

    func testAKilledFixLeavesNoChildParsing() throws {
        let project = try fixProject(["Sources/Slow.m": Self.slow])
        // Only the supervisor is killed; its child is mid-parse on a file that takes about 40 s.
        let (started, left) = try killParent(
            ["fix", "--phase", "inject", "Sources"], in: project.root, matching: "fix", count: 2)
        XCTAssertEqual(started.count, 2, "the supervisor and its child")
        XCTAssertEqual(left, [], "the killed supervisor's child is still running")
    }

    /// Runs di-lint in `root`, waits (up to 5 s) until `count` processes whose command line holds
    /// `matching` run there, kills di-lint itself, and gives what is left 3 s to end (a child
    /// checks for its parent every 0.5 s). The processes seen, and those still running (killed now).
    private func killParent(_ arguments: [String], in root: URL, matching: String, count: Int) throws -> (
        started: [String], left: [String]
    ) {
        let path = root.resolvingSymlinksInPath().path
        func running() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { pid in
                guard Int(pid) != nil,
                    let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                    let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
                else { return false }
                return cwd == path && String(decoding: command, as: UTF8.self).contains(matching)
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: diLintBinary)
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var started: [String] = []
        for _ in 0..<50 where started.count < count {
            Thread.sleep(forTimeInterval: 0.1)
            started = try running()
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        var left = started
        for _ in 0..<30 where !left.isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
            left = try running()
        }
        for pid in left { kill(pid_t(pid)!, SIGKILL) }
        return (started, left)
    }

    func testAnIncludeOfDevZeroThroughAMacroRunsOutOfMemoryInItsWorker() throws {
        // The include check resolves only literal names; the worker's address-space limit
        // (here the 1 GB `ulimit -v` the run inherits) stops what it cannot see.
        let project = try Project(
            self,
            files: [
                "Evil.m": "#define EVIL \"/dev/zero\"\n#include EVIL\nvoid f(void) { container_shared()->now(); }\n",
                "Fine.c": Self.fine,
            ])
        let run = try BoundedRun.run(["."], in: project.root, seconds: 60)
        assertBounded(run, status: 1, names: "Evil.m")
        XCTAssertTrue(
            run.stdout.contains(
                "Evil.m:1:1: error: file not linted: ran out of memory (over the parse worker's 1024 MiB address-space limit"
            ), run.stdout)
        XCTAssertTrue(run.stdout.contains("Fine.c:1:16: error: direct access"), run.stdout)
        XCTAssertLessThan(run.seconds, 30)
        XCTAssertFalse(run.stderr.contains("LLVM ERROR"), "the worker's own output is not the run's: \(run.stderr)")
    }

    func testIsolatedAndInProcessRunsGiveTheSameBytes() throws {
        var files: [String: String] = [
            "Legacy.m": legacySource(extra: ["// di-lint: ignore container-access"]),
            "Fine.c": Self.fine,
            "Handler.c":
                "#include <signal.h>\n#include <stdio.h>\nstatic void h(int s) { printf(\"x\"); }\nvoid install(void) { signal(SIGSEGV, h); }\n",
            "Use.swift": "func f() { let x = Container.sharedInstance.clock }\n",
        ]
        for i in 0..<12 { files["Gen\(i).m"] = legacySource() }
        let project = try Project(self, files: files)
        let isolated = try project.run("--format", "json", "--jobs", "2", ".")
        let inProcess = try project.run("--format", "json", "--jobs", "2", "--no-isolation", ".")
        XCTAssertEqual(isolated.status, 1, isolated.stderr)
        XCTAssertEqual(inProcess.status, 1, inProcess.stderr)
        XCTAssertGreaterThan(isolated.findings.count, 20)
        XCTAssertTrue(
            isolated.findings.contains { $0["rule"] as? String == "signal-handler-safety" },
            "project rules get the workers' facts: \(isolated.stdout.prefix(3000))")
        XCTAssertEqual(try Self.findingsBytes(isolated), try Self.findingsBytes(inProcess))
        XCTAssertEqual(isolated.summary["parsed"] as? Int, inProcess.summary["parsed"] as? Int)

        // With the cache: a cold isolated run stores the workers' outcomes, a warm one reads them.
        let cold = try project.run("--format", "json", "--cache", "cache", ".")
        let warm = try project.run("--format", "json", "--cache", "cache", ".")
        XCTAssertEqual(try Self.findingsBytes(cold), try Self.findingsBytes(inProcess))
        XCTAssertEqual(try Self.findingsBytes(warm), try Self.findingsBytes(inProcess))
        XCTAssertTrue(warm.stderr.contains("(0 parsed, 16 from the cache)"), warm.stderr)
    }

    /// The report's findings (the summary holds the run's time, which differs).
    private static func findingsBytes(_ run: CLIRunner.Run) throws -> Data {
        try JSONSerialization.data(withJSONObject: run.findings, options: [.sortedKeys])
    }

    func testWorkersParseWithTheCompilationDatabasesFlags() throws {
        // With -p, a block the real flags skip is trusted dead; a worker without the database
        // would lint it (an unknown macro's block counts without real flags).
        let project = try Project(
            self,
            files: [
                "Gated.c":
                    "#ifdef USE_IT\nvoid g(void) { container_shared()->clock(); }\n#endif\nvoid h(void) { container_shared()->now(); }\n"
            ])
        let database = [
            [
                "directory": project.root.path, "file": "Gated.c",
                "arguments": ["clang", "-x", "c", "-c", "Gated.c", "-o", "Gated.o"],
            ]
        ]
        try FileManager.default.createDirectory(
            at: project.root.appendingPathComponent("build"), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: database).write(
            to: project.root.appendingPathComponent("build/compile_commands.json"))
        let isolated = try project.run("--format", "json", "-p", "build", "Gated.c")
        let inProcess = try project.run("--format", "json", "-p", "build", "--no-isolation", "Gated.c")
        let lines = isolated.findings.compactMap { $0["line"] as? Int }
        XCTAssertEqual(lines, [4], isolated.stdout)
        XCTAssertEqual(try Self.findingsBytes(isolated), try Self.findingsBytes(inProcess))
        let withoutDatabase = try project.run("--format", "json", "Gated.c")
        XCTAssertEqual(
            withoutDatabase.findings.compactMap { $0["line"] as? Int }, [2, 4], "without -p the block is linted")
    }

    func testAKilledRunLeavesNoWorkerParsing() throws {
        let project = try Project(self, files: ["Slow.m": Self.slow])
        // Only the parent is killed (a CI runner's cancel may do so); its worker is mid-parse
        // on a file that takes about 40 s.
        let (started, left) = try killParent(["."], in: project.root, matching: "__parse-worker", count: 1)
        XCTAssertEqual(started.count, 1, "one worker parses the file")
        XCTAssertEqual(left, [], "the killed run's worker is still running")
    }

    func testBadParseTimeoutsAndMemoryLimitsAreRefused() throws {
        let project = try Project(self, files: ["x.m": "void f(void) {}\n"])
        for value in ["0", "-3", "abc", "nan", "100000"] {
            let run = try project.run("--parse-timeout=\(value)", ".")
            XCTAssertEqual(run.status, 2, "--parse-timeout \(value): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("--parse-timeout must be a number of seconds above 0"), run.stderr)
        }
        for value in ["0", "100", "lots"] {
            let run = try project.run("--parse-memory-limit=\(value)", ".")
            XCTAssertEqual(run.status, 2, "--parse-memory-limit \(value): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("--parse-memory-limit must be a number of MiB"), run.stderr)
        }
        try project.write(".di-lint.yml", Project.config + "parse-timeout: soon\n")
        let configured = try project.run(".")
        XCTAssertEqual(configured.status, 2, configured.stderr)
        XCTAssertTrue(
            configured.stderr.contains(".di-lint.yml: parse-timeout must be a number of seconds"), configured.stderr)
        try project.write(".di-lint.yml", Project.config + "parse-timeout: 0.5\nparse-memory-limit: 2048\n")
        XCTAssertEqual(try project.run(".").status, 0)
    }
}
