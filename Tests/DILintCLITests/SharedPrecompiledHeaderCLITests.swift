import Foundation
import XCTest

/// The C++ sources of one directory read one precompiled header of their includes, built once
/// per run (`DI_LINT_HEADER_REUSE=1`), and find what the plain parse finds; an unreadable
/// precompiled header makes the file parse as before.
final class SharedPrecompiledHeaderCLITests: XCTestCase {
    private func findings(_ run: CLIRunner.Run) -> [String] {
        ((run.json["findings"] as? [[String: Any]]) ?? []).map {
            "\($0["path"] ?? ""):\($0["line"] ?? "") \($0["rule"] ?? "")"
        }.sorted()
    }

    private func project() throws -> Project {
        try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [\"Environment::get\"]\nclang-flags: [-Iinclude, -I.]\n",
                "include/env.hpp": """
                #pragma once
                #include <string>
                #include <vector>
                namespace MWBase { struct World { int x; }; struct Environment { static Environment &get(); World *getWorld(); }; }
                inline int worldX() { return MWBase::Environment::get().getWorld()->x; }

                """,
                "src/a.cpp": """
                #include "local.hpp"
                #include <env.hpp>
                int a() { return MWBase::Environment::get().getWorld()->x + worldX() + local(); }

                """,
                "src/b.cpp": """
                // b
                #include <env.hpp>
                #include <map>
                static std::map<int, std::string> names;
                int b() { return MWBase::Environment::get().getWorld()->x; }

                """,
                "src/c.cpp": """
                #define EXTRA 1
                #include <env.hpp>
                int c() { return MWBase::Environment::get().getWorld()->x + EXTRA; }

                """,
                "src/local.hpp": "#pragma once\ninline int local() { return 2; }\n",
                // headers: one precompiled header of their includes, without the directory's own
                // quoted ones; one that it holds (inner.hpp, through reexport.hpp) is parsed
                // without it
                "lib/widget.hpp": """
                #ifndef LIB_WIDGET_H
                #define LIB_WIDGET_H
                #include <env.hpp>
                #include "other.hpp"
                inline int widget() { return MWBase::Environment::get().getWorld()->x + other(); }
                #endif

                """,
                "lib/other.hpp": "#pragma once\n#include <string>\ninline int other() { return 3; }\n",
                "lib/reexport.hpp": "#pragma once\n#include <lib/inner.hpp>\n#include <leaf.hpp>\n",
                "lib/inner.hpp": """
                #ifndef LIB_INNER_H
                #define LIB_INNER_H
                #include <env.hpp>
                inline int inner() { return MWBase::Environment::get().getWorld()->x; }
                #endif

                """,
                "include/leaf.hpp": """
                #pragma once
                #include <vector>
                inline int leaf() { return MWBase::Environment::get().getWorld()->x; }

                """,
            ])
    }

    func testSourcesOfADirectoryShareOnePrecompiledHeaderAndFindTheSame() throws {
        let p = try project()
        let shared = p.root.appendingPathComponent("pch")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let plain = try CLIRunner.run(["lint", ".", "--format", "json"], in: p.root)
        XCTAssertEqual(
            findings(plain),
            [
                "include/env.hpp:5 container-access", "include/leaf.hpp:3 container-access",
                "lib/inner.hpp:4 container-access", "lib/widget.hpp:5 container-access",
                "src/a.cpp:3 container-access",
                "src/b.cpp:5 container-access", "src/c.cpp:3 container-access",
            ], plain.stdout + plain.stderr)
        let reused = try CLIRunner.run(
            ["lint", ".", "--format", "json"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_DIR": shared.path])
        XCTAssertEqual(findings(reused), findings(plain), reused.stdout + reused.stderr)
        // one precompiled header for src/ (a.cpp and b.cpp; c.cpp defines a macro first), one
        // for the headers of lib/ and one for those of include/
        let umbrellas = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter {
            $0.hasSuffix(".pch")
        }.map {
            try String(contentsOf: shared.appendingPathComponent(String($0.dropLast(4)) + ".hpp"), encoding: .utf8)
        }
        XCTAssertEqual(
            umbrellas.sorted(),
            [
                "#include \"\(p.root.path)/src/local.hpp\"\n#include <env.hpp>\n#include <map>\n",
                "#include <env.hpp>\n#include <string>\n#include <lib/inner.hpp>\n#include <leaf.hpp>\n",
                "#include <string>\n#include <vector>\n",
            ])
        let built = try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".pch") }

        // damaged precompiled headers: libclang refuses them, the files are parsed as before
        for name in built { try Data("not a precompiled header".utf8).write(to: shared.appendingPathComponent(name)) }
        let damaged = try CLIRunner.run(
            ["lint", ".", "--format", "json"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_DIR": shared.path])
        XCTAssertEqual(findings(damaged), findings(plain), damaged.stdout + damaged.stderr)
        XCTAssertEqual((damaged.json["summary"] as? [String: Any])?["notLinted"] as? Int, 0, damaged.stderr)
    }
}
