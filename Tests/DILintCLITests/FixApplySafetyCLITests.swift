import Foundation
import SeamTestSupport
import XCTest

/// How `di-lint fix` writes, through the real binary: never over an input or outside the tree,
/// all files of an apply or none (a failure midway, a signal, a kill, another apply at the same
/// time, an edit meanwhile), and diffs `git apply` takes whatever the names and bytes.
final class FixApplySafetyCLITests: XCTestCase {
    /// A class whose header declares it and whose implementation reads a service: its fix is one
    /// group over two files (the bridge property in `Store.h`, the rewritten access in `Store.m`).
    static func store(_ name: String = "Store", padding: Int = 0) -> [String: String] {
        [
            "Sources/\(name).h": "@interface \(name)\n- (void)start;\n@end\n",
            "Sources/\(name).m":
                "#import \"\(name).h\"\n\n@implementation \(name)\n- (void)start {\n    id r = [Container sharedInstance].crashReporter;\n}\n@end\n"
                + String(
                    repeating: "// padding padding padding padding padding padding padding padding padding\n",
                    count: padding),
        ]
    }

    func project(_ files: [String: String] = store()) throws -> Project {
        try Project(
            self,
            files: files.merging(["Sources/CrashBridge.h": FixSamples.bridgeHeader, ".di-lint.yml": FixSamples.config])
            { $1 })
    }

    func bytes(_ project: Project, _ path: String) throws -> Data {
        try Data(contentsOf: project.root.appendingPathComponent(path))
    }

    /// The project's files (outside `.git`) and their contents.
    func contents(_ project: Project) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let root = project.root.resolvingSymlinksInPath().path
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            if path == ".git" { walker?.skipDescendants(); continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                result[path] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            }
        }
        return result
    }

    /// Runs di-lint through bash with `prelude` before it (`ulimit -f 16`) and `redirect` after.
    func shell(_ project: Project, _ arguments: [String], prelude: String = "", redirect: String = "") throws
        -> CLIRunner.Run
    {
        let result = try runProcess(
            "/bin/bash", ["-c", "\(prelude)\n\"$0\" \"$@\" \(redirect)", diLintBinary] + arguments, in: project.root)
        return CLIRunner.Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    // MARK: D10: outputs never overwrite an input

    func testPatchRefusesAnyOfTheRunsInputsHoweverNamed() throws {
        let project = try project()
        try project.commitEverything()
        let before = try contents(project)
        let root = project.root.path
        XCTAssertEqual(symlink(".di-lint.yml", root + "/config-link"), 0)
        XCTAssertEqual(link(root + "/Sources/Store.m", root + "/store-hard-link"), 0)
        XCTAssertEqual(symlink("Sources/missing/../Store.h", root + "/dangling-then-header"), 0)
        for (patch, role) in [
            (".di-lint.yml", "the config file"), ("config-link", "the config file"),
            ("Sources/Store.m", "a linted file"),
            ("store-hard-link", "a linted file"), ("./Sources/../Sources/Store.h", "a linted file"),
            ("dangling-then-header", "a linted file"),
        ] {
            let run = try project.run("fix", "--phase", "inject", ".", "--patch", patch)
            XCTAssertEqual(run.status, 2, "\(patch): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("--patch \(patch) is \(role)"), run.stderr)
            XCTAssertTrue(run.stderr.contains("refusing to overwrite an input"), run.stderr)
        }
        var after = try contents(project)
        for name in ["config-link", "store-hard-link", "dangling-then-header"] { after[name] = nil }
        XCTAssertEqual(after, before)
        // a patch beside them is written
        let fine = try project.run("fix", "--phase", "inject", ".", "--patch", "fix.patch")
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertTrue(try project.read("fix.patch").contains("+++ b/Sources/Store.m"))
    }

    // MARK: D14: nothing written outside the tree; owners kept

    func testANamedSymlinkOutOfTheTreeIsAManualItemAndTheFileOutsideIsNotWritten() throws {
        let outside = try Project(self, files: ["L.m": FixSamples.reporter, "CrashBridge.h": FixSamples.bridgeHeader])
        let project = try project()
        try project.commitEverything()
        XCTAssertEqual(
            symlink(
                outside.root.appendingPathComponent("L.m").path, project.root.appendingPathComponent("Sources/L.m").path
            ), 0)
        let run = try project.run(
            "fix", "--phase", "inject", "Sources/L.m", "Sources/Store.m", "Sources/Store.h", "--apply")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains("Sources/L.m:1:1: manual: : fix does not rewrite the file (a symbolic link to "),
            run.stderr)
        XCTAssertTrue(run.stderr.contains(", outside "), run.stderr)
        XCTAssertEqual(try outside.read("L.m"), FixSamples.reporter)
        // the files inside are fixed
        XCTAssertTrue(
            try project.read("Sources/Store.m").contains("self.bridge ? self.bridge.crashReporter"), run.stderr)
    }

    func testARewrittenFileKeepsItsOwnerGroupAndMode() throws {
        guard geteuid() == 0 else { throw XCTSkip("giving a file another owner takes root") }
        let project = try project()
        let path = project.root.appendingPathComponent("Sources/Store.m").path
        XCTAssertEqual(chown(path, 4321, 4322), 0)
        XCTAssertEqual(chmod(path, 0o640), 0)
        let run = try project.run("fix", "--phase", "inject", "Sources", "--apply")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(try project.read("Sources/Store.m").contains("self.bridge"))
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual([st.st_uid, st.st_gid], [4321, 4322])
        XCTAssertEqual(st.st_mode & 0o7777, 0o640)
    }

    // MARK: D13: a failure midway writes nothing

    func testAnApplyThatCannotWriteEveryFileWritesNoneAndSaysWhich() throws {
        // Store.m is over the process's file-size limit (`ulimit -f`, a disk that fills midway):
        // Store.h, written before it, must not keep the bridge property alone
        let project = try project(Self.store(padding: 500))
        try project.commitEverything()
        let before = try contents(project)
        let run = try shell(
            project, ["fix", "--phase", "inject", "Sources", "--apply"], prelude: "trap '' XFSZ; ulimit -f 16")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "Sources/Store.m: cannot write a temporary file beside it (File too large); nothing written"),
            run.stderr)
        XCTAssertEqual(try contents(project), before)
        // without the limit it applies
        XCTAssertEqual(try project.run("fix", "--phase", "inject", "Sources", "--apply").status, 0)
        XCTAssertTrue(
            try project.read("Sources/Store.h").contains("@property (nonatomic, strong, nullable) CrashBridge *bridge;")
        )
    }

    func testAnUnwritableDirectoryMidwayWritesNothing() throws {
        // Store.h is written first; Z/Store.m's directory takes no new file (EACCES)
        let project = try project([
            "Sources/Store.h": "@interface Store\n- (void)start;\n@end\n",
            "Sources/Z/Store.m":
                "#import \"../Store.h\"\n\n@implementation Store\n- (void)start {\n    id r = [Container sharedInstance].crashReporter;\n}\n@end\n",
            "Sources/Z/CrashBridge.h": FixSamples.bridgeHeader,
        ])
        try project.commitEverything()
        let before = try contents(project)
        var prefix: [String] = []
        if geteuid() == 0 {
            // root writes anywhere: the run is another user's, in a tree of that user
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                (try runProcess("/bin/chown", ["-R", "65534:65534", project.root.path])).status == 0
            else {
                throw XCTSkip("no setpriv to run as another user")
            }
            prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        }
        let directory = project.root.appendingPathComponent("Sources/Z").path
        XCTAssertEqual(chmod(directory, 0o555), 0)
        addTeardownBlock { chmod(directory, 0o755) }
        let result = try runProcess(
            prefix.first ?? diLintBinary,
            Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [diLintBinary])
                + ["fix", "--phase", "inject", "Sources", "--apply"], in: project.root)
        chmod(directory, 0o755)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "Sources/Z/Store.m: cannot create a temporary file beside it (Permission denied); nothing written"),
            result.stderr)
        XCTAssertEqual(try contents(project), before)
    }

    func testAFileThatCannotBeReplacedPutsBackTheFilesAlreadyReplaced() throws {
        // Store.h is replaced first; Store.m is immutable (chattr +i: even root cannot rename over it)
        let project = try project()
        try project.commitEverything()
        let path = project.root.appendingPathComponent("Sources/Store.m").path
        guard (try? runProcess("/usr/bin/env", ["chattr", "+i", path]))?.status == 0 else {
            throw XCTSkip("chattr +i is not available here")
        }
        addTeardownBlock { _ = try? runProcess("/usr/bin/env", ["chattr", "-i", path]) }
        let before = try contents(project)
        let run = try project.run("fix", "--phase", "inject", "Sources", "--apply")
        _ = try runProcess("/usr/bin/env", ["chattr", "-i", path])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "Sources/Store.m: cannot replace it (Operation not permitted); every file put back as it was: nothing written"
            ), run.stderr)
        XCTAssertEqual(try contents(project), before)
    }

    // MARK: D11: an edit during the apply is never lost

    func testAnEditMadeWhileTheApplyWritesIsKept() throws {
        var files: [String: String] = [:]
        for i in 0..<20 { files.merge(Self.store("Store\(i)")) { $1 } }
        let project = try project(files)
        try project.commitEverything()
        // the last file the apply writes (paths are written in order) is edited as soon as the apply starts writing
        let last = project.root.appendingPathComponent("Sources/Store9.m").path
        let sources = project.root.appendingPathComponent("Sources").path
        let git = project.root.appendingPathComponent(".git/di-lint-fix.journal").path
        let done = Flag()
        let editor = Thread {
            while !done.isSet {
                let started =
                    FileManager.default.fileExists(atPath: git)
                    || ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []).contains {
                        $0.contains(".di-lint-fix.")
                    }
                if started {
                    let fd = open(last, O_WRONLY | O_APPEND)
                    _ = "// an edit meanwhile\n".withCString { write(fd, $0, strlen($0)) }
                    close(fd)
                    return
                }
                usleep(200)
            }
        }
        editor.start()
        let run = try project.run("fix", "--phase", "inject", "Sources", "--apply")
        done.set()
        let text = try String(contentsOfFile: last, encoding: .utf8)
        XCTAssertTrue(text.contains("// an edit meanwhile"), "the edit was lost: \(run.stderr)")
        // written with the edit kept, or refused with every file as it was
        XCTAssertTrue([0, 2].contains(run.status), run.stderr)
        let store0 = try project.read("Sources/Store0.m")
        XCTAssertEqual(store0.contains("self.bridge"), run.status == 0, run.stderr)
    }

    // MARK: D12: one writer at a time

    func testASecondApplyWaitsForTheLockOfTheTree() throws {
        let project = try project()
        try project.commitEverything()
        let lockPath = project.root.appendingPathComponent(".git/di-lint-fix.lock").path
        let fd = open(lockPath, O_RDONLY | O_CREAT, 0o644)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let before = try contents(project)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: diLintBinary)
        process.arguments = ["fix", "--phase", "inject", "Sources", "--apply"]
        process.currentDirectoryURL = project.root
        let err = Pipe()
        process.standardError = err
        try process.run()
        sleep(3) // planning two files takes well under that
        XCTAssertTrue(process.isRunning, "did not wait for the lock")
        XCTAssertEqual(try contents(project), before, "wrote while another held the tree's lock")
        close(fd)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        XCTAssertTrue(stderr.contains("waiting for another di-lint fix that is writing this tree"), stderr)
        XCTAssertTrue(try project.read("Sources/Store.m").contains("self.bridge"))
    }

    /// A slice of `scripts/stress-fix-apply`: kills at random moments of the write phase (SIGTERM,
    /// SIGINT, SIGKILL then the next run's recovery) leave every group all before or all after its
    /// plan; two applies at once never both report success with an edit lost.
    func testKillsAndConcurrentAppliesSlice() throws {
        let script = packageRoot.appendingPathComponent("scripts/stress-fix-apply").path
        let result = try runProcess(
            "/usr/bin/env", ["python3", script, "--files", "20", "--kills", "3", "--concurrent", "5"],
            environment: ["DI_LINT": diLintBinary])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("kills: 3/3 left every group all before or all after its plan"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("concurrent: 5/5 trials with no reported success whose edits are lost"),
            result.stdout)
    }

    func testAnApplyKilledMidwayIsUndoneByTheNextRun() throws {
        // the journal a SIGKILL leaves after replacing one file of two: the next run puts it back
        let project = try project()
        try project.commitEverything()
        let before = try contents(project)
        let root = project.root.resolvingSymlinksInPath().path
        let header = root + "/Sources/Store.h"
        let temporary = root + "/Sources/.Store.h.di-lint-fix.AbC123"
        let staged = root + "/Sources/.Store.m.di-lint-fix.XyZ789"
        let newHeader =
            "@interface Store\n@property (nonatomic, strong, nullable) CrashBridge *bridge;\n- (void)start;\n@end\n"
        // as the apply leaves it: Store.h replaced (its original at the temporary), Store.m's temporary staged
        XCTAssertEqual(rename(header, temporary), 0)
        try newHeader.write(toFile: header, atomically: false, encoding: .utf8)
        try "staged".write(toFile: staged, atomically: false, encoding: .utf8)
        let journal =
            [
                #"{"pid":1}"#,
                #"{"new":"\#(sha256(Data(newHeader.utf8)))","old":"\#(sha256(before["Sources/Store.h"]!))","path":"\#(header)","temporary":"\#(temporary)"}"#,
                #"{"new":"\#(sha256(Data("x".utf8)))","old":"\#(sha256(before["Sources/Store.m"]!))","path":"\#(root)/Sources/Store.m","temporary":"\#(staged)"}"#,
            ].joined(separator: "\n") + "\n"
        try journal.write(toFile: root + "/.git/di-lint-fix.journal", atomically: false, encoding: .utf8)
        let run = try project.run("fix", "--phase", "inject", "Sources/CrashBridge.h")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "an earlier fix --apply ended before writing every file; put back 1 file as before it, removed 1 temporary"
            ), run.stderr)
        XCTAssertEqual(try contents(project), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/.git/di-lint-fix.journal"))
    }

    // MARK: D19: a dry run with standard output closed

    func testADryRunWithStandardOutputClosedExitsTwo() throws {
        let project = try project()
        let run = try shell(project, ["fix", "--phase", "inject", "Sources"], redirect: ">&-")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("cannot write the report: standard output is closed"), run.stderr)
        // --apply and --patch write nothing there
        XCTAssertEqual(
            try shell(project, ["fix", "--phase", "inject", "Sources", "--patch", "p.diff"], redirect: ">&-").status, 0)
    }

    // MARK: D20, D21: diffs git applies

    func testTheDiffQuotesNamesAsGitDoesAndKeepsBytesThatAreNotUTF8() throws {
        var files: [String: String] = [:]
        let names = ["tab\there", "new\nline", "quote\"d and spaced", "ü", "plain"]
        for (i, name) in names.enumerated() {
            files["Sources/\(name).m"] = FixSamples.reporter.replacingOccurrences(of: "Reporter\n", with: "R\(i)\n")
        }
        let project = try project(files)
        // a Latin-1 comment beside an access: the context line holds a byte that is not UTF-8
        var latin = Data("@interface Latin\n@end\n\n@implementation Latin\n// caf".utf8)
        latin.append(0xE9)
        latin.append(Data("\n- (void)install {\n    id r = [Container sharedInstance].crashReporter;\n}\n@end\n".utf8))
        try latin.write(to: project.root.appendingPathComponent("Sources/Latin.m"))
        try project.commitEverything()
        let run = try shell(
            project, ["fix", "--phase", "inject", "Sources"], redirect: "> ../\(project.root.lastPathComponent).diff")
        let patch = project.root.deletingLastPathComponent().appendingPathComponent(
            project.root.lastPathComponent + ".diff")
        addTeardownBlock { try? FileManager.default.removeItem(at: patch) }
        XCTAssertEqual(run.status, 0, run.stderr)
        let diff = try Data(contentsOf: patch)
        let text = String(decoding: diff, as: UTF8.self)
        for line in [
            "--- \"a/Sources/tab\\there.m\"\n", "+++ \"b/Sources/new\\nline.m\"\n",
            "--- \"a/Sources/quote\\\"d and spaced.m\"\t\n",
            "--- \"a/Sources/\\303\\274.m\"\n", "--- a/Sources/plain.m\n",
        ] {
            XCTAssertTrue(text.contains(line), "no \(line.debugDescription) in\n\(text)")
        }
        // the Latin-1 byte as it is in the file, not U+FFFD
        XCTAssertNotNil(diff.range(of: Data("// caf".utf8) + Data([0xE9, 0x0A])), text)
        XCTAssertNil(diff.range(of: Data("\u{FFFD}".utf8)), text)
        let check = try runProcess("/usr/bin/env", ["git", "apply", "--check", patch.path], in: project.root)
        XCTAssertEqual(check.status, 0, check.stderr)
        // applied by git, the tree is the one --apply writes
        XCTAssertEqual(try runProcess("/usr/bin/env", ["git", "apply", patch.path], in: project.root).status, 0)
        let byGit = try contents(project)
        try project.git("checkout", "-q", ".")
        XCTAssertEqual(try project.run("fix", "--phase", "inject", "Sources", "--apply").status, 0)
        var byFix = try contents(project)
        byFix[".di-lint-fix.lock"] = nil
        XCTAssertEqual(byGit.keys.sorted(), byFix.keys.sorted())
        XCTAssertEqual(byGit, byFix)
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

/// The SHA-256 of `data` in hex, by `sha256sum`.
private func sha256(_ data: Data) -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
    try? data.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try? runProcess("/usr/bin/env", ["sha256sum", url.path])
    return String((result?.stdout ?? "").prefix(64))
}
