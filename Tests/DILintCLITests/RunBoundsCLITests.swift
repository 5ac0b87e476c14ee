import Foundation
import SeamTestSupport
import XCTest

/// Bounds on a run as a whole and on `fix`'s Swift parses: an `else if` chain too long for
/// swift-syntax's parser (D4), a Swift file slower than the parse deadline in `fix` (D8), headers
/// that include each other without guards until the count of entries explodes, and the
/// `--run-timeout` budget (D7). Real binaries, real libclang and swift-syntax, under
/// `BoundedRun`'s 1 GB of address space and time bound.
final class RunBoundsCLITests: XCTestCase {
    // MARK: D4: fix on a Swift else-if chain

    /// A Swift type with a container access and an `else if` chain of `links` links, one
    /// condition with `==` per link (`==` ended the chain's count before). At 40,000 links
    /// swift-syntax's parser overflows a 16 MiB stack; at 15,000 it takes seconds.
    private static func elseIfChain(_ links: Int) -> String {
        var text =
            "final class Chain {\n  func f(x: Int) -> Int {\n    Container.shared.crashReporter.start()\n    if x == 0 {\n      return 0\n"
        for i in 1..<links { text += "    } else if x == \(i) {\n      return \(i)\n" }
        return text + "    }\n    return 1\n  }\n}\n"
    }

    /// A Swift type whose method reads the container: what every fix test expects to be fixed.
    private static let other =
        "final class Other {\n    func go() {\n        Container.shared.crashReporter.start()\n    }\n}\n"

    private func swiftProject(_ files: [String: String]) throws -> Project {
        // the bridge style needs a bridge type named (fix declares no type the project does not have)
        try Project(
            self, files: files.merging([".di-lint.yml": "containers: [Container.shared]\nbridge-type: Bridge\n"]) { $1 }
        )
    }

    /// `fix` dry run over the project: exit 1, `path` a manual item whose reason starts with
    /// `reason`, Other.swift fixed in the diff.
    private func assertFixLeavesOut(
        _ path: String, reason: String, in project: Project, options: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> BoundedRun {
        let run = try BoundedRun.run(["fix", "--phase", "inject"] + options + ["."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: path, onStderr: true, file: file, line: line)
        XCTAssertTrue(
            run.stderr.contains(
                "\(path):1:1: manual: : the file could not be parsed (its accesses are not planned) (\(reason)"),
            run.stderr, file: file, line: line)
        XCTAssertFalse(run.stderr.contains("ended outside a parse"), run.stderr, file: file, line: line)
        XCTAssertFalse(run.stdout.contains("a/\(path)"), "\(path) is not edited", file: file, line: line)
        XCTAssertTrue(run.stdout.contains("--- a/Other.swift\n+++ b/Other.swift\n"), run.stdout, file: file, line: line)
        XCTAssertTrue(
            run.stdout.contains("+        bridge.crashReporter.start()\n"), run.stdout, file: file, line: line)
        XCTAssertTrue(
            run.stderr.contains("di-lint fix: 1 access rewritten in 1 file; 1 left for manual work"), run.stderr,
            file: file, line: line)
        return run
    }

    func testFixOnAnElseIfChainPastTheChainLimitListsItAsLintDoesAndFixesTheOthers() throws {
        // before: "the fix process ended outside a parse (it ended with signal 11, SIGSEGV)", exit 2, nothing planned
        let project = try swiftProject(["Chain.swift": Self.elseIfChain(40_000), "Other.swift": Self.other])
        let run = try assertFixLeavesOut(
            "Chain.swift",
            reason: "a Swift expression chains 39999 prefix keywords, member or call links, 'else' or '->'",
            in: project)
        XCTAssertLessThan(run.seconds, 30)

        // lint says the same (before: "the parser crashed (signal 11, SIGSEGV)")
        let lint = try BoundedRun.run(["."], in: project.root, seconds: 120)
        assertBounded(lint, status: 1, names: "Chain.swift")
        XCTAssertTrue(
            lint.stdout.contains("Chain.swift:1:1: error: file not linted: a Swift expression chains 39999"),
            lint.stdout)
        XCTAssertTrue(lint.stdout.contains("Other.swift:3:9: error: direct access"), lint.stdout)
    }

    func testElseLinksAreCountedOverConditionsAndStatementsEndTheChain() throws {
        // `else if let y = z` conditions (an `=`) do not end the count either; 1,001 links fail
        var chained = "func f(_ z: Int?) -> Int {\n  let s = Container.shared.crashReporter\n  if z == nil { return 0 }"
        for i in 1...1_001 { chained += " else if let y = z, y == \(i) { return \(i) }" }
        chained += "\n  return 1\n}\n"
        // 1,100 separate `if … else` statements and guards in one function: each its own chain
        var separate = "func g(_ x: Int) -> Int {\n  let s = Container.shared.crashReporter\n"
        for i in 0..<1_100 {
            separate += "  if x == \(i) { return \(i) } else { print(\(i)) }\n  guard x != \(i) else { return 0 }\n"
        }
        separate += "  return 1\n}\n"
        let project = try swiftProject(["Chained.swift": chained, "Separate.swift": separate])
        let run = try BoundedRun.run(["."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "Chained.swift")
        XCTAssertTrue(
            run.stdout.contains("Chained.swift:1:1: error: file not linted: a Swift expression chains 1001 "),
            run.stdout)
        XCTAssertTrue(run.stdout.contains("Separate.swift:2:11: error: direct access"), run.stdout)
        XCTAssertFalse(run.stdout.contains("Separate.swift:1:1"), run.stdout)
    }

    // MARK: D8: fix's Swift parses under the parse deadline

    /// About `size` bytes of a Swift type with a method per two container reads (lint's parse and
    /// analysis of 300 KB takes several seconds in a debug build; 9 MB took fix 9 minutes before).
    static func largeSwift(_ size: Int) -> String {
        var text = "final class Big {\n"
        var i = 0
        while text.utf8.count < size {
            text +=
                "  func m\(i)() {\n    Container.shared.crashReporter.record\(i)(value: \(i))\n"
                + "    let x\(i) = Container.shared.notificationCenter\n    x\(i).post(\(i))\n  }\n"
            i += 1
        }
        return text + "}\n"
    }

    func testFixLeavesOutASwiftFileThatOutlivesTheParseTimeoutAndFixesTheOthers() throws {
        // before: no deadline on Swift parses (this file alone took fix over a minute at 1 MB, 9 minutes at 9 MB)
        let project = try swiftProject(["Big.swift": Self.largeSwift(300_000), "Other.swift": Self.other])
        let run = try assertFixLeavesOut(
            "Big.swift", reason: "took longer than 1 s to parse (left out of the fix; see --parse-timeout)",
            in: project, options: ["--parse-timeout", "1"])
        XCTAssertLessThan(run.seconds, 15, "about the deadline, then a run without the file")
    }

    // MARK: D7: headers whose includes explode

    /// Headers h0…h(levels-1) without guards, each including the next `times` times (the last
    /// declares a variable): a parse of h(k) enters about times^(levels-1-k) headers.
    private static func includeChain(levels: Int, times: Int, guarding: (Int, String) -> String = { _, text in text })
        -> [String: String]
    {
        var files: [String: String] = [:]
        for k in 0..<levels {
            let body = k == levels - 1 ? "int z;\n" : String(repeating: "#include \"h\(k + 1).h\"\n", count: times)
            files["h\(k).h"] = guarding(k, body)
        }
        return files
    }

    func testHeadersThatIncludeEachOtherUnguardedUntilTheEntriesExplodeFailAtOnce() throws {
        // 32 includes a level: a parse of h4 enters 33,825 headers (h5, h6, h7 again and again;
        // clang: about a minute here), of h0 32^7; h5 1,057, in a moment. Before, each such
        // header was parsed to the deadline (5 s here, one after another)
        let project = try Project(self, files: Self.includeChain(levels: 8, times: 32))
        let run = try BoundedRun.run(
            ["--parse-every-file", "--parse-timeout", "5", "--jobs", "1", "."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "h0.h")
        XCTAssertLessThan(run.seconds, 5, "no header is parsed to the deadline")
        XCTAssertTrue(
            run.stdout.contains(
                "h4.h:1:1: error: file not linted: its includes would enter headers again 33821 times "
                    + "(h4.h includes h5.h 32 times, h5.h includes h6.h 32 times, h6.h includes h7.h 32 times): headers without an include guard "
                    + "or #pragma once, each included more than once by the one before; di-lint does not parse a file whose includes enter "
                    + "headers again more than 8192 times [parse-failure]"), run.stdout)
        XCTAssertTrue(
            run.stdout.contains(
                "h0.h:1:1: error: file not linted: its includes would enter headers again 35468117017 times (h0.h includes h1.h 32 times, h1.h includes h2.h 32 times, h2.h includes h3.h 32 times, h3.h includes h4.h 32 times, … (7 headers deep))"
            ), run.stdout)
        for k in 1...3 {
            XCTAssertTrue(
                run.stdout.contains("h\(k).h:1:1: error: file not linted: its includes would enter headers again"),
                run.stdout)
        }
        for k in 5...7 {
            XCTAssertFalse(run.stdout.contains("h\(k).h:1:1"), "h\(k).h enters few headers: \(run.stdout)")
        }
        XCTAssertTrue(run.stderr.contains("8 files (3 parsed, 5 not linted)"), run.stderr)
    }

    func testGuardedPragmaOnceAndImportedHeadersIncludedManyTimesAreParsed() throws {
        // the same graphs entered once per header: nothing fails
        var files: [String: String] = [:]
        for (k, text) in Self.includeChain(
            levels: 8, times: 32,
            guarding: { k, body in "// header \(k)\n#ifndef H\(k)_H\n#define H\(k)_H\n\(body)#endif\n" })
        {
            files["guarded/\(k)"] = text
        }
        for (k, text) in Self.includeChain(levels: 8, times: 32, guarding: { _, body in "#pragma once\n" + body }) {
            files["once/\(k)"] = text
        }
        for (k, text) in Self.includeChain(
            levels: 8, times: 32, guarding: { _, body in body.replacingOccurrences(of: "#include", with: "#import") })
        {
            files["imported/\(k)"] = text
        }
        for (k, text) in Self.includeChain(
            levels: 8, times: 32, guarding: { k, body in "#if !defined(H\(k)_H)\n#define H\(k)_H\n\(body)#endif\n" })
        {
            files["defined/\(k)"] = text
        }
        let project = try Project(self, files: files)
        let run = try BoundedRun.run(
            ["--parse-every-file", "--parse-timeout", "30", "."], in: project.root, seconds: 120)
        assertBounded(run, status: 0, names: "32 files (32 parsed)", onStderr: true)
    }

    // MARK: D7: the run's budget

    /// One function redeclaring `y` `count` times, then a container access: lint's parse grows
    /// with the square of the redeclarations (here, at a load of 8 on 2 cores: 68 s of CPU at
    /// 20,000, 3.8 s at 5,000).
    private static func slow(_ count: Int) -> String {
        "void f(void) {\n" + String(repeating: "int y = 1;\n", count: count)
            + "}\nvoid g(void) { container_shared()->clock(); }\n"
    }

    private static let fine = "void g(void) { container_shared()->clock(); }\n"

    func testARunPastItsBudgetReportsTheFilesLeftAsParseFailuresAndKeepsTheOthers() throws {
        var files = ["Fine.c": Self.fine]
        for i in 0..<4 { files["Slow\(i).c"] = Self.slow(50_000) }
        let project = try Project(self, files: files)
        let run = try BoundedRun.run(["--run-timeout", "2", "--jobs", "1", "."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "Slow0.c")
        XCTAssertLessThan(run.seconds, 10, "the budget, not four parses of minutes")
        XCTAssertTrue(
            run.stdout.contains("Fine.c:1:16: error: direct access to container 'container_shared()'"), run.stdout)
        XCTAssertTrue(
            run.stdout.contains(
                "Slow0.c:1:1: error: file not linted: the run's budget of 2 s was spent while it was parsed "
                    + "(the parse worker was killed; see --run-timeout) [parse-failure]"), run.stdout)
        for i in 1..<4 {
            XCTAssertTrue(
                run.stdout.contains(
                    "Slow\(i).c:1:1: error: file not linted: the run's budget of 2 s was spent before it was parsed "
                        + "(see --run-timeout) [parse-failure]"), run.stdout)
        }
        XCTAssertTrue(run.stderr.contains("5 files (1 parsed, 4 not linted)"), run.stderr)

        // the config's key does the same, and the option wins over it
        try project.write(".di-lint.yml", Project.config + "run-timeout: 1.5\n")
        let configured = try BoundedRun.run(["--jobs", "1", "."], in: project.root, seconds: 120)
        XCTAssertTrue(
            configured.stdout.contains(
                "Slow3.c:1:1: error: file not linted: the run's budget of 1.5 s was spent before it was parsed"),
            configured.stdout)
        let overridden = try BoundedRun.run(
            ["--run-timeout", "2.5", "--jobs", "1", "."], in: project.root, seconds: 120)
        XCTAssertTrue(overridden.stdout.contains("the run's budget of 2.5 s was spent"), overridden.stdout)
        XCTAssertLessThan(overridden.seconds, 10)
    }

    func testARunWithoutIsolationPastItsBudgetParsesNoFurtherFile() throws {
        // in-process parses cannot be stopped: the one under way when the budget is spent
        // finishes (each file takes seconds), its findings kept, and no other starts
        let project = try Project(
            self, files: ["A.c": Self.slow(5_000), "B.c": Self.slow(5_000), "C.c": Self.slow(5_000)])
        let run = try BoundedRun.run(
            ["--run-timeout", "1", "--jobs", "1", "--no-isolation", "."], in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "the run's budget of 1 s was spent before it was parsed")
        let parsed = ["A.c", "B.c", "C.c"].filter {
            run.stdout.contains("\($0):5003:16: error: direct access to container 'container_shared()'")
        }
        let late = ["A.c", "B.c", "C.c"].filter {
            run.stdout.contains(
                "\($0):1:1: error: file not linted: the run's budget of 1 s was spent before it was parsed (see --run-timeout) [parse-failure]"
            )
        }
        XCTAssertEqual(parsed.count, 1, run.stdout)
        XCTAssertEqual(late.count, 2, run.stdout)
        XCTAssertTrue(run.stderr.contains("3 files (1 parsed, 2 not linted)"), run.stderr)
    }

    func testFixPastItsBudgetPlansWhatItParsedAndListsTheRest() throws {
        // Reporter.m is parsed before the budget is spent; the slow file under way ends at its
        // own deadline (the child is started again without it, Reporter.m parsed again as it
        // was parsed before); the files not parsed by then are manual items naming the budget
        var files = [
            "Sources/Reporter.m": FixSamples.reporter, "Sources/CrashBridge.h": FixSamples.bridgeHeader,
            ".di-lint.yml": Project.config + "bridge-type: CrashBridge\n",
        ]
        for i in 0..<3 { files["Sources/Slow\(i).m"] = Self.slow(50_000) }
        let project = try Project(self, files: files)
        let run = try BoundedRun.run(
            ["fix", "--phase", "inject", "--run-timeout", "2", "--parse-timeout", "4", "Sources"],
            in: project.root, seconds: 120)
        assertBounded(run, status: 1, names: "Slow2.m", onStderr: true)
        XCTAssertLessThan(run.seconds, 20, "the budget and one parse deadline, not three parses of minutes")
        XCTAssertTrue(run.stdout.hasPrefix("--- a/Sources/Reporter.m\n+++ b/Sources/Reporter.m\n"), run.stdout)
        let budget =
            "the file could not be parsed (its accesses are not planned) (the run's budget of 2 s was spent before it was parsed (see --run-timeout))"
        let late = ["Slow0.m", "Slow1.m", "Slow2.m"].filter {
            run.stderr.contains("Sources/\($0):1:1: manual: : \(budget)")
        }
        let timedOut = ["Slow0.m", "Slow1.m", "Slow2.m"].filter {
            run.stderr.contains(
                "Sources/\($0):1:1: manual: : the file could not be parsed (its accesses are not planned) (took longer than 4 s to parse"
            )
        }
        XCTAssertEqual(late.count + timedOut.count, 3, run.stderr)
        XCTAssertGreaterThanOrEqual(late.count, 1, run.stderr)
    }

    func testRunTimeoutValuesAreChecked() throws {
        let project = try Project(self, files: ["Fine.c": Self.fine])
        for value in ["0", "-1", "abc", "nan", "700000"] {
            let run = try project.run("--run-timeout=\(value)", ".")
            XCTAssertEqual(run.status, 2, "--run-timeout \(value): \(run.stderr)")
            XCTAssertTrue(
                run.stderr.contains(
                    "run-timeout must be a number of seconds above 0 and at most 604800, not '\(value)'"), run.stderr)
        }
        try project.write(".di-lint.yml", Project.config + "run-timeout: 0\n")
        let configured = try project.run(".")
        XCTAssertEqual(configured.status, 2, configured.stderr)
        XCTAssertTrue(configured.stderr.contains("run-timeout must be a number of seconds above 0"), configured.stderr)
    }
}
