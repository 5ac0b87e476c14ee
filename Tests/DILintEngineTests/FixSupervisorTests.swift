import Foundation
import XCTest
@testable import DILintEngine

/// The fix supervisor's verdict on how its child ended, for the ends no input of `di-lint fix`
/// is known to cause: the child is a real process (a shell script) that reports on the status
/// descriptor as the fix process does, then ends as the case needs.
final class FixSupervisorTests: XCTestCase {
    /// A status record as the supervised child writes it, spelled as `printf` escapes.
    private func record(_ kind: Character, _ id: UInt32, _ text: String) -> String {
        var bytes = [kind.asciiValue!]
        for value in [id, UInt32(text.utf8.count)] {
            for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
        }
        bytes += Array(text.utf8)
        return bytes.map { String(format: "\\%03o", $0) }.joined()
    }

    /// The supervisor's return over a child running `script`, and what it wrote to standard error.
    private func supervise(_ script: String) throws -> (status: Int32, errors: String) {
        let directory = try temporaryDirectory(self)
        let child = directory.appendingPathComponent("child.sh").path
        try Data(("#!/bin/sh\nulimit -c 0\n" + script).utf8).write(to: URL(fileURLWithPath: child))
        chmod(child, 0o755)
        let log = directory.appendingPathComponent("stderr").path
        let saved = dup(2)
        let fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        dup2(fd, 2)
        close(fd)
        // the child starts where this process is: a directory of its own (an earlier test's may be gone)
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(directory.path)
        let status = FixSupervisor.run(arguments: [child], executable: child)
        _ = FileManager.default.changeCurrentDirectoryPath(previous)
        dup2(saved, 2)
        close(saved)
        return (status, try String(contentsOfFile: log, encoding: .utf8))
    }

    private var configured: String { record("c", 0, "60 1073741824") }

    func testAChildCrashingOutsideAParseEndsTheRunWithExit2AndSaysSo() throws {
        let parsedOne = record("b", 1, "a.m") + record("e", 1, "")
        let (status, errors) = try supervise(
            "printf '\(configured)\(parsedOne)' >&3\necho 'what it wrote before' >&2\nkill -SEGV $$\n")
        XCTAssertEqual(status, 2)
        XCTAssertTrue(errors.hasPrefix("what it wrote before\n"), errors)
        XCTAssertTrue(
            errors.contains(
                "di-lint fix: error: the fix process ended outside a parse (it ended with signal 11, SIGSEGV)"), errors)
        XCTAssertFalse(errors.contains("a.m"), "no file is blamed: \(errors)")
    }

    func testAChildCrashingInAParseIsRunAgainWithoutTheFileAndItsEndIsTheRunsEnd() throws {
        // the first run crashes in the parse of a.m; the second (a.m left out) ends with status 1
        let script = """
            if [ -e "$0.ran" ]; then echo "second: $DI_LINT_FIX_SUPERVISED" >&2; exit 1; fi
            touch "$0.ran"
            printf '\(configured)\(record("b", 1, "a.m"))' >&3
            kill -SEGV $$

            """
        let (status, errors) = try supervise(script)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("second: "), errors)
        XCTAssertTrue(
            errors.contains("a.m") && errors.contains("signal 11"),
            "the second child hears a.m is left out and why: \(errors)")
    }

    func testAChildEndingOnItsOwnGivesItsStatusAndOutputOnce() throws {
        let (status, errors) = try supervise("printf '\(configured)' >&3\necho 'one line' >&2\nexit 1\n")
        XCTAssertEqual(status, 1)
        XCTAssertEqual(errors, "one line\n")
    }
}
