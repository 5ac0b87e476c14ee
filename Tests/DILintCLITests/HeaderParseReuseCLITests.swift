import Foundation
import XCTest

/// By default (`DI_LINT_HEADER_REUSE=0` turns it off) a C++ source that begins with the header
/// beside it of its own stem reads that header's own parse, saved as a precompiled header
/// (`SharedPrecompiledHeader`), with real libclang: the trace (`DI_LINT_PCH_TRACE`) shows each
/// header saved and each source reading it (the header not entered again by the source's own
/// unit: `parsed-again` otherwise), and the report is the plain parse's, byte for byte.
final class HeaderParseReuseCLITests: XCTestCase {
    private func project() throws -> Project {
        try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [\"Environment::get\"]\nclang-flags: [-Iinclude]\n",
                "include/env.hpp": """
                #pragma once
                #include <string>
                namespace MWBase { struct World { int x; }; struct Environment { static Environment &get(); World *getWorld(); }; }

                """,
                // an include guard; the source's other includes come after the header
                "src/widget.hpp": """
                #ifndef SRC_WIDGET_H
                #define SRC_WIDGET_H
                #include <env.hpp>
                #include <vector>
                struct Widget { int size() const; std::vector<int> items; };
                inline int widgetX() { return MWBase::Environment::get().getWorld()->x; }
                #endif

                """,
                "src/widget.cpp": """
                // the widget
                #include "widget.hpp"
                #include <map>
                static std::map<int, int> cache;
                int Widget::size() const { return (int)items.size() + widgetX() + MWBase::Environment::get().getWorld()->x; }

                """,
                // `#pragma once`, and a destructor the handler's chain goes through
                "src/log.hpp": """
                #pragma once
                #include <cstdio>
                #include <cstdlib>
                struct Log {
                    explicit Log(const char *m) { std::fprintf(stderr, "%s", m); }
                    ~Log() { std::free(buf); }
                    char *buf = nullptr;
                };

                """,
                "src/log.cpp": """
                #include "log.hpp"
                #include <csignal>
                #include <env.hpp>
                static void on_usr1(int) { Log l("reopen"); }
                void install() { std::signal(SIGUSR1, on_usr1); }
                int read() { return MWBase::Environment::get().getWorld()->x; }

                """,
                // begins with another header: parsed as before
                "src/loose.cpp": """
                #include <env.hpp>
                int loose() { return MWBase::Environment::get().getWorld()->x; }

                """,
            ])
    }

    func testSourcesReadTheirHeadersSavedParseAndReportWhatThePlainParseReports() throws {
        let p = try project()
        let tmp = p.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let trace = p.root.appendingPathComponent("trace")
        // every file parsed: with signal-handler-safety on, a header no rule needs is parsed only on demand, after its source
        let plain = try CLIRunner.run(
            ["lint", "src", "include", "--format", "json", "--parse-every-file"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "0"])
        let findings = plain.findingPlaces
        XCTAssertEqual(
            findings,
            [
                "src/log.cpp:6 container-access", "src/log.hpp:5 signal-handler-safety",
                "src/log.hpp:6 signal-handler-safety", "src/loose.cpp:2 container-access",
                "src/widget.cpp:5 container-access", "src/widget.hpp:6 container-access",
            ], plain.stdout + plain.stderr)
        let reused = try CLIRunner.run(
            ["lint", "src", "include", "--format", "json", "--parse-every-file"], in: p.root,
            environment: ["TMPDIR": tmp.path, "DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_TRACE": trace.path])
        XCTAssertEqual(try reused.reportWithoutTiming(), try plain.reportWithoutTiming(), reused.stdout + reused.stderr)
        XCTAssertEqual(
            pchTraceLines(trace),
            ["built src/log.hpp", "built src/widget.hpp", "read src/log.cpp", "read src/widget.cpp"],
            reused.stderr)
        // the run's precompiled headers are gone with it
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }

    func testASourceWhoseHeaderIsNotParsedInTheRunIsParsedAsBefore() throws {
        let p = try project()
        let trace = p.root.appendingPathComponent("trace")
        let plain = try CLIRunner.run(
            ["lint", "src/widget.cpp", "--format", "json"], in: p.root, environment: ["DI_LINT_HEADER_REUSE": "0"])
        let reused = try CLIRunner.run(
            ["lint", "src/widget.cpp", "--format", "json"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_TRACE": trace.path])
        XCTAssertEqual(try reused.reportWithoutTiming(), try plain.reportWithoutTiming(), reused.stdout + reused.stderr)
        XCTAssertEqual(pchTraceLines(trace), ["plain src/widget.cpp"], reused.stderr)
    }
}
