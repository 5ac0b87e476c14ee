import Foundation
import XCTest
@testable import DILintEngine

/// Both front ends build the same language-neutral `FileModel`: the same code written in
/// Objective-C and in Swift gives the same facts, which is what lets one rule type serve both.
final class FileModelTests: XCTestCase {
    let configuration = try! Configuration.parse(yaml: "containers: [Container.shared]\n", baseDirectory: "/")

    func models(objc: String, swift: String) throws -> (FileModel, FileModel) {
        let dir = try temporaryDirectory(self)
        let path = dir.appendingPathComponent("file.m").path
        try objc.write(toFile: path, atomically: true, encoding: .utf8)
        let clang = try ClangFrontEnd(configuration: configuration, compileArguments: [:])
            .model(path: path, displayPath: "file.m", bytes: Array(objc.utf8), language: .objectiveC).get()
        return (
            clang,
            try SwiftFrontEnd.model(displayPath: "file.swift", bytes: Array(swift.utf8), configuration: configuration)
                .get()
        )
    }

    /// Both front ends' models of the same code, summarized alike, give `expected`.
    func assertBothGive(
        _ expected: [String], objc: String, swift: String, _ summary: (FileModel) -> [String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (c, s) = try models(objc: objc, swift: swift)
        XCTAssertEqual(summary(c), expected, "Clang front end", file: file, line: line)
        XCTAssertEqual(summary(s), expected, "Swift front end", file: file, line: line)
    }

    func testInstallAndBridgeSetEventsAgree() throws {
        try assertBothGive(
            ["crash install line 2", "crash bridgeSet line 3", "crash uninstall line 4"],
            objc:
                "void start(Crash *crash, Bridge *bridge) {\n    [crash install];\n    crash.bridge = bridge;\n    [crash uninstall];\n}\n",
            swift:
                "func start(crash: Crash, bridge: Bridge) {\n    crash.install()\n    crash.bridge = bridge\n    crash.uninstall()\n}\n"
        ) { m in
            m.lifecycleEvents.flatMap { $0.map { "\($0.receiver) \($0.kind) line \(m.line(of: $0.offset))" } }
        }
    }

    func testAccessKindsAgree() throws {
        try assertBothGive(
            ["2 direct reporter", "3 injected reporter", "3 fallback reporter"],
            objc:
                "void f(Foo *self) {\n    id a = Container.shared.reporter;\n    id b = self.bridge ? self.bridge.reporter : Container.shared.reporter;\n}\n",
            swift:
                "func f() {\n    let a = Container.shared.reporter\n    let b = bridge?.reporter ?? Container.shared.reporter\n}\n"
        ) { m in
            m.accesses.map { "\(m.line(of: $0.offset)) \($0.access.kind.rawValue) \($0.access.service ?? "-")" }
        }
    }

    func testScopesAgree() throws {
        try assertBothGive(
            ["Foo init line 2 initializer", "Foo start line 3"],
            objc: "@implementation Foo\n- (instancetype)init { return self; }\n- (void)start { }\n@end\n",
            swift: "final class Foo {\n    init() { }\n    func start() { }\n}\n"
        ) { m in
            m.scopes.map {
                "\($0.typeName ?? "-") \($0.name) line \(m.line(of: $0.nameOffset))\($0.isInitializer ? " initializer" : "")"
            }
        }
    }

    func testAssignmentsAgree() throws {
        try assertBothGive(
            [
                "line 3 self.bridge = bridge (property bridge)", "line 4 crash.bridge = -",
                "line 5 shared = - (property shared)",
                "line 6 - = other",
            ],
            objc:
                "@implementation Foo\n- (void)setUp:(Bridge *)bridge {\n    self.bridge = bridge;\n    crash.bridge = [Bridge new];\n"
                + "    shared = [[Bridge alloc] init];\n    items[0] = other;\n}\n@end\n",
            swift:
                "final class Foo {\n    func setUp(bridge: Bridge) {\n        self.bridge = bridge\n        crash.bridge = Bridge()\n"
                + "        shared = Bridge()\n        items[0] = other\n    }\n}\n"
        ) { m in
            m.assignments.map { a in
                let target = a.isMember ? "\(a.base ?? "?").\(a.name ?? "?")" : a.name ?? "-"
                return "line \(m.line(of: a.offset)) \(target) = \(a.valueName ?? "-")"
                    + (a.propertyName.map { " (property \($0))" } ?? "")
            }
        }
    }

    func testOwnershipQualifiersAreDeclarations() throws {
        try assertBothGive(
            ["bridge weak line 2"],
            objc: "@interface Foo\n@property (nonatomic, weak) Bridge *bridge;\n@end\n",
            swift: "final class Foo {\n    weak var bridge: Bridge?\n}\n"
        ) { m in
            m.qualifiedDeclarations.map { "\($0.name) \($0.qualifier) line \(m.line(of: $0.qualifierOffset))" }
        }
    }

    func testRulesPlanNoFixUntilTheyKnowOne() throws {
        let (c, _) = try models(objc: "void f(void) { id a = Container.shared.reporter; }\n", swift: "")
        let finding = ContainerAccessRule().check(
            c, options: configuration.options(of: ContainerAccessRule.self), severity: .error)
        XCTAssertEqual(finding.count, 1)
        XCTAssertEqual(ContainerAccessRule.fixPhase, .inject)
        XCTAssertEqual(ContainerFallbackRule.fixPhase, .finish)
        XCTAssertEqual(RuleRegistry.fileRules.filter { type(of: $0).fixPhase != nil }.count, 2)
    }
}
