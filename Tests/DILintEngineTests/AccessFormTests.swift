import Foundation
import XCTest
@testable import DILintEngine

/// Accessor specs beyond `Type.accessor`, and what they find (the forms themselves are checked
/// by the fixtures under `Fixtures/access-forms`, with their inline expectations).
final class AccessFormTests: XCTestCase {
    let forms = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/access-forms")

    func testEverySpecFormParses() throws {
        let cases: [(String, ContainerSpec)] = [
            ("Environment.hasEnabledOption:", .member(type: "Environment", accessor: "hasEnabledOption:")),
            ("Environment.option:forKey:", .member(type: "Environment", accessor: "option:")),
            ("Settings.*", .member(type: "Settings", accessor: "*")),
            ("ServiceLocator::getService<>", .template(type: "ServiceLocator", accessor: "getService")),
            ("MWBase::Environment::get", .member(type: "Environment", accessor: "get")),
            ("g_browser_process->", .global("g_browser_process")),
            ("gContainer", .global("gContainer")),
            ("@Injected", .propertyWrapper("Injected")),
        ]
        for (text, spec) in cases {
            XCTAssertEqual(try ContainerSpec(parsing: text), spec, text)
        }
    }

    func testAnUnquotedSelectorInYAMLIsTheSelector() throws {
        let config = try Configuration.parse(
            yaml: "containers:\n  - Environment.hasEnabledOption:\n  - \"Settings.*\"\n", baseDirectory: "/")
        XCTAssertEqual(
            config.containers,
            [.member(type: "Environment", accessor: "hasEnabledOption:"), .member(type: "Settings", accessor: "*")])
    }

    func testAmbientPropertiesAreNamesAndBecomeSpecs() throws {
        let config = try Configuration.parse(yaml: "ambient-properties: [databaseStorage]\n", baseDirectory: "/")
        XCTAssertEqual(config.accessSpecs, [.ambient("databaseStorage")])
        XCTAssertThrowsError(try Configuration.parse(yaml: "ambient-properties: [self.x]\n", baseDirectory: "/")) {
            error in
            XCTAssertTrue("\(error)".contains("ambient-properties: 'self.x' is not a property name"), "\(error)")
        }
    }

    func testHelperTypesBecomeSpecsForEveryLanguage() throws {
        let config = try Configuration.parse(
            yaml: "rules: {container-access: {swift-helper-types: [Helper, Screen.screen]}}\n", baseDirectory: "/")
        XCTAssertEqual(
            config.accessSpecs, [.member(type: "Helper", accessor: "*"), .member(type: "Screen", accessor: "screen")])
    }

    func testExpressionsNameGlobalsAndWrappersAndNoServiceIsNull() throws {
        XCTAssertEqual(
            ContainerAccess(container: "g_browser_process", accessor: "", service: "profile_manager").expression,
            "g_browser_process.profile_manager")
        XCTAssertEqual(
            ContainerAccess(container: "Injected", accessor: "@Injected", service: "TabManager").expression,
            "@Injected.TabManager")
        let config = try Configuration.load(path: forms.appendingPathComponent(".di-lint.yml").path)
        let result = Linter(configuration: config).lint(files: [forms.appendingPathComponent("objc_forms.m").path])
        let selector = try XCTUnwrap(result.findings.first { $0.access?.accessor == "hasEnabledOption:" })
        XCTAssertNil(selector.access?.service, "no service is null, never an empty name")
        XCTAssertFalse(result.accesses.contains { $0.access.service == "" })
    }

    /// `di-lint report` counts a generic `resolve()` under the type it resolves.
    func testTheReportCountsPerResolvedType() throws {
        let config = try Configuration.load(path: forms.appendingPathComponent(".di-lint.yml").path)
        let result = Linter(configuration: config).lint(files: [forms.appendingPathComponent("swift_forms.swift").path])
        let report = MigrationProgress(accesses: result.accesses, filesLinted: 1)
        let services = Dictionary(uniqueKeysWithValues: report.services.map { ($0.name, $0.counts.direct) })
        XCTAssertEqual(services["TabManager"], 3, "two resolve() sites and one @Injected property")
        XCTAssertEqual(services["ThemeManager"], 2)
        XCTAssertEqual(services["Profile"], 1)
        XCTAssertEqual(services["resolve"], 1, "a resolve() whose type the code does not write")
    }

    /// The pre-filter looks for the shape of an access, not for the words anywhere.
    func testThePrefilterMatchesTheShapeOfAnAccess() throws {
        let filter = ContainerPrefilter(
            specs: try [
                "MWBase::Environment::get", "Container.shared", "Settings.*", "gContainer", "@Injected",
                "ServiceLocator::getService<>",
            ].map(ContainerSpec.init(parsing:)))
        func passes(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { filter.mayContainAccess($0) } }
        for text in [
            "auto &w = MWBase::Environment::get().world();", "[Container shared]", "Container . shared",
            "MyModule.Container.shared",
            "Container<Foo>.shared", "[SubContainer shared]", "Self.shared", "Settings.theme", "x = gContainer;",
            "@Injected var t: T",
            "ServiceLocator::getService<Foo>()", "typealias C = Container",
        ] {
            XCTAssertTrue(passes(text), text)
        }
        for text in [
            "ptr.get(); Environment env;", "Container *c; c.sharedInstance", "Container.sharedInstance", "Settings",
            "gContainerX",
            "ContainerShared.shared", "ServiceLocator::getServices<Foo>()", "// MyContainer",
        ] {
            XCTAssertFalse(passes(text), text)
        }
    }

    /// With the project rules off (only then are files skipped), skipping by the pre-filter finds what parsing every file finds.
    func testThePrefilterLosesNoAccessInTheFixtures() throws {
        let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures")
        let files = try FileCollector(excludes: [], baseDirectory: fixtures.path).collect([fixtures.path])
        let groups = Dictionary(grouping: files) {
            Configuration.discover(from: URL(fileURLWithPath: $0).deletingLastPathComponent().path)!
        }
        var parsed = (fast: 0, all: 0)
        for (path, group) in groups {
            var config = try Configuration.load(path: path)
            config.rules["signal-handler-safety"] = RuleSettings(enabled: false)
            let fast = Linter(configuration: config).lint(files: group)
            let full = Linter(configuration: config)
            full.parseEveryFile = true
            let all = full.lint(files: group)
            XCTAssertEqual(fast.findings, all.findings, path)
            parsed.fast += fast.filesParsed
            parsed.all += all.filesParsed
        }
        XCTAssertLessThan(parsed.fast, parsed.all, "some fixtures name no container and are skipped")
    }
}
