import Foundation
import SeamTestSupport
import XCTest

/// fix reads Swift through lint's front end (`SwiftFrontEnd`): a file lint refuses (nesting or
/// chains past swift-syntax's parser limits) is refused by fix, with lint's own reason, whether
/// it is a file of the run as it is or a file as fix's edits would leave it.
final class FixSwiftFrontEndCLITests: XCTestCase {
    static let container = """
        final class TabStore { func count() -> Int { 1 } }
        final class Container { static let shared = Container(); func resolve<T>() -> T { fatalError() } }

        """
    static let model = """
        struct AdViewModel {
            let data: String
            func tabsCount() -> Int {
                let tabs: TabStore = Container.shared.resolve()
                return tabs.count()
            }
        }

        """

    /// A caller of the memberwise initializer with `depth` brackets around the call's own.
    static func caller(depth: Int, call: String = #"AdViewModel(data: "x")"#) -> String {
        "func make() -> Int {\n" + String(repeating: "    f(", count: depth) + call
            + String(repeating: ")", count: depth) + "\n    return 0\n}\nfunc f(_ x: Any) -> Any { x }\n"
    }

    /// lint's parse-failure reason for a file, from its JSON report.
    func lintReason(_ project: Project, _ path: String) throws -> String {
        let run = try project.run("lint", path, "--format", "json")
        let findings = run.json["findings"] as? [[String: Any]] ?? []
        let failure = findings.first { $0["rule"] as? String == "parse-failure" }
        let message = try XCTUnwrap(failure?["message"] as? String, run.stdout + run.stderr)
        return message
    }

    /// The memberwise injection gives the caller the container read as an argument, one bracket
    /// deeper: past the guard. lint would refuse the edited caller, so fix refuses the group and
    /// says why in lint's words (c0a6380 parsed the edited caller anyway, read an empty tree and
    /// refused it for "the container reads moved to a caller do not classify").
    func testAnEditThatNestsACallerPastTheGuardIsRefusedWithLintsReason() throws {
        let caller = Self.caller(depth: 126)
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\n", "Container.swift": Self.container,
                "Ad.swift": Self.model, "Caller.swift": caller,
            ])
        // the caller as the edit would leave it, linted on its own: lint's reason
        try project.write(
            "Edited/Caller.swift",
            Self.caller(depth: 126, call: #"AdViewModel(data: "x", tabStore: Container.shared.resolve())"#))
        let reason = try lintReason(project, "Edited/Caller.swift")
        XCTAssertTrue(reason.contains("nest 129 deep"), reason)
        try FileManager.default.removeItem(at: project.root.appendingPathComponent("Edited"))

        let run = try project.run("fix", "--phase", "inject", "--unsafe", ".", "--apply")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(
            run.stderr.contains(
                "di-lint fix: refused Swift memberwise AdViewModel: service TabStore: re-parse of Caller.swift: "
                    + reason.replacingOccurrences(of: "file not linted: ", with: "")),
            run.stderr)
        XCTAssertEqual(try project.read("Caller.swift"), caller)
        XCTAssertEqual(try project.read("Ad.swift"), Self.model)
    }

    /// One bracket less: the edited caller is within the guard, and the group is written.
    func testTheSameEditWithinTheGuardIsWritten() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\n", "Container.swift": Self.container,
                "Ad.swift": Self.model, "Caller.swift": Self.caller(depth: 125),
            ])
        // written (exit 1: the read moved to the caller is a direct access there, listed)
        let run = try project.run("fix", "--phase", "inject", "--unsafe", ".", "--apply")
        XCTAssertTrue(run.stderr.contains("di-lint fix: wrote 2 files"), run.stderr)
        XCTAssertEqual(
            try project.read("Caller.swift"),
            Self.caller(depth: 125, call: #"AdViewModel(data: "x", tabStore: Container.shared.resolve())"#))
    }

    /// A file of the run past the guard: listed for manual work with lint's reason, not planned.
    func testAFileOfTheRunPastTheGuardIsListedWithLintsReason() throws {
        let deep =
            "func g() -> Int {\n    " + String(repeating: "f(", count: 130) + "Container.shared.resolve() as TabStore"
            + String(repeating: ")", count: 130) + "\n    return 0\n}\nfunc f(_ x: Any) -> Any { x }\n"
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": "containers: [Container.shared]\n", "Container.swift": Self.container,
                "Deep.swift": deep,
            ])
        let reason = try lintReason(project, "Deep.swift").replacingOccurrences(of: "file not linted: ", with: "")
        let run = try project.run("fix", "--phase", "inject", ".", "--apply")
        XCTAssertTrue(
            run.stderr.contains(
                "Deep.swift:1:1: manual: : the file could not be parsed (its accesses are not planned) (\(reason))"),
            run.stderr)
        XCTAssertEqual(try project.read("Deep.swift"), deep)
    }
}
