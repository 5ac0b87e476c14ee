import Foundation
import XCTest
@testable import DILintEngine

final class ConfigurationTests: XCTestCase {
    func testContainerSpecsParseEveryForm() throws {
        XCTAssertEqual(
            try ContainerSpec(parsing: "Container.sharedInstance"),
            .member(type: "Container", accessor: "sharedInstance"))
        XCTAssertEqual(try ContainerSpec(parsing: "Container::shared"), .member(type: "Container", accessor: "shared"))
        XCTAssertEqual(try ContainerSpec(parsing: " container_shared() "), .function("container_shared"))
        for bad in ["a.b.c", "1x()", "Container.", ".shared", "f(x)", "@", "a::", "T::x<"] {
            XCTAssertThrowsError(try ContainerSpec(parsing: bad), bad)
        }
    }

    func testAFullConfigLoads() throws {
        let config = try Configuration.parse(
            yaml: """
                containers: [Container.sharedInstance, container_shared()]
                exclude: ["Vendor/**"]
                clang-flags: ["-DFOO=1"]
                max-file-size: 1024
                bridge: [bridge, crashBridge]
                fallback: warn
                composition-root: {paths: ["App/Root.m"], functions: [makeBridge], types: [Integration]}
                rules:
                  container-access: warning
                  unused-suppression: off
                  parse-failure: {severity: note}
                """, baseDirectory: "/repo")
        XCTAssertEqual(config.containers.count, 2)
        XCTAssertEqual(config.severity(of: "container-access"), .warning)
        XCTAssertNil(config.severity(of: "unused-suppression"))
        XCTAssertEqual(config.severity(of: "parse-failure"), .note)
        XCTAssertEqual(config.severity(of: "container-fallback"), .warning)
        XCTAssertEqual(config.severity(of: "suppression-without-reason"), .warning)
        XCTAssertEqual(config.compositionRoot.types, ["Integration"])
        XCTAssertEqual(config.bridgeNames, ["bridge", "crashBridge"])
    }

    func testErrorsNameTheFileAndTheProblem() throws {
        let dir = try temporaryDirectory(self)
        let cases: [(String, String)] = [
            ("containers: [a.b.c]\n", "expected 'Type.accessor'"),
            ("containers: [A.b]\nrulez: {}\n", "unknown key 'rulez'"),
            ("rules: {no-such-rule: error}\n", "unknown rule 'no-such-rule'"),
            ("rules: {container-access: loud}\n", "'loud' is not a severity"),
            ("fallback: sometimes\n", "fallback must be one of allow, warn, error"),
            ("containers: [A.b\n", "invalid YAML"),
            ("- just\n- a list\n", "top level must be a mapping"),
            ("max-file-size: -3\n", "max-file-size must be a positive"),
            ("rules: {container-fallback: error}\n", "its severity is the migration phase, set with 'fallback:"),
            ("rules: {container-fallback: {severity: note}}\n", "its severity is the migration phase"),
            (
                "rules: {signal-handler-safety: {allow: true}}\n",
                "rules.signal-handler-safety.allow must be a list of strings, found 'true'"
            ),
            (
                "rules: {container-access: {swift-helper-types: {a: b}}}\n",
                "rules.container-access.swift-helper-types must be a scalar or a list"
            ),
            (
                "rules: {container-access: {no-such-option: 1}}\n",
                "rules.container-access: unknown option 'no-such-option'"
            ),
        ]
        for (text, problem) in cases {
            let path = dir.appendingPathComponent("\(abs(text.hashValue)).yml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try Configuration.load(path: path), text) { error in
                XCTAssertTrue("\(error)".hasPrefix(path + ": "), "\(error)")
                XCTAssertTrue("\(error)".contains(problem), "\(error) should say \(problem)")
            }
        }
    }

    func testRuleOptionsAreTypedListsWithTheirYAMLDefaults() throws {
        let config = try Configuration.parse(
            yaml: """
                rules:
                  signal-handler-safety: {allow: [my_safe_write, "log_*"], handlers: on_crash}
                """, baseDirectory: "/repo")
        let options = config.options(of: SignalHandlerSafetyRule.self)
        XCTAssertEqual(options.allow, ["my_safe_write", "log_*"])
        XCTAssertEqual(options.handlers, ["on_crash"], "a single string is a list of one")
        XCTAssertEqual(
            Configuration(baseDirectory: "/").options(of: ContainerAccessRule.self).swiftHelperTypes, [],
            "the default comes from Rules/container-access.yml")
    }

    func testTheFallbackPhaseSwitchSetsContainerFallbacksSeverity() throws {
        for (phase, expected) in [("allow", nil), ("warn", Severity.warning), ("error", .error)]
            as [(String, Severity?)]
        {
            XCTAssertEqual(
                try Configuration.parse(yaml: "fallback: \(phase)\n", baseDirectory: "/").severity(
                    of: "container-fallback"), expected, phase)
        }
        XCTAssertEqual(
            RuleCatalog.shared.rule("container-fallback")?.defaultSeverity, .warning,
            "warn reports at the YAML's severity")
        XCTAssertNil(
            try Configuration.parse(yaml: "fallback: error\nrules: {container-fallback: off}\n", baseDirectory: "/")
                .severity(of: "container-fallback"))
    }

    func testDiscoveryWalksUpward() throws {
        let dir = try temporaryDirectory(self)
        let deep = dir.appendingPathComponent("a/b/c")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try "containers: [A.b]\n".write(
            to: dir.appendingPathComponent("a/.di-lint.yml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(
            Configuration.discover(from: deep.path),
            dir.appendingPathComponent("a/.di-lint.yml").standardizedFileURL.path)
    }

    func testGlobs() {
        XCTAssertTrue(Glob.matches("**/Bootstrap/*.m", "App/Bootstrap/Setup.m"))
        XCTAssertTrue(Glob.matches("**/Bootstrap/*.m", "Bootstrap/Setup.m"))
        XCTAssertFalse(Glob.matches("*/Setup.m", "a/b/Setup.m"))
        XCTAssertTrue(Glob.matches("Vendor/**", "Vendor/x/y.c"))
        XCTAssertTrue(Glob.matches("seam_*_bootstrap", "seam_crash_bootstrap"))
        XCTAssertFalse(Glob.matches("Test?.m", "Test/.m"))
    }

    func testRelativePaths() {
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertEqual(FileCollector.relative("/repo/./src/../src//a.m", to: "/repo/"), "src/a.m")
        XCTAssertEqual(FileCollector.relative("/repo/src/a.m", to: "/repo/src/.."), "src/a.m")
        XCTAssertEqual(
            FileCollector.relative("/repository/a.m", to: "/repo"), "/repository/a.m",
            "a name sharing the prefix is not below it")
        XCTAssertEqual(FileCollector.relative("/elsewhere/a.m", to: "/repo"), "/elsewhere/a.m")
        XCTAssertEqual(FileCollector.relative("./x/y.c", to: cwd), "x/y.c")
        XCTAssertEqual(FileCollector.relative("./x/y.c", to: "/nowhere"), "x/y.c")
        XCTAssertEqual(FileCollector.relative("/a.m", to: "/"), "a.m")
        XCTAssertEqual(FileCollector.normalized("/a/../../b/./c/"), "/b/c")
        // Compilation databases key files by Foundation's standardized path; lookups use `normalized`.
        for path in ["/repo/src/a.m", "/repo/./src/../src/a.m", "/repo//src/a.m", "/repo/src/", "/repo/a b/ü.m"] {
            XCTAssertEqual(FileCollector.normalized(path), URL(fileURLWithPath: path).standardizedFileURL.path, path)
        }
    }

    func testFileCollectionSkipsBuildHiddenAndExcluded() throws {
        let dir = try temporaryDirectory(self)
        for path in [
            "src/a.m", "src/b.h", "src/c.swift.txt", ".hidden/d.m", ".build/e.c", "src/Vendor/f.c", "src/g.cpp",
            "src/README.md",
        ] {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "x".write(to: url, atomically: true, encoding: .utf8)
        }
        let files = try FileCollector(excludes: ["**/Vendor/**"], baseDirectory: dir.path).collect([dir.path])
        XCTAssertEqual(files.map { String($0.dropFirst(dir.path.count + 1)) }, ["src/a.m", "src/b.h", "src/g.cpp"])
        XCTAssertThrowsError(try FileCollector(excludes: [], baseDirectory: dir.path).collect([dir.path + "/nope"]))
    }

    func testHeaderLanguageDetection() {
        func detect(_ text: String) -> SourceLanguage {
            Array(text.utf8).withUnsafeBytes { SourceLanguage.detect(path: "x.h", contents: $0) }
        }
        XCTAssertEqual(detect("@interface Foo : NSObject\n@end\n"), .objectiveC)
        XCTAssertEqual(detect("namespace x { class Y {}; }\n"), .cxx)
        XCTAssertEqual(detect("struct x; int f(void);\n"), .c)
        XCTAssertEqual(detect("@class Foo;\nnamespace a {}\n"), .objectiveCxx)
    }
}
