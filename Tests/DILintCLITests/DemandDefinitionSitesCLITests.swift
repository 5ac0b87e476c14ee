import Foundation
import XCTest

/// The demand-driven parse takes a held-back C or C++ file for a function the handler calls only
/// where its text could define it (`DefinitionSites`): the name outside every body, or inside the
/// body of a class whose head names the function's class. A file that only calls the function, or
/// defines a member of the same name in another class, stays unparsed. Each definition below holds
/// a `malloc` the rule reports, so a definition the demand missed would change the findings, and
/// every run is compared with `--parse-every-file`.
final class DemandDefinitionSitesCLITests: XCTestCase {
    private static let files: [String: String] = [
        ".di-lint.yml": "containers: [NoSuchContainer.shared]\nclang-flags: [-Iinclude]\n",
        "include/api.hpp": """
        #pragma once
        #define API_EXPORT __attribute__((visibility("default")))
        #define DECLARE_TYPE(name) struct name
        extern "C" void c_entry(void);
        namespace util { void helper(); }
        struct Store { void save(); };
        struct Box { friend void open_box(Box &); };
        class API_EXPORT Logger { public: void flush(); };

        """,
        "src/install.cpp": """
        #include <signal.h>
        #include "api.hpp"
        #include "made.hpp"
        static void on_usr1(int) {
            c_entry();
            util::helper();
            Store().save();
            Box b;
            open_box(b);
            Logger().flush();
            Made().run();
        }
        void install() { signal(SIGUSR1, on_usr1); }

        """,
        // the definitions, one way each
        "src/c_entry.cpp": """
        #include <stdlib.h>
        #ifdef __cplusplus
        extern "C" {
        #endif
        void c_entry(void) { free(malloc(1)); }
        #ifdef __cplusplus
        }
        #endif

        """,
        "src/helper.cpp": """
        #include <stdlib.h>
        namespace util {
        const char *brace = "{"; // }
        void helper() { free(malloc(2)); }
        }

        """,
        "src/store.cpp": """
        #include <stdlib.h>
        #include "api.hpp"
        void Store::save() { free(malloc(3)); }

        """,
        "include/box_impl.hpp": """
        #pragma once
        #include <stdlib.h>
        struct Box;
        struct BoxImpl { friend void open_box(Box &) { free(malloc(4)); } };

        """,
        "include/logger_impl.hpp": """
        #pragma once
        #include <stdlib.h>
        #define API_EXPORT __attribute__((visibility("default")))
        class API_EXPORT Logger { public: void flush() { free(malloc(5)); } };

        """,
        "include/made.hpp": """
        #pragma once
        #include <stdlib.h>
        #include "api.hpp"
        DECLARE_TYPE(Made) { void run() { free(malloc(6)); } };

        """,
        // spell the names only in calls, strings, comments, or as members of other classes
        "src/calls.cpp": """
        #include "api.hpp"
        struct Other { void flush() {} void save() {} void run() {} };
        void use(Other &o) { o.flush(); o.save(); o.run(); util::helper(); c_entry(); /* helper() { */ }
        const char *text = "void c_entry(void) { }";

        """,
        "src/members.cpp": """
        struct Writer {
            void helper() {}
            void open_box() {}
            void c_entry() {}
        };

        """,
    ]

    private func lint(_ p: Project, _ extra: [String] = []) throws -> (run: CLIRunner.Run, parsed: [String]) {
        let trace = p.root.appendingPathComponent("parse-trace")
        try? FileManager.default.removeItem(at: trace)
        let run = try CLIRunner.run(
            ["lint", ".", "--format", "json"] + extra, in: p.root, environment: ["DI_LINT_PARSE_TRACE": trace.path])
        let parsed = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            $0.split(separator: " ", maxSplits: 1).last.map { String($0).replacingOccurrences(of: "./", with: "") }
        }
        return (run, Set(parsed).sorted())
    }

    /// The findings as sorted JSON text (the summary's count of files parsed differs).
    private func findings(_ run: CLIRunner.Run) -> String {
        run.findings.map {
            String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }.sorted().joined(separator: "\n")
    }

    func testOnlyTheFilesThatCouldDefineACalledFunctionAreParsed() throws {
        let p = try Project(self, files: Self.files)
        let (run, parsed) = try lint(p)
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertEqual(findings(run), findings(every.run), run.stderr)
        // each definition was read: its malloc is reported
        let mallocs = run.findings.filter {
            $0["rule"] as? String == "signal-handler-safety" && ($0["message"] as? String ?? "").contains("'malloc'")
        }.map { "\($0["path"] ?? ""):\($0["line"] ?? "")" }.sorted()
        XCTAssertEqual(
            mallocs,
            [
                "include/box_impl.hpp:4", "include/logger_impl.hpp:4", "include/made.hpp:4", "src/c_entry.cpp:5",
                "src/helper.cpp:4", "src/store.cpp:3",
            ], run.stdout)
        XCTAssertFalse(parsed.contains("src/calls.cpp"), parsed.description)
        XCTAssertFalse(parsed.contains("src/members.cpp"), parsed.description)
        XCTAssertTrue(every.parsed.contains("src/calls.cpp"), every.parsed.description)
    }

    /// Braces the scan cannot balance (a body opened in both branches of an `#if` but closed
    /// after it is fine; one closed only in an `#else` is not): the file is read as before, taken
    /// for any name it spells.
    func testAFileWhoseBracesDoNotBalanceIsTakenForAnyNameItSpells() throws {
        var files = Self.files
        files["src/members.cpp"] = """
            struct Writer {
                void helper() {}
            #if 0
            };
            #else
            };
            #endif
            };

            """
        // unrelated files, so that what stays held back is more than a tenth of the run
        for k in 0..<3 { files["src/other\(k).cpp"] = "int other\(k)() { return \(k); }\n" }
        let p = try Project(self, files: files)
        let (run, parsed) = try lint(p)
        let every = try lint(p, ["--parse-every-file"])
        XCTAssertEqual(findings(run), findings(every.run), run.stderr)
        XCTAssertTrue(parsed.contains("src/members.cpp"), parsed.description)
        XCTAssertFalse(parsed.contains("src/calls.cpp"), parsed.description)
    }
}
