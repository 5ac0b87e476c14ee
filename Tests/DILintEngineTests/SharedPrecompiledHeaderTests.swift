import Foundation
import XCTest
@testable import DILintEngine

/// Which C++ source reads the saved parse of which header (`SharedPrecompiledHeader`): the one
/// beside it with its stem, when the source's first line of code includes it; and the order that
/// hands such a header out before its source.
final class SharedPrecompiledHeaderTests: XCTestCase {
    private func first(_ text: String) -> String? { SharedPrecompiledHeader.firstInclude(Array(text.utf8)) }

    func testTheFirstIncludeComesAfterCommentsAndBlankLinesOnly() {
        XCTAssertEqual(first("// licence\n/* a block\n   comment */\n\n#include \"a.hpp\"\nint x;\n"), "\"a.hpp\"")
        XCTAssertEqual(first("/* x */ #  include <vector> // the vector\n"), "<vector>")
        XCTAssertNil(first("#define NOMINMAX\n#include \"a.hpp\"\n"))
        XCTAssertNil(first("#pragma once\n#include \"a.hpp\"\n"))
        XCTAssertNil(first("#ifdef X\n#include \"a.hpp\"\n#endif\n"))
        XCTAssertNil(first("#include MACRO_HEADER\n"))
        XCTAssertNil(first("#include \"a.hpp\" trailing\n"))
        XCTAssertNil(first("int main() {}\n"))
    }

    func testTheLeadingIncludesEndAtTheFirstLineOfAnotherKind() {
        func leading(_ text: String) -> [String] { SharedPrecompiledHeader.leadingIncludes(Array(text.utf8)) }
        XCTAssertEqual(
            leading(
                "// licence\n#include \"a.hpp\"\n\n/* more */\n#include <vector>\n#include <map> // maps\nint x;\n#include <set>\n"
            ),
            ["\"a.hpp\"", "<vector>", "<map>"])
        XCTAssertEqual(leading("#include \"a.hpp\"\n#ifdef X\n#include <set>\n#endif\n"), ["\"a.hpp\""])
        XCTAssertEqual(leading("#include \"a.hpp\"\n#include MACRO_HEADER\n#include <set>\n"), ["\"a.hpp\""])
        XCTAssertEqual(leading("#include <a.h> \\\n#include <b.h>\n"), [])
        XCTAssertEqual(leading("#define NOMINMAX\n#include <windows.h>\n"), [])
        XCTAssertEqual(leading(""), [])
    }

    func testASourceBeginsWithTheHeaderBesideItOfItsOwnStem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pch-pairs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["w.hpp", "other.hpp"] {
            try Data("#pragma once\n".utf8).write(to: dir.appendingPathComponent(name))
        }
        let source = dir.path + "/w.cpp"
        try Data("// w\n#include \"w.hpp\"\n#include <map>\n".utf8).write(to: URL(fileURLWithPath: source))
        func own(_ text: String, _ path: String = source) -> String? {
            SharedPrecompiledHeader.ownHeader(source: path, bytes: Array(text.utf8))
        }
        XCTAssertEqual(own("// w\n#include \"w.hpp\"\n#include <map>\n"), dir.path + "/w.hpp")
        XCTAssertNil(own("#include \"other.hpp\"\n")) // another stem
        XCTAssertNil(own("#include <w.hpp>\n")) // found through the include path, maybe elsewhere
        XCTAssertNil(own("#include \"sub/w.hpp\"\n"))
        XCTAssertNil(own("#include \"w.hpp\"\n", dir.path + "/w.c")) // not C++
        XCTAssertNil(own("#include \"x.hpp\"\n", dir.path + "/x.cpp")) // no such header
        XCTAssertEqual(
            SharedPrecompiledHeader.source(beginningWith: dir.path + "/w.hpp", maxFileSize: 1 << 20), source)
        XCTAssertNil(SharedPrecompiledHeader.source(beginningWith: dir.path + "/other.hpp", maxFileSize: 1 << 20))
    }

    func testAHeaderIsHandedOutAheadOfTheSourceThatBeginsWithIt() {
        let files = ["d/a.cpp", "d/a.hpp", "d/b.cpp", "d/b.hpp", "d/c.cpp", "d/lone.hpp", "e/x.cpp", "e/x.h"]
        let order = SharedPrecompiledHeader.order(files, ahead: 1).map { files[$0] }
        XCTAssertEqual(
            order, ["d/a.hpp", "d/b.hpp", "d/a.cpp", "d/b.cpp", "d/c.cpp", "e/x.h", "d/lone.hpp", "e/x.cpp"])
        XCTAssertEqual(Set(order), Set(files))
        XCTAssertEqual(SharedPrecompiledHeader.order(["a.c", "b.h"], ahead: 4), [0, 1])
    }
}
