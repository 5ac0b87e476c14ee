import Foundation
import XCTest
@testable import DILintEngine

/// `c-bridge-global:` with a setter name that does not vary by file: one file of the run gets it,
/// the next is left for manual work (a second definition would not link), in this run and the next.
final class FixCBridgeGlobalTests: XCTestCase {
    func testALiteralSetterNameIsAddedToOneFileOnly() throws {
        let root = try temporaryDirectory(self)
        let header =
            "struct crash_bridge { int (*report)(int); };\nstruct container { int (*report)(int); };\nstruct container *container_shared(void);\n"
        try header.write(to: root.appendingPathComponent("crash.h"), atomically: true, encoding: .utf8)
        for name in ["a", "b"] {
            try
                "#include \"crash.h\"\n\nint \(name)_report(int code) {\n    return container_shared()->report(code);\n}\n"
                .write(to: root.appendingPathComponent("\(name).c"), atomically: true, encoding: .utf8)
        }
        let yaml = """
            containers: [container_shared()]
            c-bridge-global: {name: g_bridge, c-type: "const struct crash_bridge *", setter: crash_setBridge}
            """
        let configuration = try Configuration.parse(yaml: yaml, baseDirectory: root.path)
        let files = ["a.c", "b.c"].map { root.appendingPathComponent($0).path }
        let plan = Fixer(configuration: configuration).plan(files: files, phase: .inject)
        XCTAssertEqual(
            plan.accepted.flatMap(\.targets).map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["a.c"])
        XCTAssertEqual(plan.manual.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["b.c"])
        XCTAssertEqual(plan.manual.map(\.reason), [.noBridgeInReach])
        XCTAssertTrue(plan.secondRunEmpty)
        try FixApplier.apply(plan)
        let again = Fixer(configuration: configuration).plan(files: files, phase: .inject)
        XCTAssertTrue(again.accepted.allSatisfy { $0.edits.isEmpty }, "\(again.accepted.map(\.title))")
        XCTAssertEqual(again.manual.map(\.reason), [.noBridgeInReach])
    }
}
