import Foundation
import SeamTestSupport
import XCTest

/// Hostile baselines, shards and compile databases met by the real binary under 1 GB of address
/// space and a time bound (`BoundedRun`): each run ends by itself with exit 2 and an error naming
/// the file and the field — no signal, no hang, no raw Foundation error, no echo of a huge input.
final class HostileBaselineCLITests: XCTestCase {
    private static let access = "void f(void) { id x = [Container sharedInstance]; }\n"

    /// A project with one container access.
    private func project(_ files: [String: String] = ["a.m": access]) throws -> Project {
        try Project(self, files: files)
    }

    /// What di-lint writes for the project in `format` (json, sarif).
    private func report(_ project: Project, _ format: String, _ extra: [String] = []) throws -> String {
        let run = try project.runArray(["a.m", "--format", format] + extra)
        XCTAssertEqual(run.status, 1, run.stderr)
        return run.stdout
    }

    private func replacing(_ text: String, _ old: String, _ new: String) -> String {
        XCTAssertTrue(text.contains(old), "\(old) not in \(text.prefix(3000))")
        return text.replacingOccurrences(of: old, with: new)
    }

    // MARK: D1: integers past 2^63 in a baseline

    func testBaselineIntegersPast2To63AreRefusedNamingTheField() throws {
        let project = try project()
        let cases = [
            (
                "entries[0].line",
                #"{"entries":[{"fingerprint":"a:0","rule":"r","path":"p","line":9223372036854775808}],"version":2}"#
            ),
            ("version", #"{"entries":[],"version":9223372036854775808}"#),
            (
                "entries[0].scheme",
                #"{"entries":[{"fingerprint":"a:0","rule":"r","path":"p","line":1,"scheme":-99999999999999999999}],"version":2}"#
            ),
        ]
        for (field, text) in cases {
            try project.write("bl.json", text)
            let run = try BoundedRun.run(["a.m", "--baseline", "bl.json"], in: project.root)
            assertBounded(run, status: 2, names: "bl.json: not a valid baseline: \(field): ", onStderr: true)
            XCTAssertTrue(run.stderr.contains("is out of range"), run.stderr)
        }
    }

    // MARK: D2: merge of non-finite or overflowing numbers

    func testMergeRefusesAnEndlessDurationAndCountsThatOverflow() throws {
        let project = try project()
        let json = try report(project, "json")
        let seconds = try XCTUnwrap(json.range(of: #""seconds" : [0-9.e+-]+"#, options: .regularExpression))
        try project.write("s.json", json.replacingCharacters(in: seconds, with: #""seconds" : 1e308"#))
        let endless = try BoundedRun.run(["merge", "s.json"], in: project.root)
        assertBounded(
            endless, status: 2, names: "s.json: summary.seconds is 1e+308, not a run's duration", onStderr: true)

        try project.write("c.json", replacing(json, #""cached" : 0"#, #""cached" : 9223372036854775807"#))
        let overflow = try BoundedRun.run(["merge", "c.json"], in: project.root)
        assertBounded(
            overflow, status: 2,
            names: "c.json: summary: 1 parsed and 9223372036854775807 cached of 1 files do not add up", onStderr: true)

        // Two clean shards whose file counts add up past Int.max.
        let clean = try self.project(["b.m": "void g(void) {}\n"])
        let cleanJSON = try clean.runArray(["b.m", "--format", "json"]).stdout
        let big = replacing(cleanJSON, #""files" : 1"#, #""files" : 9223372036854775807"#)
        try clean.write("one.json", big)
        try clean.write("two.json", big)
        let sum = try BoundedRun.run(["merge", "one.json", "two.json"], in: clean.root)
        assertBounded(sum, status: 2, names: "summary.files counts add up past 9223372036854775807", onStderr: true)
    }

    // MARK: D3: compile_commands.json on a device, a FIFO; response files

    func testACompileDatabaseOnDevZeroOrAFIFOIsRefusedNamingIt() throws {
        let project = try project()
        let fm = FileManager.default
        try fm.createDirectory(at: project.root.appendingPathComponent("z"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: project.root.appendingPathComponent("z/compile_commands.json").path,
            withDestinationPath: "/dev/zero")
        let zero = try BoundedRun.run(["a.m", "-p", "z"], in: project.root)
        assertBounded(
            zero, status: 2,
            names:
                "z/compile_commands.json: cannot read the compile database: it is a character device, not a regular file",
            onStderr: true)

        try fm.createDirectory(at: project.root.appendingPathComponent("f"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(project.root.appendingPathComponent("f/compile_commands.json").path, 0o644), 0)
        let fifo = try BoundedRun.run(["a.m", "-p", "f"], in: project.root, seconds: 30)
        assertBounded(
            fifo, status: 2, names: "f/compile_commands.json: cannot read the compile database: it is a FIFO",
            onStderr: true)
    }

    func testResponseFilesOfACompileDatabaseAreCheckedBeforeLibclangReadsThem() throws {
        let project = try project(["a.m": "#if !HIDE\n" + Self.access + "#endif\n"])
        let root = project.root.path
        func database(_ directory: String, _ entry: String, in commandDirectory: String? = nil) throws {
            try project.write(
                "\(directory)/compile_commands.json",
                #"[{"directory": "\#(commandDirectory ?? root + "/" + directory)", "file": "\#(root)/a.m", \#(entry)}]"#
            )
        }
        // A regular response file is read and its flags used: HIDE=1 hides the access.
        try project.write("ok/flags.rsp", "-x objective-c '-DHIDE=1'\n")
        try database("ok", #""arguments": ["clang", "@ok/flags.rsp", "-c"]"#, in: root)
        let ok = try BoundedRun.run(["a.m", "-p", "ok"], in: project.root)
        XCTAssertEqual(ok.status, 0, ok.stdout + ok.stderr)

        // @/dev/zero, a FIFO named in a regular response file, a tab in a quoted name of a `command`.
        try database("zero", #""arguments": ["clang", "@/dev/zero", "-c"]"#)
        try project.write("nested/outer.rsp", "-DX=1 @inner.rsp\n")
        XCTAssertEqual(mkfifo(project.root.appendingPathComponent("nested/inner.rsp").path, 0o644), 0)
        try database("nested", #""arguments": ["clang", "@outer.rsp", "-c"]"#)
        try FileManager.default.createDirectory(
            at: project.root.appendingPathComponent("tab"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: project.root.appendingPathComponent("tab/z\tq").path, withDestinationPath: "/dev/zero")
        try database("tab", #""command": "clang \"@z\tq\" -c""#)
        for (directory, problem) in [
            ("zero", "'@/dev/zero': it is a character device"),
            ("nested", "'@inner.rsp', named in '\(root)/nested/outer.rsp' ('\(root)/nested/inner.rsp'): it is a FIFO"),
            ("tab", "'@z\\tq' ('\(root)/tab/z\\tq'): it is a character device"),
        ] {
            let run = try BoundedRun.run(["a.m", "-p", directory], in: project.root, seconds: 30)
            assertBounded(
                run, status: 2,
                names:
                    "\(directory)/compile_commands.json: cannot use the compile database: a command's response file \(problem)",
                onStderr: true)
        }
    }

    // MARK: D22: merge into schema-invalid SARIF

    func testMergeRefusesLinesBeforeTheFirstAndMixedVersionsNamingTheFileAndField() throws {
        let project = try project()
        let sarif = try report(project, "sarif")
        try project.write("s.sarif", replacing(sarif, #""startLine" : 1"#, #""startLine" : -7"#))
        let line = try BoundedRun.run(["merge", "s.sarif"], in: project.root)
        assertBounded(
            line, status: 2,
            names:
                "s.sarif: runs[0].results[0].locations[0].physicalLocation.region.startLine is -7, not a line number",
            onStderr: true)
        XCTAssertEqual(line.stdout, "", "nothing merged is written")

        let json = try report(project, "json")
        try project.write("s.json", replacing(json, #""column" : 23"#, #""column" : 0"#))
        let column = try BoundedRun.run(["merge", "s.json"], in: project.root)
        assertBounded(column, status: 2, names: "s.json: findings[0].column is 0, not a column number", onStderr: true)

        let version = try project.run("--version").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try project.write("good.sarif", sarif)
        try project.write(
            "other.sarif",
            replacing(
                replacing(sarif, #""version" : "\#(version)""#, #""version" : "9.9.9""#),
                #""semanticVersion" : "\#(version)""#, #""semanticVersion" : "9.9.9""#))
        let mixed = try BoundedRun.run(["merge", "good.sarif", "other.sarif"], in: project.root)
        assertBounded(
            mixed, status: 2,
            names: "other.sarif: it is the output of di-lint '9.9.9', good.sarif of di-lint '\(version)'",
            onStderr: true)
    }

    // MARK: D23: clear errors

    func testAnOutOfRangeNumberIsSaidToBeOutOfRangeNotInvalidJSON() throws {
        let project = try project()
        try project.write(
            "bl.json", #"{"entries":[{"fingerprint":"a:0","rule":"r","path":"p","line":1e400}],"version":2}"#)
        let baseline = try BoundedRun.run(["a.m", "--baseline", "bl.json"], in: project.root)
        assertBounded(
            baseline, status: 2, names: "bl.json: not a valid baseline: entries[0].line: 1e400 is out of range",
            onStderr: true)

        let json = try report(project, "json")
        let seconds = try XCTUnwrap(json.range(of: #""seconds" : [0-9.e+-]+"#, options: .regularExpression))
        try project.write("s.json", json.replacingCharacters(in: seconds, with: #""seconds" : -1e400"#))
        let shard = try BoundedRun.run(["merge", "s.json"], in: project.root)
        assertBounded(
            shard, status: 2, names: "s.json: not di-lint output: summary.seconds: -1e400 is out of range",
            onStderr: true)
    }

    func testErrorsEchoABoundedExcerptOfAHugeValue() throws {
        let project = try project()
        let huge = String(repeating: "x", count: 50 << 20)
        try project.write(
            "bl.json", #"{"entries":[{"fingerprint":""# + huge + #"","rule":"r","path":"p","line":1}],"version":2}"#)
        let run = try BoundedRun.run(["a.m", "--baseline", "bl.json"], in: project.root)
        assertBounded(run, status: 2, names: "bl.json: entries[0]: 'xxxxxxxxxx", onStderr: true)
        XCTAssertTrue(run.stderr.contains("…' (52428800 bytes) is not a fingerprint"), run.stderr)
        XCTAssertLessThan(run.stderr.utf8.count, 1000)
    }

    func testAFullDeviceIsNamedWithTheSystemsWordsNotACocoaError() throws {
        let project = try project()
        try project.write("s.json", try report(project, "json"))
        for arguments in [
            ["a.m", "--output", "/dev/full"], ["a.m", "--write-baseline", "/dev/full"],
            ["merge", "s.json", "--output", "/dev/full"],
        ] {
            let run = try BoundedRun.run(arguments, in: project.root)
            assertBounded(
                run, status: 2, names: "di-lint: error: /dev/full: cannot write it (No space left on device)",
                onStderr: true)
            XCTAssertFalse(run.stderr.contains("NSCocoaErrorDomain"), run.stderr)
        }
    }

    func testAFileNamedLikeAnOptionIsLintedAsAFile() throws {
        let project = try project(["-x.m": Self.access, "-dir/b.m": Self.access])
        let run = try BoundedRun.run(["--", "-x.m", "-dir"], in: project.root)
        assertBounded(run, status: 1, names: "-x.m:1:23: error: direct access to container 'Container.sharedInstance'")
        XCTAssertTrue(run.stdout.contains("-dir/b.m:1:23: error: direct access"), run.stdout)
        XCTAssertFalse(run.stdout.contains("parse-failure"), run.stdout)
    }
}
