import Foundation
import SeamTestSupport
import XCTest

/// A plain C file (`reporter.c`) in a mixed tree, from the two-line config (`containers:` naming
/// the Swift container and its C accessor `app_container()`, `bridge-type:`): the C file cannot
/// hold the Objective-C/Swift bridge, so its global takes the C type the accessor is declared to
/// return (`const struct app_services *`), its reads go through it, and wire hands it the table
/// where the component starts. The tree is `Fixtures/fix/bridgegen-mixed-cfile`, run through the
/// real binary (the chain helpers of `FixBridgePhaseCLITests`).
extension FixBridgePhaseCLITests {
    func testMixedTreeWithAPlainCFileTwoLineConfig() throws {
        let (project, _) = try tree("bridgegen-mixed-cfile")
        XCTAssertEqual(
            try project.read(".di-lint.yml"),
            "containers: [Container.shared, app_container()]\nbridge-type: CrashBridge\n")
        // the header Swift generates is no file of the tree: the one manual item, as in bridgegen-mixed-c
        let bridge = try phase("bridge", project, status: 1)
        XCTAssertTrue(bridge.stderr.contains("1 left for manual work"), bridge.stderr)
        XCTAssertFalse(
            try project.read("Sources/App/CrashBridge.swift").contains("report"),
            "the C table's services are not the Swift facade's")
        let inject = try phase("inject", project)
        XCTAssertFalse(inject.stderr.contains("manual:"), inject.stderr)
        let reporter = try project.read("Sources/App/reporter.c")
        XCTAssertTrue(reporter.contains("static const struct app_services *g_bridge;\n"), reporter)
        XCTAssertTrue(
            reporter.contains(
                "void reporter_setBridge(const struct app_services *bridge) {\n    g_bridge = bridge;\n}\n"), reporter)
        XCTAssertTrue(
            reporter.contains("g_installed = g_bridge ? g_bridge->report(1) : app_container()->report(1);"), reporter)
        XCTAssertTrue(
            try project.read("Sources/App/reporter.h").contains(
                "struct app_services;\n/// Sets the bridge the C functions of reporter.c read (the composition root calls it).\nvoid reporter_setBridge(const struct app_services *bridge);\n"
            ))
        try compileC(project, "after inject")
        let wired = try wire(project)
        XCTAssertEqual(wired.status, 0, wired.stderr)
        XCTAssertFalse(wired.stderr.contains("manual:"), wired.stderr)
        let monitor = try project.read("Sources/App/Monitor.m")
        XCTAssertTrue(
            monitor.contains(
                "{\n    exceptions_setBridge(self.bridge);\n    reporter_setBridge(app_container());\n    exceptions_install();\n"
            ), monitor)
        try phase("finish", project)
        let finished = try project.read("Sources/App/reporter.c")
        XCTAssertTrue(finished.contains("g_installed = g_bridge->report(1);\n"), finished)
        XCTAssertTrue(finished.contains("g_bridge->log(\"installed\");\n"), finished)
        try compileC(project, "after finish")
        let t = try totals(project)
        XCTAssertEqual(t.direct, 0, "the table handed to the setter is the root's read")
        XCTAssertEqual(t.fallback, 0)
        XCTAssertEqual(t.injected, 5)
        let lint = try project.run("Sources")
        XCTAssertEqual(lint.status, 0, lint.stdout + lint.stderr)
    }

    /// The C accessor is declared nowhere in the run: its type is not known, so the plain C file's
    /// reads stay manual items, with no global guessed.
    func testPlainCFileWithAnUndeclaredAccessorStaysManual() throws {
        let (project, _) = try tree("bridgegen-mixed-cfile")
        try project.write(
            "Sources/App/services.h",
            "#ifndef SERVICES_H\n#define SERVICES_H\n\n#endif\n")
        try project.commitEverything()
        try phase("bridge", project, status: 1)
        let inject = try project.run("fix", "--phase", "inject", "Sources")
        XCTAssertTrue(
            inject.stderr.contains(
                "Sources/App/reporter.c:7:19: manual: app_container()->report: C function with no bridge in reach"),
            inject.stderr)
        XCTAssertFalse(inject.stdout.contains("reporter.c"), inject.stdout)
    }

    /// `cc -fsyntax-only -Werror` on the tree's plain C files: the edits compile as C.
    private func compileC(_ project: Project, _ when: String) throws {
        let c = try FileManager.default.subpathsOfDirectory(atPath: project.root.path).filter { $0.hasSuffix(".c") }
        XCTAssertFalse(c.isEmpty)
        let result = try runProcess("/usr/bin/env", ["cc", "-fsyntax-only", "-Wall", "-Werror"] + c, in: project.root)
        XCTAssertEqual(result.status, 0, "\(when): cc: \(result.stderr)")
    }
}

/// A tree of plain C files only: inject gives `reporter.c` its C-typed global from the two-line
/// config; with no Objective-C method starting the component, wire names the call to write, and a
/// `composition-root: functions:` line makes wire write it (no bridge needed in `main`).
final class FixCOnlyBridgeCLITests: XCTestCase {
    private func cTree(_ config: String) throws -> Project {
        let fixture = FixBridgePhaseCLITests.fixtures.appendingPathComponent("bridgegen-mixed-cfile/Sources/App")
        var files = [".di-lint.yml": config]
        for name in ["services.h", "reporter.h", "reporter.c"] {
            files["Sources/App/\(name)"] = try String(
                contentsOf: fixture.appendingPathComponent(name + ".in"), encoding: .utf8)
        }
        files["Sources/App/main.c"] =
            "#include \"reporter.h\"\n\nint main(void)\n{\n    reporter_install();\n    return 0;\n}\n"
        let project = try Project(self, files: files)
        try project.commitEverything()
        return project
    }

    func testTwoLineConfigNamesTheSetterCallToWrite() throws {
        let project = try cTree("containers: [app_container()]\nbridge-type: CrashBridge\n")
        XCTAssertEqual(try project.run("fix", "--phase", "inject", "Sources", "--apply").status, 0)
        XCTAssertTrue(
            try project.read("Sources/App/reporter.c").contains("static const struct app_services *g_bridge;"))
        let wire = try project.run("fix", "--phase", "wire", "Sources")
        XCTAssertEqual(wire.stdout, "")
        XCTAssertTrue(
            wire.stderr.contains(
                "Sources/App/reporter.c:6:6: manual: reporter_setBridge: the run builds the type nowhere (or never calls the setter): wire its bridge where it is built (call reporter_setBridge(app_container()) in the composition root"
            ), wire.stderr)
    }

    func testCompositionRootFunctionGetsTheTable() throws {
        let project = try cTree(
            "containers: [app_container()]\nbridge-type: CrashBridge\ncomposition-root: {functions: [main]}\n")
        XCTAssertEqual(try project.run("fix", "--phase", "inject", "Sources", "--apply").status, 0)
        let wire = try project.run("fix", "--phase", "wire", "Sources", "--apply")
        XCTAssertEqual(wire.status, 0, wire.stderr)
        XCTAssertTrue(
            try project.read("Sources/App/main.c").contains(
                "int main(void)\n{\n    reporter_setBridge(app_container());\n    reporter_install();\n"))
        XCTAssertEqual(try project.run("fix", "--phase", "wire", "Sources").stdout, "", "wire again changes nothing")
        XCTAssertEqual(try project.run("fix", "--phase", "finish", "Sources", "--apply").status, 0)
        let report = try project.run("report", "--format", "json", "Sources")
        let json = (try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8))) as? [String: Any] ?? [:]
        let total = json["total"] as? [String: Any] ?? json["totals"] as? [String: Any] ?? [:]
        XCTAssertEqual(total["direct"] as? Int, 0, report.stdout)
        XCTAssertEqual(total["fallback"] as? Int, 0, report.stdout)
        let c = ["Sources/App/reporter.c", "Sources/App/main.c"]
        let cc = try runProcess("/usr/bin/env", ["cc", "-fsyntax-only", "-Wall", "-Werror"] + c, in: project.root)
        XCTAssertEqual(cc.status, 0, cc.stderr)
    }
}

/// Only the accessor's whole result handed to a setter of the default global counts as the
/// composition root's read: another call, or a config naming its own `c-bridge-global:`, leaves it direct.
final class CTableHandOverClassificationCLITests: XCTestCase {
    private func directCount(_ config: String) throws -> Int {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": config,
                "Sources/services.h":
                    "struct app_services { int (*report)(int code); };\nconst struct app_services *app_container(void);\n",
                "Sources/setup.c":
                    "#include \"services.h\"\n\nvoid reporter_setBridge(const struct app_services *bridge);\nvoid keep(const struct app_services *s);\n\nvoid setup(void)\n{\n    reporter_setBridge(app_container());\n    keep(app_container());\n}\n",
            ])
        let report = try project.run("report", "--format", "json", "Sources")
        let json = (try? JSONSerialization.jsonObject(with: Data(report.stdout.utf8))) as? [String: Any] ?? [:]
        let total = json["total"] as? [String: Any] ?? json["totals"] as? [String: Any] ?? [:]
        return total["direct"] as? Int ?? -1
    }

    func testOnlyTheHandOverToTheDefaultSetterIsTheRootsRead() throws {
        XCTAssertEqual(try directCount("containers: [app_container()]\nbridge-type: CrashBridge\n"), 1)
        XCTAssertEqual(
            try directCount(
                "containers: [app_container()]\nbridge-type: CrashBridge\nc-bridge-global: {name: g_bridge, c-type: 'const struct app_services *'}\n"
            ), 2)
    }
}
