import Foundation
import SeamTestSupport
import XCTest

/// Nothing is left out without a notice: symbolic links in the tree, configs from above the
/// repository or from other users, files `report` could not lint.
final class SilentSkipCLITests: XCTestCase {
    static let evil = "@implementation E\n- (void)r { id x = [Container sharedInstance].svc; }\n@end\n"

    /// A git repository holding `tools/evil.m` (a container access) and an empty `Sources/`.
    private func repository() throws -> Project {
        let project = try Project(self, files: ["tools/evil.m": Self.evil, "Sources/Clean.m": "void clean(void) {}\n"])
        try project.git("init", "-q")
        return project
    }

    private func link(_ path: String, to destination: String, in project: Project) throws {
        try FileManager.default.createSymbolicLink(atPath: project.root.appendingPathComponent(path).path, withDestinationPath: destination)
    }

    private func paths(_ run: CLIRunner.Run, rule: String) -> [String] {
        run.findings.filter { $0["rule"] as? String == rule }.compactMap { $0["path"] as? String }
    }

    private func message(_ run: CLIRunner.Run, path: String) -> String {
        run.findings.first { $0["path"] as? String == path }?["message"] as? String ?? "no finding at \(path): \(run.stdout)"
    }

    // MARK: D15: symbolic links

    func testLinkedFileInsideTheRepositoryIsLintedAtItsTarget() throws {
        let project = try repository()
        try link("Sources/evil.m", to: "../tools/evil.m", in: project)
        let walked = try project.run("Sources", "--format", "json")
        XCTAssertEqual(walked.status, 1, walked.stderr)
        XCTAssertEqual(paths(walked, rule: "container-access"), ["tools/evil.m"], walked.stdout)
        XCTAssertEqual(walked.summary["files"] as? Int, 2)
        // named on the command line: the same file, at the same path
        let named = try project.run("Sources/evil.m", "--format", "json")
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertEqual(paths(named, rule: "container-access"), ["tools/evil.m"], named.stdout)
        // the whole tree: the file and the link to it are one file, linted once
        let all = try project.run(".", "--format", "json")
        XCTAssertEqual(paths(all, rule: "container-access"), ["tools/evil.m"], all.stdout)
        XCTAssertEqual(all.summary["files"] as? Int, 2, all.stdout)
    }

    func testLinkedDirectoryInsideTheRepositoryIsWalkedOnceAndLoopsEnd() throws {
        let project = try repository()
        try link("Sources/tools", to: "../tools", in: project)
        try link("Sources/again", to: "../tools", in: project)
        try link("Sources/loop", to: "..", in: project)
        let walked = try project.run("Sources", "--format", "json")
        XCTAssertEqual(walked.status, 1, walked.stderr)
        XCTAssertEqual(paths(walked, rule: "container-access"), ["tools/evil.m"], walked.stdout)
        // Sources/Clean.m and tools/evil.m, each once, through three links (one of them a loop)
        XCTAssertEqual(walked.summary["files"] as? Int, 2, walked.stdout)
        XCTAssertEqual(paths(walked, rule: "parse-failure"), [], walked.stdout)
    }

    func testLinksOutOfTheRepositoryAreParseFailures() throws {
        let project = try repository()
        let elsewhere = try Project(self, files: ["lib/outside.m": Self.evil])
        let outside = elsewhere.root.appendingPathComponent("lib/outside.m").resolvingSymlinksInPath().path
        let outsideDirectory = elsewhere.root.appendingPathComponent("lib").resolvingSymlinksInPath().path
        let repository = project.root.resolvingSymlinksInPath().path
        try link("Sources/outside.m", to: outside, in: project)
        try link("Sources/lib", to: outsideDirectory, in: project)

        let walked = try project.run("Sources", "--format", "json")
        XCTAssertEqual(walked.status, 1, walked.stderr)
        XCTAssertEqual(paths(walked, rule: "container-access"), [], "nothing outside the repository is linted: \(walked.stdout)")
        XCTAssertEqual(paths(walked, rule: "parse-failure").sorted(), ["Sources/lib", "Sources/outside.m"], walked.stdout)
        XCTAssertEqual(message(walked, path: "Sources/outside.m"),
                       "file not linted: a symbolic link to \(outside), outside the repository \(repository)")
        XCTAssertEqual(message(walked, path: "Sources/lib"),
                       "directory not linted: a symbolic link to \(outsideDirectory), outside the repository \(repository)")
        XCTAssertEqual(walked.summary["notLinted"] as? Int, 2, walked.stdout)
        XCTAssertTrue(walked.stderr.contains("2 not linted"), walked.stderr)

        // named on the command line, the same
        let named = try project.run("Sources/outside.m", "Sources/lib", "--format", "json")
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertEqual(paths(named, rule: "parse-failure").sorted(), ["Sources/lib", "Sources/outside.m"], named.stdout)
        // excluded, the link is not looked at
        let excluded = try project.run("Sources", "--exclude", "Sources/outside.m", "--exclude", "Sources/lib")
        XCTAssertEqual(excluded.status, 0, excluded.stdout + excluded.stderr)
    }

    func testLinkThatLeadsNowhereIsNamed() throws {
        let project = try repository()
        try link("Sources/gone.m", to: "../generated/gone.m", in: project)
        let run = try project.run("Sources", "--format", "json")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(message(run, path: "Sources/gone.m"),
                       "file not linted: a symbolic link to ../generated/gone.m that leads nowhere (No such file or directory)")
    }
}
