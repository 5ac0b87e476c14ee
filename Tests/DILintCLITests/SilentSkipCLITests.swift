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
        try FileManager.default.createSymbolicLink(
            atPath: project.root.appendingPathComponent(path).path, withDestinationPath: destination)
    }

    private func paths(_ run: CLIRunner.Run, rule: String) -> [String] {
        run.findings.filter { $0["rule"] as? String == rule }.compactMap { $0["path"] as? String }
    }

    private func message(_ run: CLIRunner.Run, path: String) -> String {
        run.findings.first { $0["path"] as? String == path }?["message"] as? String
            ?? "no finding at \(path): \(run.stdout)"
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
        XCTAssertEqual(
            paths(walked, rule: "container-access"), [], "nothing outside the repository is linted: \(walked.stdout)")
        XCTAssertEqual(
            paths(walked, rule: "parse-failure").sorted(), ["Sources/lib", "Sources/outside.m"], walked.stdout)
        XCTAssertEqual(
            message(walked, path: "Sources/outside.m"),
            "file not linted: a symbolic link to \(outside), outside the repository \(repository)")
        XCTAssertEqual(
            message(walked, path: "Sources/lib"),
            "directory not linted: a symbolic link to \(outsideDirectory), outside the repository \(repository)")
        XCTAssertEqual(walked.summary["notLinted"] as? Int, 2, walked.stdout)
        XCTAssertTrue(walked.stderr.contains("2 not linted"), walked.stderr)

        // named on the command line, the same
        let named = try project.run("Sources/outside.m", "Sources/lib", "--format", "json")
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertEqual(
            paths(named, rule: "parse-failure").sorted(), ["Sources/lib", "Sources/outside.m"], named.stdout)
        // excluded, the link is not looked at
        let excluded = try project.run("Sources", "--exclude", "Sources/outside.m", "--exclude", "Sources/lib")
        XCTAssertEqual(excluded.status, 0, excluded.stdout + excluded.stderr)
    }

    func testFixNamesTheLinksItDoesNotFollow() throws {
        let project = try repository()
        let elsewhere = try Project(self, files: ["outside.m": Self.evil])
        try link("Sources/outside.m", to: elsewhere.root.appendingPathComponent("outside.m").path, in: project)
        let run = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains("Sources/outside.m:1:1: manual: : fix does not rewrite the file (a symbolic link to "),
            run.stderr)
        XCTAssertEqual(try elsewhere.read("outside.m"), Self.evil)
    }

    func testLinkThatLeadsNowhereIsNamed() throws {
        let project = try repository()
        try link("Sources/gone.m", to: "../generated/gone.m", in: project)
        let run = try project.run("Sources", "--format", "json")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            message(run, path: "Sources/gone.m"),
            "file not linted: a symbolic link to ../generated/gone.m that leads nowhere (No such file or directory)")
    }

    // MARK: D16: configs the repository's owner may not have written

    /// A config turning the gate off (`exclude: ["**"]`) above a repository `repo/` holding an access.
    private func configAbove() throws -> (project: Project, repository: URL) {
        let project = try Project(self, files: ["repo/Sources/evil.m": Self.evil])
        try project.write(".di-lint.yml", "containers: [Container.sharedInstance]\nexclude: [\"**\"]\n")
        let repository = project.root.appendingPathComponent("repo")
        try FileManager.default.createDirectory(
            at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        return (project, repository)
    }

    private func lint(in directory: URL, _ arguments: String...) throws -> CLIRunner.Run {
        try CLIRunner.run(["lint", "Sources", "--container", "Container.sharedInstance"] + arguments, in: directory)
    }

    private func requireRoot() throws {
        try XCTSkipUnless(geteuid() == 0, "giving a file to another user needs root (CI runs as root)")
    }

    func testConfigAboveTheRepositoryIsNamed() throws {
        let (project, repository) = try configAbove()
        let run = try lint(in: repository)
        XCTAssertEqual(run.status, 0, "the config is used: \(run.stdout)")
        let config = project.root.appendingPathComponent(".di-lint.yml").path
        XCTAssertTrue(
            run.stderr.contains(
                "di-lint: note: using the config \(config), found above the repository \(repository.resolvingSymlinksInPath().path) (the directory holding .git)"
            ),
            run.stderr)
        // a config in the repository is the one used, and not named
        try project.write("repo/.di-lint.yml", "containers: [Container.sharedInstance]\n")
        let inside = try lint(in: repository)
        XCTAssertEqual(inside.status, 1, inside.stderr)
        XCTAssertFalse(inside.stderr.contains("note:"), inside.stderr)
    }

    func testConfigInADirectoryEveryUserMayWriteIsIgnored() throws {
        let (project, repository) = try configAbove()
        XCTAssertEqual(chmod(project.root.path, 0o777), 0)
        let run = try lint(in: repository)
        XCTAssertEqual(run.status, 1, "the config is not used, the access is found: \(run.stderr)")
        XCTAssertTrue(run.stdout.contains("Sources/evil.m:2:20: error: direct access"), run.stdout)
        let config = project.root.appendingPathComponent(".di-lint.yml").path
        XCTAssertTrue(
            run.stderr.contains(
                "di-lint: warning: ignoring the config \(config): its directory \(project.root.path) is writable by every user, so anyone may have put it there; pass --config \(config) to use it"
            ),
            run.stderr)
        // named, it is used
        XCTAssertEqual(try lint(in: repository, "--config", config).status, 0)
    }

    func testConfigOfAnotherUserIsNamedAndIgnoredWhenEveryUserMayWriteIt() throws {
        try requireRoot()
        let (project, repository) = try configAbove()
        let config = project.root.appendingPathComponent(".di-lint.yml").path
        XCTAssertEqual(chown(config, 65534, 65534), 0)
        XCTAssertEqual(chmod(config, 0o644), 0)
        let named = try lint(in: repository)
        XCTAssertEqual(named.status, 0, named.stdout)
        XCTAssertTrue(
            named.stderr.contains(
                "di-lint: note: using the config \(config), owned by \(ownerName(65534)), not by the user running di-lint"
            ), named.stderr)

        XCTAssertEqual(chmod(config, 0o666), 0)
        let ignored = try lint(in: repository)
        XCTAssertEqual(ignored.status, 1, ignored.stderr)
        XCTAssertTrue(
            ignored.stderr.contains(
                "di-lint: warning: ignoring the config \(config): it is owned by \(ownerName(65534)) and writable by every user (mode 0666)"
            ), ignored.stderr)

        // --config: used, with a warning when others than its owner may write it
        XCTAssertEqual(chmod(config, 0o664), 0)
        let explicit = try lint(in: repository, "--config", "../.di-lint.yml")
        XCTAssertEqual(explicit.status, 0, explicit.stdout)
        XCTAssertTrue(
            explicit.stderr.contains(
                "di-lint: warning: the config ../.di-lint.yml is owned by \(ownerName(65534)) and writable by its group (mode 0664)"
            ), explicit.stderr)
        XCTAssertEqual(chmod(config, 0o644), 0)
        XCTAssertFalse(try lint(in: repository, "--config", "../.di-lint.yml").stderr.contains("warning"))
    }

    private func ownerName(_ uid: uid_t) -> String {
        getpwuid(uid).map { "user '\(String(cString: $0.pointee.pw_name))' (uid \(uid))" } ?? "uid \(uid)"
    }

    // MARK: D18: report counts what it could not lint

    func testReportCountsAFileItCouldNotLintAsNotLinted() throws {
        let project = try Project(
            self,
            files: [
                "Sources/A.m": Self.evil,
                "Sources/Big.m": Self.evil + "// " + String(repeating: "x", count: 400) + "\n",
            ])
        try project.write(".di-lint.yml", "containers: [Container.sharedInstance]\nmax-file-size: 300\n")
        let json = try project.run("report", "Sources", "--format", "json")
        XCTAssertEqual(json.status, 1, "a file could not be linted: \(json.stderr)")
        XCTAssertEqual(json.json["filesLinted"] as? Int, 1, json.stdout)
        XCTAssertEqual(json.json["filesNotLinted"] as? Int, 1, json.stdout)
        let notLinted = try XCTUnwrap(json.json["notLinted"] as? [[String: Any]], json.stdout)
        XCTAssertEqual(notLinted.map { $0["path"] as? String }, ["Sources/Big.m"])
        XCTAssertEqual(
            notLinted.first?["reason"] as? String,
            "file not linted: it is 480 bytes, over the 300-byte limit (max-file-size)")
        XCTAssertEqual((json.json["total"] as? [String: Any])?["direct"] as? Int, 1, "Big.m's access is not counted")

        let markdown = try project.run("report", "Sources")
        XCTAssertEqual(markdown.status, 1)
        XCTAssertTrue(markdown.stdout.contains("1 container access in 1 of 1 linted file; "), markdown.stdout)
        XCTAssertTrue(
            markdown.stdout.contains(
                "**1 file could not be linted**: its accesses are not counted.\n\n| Not linted | Why |\n|---|---|\n| Sources/Big.m | file not linted: it is 480 bytes, over the 300-byte limit (max-file-size) |\n"
            ),
            markdown.stdout)

        // parse-failure lowered to a warning: the gate lets it pass, the totals still say it
        try project.write(
            ".di-lint.yml",
            "containers: [Container.sharedInstance]\nmax-file-size: 300\nrules:\n  parse-failure: warning\n")
        let lowered = try project.run("report", "Sources", "--format", "json")
        XCTAssertEqual(lowered.status, 0, lowered.stderr)
        XCTAssertEqual(lowered.json["filesNotLinted"] as? Int, 1, lowered.stdout)

        // every file linted: exit 0, nothing listed
        let clean = try project.run("report", "Sources/A.m", "--format", "json")
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.json["filesNotLinted"] as? Int, 0)
        XCTAssertEqual((clean.json["notLinted"] as? [Any])?.count, 0)
    }
}
