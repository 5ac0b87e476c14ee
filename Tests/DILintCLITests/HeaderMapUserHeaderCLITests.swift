import Foundation
import XCTest

/// Headers the `--header-map` finds for a quoted include are user headers, as with `-I`: a
/// function-pointer field declared there is a slot signal-handler-safety follows (a field of a
/// system header, such as a saved `struct sigaction`'s, is not). For `<X.h>` the map stays a
/// system directory.
final class HeaderMapUserHeaderCLITests: XCTestCase {
    private func project(include: String) throws -> Project {
        try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [NoSuchContainer.shared]\n",
                "include/hooks.h": "struct hooks { void (*log)(const char *); };\nextern struct hooks g_hooks;\n",
                "src/hooks.c": """
                #include <stdlib.h>
                #include "hooks.h"
                struct hooks g_hooks;
                static void real_log(const char *m) { void *p = malloc(8); (void)p; (void)m; }
                void init_hooks(void) { g_hooks.log = real_log; }

                """,
                "src/h.c": """
                #include <signal.h>
                #include \(include)
                static void on_int(int s) { (void)s; g_hooks.log("x"); }
                void setup(void) { signal(SIGINT, on_int); }

                """,
            ])
    }

    private func signalFindings(_ run: CLIRunner.Run) -> [String] {
        ((run.json["findings"] as? [[String: Any]]) ?? []).filter { ($0["rule"] as? String) == "signal-handler-safety" }
            .map { "\($0["path"] ?? ""):\($0["line"] ?? "")" }
    }

    func testAQuotedIncludeTheMapFindsIsAUserHeader() throws {
        let p = try project(include: "\"hooks.h\"")
        let mapped = try CLIRunner.run(["lint", ".", "--format", "json", "--header-map"], in: p.root)
        // on_int → g_hooks.log (a slot of the mapped header) → real_log → malloc
        XCTAssertEqual(signalFindings(mapped), ["src/hooks.c:4"], mapped.stdout + mapped.stderr)
        // the same as with the project's include path
        try p.write(".di-lint.yml", "containers: [NoSuchContainer.shared]\nclang-flags: [-Iinclude]\n")
        let flagged = try CLIRunner.run(["lint", ".", "--format", "json"], in: p.root)
        XCTAssertEqual(signalFindings(flagged), ["src/hooks.c:4"], flagged.stdout + flagged.stderr)
    }

    /// `<hooks.h>` through the map is searched last, as a system directory: its slot is a
    /// library's, not followed (an in-tree `Time.h` must not turn `<time.h>` into project code).
    func testAnAngledIncludeTheMapFindsStaysASystemHeader() throws {
        let p = try project(include: "<hooks.h>")
        let mapped = try CLIRunner.run(["lint", ".", "--format", "json", "--header-map"], in: p.root)
        XCTAssertEqual(mapped.status, 0, mapped.stdout + mapped.stderr)
        XCTAssertEqual(signalFindings(mapped), [], mapped.stdout)
    }
}
