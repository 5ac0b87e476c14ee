import Foundation
import SeamTestSupport
import XCTest

/// Inputs a careless or hostile pull request can hold, met by the real binary under 1 GB of
/// address space and a time bound: each ends by itself, with the documented exit code and a
/// message naming the path.
final class HostileInputCLITests: XCTestCase {
    private func project(including target: String) throws -> Project {
        try Project(
            self,
            files: [
                "Evil.m": "#include \"\(target)\"\nvoid f(void) { container_shared()->now(); }\n",
                "Fine.c": "void g(void) { container_shared()->clock(); }\n",
            ])
    }

    func testIncludeOfDevZeroIsAParseFailureNamingIt() throws {
        let project = try project(including: "/dev/zero")
        let run = try BoundedRun.run(["."], in: project.root)
        assertBounded(run, status: 1, names: "/dev/zero")
        XCTAssertTrue(run.stdout.contains("Evil.m:1:1: error: file not linted"), run.stdout)
        XCTAssertTrue(
            run.stdout.contains("Fine.c:1:16: error: direct access"),
            "the other file's findings are kept: \(run.stdout)")
    }

    func testIncludeOfDevUrandomIsAParseFailureNamingIt() throws {
        let run = try BoundedRun.run(["."], in: try project(including: "/dev/urandom").root)
        assertBounded(run, status: 1, names: "/dev/urandom")
        XCTAssertTrue(run.stdout.contains("a character device, not a regular file"), run.stdout)
    }

    func testIncludeOfAFIFOIsAParseFailureNamingIt() throws {
        let project = try project(including: "pipe.h")
        XCTAssertEqual(mkfifo(project.root.appendingPathComponent("pipe.h").path, 0o644), 0)
        let run = try BoundedRun.run(["."], in: project.root, seconds: 30)
        assertBounded(run, status: 1, names: "pipe.h")
        XCTAssertTrue(run.stdout.contains("a FIFO"), run.stdout)
    }

    func testIncludeThroughAHeaderAndAnIncludePathIsFollowed() throws {
        let project = try Project(
            self,
            files: [
                // with a container access: a file no rule needs is not parsed
                "Sub/Evil.m": "#import <Outer.h>\nvoid f(void) { container_shared()->now(); }\n",
                "inc/Outer.h": "#include \"../inc/Inner.h\"\n",
            ])
        try FileManager.default.createSymbolicLink(
            atPath: project.root.appendingPathComponent("inc/Inner.h").path, withDestinationPath: "/dev/zero")
        try project.write(".di-lint.yml", Project.config + "clang-flags: [-Iinc]\n")
        let run = try BoundedRun.run(["Sub"], in: project.root)
        assertBounded(run, status: 1, names: "Inner.h")
        XCTAssertTrue(run.stdout.contains("through inc/Outer.h"), run.stdout)
    }

    func testFIFOOnTheCommandLineExitsTwoNamingIt() throws {
        let project = try Project(self)
        let fifo = project.root.appendingPathComponent("named.m").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let run = try BoundedRun.run(["named.m"], in: project.root, seconds: 30)
        assertBounded(run, status: 2, names: "named.m: it is a FIFO", onStderr: true)
    }

    func testDevStdinAndProcessSubstitutionOnTheCommandLineExitTwo() throws {
        let project = try Project(self, files: ["x.m": "void f(void) { container_shared()->now(); }\n"])
        let stdin = try BoundedRun.run(["/dev/stdin"], in: project.root, seconds: 30, pipeline: "< <(cat x.m)")
        assertBounded(stdin, status: 2, names: "/dev/stdin: it is a FIFO", onStderr: true)
        let substitution = try BoundedRun.run([], in: project.root, seconds: 30, redirect: "<(cat x.m)")
        assertBounded(substitution, status: 2, names: "/dev/fd/", onStderr: true)
    }

    func testDevZeroOnTheCommandLineExitsTwo() throws {
        let run = try BoundedRun.run(["/dev/zero"], in: try Project(self).root, seconds: 30)
        assertBounded(run, status: 2, names: "/dev/zero: it is a character device", onStderr: true)
    }

    func testBillionLaughsConfigIsRefusedNamingTheFile() throws {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 {
            yaml += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "containers: [Container.sharedInstance]\n"
        let project = try Project(self, files: ["x.m": "void f(void) {}\n"])
        try project.write(".di-lint.yml", yaml)
        let run = try BoundedRun.run(["."], in: project.root, seconds: 30)
        assertBounded(run, status: 2, names: ".di-lint.yml: the document expands to more than", onStderr: true)
    }

    func testConfigAndBaselineThatAreNotRegularFilesAreRefused() throws {
        let project = try Project(self, files: ["x.m": "void f(void) {}\n"])
        let fifo = project.root.appendingPathComponent("config-pipe.yml").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        assertBounded(
            try BoundedRun.run(["--config", "config-pipe.yml", "."], in: project.root, seconds: 30),
            status: 2, names: "config-pipe.yml: it is a FIFO", onStderr: true)
        assertBounded(
            try BoundedRun.run(["--baseline", "/dev/zero", "."], in: project.root, seconds: 30),
            status: 2, names: "/dev/zero: cannot read the baseline: it is a character device", onStderr: true)
    }

    func testStdoutOnDevFullExitsTwoWithOneLine() throws {
        let project = try Project(self, files: ["Legacy.m": legacySource()])
        let run = try BoundedRun.run(["."], in: project.root, seconds: 30, redirect: ">/dev/full")
        assertBounded(run, status: 2, names: "standard output (No space left on device)", onStderr: true)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testClosedStdoutExitsTwoWithOneLine() throws {
        let project = try Project(self, files: ["Legacy.m": legacySource()])
        let run = try BoundedRun.run(["."], in: project.root, seconds: 30, redirect: ">&-")
        assertBounded(run, status: 2, names: "standard output is closed", onStderr: true)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testSIGPIPEEndsTheRunQuietlyAsCommandLineToolsDo() throws {
        var files: [String: String] = [:]
        for i in 0..<150 {
            files["F\(i).c"] = (0..<20).map { "void f\($0)(void) { container_shared()->service\($0)(); }\n" }.joined()
        }
        let project = try Project(self, files: files)
        let run = try BoundedRun.run(
            ["."], in: project.root, seconds: 60,
            pipeline: "| head -c 10 >/dev/null; echo \"status ${PIPESTATUS[0]}\" >&2")
        XCTAssertTrue(
            run.stderr.hasSuffix("status 141\n"),
            "killed by SIGPIPE (128 + 13), nothing else said: \(run.stderr.suffix(2000))")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testOutputOverAnInputIsRefused() throws {
        let project = try Project(self, files: ["Legacy.m": legacySource()])
        XCTAssertEqual(try project.run("--write-baseline", "baseline.json").status, 0)
        for target in ["Legacy.m", ".di-lint.yml", "baseline.json", "./Legacy.m"] {
            let before = try project.read(target)
            let run = try project.run("--baseline", "baseline.json", "--output", target)
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains("--output \(target) is "), run.stderr)
            XCTAssertEqual(try project.read(target), before, "\(target) is left as it was")
        }
        let report = try project.run("report", "--output", "Legacy.m")
        XCTAssertEqual(report.status, 2, report.stderr)
        XCTAssertEqual(try project.run("--write-baseline", "Legacy.m").status, 2)
    }

    func testBadJobsAreRefused() throws {
        let project = try Project(self, files: ["x.m": "void f(void) {}\n"])
        for jobs in ["0", "-3", "100000"] {
            let run = try project.run("--jobs=\(jobs)", ".")
            XCTAssertEqual(run.status, 2, "--jobs \(jobs): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("--jobs must be"), run.stderr)
        }
        XCTAssertEqual(try project.run("--jobs", "2", ".").status, 0)
    }

    func testNonUTF8FileNamesAreReportedAsSuch() throws {
        let project = try Project(self, files: ["ok.m": "void f(void) {}\n"])
        let bytes = Array((project.root.path + "/bad").utf8) + [0xFF] + Array(".m".utf8) + [0] // "bad\xFF.m"
        let fd = bytes.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer {
            open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let run = try project.run(".")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stdout.contains("bad\\xFF.m:1:1: error: file not linted: its name is not valid UTF-8"), run.stdout)
    }

    func testUnreadableDirectoriesAreReported() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs setpriv to run as another user")
        }
        let project = try Project(
            self, files: ["open/ok.m": "void f(void) {}\n", "closed/hidden.m": "void g(void) {}\n"])
        chmod(project.root.appendingPathComponent("closed").path, 0o000)
        chmod(project.root.path, 0o755)
        defer { chmod(project.root.appendingPathComponent("closed").path, 0o755) }
        func runAsNobody(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProcess(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", diLintBinary] + arguments,
                in: project.root)
        }
        let walked = try runAsNobody(["."])
        XCTAssertEqual(walked.status, 1, walked.stderr)
        XCTAssertTrue(
            walked.stdout.contains("closed:1:1: error: directory not linted: cannot read it (Permission denied)"),
            walked.stdout)
        let named = try runAsNobody(["closed"])
        XCTAssertEqual(named.status, 2, named.stderr)
        XCTAssertTrue(named.stderr.contains("closed: cannot read the directory (Permission denied)"), named.stderr)
    }
}
