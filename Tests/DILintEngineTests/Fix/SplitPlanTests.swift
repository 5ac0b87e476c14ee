import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// The parts of `fix --split` that need no parse: CODEOWNERS as GitHub reads it, the line
/// difference between two trees of a file, and a new file's patch (the bridge a run writes).
final class SplitPlanTests: XCTestCase {
    /// GitHub's documented examples: the last matching rule wins; a pattern without a slash
    /// matches at any depth; `dir/*` only directly in dir; a trailing `/` a directory's contents;
    /// `**/x` anywhere; a rule with no owners leaves the path without one; `!` and `[…]` are skipped.
    func testCodeOwnersPatternsAndPrecedence() {
        let owners = CodeOwners(
            text: """
                # comment
                *                @global
                *.js             @js-owner   # trailing comment
                /build/logs/     @doctocat
                docs/*           docs@example.com
                apps/            @octocat
                **/logs          @logs
                /apps/github
                /scripts/ @doctocat @octocat
                \\#file_with_pound.rb @pound
                !negated         @nobody
                src/[ab].c       @nobody

                """, path: "CODEOWNERS")
        XCTAssertEqual(owners.owners(of: "README.md"), ["@global"])
        XCTAssertEqual(owners.owners(of: "a/b/c.js"), ["@js-owner"])
        XCTAssertEqual(owners.owners(of: "build/logs/x/y.txt"), ["@logs"]) // the later **/logs wins
        XCTAssertEqual(owners.owners(of: "docs/getting-started.md"), ["docs@example.com"])
        XCTAssertEqual(owners.owners(of: "docs/build-app/troubleshooting.md"), ["@global"])
        XCTAssertEqual(owners.owners(of: "x/apps/y.swift"), ["@octocat"])
        XCTAssertEqual(owners.owners(of: "apps/github/z.swift"), [])
        XCTAssertEqual(owners.owners(of: "deep/er/logs/l.txt"), ["@logs"])
        XCTAssertEqual(owners.owners(of: "scripts/s.sh"), ["@doctocat", "@octocat"])
        XCTAssertEqual(owners.owners(of: "lib/scripts/s.sh"), ["@global"]) // anchored at the root
        XCTAssertEqual(owners.owners(of: "#file_with_pound.rb"), ["@pound"])
        XCTAssertEqual(owners.skipped.count, 2, "\(owners.skipped)")
        XCTAssertTrue(owners.skipped[0].hasPrefix("CODEOWNERS:11: negation"), "\(owners.skipped)")
    }

    /// The first of .github/, the root and docs/ that holds a CODEOWNERS is read, and only it.
    func testCodeOwnersLocation() throws {
        let project = try TemporaryProject(self, files: ["docs/CODEOWNERS": "* @docs\n", "CODEOWNERS": "* @root\n"])
        XCTAssertEqual(CodeOwners(repositoryRoot: project.root.path).owners(of: "a.m"), ["@root"])
        try project.write(".github/CODEOWNERS", "*.m @github\n")
        let owners = CodeOwners(repositoryRoot: project.root.path)
        XCTAssertEqual(owners.owners(of: "a.m"), ["@github"])
        XCTAssertEqual(owners.owners(of: "a.h"), [])
        let none = try TemporaryProject(self, files: ["a.m": "int a;\n"])
        XCTAssertNil(CodeOwners(repositoryRoot: none.root.path).path)
        XCTAssertEqual(CodeOwners(repositoryRoot: none.root.path).owners(of: "a.m"), [])
    }

    /// The line edits between two states of a file turn the one into the other (bytes that are
    /// not UTF-8 too), and a file the run creates is a git new-file patch `git apply` takes.
    func testLineEditsAndNewFilePatches() throws {
        let old = Array("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n".utf8)
        let new = Array("a\nB\nc\nd\ne\nf\ng\nh\nx\ni\nj".utf8)
        let edits = Fixer.lineEdits(path: "f", old: old, new: new)
        XCTAssertEqual(EditApplication.apply(edits, to: old), new)
        XCTAssertEqual(edits.count, 3, "\(edits)") // b → B, x inserted, the last line's newline
        let latin = [UInt8](arrayLiteral: 0x61, 0x0A, 0xE9, 0x0A)
        XCTAssertEqual(
            EditApplication.apply(Fixer.lineEdits(path: "f", old: latin, new: latin + [0x62]), to: latin),
            latin + [0x62])
        let project = try TemporaryProject(self, files: ["A.m": "int a;\n"])
        let text =
            Fixer.gitDiff(path: "Bridge/New Bridge.h", old: [], new: Array("@interface B\n@end\n".utf8), created: true)
            + Fixer.gitDiff(
                path: "A.m", old: Array("int a;\n".utf8), new: Array("int a;\nint b;\n".utf8), created: false)
        XCTAssertTrue(
            String(decoding: text, as: UTF8.self).hasPrefix(
                "diff --git a/Bridge/New Bridge.h b/Bridge/New Bridge.h\nnew file mode 100644\n--- /dev/null\n+++ b/Bridge/New Bridge.h\t\n@@ -0,0 +1,2 @@\n"
            ),
            String(decoding: text, as: UTF8.self))
        try Data(text).write(to: project.root.appendingPathComponent("p.patch"))
        let apply = try runProcess("/usr/bin/env", ["git", "apply", "p.patch"], in: project.root)
        XCTAssertEqual(apply.status, 0, apply.stderr)
        XCTAssertEqual(
            try String(contentsOf: project.root.appendingPathComponent("Bridge/New Bridge.h"), encoding: .utf8),
            "@interface B\n@end\n")
        XCTAssertEqual(
            try String(contentsOf: project.root.appendingPathComponent("A.m"), encoding: .utf8), "int a;\nint b;\n")
    }
}
