import Foundation
import XCTest

/// The rounds of the demand-driven parse: a chain that names one file per round is followed to
/// its end on one thread or several, and once at most a tenth of the run's files is still held
/// back, those are parsed in one go. Either way the output is `--parse-every-file`'s but for the
/// count of files parsed.
final class DemandParseRoundsCLITests: XCTestCase {
    /// A handler in install.c calls step1; step k (file sk.c) calls step k+1; the last calls
    /// malloc and free. No file names the container, so each step's file is parsed only once the
    /// round before it has read the call. `unrelated`: files that spell no needed word.
    private func chain(steps: Int, unrelated: Int) throws -> Project {
        var files = [
            ".di-lint.yml": "containers: [NoSuchContainer.shared]\n",
            "src/install.c": """
            #include <signal.h>
            void step1(void);
            static void on_int(int s) { (void)s; step1(); }
            void install(void) { signal(SIGINT, on_int); }

            """,
        ]
        for k in 1..<steps {
            files["src/s\(k).c"] = "void step\(k + 1)(void);\nvoid step\(k)(void) { step\(k + 1)(); }\n"
        }
        files["src/s\(steps).c"] = "#include <stdlib.h>\nvoid step\(steps)(void) { void *p = malloc(8); free(p); }\n"
        for k in 0..<unrelated { files["src/other\(k).c"] = "int unrelated\(k)(void) { return \(k); }\n" }
        return try Project(self, files: files)
    }

    /// The JSON output without `seconds` and `parsed`, the count of files parsed, and the run.
    private func lint(_ p: Project, _ extra: [String]) throws -> (json: String, parsed: Int, run: CLIRunner.Run) {
        let run = try CLIRunner.run(
            ["lint", ".", "--format", "json"] + extra, in: p.root, environment: ["DI_LINT_DEMAND_TRACE": "1"])
        let (json, parsed) = try run.reportAndParsed()
        return (json, parsed, run)
    }

    /// The demand runs (one thread, two, three) against `--parse-every-file`: the same output,
    /// malloc and free found at the chain's end, `parsed` files parsed, and at least one round per
    /// step (the chain is followed file by file, not guessed).
    private func check(
        _ p: Project, steps: Int, parsed: Int, of files: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String] {
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertEqual(every.parsed, files, every.run.stderr, file: file, line: line)
        XCTAssertEqual(
            every.run.signalFindings, ["src/s\(steps).c:2", "src/s\(steps).c:2"], every.run.stdout + every.run.stderr,
            file: file, line: line)
        var traces: [String] = []
        for jobs in ["1", "2", "3"] {
            let demand = try lint(p, ["--jobs", jobs])
            XCTAssertEqual(
                demand.json, every.json, "--jobs \(jobs): the output differs from --parse-every-file's", file: file,
                line: line)
            XCTAssertEqual(demand.parsed, parsed, "--jobs \(jobs): " + demand.run.stderr, file: file, line: line)
            let rounds = demand.run.stderr.split(separator: "\n").filter { $0.contains("di-lint: demand round") }
            XCTAssertGreaterThanOrEqual(rounds.count, steps, demand.run.stderr, file: file, line: line)
            traces.append(demand.run.stderr)
        }
        return traces
    }

    /// 10 steps and one unrelated file in 12: once the last step is taken one file (a twelfth)
    /// is held back, and it is parsed with it.
    func testTheFilesHeldBackAreParsedInOneGoOnceATenthIsLeft() throws {
        let p = try chain(steps: 10, unrelated: 1)
        for trace in try check(p, steps: 10, parsed: 12, of: 12) {
            XCTAssertTrue(trace.contains("then the 1 held back (at most a tenth of the run)"), trace)
        }
    }

    /// 9 steps and two unrelated files in 12: two files (a sixth) stay held back, never parsed.
    func testMoreThanATenthOfTheRunStaysHeldBack() throws {
        let p = try chain(steps: 9, unrelated: 2)
        for trace in try check(p, steps: 9, parsed: 10, of: 12) {
            XCTAssertFalse(trace.contains("held back (at most a tenth"), trace)
        }
    }
}
