import Foundation
import XCTest

/// The header reuse of C++ parses (on by default, `DI_LINT_HEADER_REUSE=0` off: one precompiled header per
/// directory, `SharedPrecompiledHeader`) finds what the plain parse finds. The precompiled
/// headers live in a directory of the run's own, removed when the run ends.
final class HeaderReuseCLITests: XCTestCase {
    private func findings(_ run: CLIRunner.Run) -> [String] {
        ((run.json["findings"] as? [[String: Any]]) ?? []).map {
            "\($0["path"] ?? ""):\($0["line"] ?? "") \($0["rule"] ?? "")"
        }.sorted()
    }

    func testFindingsAreTheSameWithTheReuseAndNothingIsLeftBehind() throws {
        let p = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [\"Environment::get\"]\nclang-flags: [-Iinclude]\n",
                "include/log.hpp": """
                #pragma once
                #include <cstdio>
                #include <cstdlib>
                namespace MWBase { struct World { int x; }; struct Environment { static Environment &get(); World *getWorld(); }; }
                struct Log {
                    explicit Log(const char *m) { std::fprintf(stderr, "%s", m); }
                    ~Log() { std::free(buf); }
                    char *buf = nullptr;
                };
                inline int worldX() { return MWBase::Environment::get().getWorld()->x; }

                """,
                "src/h.cpp": """
                #include <csignal>
                #include "log.hpp"
                static void on_usr1(int) { Log l("reopen"); }
                void install() { std::signal(SIGUSR1, on_usr1); }
                int read() { return MWBase::Environment::get().getWorld()->x + worldX(); }

                """,
            ])
        let tmp = p.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let plain = try CLIRunner.run(
            ["lint", ".", "--format", "json"], in: p.root,
            environment: ["TMPDIR": tmp.path, "DI_LINT_HEADER_REUSE": "0"])
        let reused = try CLIRunner.run(
            ["lint", ".", "--format", "json"], in: p.root,
            environment: ["TMPDIR": tmp.path, "DI_LINT_HEADER_REUSE": "1"])
        // the constructor's fprintf and the destructor's free, from the header's own parse; the
        // accesses in the source and in the header's inline function
        XCTAssertEqual(
            findings(plain),
            [
                "include/log.hpp:10 container-access", "include/log.hpp:6 signal-handler-safety",
                "include/log.hpp:7 signal-handler-safety", "src/h.cpp:5 container-access",
            ], plain.stdout + plain.stderr)
        XCTAssertEqual(findings(reused), findings(plain), reused.stdout + reused.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }
}
