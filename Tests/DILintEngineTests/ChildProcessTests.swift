import Foundation
import XCTest
@testable import DILintEngine

/// The one supervisor under lint's parse workers and fix's child (`ChildProcess`, `ParseDeadlines`),
/// over real child processes (shell scripts) and real signals.
final class ChildProcessTests: XCTestCase {
    private func start(_ script: String, channelAt: [Int32] = [3]) throws -> ChildProcess {
        switch ChildProcess.start(
            executable: "/bin/sh", arguments: ["sh", "-c", "ulimit -c 0\n" + script],
            environment: ChildProcess.environment(), channelAt: channelAt, outputAt: [2])
        {
        case let .success(process): return process
        case let .failure(failure): throw failure
        }
    }

    func testSignalNamesComeFromGlibcForEverySignal() {
        XCTAssertEqual(ChildProcess.signalDescription(SIGSEGV), "signal 11, SIGSEGV")
        // signals the hand-written table lacked
        XCTAssertEqual(ChildProcess.signalDescription(SIGUSR1), "signal 10, SIGUSR1")
        XCTAssertEqual(ChildProcess.signalDescription(SIGALRM), "signal 14, SIGALRM")
        XCTAssertEqual(ChildProcess.signalDescription(SIGSTKFLT), "signal 16, SIGSTKFLT")
        // a real-time signal has no abbreviation: glibc's description
        // (40: between glibc's SIGRTMIN, 34 or 35, and SIGRTMAX, 64)
        XCTAssertTrue(
            ChildProcess.signalDescription(40).hasPrefix("signal 40, Real-time signal"),
            ChildProcess.signalDescription(40))
        XCTAssertEqual(WorkerProcess.signalDescription(SIGABRT), "signal 6, SIGABRT")
    }

    func testOutputBeforeAReportIsReadWithItAndTheEndIsReaped() throws {
        let process = try start("echo 'said first' >&2; printf 'report' >&3; exit 3")
        let deadline = RunBudget.now() + 10_000_000_000
        while process.inbox.count < 6, RunBudget.now() < deadline, process.channel >= 0 {
            XCTAssertTrue(process.receive(until: deadline))
        }
        XCTAssertEqual(String(decoding: process.inbox, as: UTF8.self), "report")
        let status = try XCTUnwrap(process.reap(kill: false))
        XCTAssertEqual(String(decoding: process.written, as: UTF8.self), "said first\n")
        XCTAssertNil(ChildProcess.signal(status))
        XCTAssertEqual(
            ChildProcess.death(of: "the parse worker", status: status, outOfMemory: nil),
            "the parse worker exited with status 3 while parsing it")
        XCTAssertNil(process.reap(kill: false), "reaped once")
    }

    func testAChildPastItsDeadlineIsKilledAndSaidSo() throws {
        let process = try start("exec sleep 30")
        var parses = ParseDeadlines(seconds: 0.3)
        parses.begin(1, path: "Slow.m")
        let started = RunBudget.now()
        while parses.late() == nil { XCTAssertTrue(process.receive(until: parses.next)) }
        XCTAssertEqual(parses.late()?.path, "Slow.m")
        XCTAssertEqual(parses.tookLonger, "took longer than 0.3 s to parse")
        let status = try XCTUnwrap(process.reap(kill: true))
        XCTAssertLessThan(Double(RunBudget.now() - started) / 1e9, 5, "killed at the deadline, not after the sleep")
        XCTAssertEqual(ChildProcess.signal(status), SIGKILL)
        XCTAssertEqual(
            ChildProcess.death(of: "the fix process", status: status, outOfMemory: nil),
            "the fix process was killed (signal 9, SIGKILL) while parsing it, perhaps by the system's out-of-memory killer"
        )
    }

    func testACrashIsNamedAndOutOfMemoryWinsWhenTheChildSaidSo() throws {
        let process = try start("echo 'LLVM ERROR: out of memory' >&2; kill -ABRT $$")
        let status = try XCTUnwrap(process.reap(kill: false))
        XCTAssertEqual(ChildProcess.signal(status), SIGABRT)
        XCTAssertEqual(
            ChildProcess.death(of: "the parse worker", status: status, outOfMemory: nil),
            "the parser crashed (signal 6, SIGABRT)")
        XCTAssertTrue(ChildProcess.saysOutOfMemory(process.written))
        let outOfMemory = ChildProcess.outOfMemory("the parse worker", limit: 1 << 30)
        XCTAssertEqual(
            ChildProcess.death(of: "the parse worker", status: status, outOfMemory: outOfMemory),
            "ran out of memory (over the parse worker's 1024 MiB address-space limit; see parse-memory-limit)")
    }

    func testAProgramThatCannotBeStartedIsAStartFailure() {
        guard
            case let .failure(failure) = ChildProcess.start(
                executable: "/nonexistent/di-lint", arguments: ["x"], environment: [],
                channelAt: [0], outputAt: [2])
        else {
            return XCTFail("started")
        }
        XCTAssertEqual(failure.description, "/nonexistent/di-lint: No such file or directory")
    }

    func testTheFirstBegunLateParseIsTheOneNamed() {
        var parses = ParseDeadlines(seconds: 2)
        parses.begin(1, path: "B.m", at: 2_000_000_000)
        parses.begin(2, path: "A.m", at: 1_000_000_000)
        XCTAssertEqual(parses.next, 3_000_000_000)
        XCTAssertNil(parses.late(at: 3_000_000_000), "at the deadline is not past it")
        XCTAssertEqual(parses.late(at: 5_000_000_000)?.path, "A.m")
        XCTAssertEqual(parses.paths, ["A.m", "B.m"])
        parses.end(2)
        XCTAssertEqual(parses.late(at: 4_500_000_000)?.path, "B.m")
        XCTAssertEqual(ParseDeadlines.seconds(2), "2")
        XCTAssertEqual(ParseDeadlines.seconds(1.5), "1.5")
    }

    /// A lint worker killed by a signal the old hand-written table did not name: the file's
    /// `parse-failure` names it (before: "the parser crashed (signal 10)").
    func testALintWorkerKilledByAnySignalNamesIt() throws {
        let root = try temporaryDirectory(self)
        try "containers: [Container.sharedInstance]\n".write(
            to: root.appendingPathComponent(".di-lint.yml"), atomically: true, encoding: .utf8)
        let file = root.appendingPathComponent("A.m")
        try "void f(void) { id c = [[Container sharedInstance] clock]; }\n".write(
            to: file, atomically: true, encoding: .utf8)
        let recipe = ConfigurationRecipe(configPath: root.appendingPathComponent(".di-lint.yml").path)
        for (script, said) in [
            ("head -c 8 >/dev/null; kill -USR1 $$", "file not linted: the parser crashed (signal 10, SIGUSR1)"),
            ("head -c 8 >/dev/null; exit 3", "file not linted: the parse worker exited with status 3 while parsing it"),
        ] {
            let linter = Linter(configuration: try recipe.build())
            linter.isolation = WorkerIsolation(
                executable: "/bin/sh", arguments: ["-c", script], recipe: recipe, timeout: 30,
                memoryLimit: 4 << 30)
            let result = linter.lint(files: [file.path])
            XCTAssertEqual(result.findings.map(\.message), [said])
        }
    }
}
