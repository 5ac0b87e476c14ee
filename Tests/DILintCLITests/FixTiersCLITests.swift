import Foundation
import SeamTestSupport
import XCTest

/// `di-lint fix --apply` writes the safe groups; the unsafe ones (a C function reading the
/// container through what it receives) only with `--unsafe`. The tier is in the summary, the
/// diff, the JSON plan and SARIF.
final class FixTiersCLITests: XCTestCase {
    static let files = [
        ".di-lint.yml": "containers: [the_repository]\n",
        "repository.h":
            "struct repository { const char *gitdir; };\nextern struct repository *the_repository;\nconst char *repo_get_git_dir(struct repository *repo);\n",
        "worktree.c": "#include \"repository.h\"\n\nstruct worktree { struct repository *repo; };\n\n"
            + "const char *worktree_git_dir(const struct worktree *wt)\n{\n    return repo_get_git_dir(the_repository);\n}\n",
    ]

    func testUnsafeGroupsAreWrittenOnlyWithUnsafe() throws {
        let project = try Project(self, files: Self.files)
        let dry = try project.run("fix", "--phase", "inject", ".")
        XCTAssertEqual(dry.status, 1, dry.stderr)
        XCTAssertEqual(dry.stdout, "")
        XCTAssertTrue(
            dry.stderr.contains("1 access in 1 unsafe group withheld (--unsafe shows and writes them)"), dry.stderr)
        XCTAssertTrue(
            dry.stderr.contains("withheld (unsafe; --unsafe writes it) C function worktree_git_dir reads wt->repo"),
            dry.stderr)

        let safeApply = try project.run("fix", "--phase", "inject", "--apply", ".")
        XCTAssertEqual(safeApply.status, 1, safeApply.stderr)
        XCTAssertEqual(try project.read("worktree.c"), Self.files["worktree.c"])

        let unsafeDry = try project.run("fix", "--phase", "inject", "--unsafe", ".")
        XCTAssertTrue(
            unsafeDry.stdout.hasPrefix(
                "# di-lint fix: unsafe (behaviour may change): C function worktree_git_dir reads wt->repo\n--- a/worktree.c\n"
            ), unsafeDry.stdout)
        XCTAssertTrue(
            unsafeDry.stderr.contains("1 of the rewritten in 1 unsafe group (behaviour may change)"), unsafeDry.stderr)
        let json = try project.run("fix", "--phase", "inject", "--unsafe", "--format", "json", ".")
        XCTAssertTrue(json.stdout.contains("\"tier\" : \"unsafe\""), json.stdout)
        let sarif = try project.run("fix", "--phase", "inject", "--unsafe", "--format", "sarif", ".")
        XCTAssertTrue(sarif.stdout.contains("C function worktree_git_dir reads wt->repo (unsafe)"), sarif.stdout)

        let apply = try project.run("fix", "--phase", "inject", "--apply", "--unsafe", ".")
        XCTAssertEqual(apply.status, 0, apply.stderr)
        XCTAssertTrue(try project.read("worktree.c").contains("    return repo_get_git_dir(wt->repo);\n"))
    }
}
