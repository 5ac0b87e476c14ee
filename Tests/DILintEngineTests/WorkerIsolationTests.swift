import Foundation
import XCTest
@testable import DILintEngine

/// The library side of `WorkerIsolation`, with the built di-lint as the worker program.
final class WorkerIsolationTests: XCTestCase {
    private var worker: String {
        get throws {
            let path = packageRoot.appendingPathComponent(".build/debug/di-lint").path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw XCTSkip("needs the debug di-lint built (swift build)")
            }
            return path
        }
    }

    private func project() throws -> (URL, [String]) {
        let root = try temporaryDirectory(self)
        try "containers: [Container.sharedInstance]\n".write(
            to: root.appendingPathComponent(".di-lint.yml"), atomically: true, encoding: .utf8)
        try "void f(void) { id c = [[Container sharedInstance] clock]; }\n".write(
            to: root.appendingPathComponent("A.m"), atomically: true, encoding: .utf8)
        try "func g() { _ = Container.sharedInstance.clock }\n".write(
            to: root.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
        return (root, ["A.m", "B.swift"].map { root.appendingPathComponent($0).path })
    }

    func testAWorkerBuildsTheSameConfigurationAndFindsTheSame() throws {
        let (root, files) = try project()
        let recipe = ConfigurationRecipe(configPath: root.appendingPathComponent(".di-lint.yml").path)
        let inProcess = Linter(configuration: try recipe.build()).lint(files: files)
        let isolated = Linter(configuration: try recipe.build())
        isolated.isolation = WorkerIsolation(executable: try worker, recipe: recipe, timeout: 60, memoryLimit: 4 << 30)
        let result = isolated.lint(files: files)
        XCTAssertEqual(result.findings.count, 2)
        XCTAssertEqual(result.findings, inProcess.findings)
        XCTAssertEqual(result.filesParsed, 2)
    }

    func testAWorkerWhoseConfigurationDiffersRefusesToParse() throws {
        let (root, files) = try project()
        let recipe = ConfigurationRecipe(configPath: root.appendingPathComponent(".di-lint.yml").path)
        var configuration = try recipe.build()
        configuration.containers += [try ContainerSpec(parsing: "Other.shared")] // not in the recipe
        let linter = Linter(configuration: configuration)
        linter.isolation = WorkerIsolation(executable: try worker, recipe: recipe, timeout: 60, memoryLimit: 4 << 30)
        let result = linter.lint(files: files)
        XCTAssertEqual(result.filesFailed, 2)
        for finding in result.findings {
            XCTAssertEqual(finding.rule, "parse-failure")
            XCTAssertTrue(
                finding.message.contains("the parse worker's configuration differs from the run's"), finding.message)
        }
    }

    func testAWorkerThatCannotStartIsAParseFailure() throws {
        let (root, files) = try project()
        let recipe = ConfigurationRecipe(configPath: root.appendingPathComponent(".di-lint.yml").path)
        let linter = Linter(configuration: try recipe.build())
        linter.isolation = WorkerIsolation(
            executable: "/nonexistent/di-lint", recipe: recipe, timeout: 60, memoryLimit: 4 << 30)
        let result = linter.lint(files: files)
        XCTAssertEqual(result.filesFailed, 2)
        XCTAssertTrue(
            result.findings.allSatisfy { $0.message.contains("cannot start a parse worker") }, "\(result.findings)")
    }
}
