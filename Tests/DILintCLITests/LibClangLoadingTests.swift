import Foundation
import SeamTestSupport
import XCTest

/// libclang is opened at run time, on first use (Sources/CLibClang): checked through the binary.
final class LibClangLoadingTests: XCTestCase {
    /// What the dynamic loader opened for one run (`LD_DEBUG=files` lists every library it opens).
    private func openedLibraries(_ arguments: [String], in project: Project, environment: [String: String] = [:]) throws
        -> (CLIRunner.Run, String)
    {
        let run = try CLIRunner.run(
            arguments, in: project.root, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
        let opened = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        return (run, opened)
    }

    func testRunsThatParseNothingNeverLoadLibclang() throws {
        let project = try Project(self, files: ["Sources/Legacy.m": legacySource()])
        let (rules, openedByRules) = try openedLibraries(["rules"], in: project)
        XCTAssertEqual(rules.status, 0)
        XCTAssertFalse(openedByRules.contains("libclang"), openedByRules)
        XCTAssertTrue(
            openedByRules.contains("libswiftCore"), "LD_DEBUG shows what is opened: \(openedByRules.prefix(500))")

        let (cold, openedCold) = try openedLibraries(["Sources", "--cache", ".cache", "--no-isolation"], in: project)
        XCTAssertEqual(cold.status, 1)
        XCTAssertTrue(openedCold.contains("libclang"), "a run that parses loads it")
        // Warm: every file from the cache. The preload thread may have started loading, but no
        // parse waits on it; the findings are the cold run's.
        let warm = try CLIRunner.run(["Sources", "--cache", ".cache", "--format", "json"], in: project.root)
        XCTAssertEqual(warm.status, 1)
        XCTAssertEqual((warm.json["summary"] as? [String: Any])?["cached"] as? Int, 1)
    }

    func testAMissingLibclangIsAClearErrorPerFileNotACrash() throws {
        let project = try Project(
            self,
            files: ["Sources/Legacy.m": legacySource(), "Sources/Other.c": "void f(void) { container_shared(); }\n"])
        let run = try CLIRunner.run(
            ["Sources", "--format", "json"], in: project.root,
            environment: ["DI_LINT_LIBCLANG": "/nonexistent/libclang.so.1"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let findings = run.json["findings"] as? [[String: Any]] ?? []
        XCTAssertEqual(findings.count, 2, run.stdout)
        for finding in findings {
            XCTAssertEqual(finding["rule"] as? String, "parse-failure")
            XCTAssertTrue(
                (finding["message"] as? String ?? "").contains(
                    "cannot load libclang from '/nonexistent/libclang.so.1'"), "\(finding)")
        }
    }

    /// Every clang_* function the engine calls has a trampoline (a missing one would not link;
    /// this names it). The trampolines' signatures are checked by the C compiler.
    func testEveryLibclangFunctionUsedHasATrampoline() throws {
        let trampolines = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/CLibClang/lazy_libclang.c"), encoding: .utf8)
        let defined = Set(matches(#"FORWARD(?:_VOID)?\((?:[^,]+, )?(clang_\w+),"#, in: trampolines))
        let engine = packageRoot.appendingPathComponent("Sources/DILintEngine")
        var used = Set<String>()
        for case let file as String in FileManager.default.enumerator(atPath: engine.path)!
        where file.hasSuffix(".swift") {
            used.formUnion(
                matches(
                    #"\b(clang_\w+)\("#,
                    in: try String(contentsOf: engine.appendingPathComponent(file), encoding: .utf8)))
        }
        XCTAssertGreaterThan(used.count, 50)
        XCTAssertEqual(used.subtracting(defined).sorted(), [], "add FORWARD lines to lazy_libclang.c")
    }

    private func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
