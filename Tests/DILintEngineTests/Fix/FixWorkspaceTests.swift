import Foundation
import XCTest
@testable import DILintEngine

/// Which edited files a verification parse is given as unsaved files, and that a parse reading an
/// edited file it was not given is parsed again with every edited header.
final class FixWorkspaceTests: XCTestCase {
    func write(_ files: [String: String]) throws -> (URL, [String: String]) {
        let root = try temporaryDirectory(self)
        var real: [String: String] = [:]
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            real[name] = FixWorkspace.realPath(url.path)
        }
        return (root, real)
    }

    func testAParseGetsTheEditedHeadersItReadOrIncludesByName() throws {
        let (_, path) = try write([
            "Main.m": "#import \"Read.h\"\nvoid f(void) { (void)read_; }\n",
            "Read.h": "extern int read_;\n",
            "Named.h": "#import \"Deep.h\"\nextern int named_;\n",
            "Deep.h": "extern int deep_;\n",
            "Other.h": "extern int other_;\n",
        ])
        let workspace = FixWorkspace(configuration: Configuration(), compileArguments: [:])
        _ = try workspace.parse(path["Main.m"]!) // the plan's parse: no overlay
        XCTAssertEqual(workspace.unsavedFiles(lastPassedTo: path["Main.m"]!), [])
        workspace.setOverlay([
            path["Main.m"]!: Array(
                "#import \"Read.h\"\n#import \"Named.h\"\nvoid f(void) { (void)(read_ + named_ + deep_); }\n".utf8),
            path["Read.h"]!: Array("extern int read_;\n".utf8),
            path["Named.h"]!: Array("#import \"Deep.h\"\nextern int named_;\n".utf8),
            path["Deep.h"]!: Array("extern int deep_;\n".utf8),
            path["Other.h"]!: Array("extern int other_, edited_;\n".utf8),
        ])
        let parsed = try workspace.parse(path["Main.m"]!)
        XCTAssertEqual(parsed.errorDiagnostics().map(\.message), [])
        // read before, named by the edited file, named by a named edited header; not Other.h
        XCTAssertEqual(
            workspace.unsavedFiles(lastPassedTo: path["Main.m"]!),
            [path["Deep.h"]!, path["Named.h"]!, path["Read.h"]!].sorted())
        XCTAssertEqual(workspace.overlayRetries, 0)
    }

    func testAParseThatReadAnEditedHeaderItWasNotGivenIsParsedAgainWithAll() throws {
        let (_, path) = try write([
            "Main.m": "int main_;\n",
            "Macro.h": "extern int original_;\n",
        ])
        let workspace = FixWorkspace(configuration: Configuration(), compileArguments: [:])
        _ = try workspace.parse(path["Main.m"]!)
        // the edited file includes the edited header through a macro: no name to see it by
        workspace.setOverlay([
            path["Main.m"]!: Array(
                "#define HEADER \"Macro.h\"\n#import HEADER\nvoid f(void) { (void)edited_; }\n".utf8),
            path["Macro.h"]!: Array("extern int edited_;\n".utf8),
        ])
        let parsed = try workspace.parse(path["Main.m"]!)
        XCTAssertEqual(parsed.errorDiagnostics().map(\.message), [], "the header's edited contents, not the disk's")
        XCTAssertEqual(workspace.overlayRetries, 1)
        XCTAssertEqual(workspace.unsavedFiles(lastPassedTo: path["Main.m"]!), [path["Macro.h"]!])
    }

    func testIncludedNamesAreTheDirectivesLastPathComponents() {
        let text =
            "#import \"a/B.h\"\n  #  include <M/C.h>\n#include_next \"D.h\"\n#define X \"E.h\"\n#include X\n// #import \"F.h\"\nint g; #import \"G.h\"\n"
        XCTAssertEqual(IncludedFiles.names(in: Array(text.utf8)), ["B.h", "C.h", "D.h"])
    }
}
