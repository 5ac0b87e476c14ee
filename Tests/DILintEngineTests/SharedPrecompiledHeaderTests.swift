import Foundation
import XCTest
@testable import DILintEngine

/// Which C++ sources may read their directory's shared precompiled header: those whose every
/// `#include` comes first, before any macro, condition or code of their own.
final class SharedPrecompiledHeaderTests: XCTestCase {
    private func includes(_ text: String) -> [String]? { SharedPrecompiledHeader.leadingIncludes(Array(text.utf8)) }

    func testLeadingIncludesAfterCommentsAndPragmaOnceAreTaken() {
        XCTAssertEqual(
            includes(
                """
                // licence
                /* a block
                   comment */
                #pragma once
                #include "a.hpp"
                #  include <vector> // the vector
                /* x */ #include <map>

                int f() { return 1; }
                """), ["\"a.hpp\"", "<vector>", "<map>"])
    }

    func testAnIncludeAfterAMacroAConditionOrCodeMakesTheSourceIneligible() {
        XCTAssertNil(includes("#define NOMINMAX\n#include <windows.h>\n"))
        XCTAssertNil(includes("#include <a.h>\n#ifdef X\n#include <b.h>\n#endif\n"))
        XCTAssertNil(includes("#include <a.h>\nint x;\n#include <b.h>\n"))
        XCTAssertNil(includes("#include MACRO_HEADER\n"))
        XCTAssertNil(includes("#include <a.h> trailing\n"))
        XCTAssertNil(includes("int main() {}\n"))
    }

    func testAHeadersIncludeGuardComesBeforeItsIncludes() {
        let guarded = "#ifndef GAME_X_H\n#define GAME_X_H\n#include <vector>\nint x();\n#endif\n"
        XCTAssertEqual(SharedPrecompiledHeader.leadingIncludes(Array(guarded.utf8), header: true), ["<vector>"])
        // a source's `#ifndef` is a condition, and a guard must define what it tests
        XCTAssertNil(includes(guarded))
        XCTAssertNil(
            SharedPrecompiledHeader.leadingIncludes(
                Array("#ifndef A_H\n#define B_H\n#include <vector>\n#endif\n".utf8), header: true))
    }
}
