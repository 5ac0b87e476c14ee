import Foundation
import XCTest
@testable import DILintEngine

/// Deeply nested and chained Swift: swift-syntax's parser hangs (its '[' lookahead doubles per
/// level), overflows the stack (chains, generic '<', #if) or stops reading (its nesting limit) on
/// such files. di-lint measures them first and reports a parse-failure naming the limit, in
/// bounded time, and lints the other files of the run as usual.
final class SwiftNestingTests: XCTestCase {
    let config = "containers: [Container.shared]\n"
    let access = "Container.shared.dateProvider"

    func r(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

    /// Each file past a limit fails with its reason; a good file in the same run keeps its finding.
    func testDeepSwiftIsAParseFailureNamingTheFileAndTheLimit() throws {
        let dir = try temporaryDirectory(self)
        let cases: [(name: String, code: String, reason: String)] = [
            // 18 nested '[' took 32 s in a debug build (time doubles per level)
            ("square-open", "func f() { " + r("[", 18) + access + " }\n", "square brackets nest 18 deep"),
            ("square-closed", "let y = " + r("[", 18) + access + r("]", 18) + "\n", "square brackets nest 18 deep"),
            // 10 nested '[' around a long member chain (22 s in a debug build)
            (
                "square-chain", "let y = " + r("[ ", 10) + access + r(".b", 600) + r(" ]", 10) + "\n",
                "square brackets nest 10 deep"
            ),
            ("paren", "let y = " + r("(", 3000) + access + r(")", 3000) + "\n", "nest 3000 deep"),
            ("brace", "func f() " + r("{", 3000) + access + r("}", 3000) + "\n", "nest 3000 deep"),
            ("closure", "let y = " + r("{ ", 3000) + access + r(" }", 3000) + "\n", "nest 3000 deep"),
            ("generic", "let y: " + r("A<", 20000) + "B" + r(">", 20000) + " = " + access + "\n", "nest 20000 deep"),
            ("conditional", r("#if A\n", 20000) + "let c = " + access + "\n" + r("#endif\n", 20000), "nest 20000 deep"),
            ("interpolation", "let c = " + r("\"\\(", 3000) + access + r(")\"", 3000) + "\n", "nest 3000 deep"),
            ("try", "func f() { let c = " + r("try ", 20000) + access + " }\n", "chains 20002"),
            ("optional-chain", "func f() { let c = " + access + r("?.b", 20000) + " }\n", "chains 40002"),
        ]
        var files: [String] = []
        for c in cases {
            let path = dir.appendingPathComponent(c.name + ".swift").path
            try c.code.write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        let good = dir.appendingPathComponent("good.swift").path
        try "func g() { _ = Container.shared.crashReporter }\n".write(toFile: good, atomically: true, encoding: .utf8)
        files.append(good)

        let start = Date()
        let result = try lint(files, configYAML: config)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertLessThan(seconds, 10, "every file past a limit is refused before swift-syntax parses it")
        let failures = Dictionary(
            uniqueKeysWithValues: result.findings.filter { $0.rule == "parse-failure" }.map { ($0.path, $0.message) })
        for (c, path) in zip(cases, files) {
            XCTAssertTrue(
                failures[path]?.contains(c.reason) == true, "\(c.name): \(failures[path] ?? "no parse-failure")")
            XCTAssertTrue(
                failures[path]?.contains("di-lint") == true,
                "\(c.name): the message names the limit: \(failures[path] ?? "")")
        }
        XCTAssertEqual(result.filesFailed, cases.count)
        XCTAssertEqual(result.findings.filter { $0.rule == "container-access" }.map(\.path), [good])
    }

    /// Nesting and chains below the limits are parsed whole, in a debug build too (swift-syntax's
    /// own default stops reading past 20 levels in debug builds, dropping the findings silently).
    func testNestingBelowTheLimitsIsLintedWhole() throws {
        let dir = try temporaryDirectory(self)
        let cases: [(name: String, code: String)] = [
            ("paren", "let y = " + r("(", 100) + access + r(")", 100) + "\n"),
            ("brace", "func f() " + r("{", 100) + "_ = " + access + r("}", 100) + "\n"),
            ("closure", "let y = " + r("{ ", 100) + access + r(" }", 100) + "\n"),
            ("ifs", "func f() {\n" + r("if a {\n", 100) + "_ = " + access + "\n" + r("}\n", 100) + "}\n"),
            ("generic", "let y: " + r("A<", 100) + "B" + r(">", 100) + " = " + access + "\n"),
            ("conditional", r("#if A\n", 100) + "let c = " + access + "\n" + r("#endif\n", 100)),
            ("square", "let y = " + r("[", 8) + access + r("]", 8) + "\n"),
            ("try", "func f() { let c = " + r("try ", 900) + access + " }\n"),
            ("optional-chain", "func f() { let c = " + access + r("?.b", 450) + " }\n"),
            ("else-if", "func f() {\n if a {}" + r(" else if a {}", 400) + " else { _ = " + access + " }\n}\n"),
            // a long flat table: '[' lookahead linear in the file
            ("table", "let t = [\n" + r("    [\(access), a.b.c.d, 1],\n", 300) + "]\n"),
        ]
        var files: [String] = []
        for c in cases {
            let path = dir.appendingPathComponent(c.name + ".swift").path
            try c.code.write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        let start = Date()
        let result = try lint(files, configYAML: config)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(result.findings.filter { $0.rule == "parse-failure" }.map(\.message), [])
        let found = Set(result.findings.filter { $0.rule == "container-access" }.map(\.path))
        for (c, path) in zip(cases, files) { XCTAssertTrue(found.contains(path), "\(c.name): access not found") }
    }

    /// Brackets in comments and string text do not count; interpolations are code and do.
    func testCommentsAndStringsDoNotCountInterpolationsDo() {
        func problem(_ code: String) -> String? { SwiftNesting(bytes: Array(code.utf8)).problem }
        XCTAssertNil(problem(r("let s = \"[[[[((((<<<<{{{{\"\n", 2000)))
        XCTAssertNil(problem(r("// [[[[[[[[[[[[[[[[[[[[ ((((((((\n/* [[[[[[[[[[[[[[[[ /* nested */ (((( */\n", 500)))
        XCTAssertNil(problem(r("let s = #\"\\\"[[[[[[[[[[[[[[[[\"#\n", 500)))
        XCTAssertNil(problem("let s = \"\"\"\n" + r("[[[[[[[[[[[[[[[[ \" \n", 500) + "\"\"\"\n"))
        XCTAssertNotNil(problem("let s = \"\\(" + r("[", 20) + "x" + r("]", 20) + ")\"\n"))
        XCTAssertNotNil(problem("let s = \"\"\"\n\\(" + r("(", 200) + "x" + r(")", 200) + ")\n\"\"\"\n"))
        // statements on separate lines are separate chains
        XCTAssertNil(problem(r("foo.bar?.baz()\n", 5000)))
        XCTAssertNotNil(problem("x" + r("\n.bar()", 1000)))
    }

    /// A finding's scope is found in one pass over the tokens: 3,000 findings in one function on
    /// one line (a generated hostile file) took 8 s in a debug build with a lookup per finding.
    func testManyFindingsOnOneLineGetTheirScopesInOnePass() throws {
        let dir = try temporaryDirectory(self)
        let path = dir.appendingPathComponent("many.swift").path
        try ("struct S { func f(a: Int) { " + r("_ = \(access); ", 3000) + "} }\nlet g = \(access)\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let configuration = try Configuration.parse(yaml: config, baseDirectory: "/")
        let model = try SwiftFrontEnd.model(
            displayPath: path, bytes: Array(FileManager.default.contents(atPath: path)!), configuration: configuration
        ).get()
        var findings = model.accesses.map { a -> Finding in
            let (line, column) = model.buffer.lineColumn(of: a.offset)
            return Finding(
                rule: "container-access", path: path, line: line, column: column, severity: .error, message: "")
        }
        XCTAssertEqual(findings.count, 3001)
        let start = Date()
        model.attachScopes(to: &findings)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        XCTAssertEqual(Set(findings.dropLast().map(\.scope)), ["S.f(a:)"])
        XCTAssertEqual(findings.last?.scope, "g")
    }
}
