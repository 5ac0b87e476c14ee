import Foundation
import SeamTestSupport
import XCTest

/// The progress line of a long run: drawn on a terminal (a real pseudo-terminal from `script`),
/// never when standard error is a pipe or file, under `CI`, or with `--quiet`.
final class ProgressLineCLITests: XCTestCase {
    private func bigProject() throws -> Project {
        var files: [String: String] = [:]
        for i in 0..<400 { files["F\(i).c"] = "void f\(i)(void) { container_shared()->service\(i)(); }\n" }
        return try Project(self, files: files)
    }

    /// Runs di-lint with its standard streams on a pseudo-terminal; returns what the terminal showed.
    private func onTerminal(_ project: Project, _ arguments: String, environment: [String: String] = [:]) throws
        -> String
    {
        let command = "\(diLintBinary) \(arguments) >/dev/null"
        var env = environment
        env["CI"] = env["CI"] ?? ""
        env["TERM"] = "xterm"
        env["DI_LINT_PROGRESS_DELAY"] = "0"
        let run = try runProcess("/usr/bin/script", ["-qec", command, "/dev/null"], in: project.root, environment: env)
        return run.stdout
    }

    func testAProgressLineIsDrawnOnATerminalAndCleared() throws {
        let project = try bigProject()
        let shown = try onTerminal(project, ".")
        XCTAssertTrue(shown.contains("\r\u{1B}[Kdi-lint: "), shown.debugDescription)
        XCTAssertTrue(shown.contains("/400 files"), shown.debugDescription)
        XCTAssertTrue(
            shown.contains("\r\u{1B}[Kdi-lint: 400 findings (400 errors"),
            "cleared before the summary: \(shown.debugDescription)")
    }

    func testNoProgressLineWithQuietUnderCIOrOffATerminal() throws {
        let project = try bigProject()
        XCTAssertFalse(try onTerminal(project, ". --quiet").contains("files, "))
        XCTAssertFalse(try onTerminal(project, ".", environment: ["CI": "true"]).contains("files, "))
        let piped = try project.run(".")
        XCTAssertFalse(piped.stderr.contains("\r"), piped.stderr)
        XCTAssertEqual(piped.stderr.split(separator: "\n").count, 1, piped.stderr)
    }
}
