import Foundation
import SeamTestSupport
import XCTest

/// A di-lint run in a child shell with 1 GB of address space (`ulimit -v`) and a time bound
/// (`timeout -s KILL`), as the hostile-input tests need: a run that reads without end dies of
/// the memory limit, one that waits forever of the timeout, and either shows as the status.
struct BoundedRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double

    static let memoryLimitKB = 1 << 20

    /// Runs `di-lint arguments` in `directory`; `redirect` is shell text applied to the run
    /// (`>/dev/full`, `>&-`, `</dev/null`), `pipeline` text after it (`| head -c1`).
    static func run(
        _ arguments: [String], in directory: URL, seconds: Int = 60, redirect: String = "",
        pipeline: String = ""
    ) throws -> BoundedRun {
        let script = """
            ulimit -v \(memoryLimitKB)
            timeout -s KILL \(seconds) "$0" "$@" \(redirect) \(pipeline)
            """
        let start = Date()
        let result = try runProcess(
            "/bin/bash", ["-c", script, diLintBinary] + arguments, in: directory,
            environment: ["SWIFT_BACKTRACE": "enable=no"])
        return BoundedRun(
            status: result.status, stdout: result.stdout, stderr: result.stderr,
            seconds: Date().timeIntervalSince(start))
    }
}

extension XCTestCase {
    /// Asserts the run finished by itself (not killed by the bound) with `status`, and that
    /// `text` (its stdout, or stderr when `onStderr`) names `path`.
    func assertBounded(
        _ run: BoundedRun, status: Int32, names path: String, onStderr: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNotEqual(run.status, 137, "killed by the time bound after \(run.seconds) s", file: file, line: line)
        XCTAssertEqual(
            run.status, status, "stdout: \(run.stdout.prefix(2000))\nstderr: \(run.stderr.prefix(2000))", file: file,
            line: line)
        let text = onStderr ? run.stderr : run.stdout
        XCTAssertTrue(text.contains(path), "does not name \(path): \(text.prefix(2000))", file: file, line: line)
        XCTAssertFalse(
            run.stderr.contains("Fatal error") || run.stderr.contains("Backtrace"), run.stderr, file: file, line: line)
    }
}
