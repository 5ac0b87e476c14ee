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
        let config = try Configuration.parse(yaml: "containers:\n  - Environment.hasEnabledOption:\n  - \"Settings.*\"\n", baseDirectory: "/")
        XCTAssertEqual(config.containers, [.member(type: "Environment", accessor: "hasEnabledOption:"), .member(type: "Settings", accessor: "*")])
    }

    func testHelperTypesBecomeSpecsForEveryLanguage() throws {
        let config = try Configuration.parse(yaml: "rules: {container-access: {swift-helper-types: [Helper, Screen.screen]}}\n", baseDirectory: "/")
        XCTAssertEqual(config.accessSpecs, [.member(type: "Helper", accessor: "*"), .member(type: "Screen", accessor: "screen")])
    }

    func testExpressionsNameGlobalsAndWrappersAndNoServiceIsNull() throws {
        XCTAssertEqual(ContainerAccess(container: "g_browser_process", accessor: "", service: "profile_manager").expression,
                       "g_browser_process.profile_manager")
        XCTAssertEqual(ContainerAccess(container: "Injected", accessor: "@Injected", service: "TabManager").expression, "@Injected.TabManager")
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
}
