import Foundation
import SeamTestSupport
import XCTest

/// Adopting di-lint in another repository: `di-lint init`, the per-command help, the rules'
/// fix column, and the install paths (scripts/install, scripts/package, the action's lint step,
/// the pre-commit hook through the real framework, the SwiftPM plugin on a sample package).
final class AdoptionCLITests: XCTestCase {
    /// A tree with one singleton called at 3 places, one at 2, a C accessor at 2, and a
    /// framework singleton the tree does not declare (never proposed).
    private func singletonTree() throws -> Project {
        let project = try Project(
            self,
            files: [
                "Sources/AppContainer.h":
                    "@interface AppContainer\n+ (instancetype)sharedInstance;\n- (id)store;\n- (id)clock;\n@end\n",
                "Sources/Reader.m": """
                #import "AppContainer.h"
                @implementation Reader
                - (void)read {
                    id a = [AppContainer sharedInstance].store;
                    id b = [[AppContainer sharedInstance] store];
                    id c = [[AppContainer sharedInstance] clock];
                    id f = [NSFileManager defaultManager]; id g = [NSFileManager defaultManager]; id h = [NSFileManager defaultManager];
                    id i = [NSFileManager defaultManager];
                }
                @end
                """,
                "Sources/Settings.swift": """
                final class Settings {
                    static let shared = Settings()
                    var theme = ""
                }
                func paint() { _ = Settings.shared.theme; _ = Settings.shared.theme }
                """,
                "Sources/registry.c": """
                struct registry { int (*now)(void); };
                struct registry *registry_shared(void) { static struct registry r; return &r; }
                int a(void) { return registry_shared()->now(); }
                int b(void) { return registry_shared()->now(); }
                """,
            ])
        // a repository before di-lint: no config yet
        try FileManager.default.removeItem(at: project.root.appendingPathComponent(".di-lint.yml"))
        return project
    }

    /// Runs di-lint with standard input from /dev/null (never a terminal), as CI does.
    private func runWithoutTerminal(_ arguments: [String], in directory: URL) throws -> CLIRunner.Run {
        let quoted = ([diLintBinary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let result = try runProcess("/bin/sh", ["-c", "exec \(quoted) < /dev/null"], in: directory)
        return CLIRunner.Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    func testInitProposesTheMostCalledDeclaredAccessorAndWritesAConfigThatGates() throws {
        let project = try singletonTree()
        let first = try runWithoutTerminal(["init", "Sources"], in: project.root)
        XCTAssertEqual(first.status, 0, first.stderr)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, first.stdout)
        guard lines.count == 3 else { return }
        XCTAssertTrue(
            lines[0].hasPrefix(" 1. AppContainer.sharedInstance  3 call sites in 1 file; services: store 2, clock 1"),
            first.stdout)
        XCTAssertTrue(
            lines.contains { $0.contains("Settings.shared  2 call sites in 1 file; services: theme 2") }, first.stdout)
        XCTAssertTrue(
            lines.contains { $0.contains("registry_shared()  2 call sites in 1 file; services: now 2") }, first.stdout)
        XCTAssertFalse(first.stdout.contains("NSFileManager"), "a type the tree does not declare is no candidate")
        XCTAssertTrue(
            first.stderr.contains("standard input is not a terminal: taking AppContainer.sharedInstance"), first.stderr)
        let config = try String(contentsOf: project.root.appendingPathComponent(".di-lint.yml"), encoding: .utf8)
        XCTAssertTrue(config.contains("containers:\n  - \"AppContainer.sharedInstance\"\n"), config)

        // the config is one di-lint runs: the three accesses are findings
        let lint = try project.run("Sources", "--format", "json")
        XCTAssertEqual(lint.status, 1, lint.stderr)
        let findings = (lint.json["findings"] as? [[String: Any]] ?? []).filter {
            $0["rule"] as? String == "container-access"
        }
        XCTAssertEqual(findings.count, 3, lint.stdout)

        // an existing config is not overwritten without --force
        let again = try runWithoutTerminal(["init", "Sources"], in: project.root)
        XCTAssertEqual(again.status, 2)
        XCTAssertTrue(again.stderr.contains(".di-lint.yml exists; --force overwrites it"), again.stderr)

        // --container chooses; --baseline writes the baseline, and the gate passes on it
        let chosen = try runWithoutTerminal(
            ["init", "Sources", "--container", "registry_shared()", "--force", "--baseline"], in: project.root)
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        let rewritten = try String(contentsOf: project.root.appendingPathComponent(".di-lint.yml"), encoding: .utf8)
        XCTAssertTrue(rewritten.contains("  - \"registry_shared()\"\n"), rewritten)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: project.root.appendingPathComponent(".di-lint-baseline.json").path))
        XCTAssertEqual(try project.run("Sources", "--baseline", ".di-lint-baseline.json").status, 0)
        // a new access fails the gate
        try project.write(
            "Sources/more.c",
            "struct registry; struct registry *registry_shared(void);\nvoid c(void) { registry_shared(); }\n")
        XCTAssertEqual(try project.run("Sources", "--baseline", ".di-lint-baseline.json").status, 1)

        // --bridge-type names the bridge for fix
        let bridged = try runWithoutTerminal(
            ["init", "Sources", "--force", "--bridge-type", "AppBridge"], in: project.root)
        XCTAssertEqual(bridged.status, 0, bridged.stderr)
        let withBridge = try String(contentsOf: project.root.appendingPathComponent(".di-lint.yml"), encoding: .utf8)
        XCTAssertTrue(withBridge.hasSuffix("bridge: [bridge]\nbridge-type: AppBridge\n"), withBridge)
        XCTAssertEqual(
            try runWithoutTerminal(["init", "Sources", "--force", "--bridge-type", "App Bridge"], in: project.root)
                .status, 2)
    }

    func testInitWithNothingToProposeSaysSoAndWritesNothing() throws {
        let project = try Project(self, files: ["Sources/plain.c": "int f(void) { return 1; }\n"])
        try FileManager.default.removeItem(at: project.root.appendingPathComponent(".di-lint.yml"))
        let run = try runWithoutTerminal(["init", "Sources"], in: project.root)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("no singleton accessor is called at 2 places or more"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.root.appendingPathComponent(".di-lint.yml").path))
    }

    func testInitNeverReplacesABaselineUnasked() throws {
        let source =
            "@implementation A\n- (id)x { return [Container sharedInstance].clock; }\n"
            + "- (id)y { return [Container sharedInstance].store; }\n@end\n"
            + "@interface Container\n+ (instancetype)sharedInstance;\n@end\n"
        let project = try Project(
            self, files: ["Sources/A.m": source, ".di-lint-baseline.json": "{\"accepted\": \"by the team\"}\n"])
        try FileManager.default.removeItem(at: project.root.appendingPathComponent(".di-lint.yml"))
        let baseline = project.root.appendingPathComponent(".di-lint-baseline.json")
        let run = try runWithoutTerminal(["init", "Sources", "--baseline"], in: project.root)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains(".di-lint-baseline.json exists; --force overwrites it"), run.stderr)
        XCTAssertEqual(try String(contentsOf: baseline, encoding: .utf8), "{\"accepted\": \"by the team\"}\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.root.appendingPathComponent(".di-lint.yml").path))
        let forced = try runWithoutTerminal(["init", "Sources", "--baseline", "--force"], in: project.root)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(try String(contentsOf: baseline, encoding: .utf8).contains("\"entries\""))
    }

    func testEachCommandsHelpListsOnlyItsOwnOptionsUnderHeadings() throws {
        let project = try Project(self)
        let fix = try project.run("fix", "--help")
        XCTAssertEqual(fix.status, 0)
        for lintOnly in [
            "--jobs", "--quiet", "--parse-every-file", "--cache", "--cache-max-age", "--baseline", "Lint only",
            "to lint",
        ] {
            XCTAssertFalse(fix.stdout.contains(lintOnly), "fix --help lists \(lintOnly):\n\(fix.stdout)")
        }
        for expected in [
            "SELECTION:", "ISOLATION:", "-p <build-dir>", "--phase <inject|wire|finish|bridge>", "Examples:",
            "--parse-timeout <seconds>",
        ] {
            XCTAssertTrue(fix.stdout.contains(expected), "fix --help lacks \(expected):\n\(fix.stdout)")
        }
        let lint = try project.run("lint", "--help")
        for expected in [
            "SELECTION:", "OUTPUT:", "BASELINE:", "PERFORMANCE:", "ISOLATION:", "--jobs <n>", "--baseline <file>",
            "Examples:",
        ] {
            XCTAssertTrue(lint.stdout.contains(expected), "lint --help lacks \(expected):\n\(lint.stdout)")
        }
        let report = try project.run("report", "--help")
        XCTAssertFalse(report.stdout.contains("--baseline"), report.stdout)
        XCTAssertTrue(report.stdout.contains("PERFORMANCE:"), report.stdout)
        // no help line speaks of another command
        for help in [fix.stdout, lint.stdout, report.stdout] {
            XCTAssertFalse(help.contains("lint, report:"), help)
        }
        // fix refuses a lint-only option
        let refused = try project.run("fix", "--phase", "inject", "--jobs", "2")
        XCTAssertEqual(refused.status, 2)
    }

    func testRulesShowWhichRulesFixAndTheirFixExamples() throws {
        let project = try Project(self)
        let list = try project.run("rules")
        XCTAssertEqual(list.status, 0)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].contains("FIX"), list.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("container-access ") && $0.contains("fix: inject") }, list.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("container-fallback ") && $0.contains("fix: finish") }, list.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("bridge-singleton ") && $0.contains(" - ") }, list.stdout)

        let one = try project.run("rules", "container-access")
        XCTAssertTrue(one.stdout.contains("Fix example 1 (di-lint fix --phase inject"), one.stdout)
        XCTAssertTrue(one.stdout.contains("  before:\n") && one.stdout.contains("  after:\n"), one.stdout)
        XCTAssertTrue(
            one.stdout.contains("Config (rules: container-access: {option: value}):\n  swift-helper-types"), one.stdout)
        XCTAssertTrue(one.stdout.contains("    ---\n"), "examples are separated:\n\(one.stdout)")

        let markdown = try project.run("rules", "--format", "markdown")
        XCTAssertTrue(
            markdown.stdout.contains("| [`container-access`](#container-access) | error | `--phase inject` |"),
            markdown.stdout)
        XCTAssertEqual(
            markdown.stdout,
            try String(contentsOf: packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8),
            "docs/rules.md is generated: .build/debug/di-lint rules --format markdown > docs/rules.md")
    }

    /// scripts/check-docs (a step of .ci/run) passes on this checkout, and fails on a copy of the
    /// docs with a broken link, a key the parser does not accept, a key left undocumented, a stale
    /// rules.md and a README command that does not parse.
    func testTheDocsCheckPassesHereAndCatchesWhatWentUntrue() throws {
        let script = packageRoot.appendingPathComponent("scripts/check-docs").path
        let here = try runProcess("/usr/bin/env", ["python3", script, diLintBinary])
        XCTAssertEqual(here.status, 0, here.stdout + here.stderr)

        let scratch = try Project(self)
        let fm = FileManager.default
        let copy = scratch.root.appendingPathComponent("seam")
        for entry in [
            "README.md", "docs", "action.yml", "scripts/check-docs", "Rules", "CONTRIBUTING.md", "ARCHITECTURE.md",
            "Examples/CrashDemo/README.md", "Plugins", ".pre-commit-hooks.yaml", "scripts/install", "scripts/package",
            "scripts/action-run", "scripts/bootstrap", "scripts/build-release-di-lint",
        ] {
            let target = copy.appendingPathComponent(entry)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(at: packageRoot.appendingPathComponent(entry), to: target)
        }
        let copied = copy.appendingPathComponent("scripts/check-docs").path
        XCTAssertEqual(
            try runProcess("/usr/bin/env", ["python3", copied, diLintBinary]).status, 0, "the copy is whole")

        func edit(_ path: String, _ change: (String) -> String) throws {
            let url = copy.appendingPathComponent(path)
            try change(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("docs/configuration.md") {
            $0.replacingOccurrences(of: "### `inject`", with: "### `injection`")
                + "\n[gone](nowhere.md) [anchor](lint.md#no-such-heading)\n"
        }
        try edit("docs/rules.md") { $0 + "\nan edit by hand\n" }
        try edit("README.md") {
            $0.replacingOccurrences(of: "di-lint report               #", with: "di-lint report --bogus      #")
        }
        let broken = try runProcess("/usr/bin/env", ["python3", copied, diLintBinary])
        XCTAssertEqual(broken.status, 1)
        for problem in [
            "link nowhere.md: nowhere.md does not exist", "has no heading for #no-such-heading",
            "documents 'injection', which the parser does not accept",
            "does not document 'inject', which the parser accepts",
            "docs/rules.md is not what `di-lint rules --format markdown` prints", "`di-lint report --bogus` exited 2",
        ] {
            XCTAssertTrue(broken.stdout.contains(problem), "check-docs missed: \(problem)\n\(broken.stdout)")
        }
    }

    func testInstallAndPackageScripts() throws {
        let scratch = try Project(self)
        let prefix = scratch.root.appendingPathComponent("prefix")
        let install = try runProcess(
            packageRoot.appendingPathComponent("scripts/install").path,
            ["--prefix", prefix.path, "--binary", diLintBinary])
        XCTAssertEqual(install.status, 0, install.stderr)
        let installed = prefix.appendingPathComponent("bin/di-lint").path
        XCTAssertEqual(install.stdout.trimmingCharacters(in: .whitespacesAndNewlines), installed)
        XCTAssertEqual(
            try runProcess(installed, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            try runProcess(diLintBinary, ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(
            try runProcess(packageRoot.appendingPathComponent("scripts/install").path, ["--configuration", "fast"])
                .status, 2)

        let package = packageRoot.appendingPathComponent("scripts/package").path
        let out = scratch.root.appendingPathComponent("dist")
        // the debug build loads the Swift runtime's shared libraries: not a package that runs without the toolchain
        let refused = try runProcess(package, ["--binary", diLintBinary, "--output", out.path])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("loads the Swift runtime's shared libraries"), refused.stderr)
        let made = try runProcess(package, ["--binary", diLintBinary, "--output", out.path, "--allow-dynamic-swift"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let archive = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(archive.hasSuffix("-linux-x86_64.tar.gz") || archive.hasSuffix("-linux-aarch64.tar.gz"), archive)
        let name = URL(fileURLWithPath: archive).lastPathComponent
        let check = try runProcess("/usr/bin/env", ["sha256sum", "-c", name + ".sha256"], in: out)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let unpacked = try runProcess("/usr/bin/env", ["tar", "-xzf", name], in: out)
        XCTAssertEqual(unpacked.status, 0, unpacked.stderr)
        let binary = out.appendingPathComponent(String(name.dropLast(".tar.gz".count)) + "/bin/di-lint").path
        XCTAssertEqual(try runProcess(binary, ["rules"]).status, 0)
    }

    func testTheActionsLintStepWritesTheShardsSARIFAndItsOutputs() throws {
        let project = try singletonTree()
        try project.write(
            ".di-lint.yml", "containers: [AppContainer.sharedInstance]\nrules: {signal-handler-safety: off}\n")
        let script = packageRoot.appendingPathComponent("scripts/action-run").path
        let outputs = project.root.appendingPathComponent("github-output")
        var env = [
            "DI_LINT": diLintBinary, "DI_LINT_PATHS": "Sources", "DI_LINT_BASELINE": ".di-lint-baseline.json",
            "GITHUB_OUTPUT": outputs.path, "GITHUB_ACTIONS": "true",
        ]
        let missing = try runProcess(script, [], in: project.root, environment: env)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no baseline at .di-lint-baseline.json"), missing.stderr)

        XCTAssertEqual(try project.run("Sources", "--write-baseline", ".di-lint-baseline.json").status, 0)
        try project.write("Sources/New.m", "void f(void) { id s = [AppContainer sharedInstance].store; }\n")
        var shards: [String] = []
        for k in 1...2 {
            env["DI_LINT_SHARD"] = "\(k)/2"
            let run = try runProcess(script, [], in: project.root, environment: env)
            XCTAssertTrue([0, 1].contains(run.status), run.stderr)
            let sarif = project.root.appendingPathComponent("di-lint-shard-\(k)-of-2.sarif")
            XCTAssertTrue(FileManager.default.fileExists(atPath: sarif.path), run.stderr)
            shards.append(sarif.lastPathComponent)
            if run.status == 1 {
                XCTAssertTrue(
                    run.stdout.contains("::error file=Sources/New.m,line=1,title=container-access::"), run.stdout)
            }
        }
        let written = try String(contentsOf: outputs, encoding: .utf8)
        XCTAssertTrue(written.contains("sarif=di-lint-shard-1-of-2.sarif\nartifact=di-lint-shard-1-of-2\n"), written)
        // the merge job: exactly the one new access fails it
        let merged = try project.runArray(["merge"] + shards + ["--output", "di-lint.sarif"])
        XCTAssertEqual(merged.status, 1, merged.stderr)
        XCTAssertTrue(merged.stderr.contains("1 new at error severity"), merged.stderr)
    }

    func testThePreCommitHookRunsThroughTheRealFramework() throws {
        guard (try? runProcess("/usr/bin/env", ["python3", "-c", "import pre_commit"]))?.status == 0 else {
            return XCTFail("PyPI's pre-commit is not installed: scripts/bootstrap installs it")
        }
        let scratch = try Project(self)
        let fm = FileManager.default
        // the hook repository: this checkout's .pre-commit-hooks.yaml, committed
        let hooks = scratch.root.appendingPathComponent("seam")
        try fm.createDirectory(at: hooks, withIntermediateDirectories: true)
        try fm.copyItem(
            at: packageRoot.appendingPathComponent(".pre-commit-hooks.yaml"),
            to: hooks.appendingPathComponent(".pre-commit-hooks.yaml"))
        try git(["init", "-q"], in: hooks)
        try git(["add", "-A"], in: hooks)
        try git(["commit", "-qm", "hooks"], in: hooks)
        let rev = try runProcess("/usr/bin/env", ["git", "rev-parse", "HEAD"], in: hooks).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)

        // the sample repository
        let sample = scratch.root.appendingPathComponent("app")
        try fm.createDirectory(at: sample.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws {
            try text.write(to: sample.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        try write(".di-lint.yml", "containers: [AppContainer.sharedInstance]\n")
        try write("Sources/Old.m", "void f(void) { id s = [AppContainer sharedInstance].store; }\n")
        try write("README.md", "an app\n")
        try write(
            ".pre-commit-config.yaml",
            """
            repos:
              - repo: \(hooks.path)
                rev: \(rev)
                hooks:
                  - id: di-lint
                    args: [--baseline, .di-lint-baseline.json]

            """)
        try git(["init", "-q"], in: sample)
        XCTAssertEqual(
            try CLIRunner.run(["Sources", "--write-baseline", ".di-lint-baseline.json"], in: sample).status, 0)
        try git(["add", "-A"], in: sample)
        try git(["commit", "-qm", "start"], in: sample)

        // di-lint on PATH, as the hook's `language: system` wants; pre-commit's own home in the scratch directory
        let path =
            URL(fileURLWithPath: diLintBinary).deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let env = [
            "PATH": path, "PRE_COMMIT_HOME": scratch.root.appendingPathComponent("pre-commit-home").path, "CI": "true",
        ]
        let install = try runProcess(
            "/usr/bin/env", ["python3", "-m", "pre_commit", "install"], in: sample, environment: env)
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)

        // a commit adding a container access is refused; one without is let through
        try write("Sources/New.m", "void g(void) { id c = [AppContainer sharedInstance].clock; }\n")
        try git(["add", "Sources/New.m"], in: sample)
        let refused = try runProcess(
            "/usr/bin/env", ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "new access"],
            in: sample, environment: env)
        XCTAssertNotEqual(refused.status, 0, refused.stdout + refused.stderr)
        XCTAssertTrue((refused.stdout + refused.stderr).contains("Sources/New.m:1:"), refused.stdout + refused.stderr)
        XCTAssertTrue((refused.stdout + refused.stderr).contains("[container-access]"), refused.stdout + refused.stderr)

        try write("Sources/New.m", "void g(id bridge) { id c = [bridge clock]; }\n")
        try git(["add", "Sources/New.m"], in: sample)
        let passed = try runProcess(
            "/usr/bin/env", ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "injected"],
            in: sample, environment: env)
        XCTAssertEqual(passed.status, 0, passed.stdout + passed.stderr)
        XCTAssertTrue(
            (passed.stdout + passed.stderr).contains("di-lint") && (passed.stdout + passed.stderr).contains("Passed"),
            passed.stdout + passed.stderr)
    }

    /// The sample depends on this checkout by path (SwiftPM resolves Seam's own dependencies from its
    /// cache) and runs `swift package di-lint`, which builds the plugin alone, not di-lint.
    func testTheSwiftPMPluginLintsASamplePackage() throws {
        let scratch = try Project(self)
        let fm = FileManager.default
        let sample = scratch.root.appendingPathComponent("Sample")
        try fm.createDirectory(at: sample.appendingPathComponent("Sources/Sample"), withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(name: "Sample", dependencies: [.package(path: "\(packageRoot.path)")], targets: [.target(name: "Sample")])
        """.write(to: sample.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "final class Box { static let shared = Box(); var item = 1 }\nfunc use() -> Int { Box.shared.item }\n"
            .write(to: sample.appendingPathComponent("Sources/Sample/Box.swift"), atomically: true, encoding: .utf8)
        try "containers: [Box.shared]\nrules: {signal-handler-safety: off}\n".write(
            to: sample.appendingPathComponent(".di-lint.yml"), atomically: true, encoding: .utf8)

        let path =
            URL(fileURLWithPath: diLintBinary).deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let found = try runProcess(
            "/usr/bin/env", ["swift", "package", "--disable-sandbox", "di-lint", "Sources", "--format", "json"],
            in: sample,
            environment: ["PATH": path, "CI": "true"])
        XCTAssertNotEqual(
            found.status, 0, "a finding at error severity fails the command:\n\(found.stdout)\n\(found.stderr)")
        XCTAssertTrue(
            found.stdout.contains("\"rule\" : \"container-access\"")
                || found.stdout.contains("\"rule\":\"container-access\""), found.stdout + found.stderr)
        XCTAssertTrue(found.stdout.contains("Sources/Sample/Box.swift"), found.stdout)

        try "containers: [Box.shared]\nrules: {signal-handler-safety: off, container-access: warning}\n".write(
            to: sample.appendingPathComponent(".di-lint.yml"), atomically: true, encoding: .utf8)
        let clean = try runProcess(
            "/usr/bin/env", ["swift", "package", "--disable-sandbox", "di-lint", "Sources"], in: sample,
            environment: ["PATH": path, "CI": "true"])
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.contains("Box.swift:2:"), clean.stdout)

        // without di-lint on PATH the plugin says how to get it
        let missing = try runProcess(
            "/usr/bin/env", ["swift", "package", "--disable-sandbox", "di-lint"], in: sample,
            environment: [
                "PATH": "/usr/bin:/bin:" + URL(fileURLWithPath: try swiftPath()).deletingLastPathComponent().path,
                "CI": "true",
            ])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("di-lint is not on PATH"), missing.stderr)
    }

    private func swiftPath() throws -> String {
        try runProcess("/bin/sh", ["-c", "command -v swift"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func git(_ arguments: [String], in directory: URL) throws {
        let result = try runProcess(
            "/usr/bin/env",
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments,
            in: directory)
        XCTAssertEqual(result.status, 0, "git \(arguments): \(result.stderr)")
    }
}
