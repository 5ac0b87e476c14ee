import Foundation
import XCTest

/// A C++ source that reads its header's saved parse (`SharedPrecompiledHeader`) reports what its
/// plain parse reports, with real libclang, where the two once differed: a container access in
/// the body of a class template's member or of a generic lambda, instantiated more than once in
/// the source, is one finding, not one more per instantiation; a header template instantiated
/// in the source does not make the read count as a parse of the header again; a header without
/// an include guard is not saved, and its source is parsed plainly.
final class HeaderReuseIdentityCLITests: XCTestCase {
    private func project() throws -> Project {
        try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [\"Environment::get\"]\nclang-flags: [-Iinclude]\n",
                "include/env.hpp": """
                #pragma once
                namespace MWBase { struct World { int x; }; struct Environment { static Environment &get(); World *getWorld(); }; }

                """,
                "src/model.hpp": """
                #ifndef SRC_MODEL_H
                #define SRC_MODEL_H
                #include <env.hpp>
                #include <vector>
                struct Entry { virtual ~Entry() = default; virtual int text() const = 0; };
                template <typename T> struct Holder { T value; int get() const { return (int)value + MWBase::Environment::get().getWorld()->x; } };
                inline int headerRead() { return Holder<int>{1}.get(); }
                #endif

                """,
                // a member of a class template and a generic lambda, each instantiated twice,
                // and the header's template instantiated for another type
                "src/model.cpp": """
                #include "model.hpp"
                #include <memory>
                namespace Model
                {
                    struct Impl
                    {
                        template <typename Kind> struct Base : Entry
                        {
                            Kind kind{};
                            int text() const override { return (int)kind + MWBase::Environment::get().getWorld()->x; }
                        };
                    };
                    std::unique_ptr<Entry> makeInt() { return std::make_unique<Impl::Base<int>>(); }
                    std::unique_ptr<Entry> makeLong() { return std::make_unique<Impl::Base<long>>(); }
                    int lambdaRead()
                    {
                        auto read = [](auto n) { return n + MWBase::Environment::get().getWorld()->x; };
                        return read(1) + read(2L) + Holder<long>{2}.get();
                    }
                }

                """,
                // no include guard: the source's `#include` would enter it again after the read
                "src/loose.hpp": """
                #include <env.hpp>
                template <typename T> int looseRead(T t) { return (int)t + MWBase::Environment::get().getWorld()->x; }

                """,
                "src/loose.cpp": """
                #include "loose.hpp"
                int useLoose() { return looseRead(1) + looseRead(2.0) + MWBase::Environment::get().getWorld()->x; }

                """,
            ])
    }

    func testInstantiatedTemplateBodiesAreReportedOnceAsInThePlainParse() throws {
        let p = try project()
        let trace = p.root.appendingPathComponent("trace")
        let plain = try CLIRunner.run(
            ["lint", "src", "include", "--format", "json"], in: p.root, environment: ["DI_LINT_HEADER_REUSE": "0"])
        let findings = plain.findingPlaces
        XCTAssertEqual(
            findings,
            [
                "src/loose.cpp:2 container-access", "src/loose.hpp:2 container-access",
                "src/model.cpp:10 container-access", "src/model.cpp:17 container-access",
                "src/model.hpp:6 container-access",
            ], plain.stdout + plain.stderr)
        // one worker: the header is parsed before its source, however loaded the machine
        let reused = try CLIRunner.run(
            ["lint", "src", "include", "--format", "json", "--jobs", "1"], in: p.root,
            environment: ["DI_LINT_HEADER_REUSE": "1", "DI_LINT_PCH_TRACE": trace.path])
        XCTAssertEqual(try reused.reportWithoutTiming(), try plain.reportWithoutTiming(), reused.stdout + reused.stderr)
        XCTAssertEqual(
            pchTraceLines(trace), ["built src/model.hpp", "plain src/loose.cpp", "read src/model.cpp"], reused.stderr)
        // the default is the reuse
        let byDefault = p.root.appendingPathComponent("trace-default")
        let run = try CLIRunner.run(
            ["lint", "src", "include", "--format", "json", "--jobs", "1"], in: p.root,
            environment: ["DI_LINT_PCH_TRACE": byDefault.path])
        XCTAssertEqual(try run.reportWithoutTiming(), try plain.reportWithoutTiming(), run.stdout + run.stderr)
        XCTAssertEqual(pchTraceLines(byDefault), ["built src/model.hpp", "plain src/loose.cpp", "read src/model.cpp"])
    }
}
