import Foundation
import XCTest
@testable import DILintEngine

/// The Swift front end: access forms, fallback classification, comments, and that Swift files
/// go through the same collector, linter result, suppressions and reporters as C files.
final class SwiftFrontEndTests: XCTestCase {
    func accesses(
        _ code: String, config: String = "containers: [Container.sharedInstance, Container.shared, container_shared()]"
    ) throws -> [LocatedAccess] {
        let configuration = try Configuration.parse(yaml: config, baseDirectory: "/")
        return SwiftContainerAccessFinder(configuration: configuration).find(
            in: SwiftSourceFile(bytes: Array(code.utf8)).tree
        )
        .filter { $0.access.kind != .injected }
    }

    func testServicesReadThroughTheBridgeAreInjectedAccesses() throws {
        let configuration = try Configuration.parse(yaml: "containers: [Container.shared]", baseDirectory: "/")
        let found = SwiftContainerAccessFinder(configuration: configuration).find(
            in: SwiftSourceFile(
                bytes: Array(
                    """
                    func a() { _ = bridge.dateProvider; _ = self.bridge?.crashReporter; self.bridge = nil; _ = other.x }
                    """.utf8)
            ).tree)
        XCTAssertEqual(found.map(\.access.kind), [.injected, .injected])
        XCTAssertEqual(found.map(\.access.service), ["dateProvider", "crashReporter"])
    }

    func testTheCompositionRootIsClassified() throws {
        let configuration = try Configuration.parse(
            yaml: """
                containers: [Container.shared]
                composition-root: { functions: [makeIntegration], types: [AppBootstrap] }
                """, baseDirectory: "/")
        let found = SwiftContainerAccessFinder(configuration: configuration).find(
            in: SwiftSourceFile(
                bytes: Array(
                    """
                    func makeIntegration() { _ = Container.shared.x }
                    final class AppBootstrap { func run() { _ = Container.shared.y } }
                    extension AppBootstrap { func more() { _ = Container.shared.v } }
                    func other() { _ = Container.shared.z }
                    """.utf8)
            ).tree)
        XCTAssertEqual(found.map(\.access.kind), [.compositionRoot, .compositionRoot, .compositionRoot, .direct])
    }

    func testAccessForms() throws {
        let found = try accesses(
            """
            let a = Container.sharedInstance()
            let b = Container.shared.crashReporter
            let c = Container.shared().dateProvider.date()
            let d = container_shared().pointee.notificationCenter
            let e = Container.shared?.fileManager
            let f = Other.shared.crashReporter
            """)
        XCTAssertEqual(
            found.map(\.access.expression),
            [
                "Container.sharedInstance", "Container.shared.crashReporter", "Container.shared.dateProvider",
                "container_shared()->notificationCenter", "Container.shared.fileManager",
            ])
        XCTAssertEqual(found.map(\.offset), [8, 43, 82, 129, 183])
    }

    func testHelperTypesNamedInTheConfigAreAccesses() throws {
        let found = try accesses(
            "let s = ScreenHelper.activeScreenSize()\nlet t = Other.activeScreenSize()",
            config: """
                rules:
                  container-access:
                    swift-helper-types: [ScreenHelper]
                """)
        XCTAssertEqual(found.map(\.access.expression), ["ScreenHelper.activeScreenSize"])
    }

    func testAccessesBehindABridgeCheckAreFallbacks() throws {
        let found = try accesses(
            """
            func a() { _ = bridge?.dateProvider ?? Container.shared.dateProvider }
            func b() { if let bridge { _ = bridge.x } else { _ = Container.shared.x } }
            func c() { guard let bridge = self.bridge else { _ = Container.shared.y; return } }
            func d() { _ = self.bridge != nil ? self.bridge!.z : Container.shared.z }
            func e() { if let other { _ = other } else { _ = Container.shared.w } }
            func f() { _ = Container.shared.v ?? bridge.v }
            """)
        XCTAssertEqual(found.map(\.access.kind), [.fallback, .fallback, .fallback, .fallback, .direct, .direct])
    }

    func testCommentsBecomeSuppressionsWithTheirLines() {
        let file = SwiftSourceFile(
            bytes: Array(
                """
                let a = 1 // di-lint:disable-line container-access -- why
                /* di-lint:disable-next-line -- block comment */
                let b = 2
                /// Documentation may show `// di-lint:disable-line RULE -- why` without being a directive.
                let c = 3
                """.utf8))
        let suppressions = Suppressions(comments: file.comments, buffer: file.buffer)
        XCTAssertEqual(suppressions.directives.map(\.lines), [1...1, 3...3])
        XCTAssertEqual(suppressions.directives.map(\.reason), ["why", "block comment"])
    }

    func testSwiftFilesGoThroughTheCollectorLinterAndReporters() throws {
        let dir = try temporaryDirectory(self)
        try "final class A { lazy var x = Container.shared.x }\n".write(
            to: dir.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        try "func b() { _ = Container.shared.y } // di-lint:disable-line container-access -- legacy\n"
            .write(to: dir.appendingPathComponent("B.swift"), atomically: true, encoding: .utf8)
        let files = try FileCollector(excludes: [], baseDirectory: dir.path).collect([dir.path])
        XCTAssertEqual(files.map { ($0 as NSString).lastPathComponent }, ["A.swift", "B.swift"])
        let result = try lint(files, configYAML: "containers: [Container.shared]")
        XCTAssertEqual(result.filesParsed, 2)
        XCTAssertEqual(result.findings.map(\.rule), ["container-access", "swift-lazy-container-access"])
        XCTAssertEqual(result.findings.first?.snippet, "final class A { lazy var x = Container.shared.x }")
        XCTAssertEqual(result.findings.first?.access?.expression, "Container.shared.x")
        let json = JSONReporter().render(result)
        XCTAssertTrue(json.contains("swift-lazy-container-access"), json)
    }
}
