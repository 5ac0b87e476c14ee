import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// Runs `inject` then `finish` over each fixture tree in `Fixtures/fix` with real libclang and
/// checks the bytes, the re-lint, a second run planning nothing, and `git apply --check`.
final class FixFixtureTests: XCTestCase {
    static let fixtures = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix")

    func testObjectiveCTree() throws { try runCase("objc") }
    func testCTree() throws { try runCase("c") }
    func testFinishForms() throws { try runCase("finish") }
    func testSwiftTree() throws { try runCase("swift") }
    /// The bridge's type only forward-declared (a Swift class whose generated header the parse lacks).
    func testBridgeTypeOnlyForwardDeclared() throws { try runCase("forward") }
    /// C functions with no bridge in reach read a file-scope bridge global the fix adds once per
    /// file, with its setter (`c-bridge-global:`).
    func testCBridgeGlobal() throws { try runCase("global") }
    /// `swift-callers-in-run: true` (a public initializer loses its default in finish), and a
    /// `swift-bridge-default` that reads the container's services (not a new mixed-injection finding).
    func testSwiftCallersInRun() throws { try runCase("swiftcallers") }
    /// finish passes the bridge to the calls that relied on the default: the bridge in reach in a
    /// bridged type (`self.bridge` in a closure or where a parameter shadows it), else the
    /// default built from the container (a static in the composition root, a global outside it),
    /// a trailing closure moved into the parentheses; a public initializer whose callers may be
    /// outside the run keeps its default.
    func testSwiftCallersWired() throws { try runCase("swiftwire") }
    /// A type built in a static the container's initialization reads: the container builds it
    /// itself, lazily, with a bridge from its own services (its dependants lazy too, the static
    /// removed); finish gives the container's own method that bridge.
    func testSwiftContainerBuildsTheType() throws { try runCase("swiftcontainer") }

    /// The wired callers as the plan lists them: where the moved container reads classify, the
    /// summary's count, and a run that is not complete while a read moved outside the composition root.
    func testSwiftCallersWiredAreListed() throws {
        let (root, configuration) = try Self.tree("swiftwire", self)
        try FixApplier.apply(Fixer(configuration: configuration).plan(files: try Self.files(root), phase: .inject))
        let plan = Fixer(configuration: configuration).plan(files: try Self.files(root), phase: .finish)
        let callers = plan.acceptedCallers.map {
            "\($0.path.split(separator: "/").last!):\($0.line) \($0.explicitDefault ? "explicit \($0.movedKinds ?? [])" : $0.argument)"
        }
        XCTAssertEqual(
            callers.sorted(),
            [
                "Outside.swift:3 explicit [\"direct\", \"direct\"]",
                "Root.swift:4 explicit [\"composition-root\", \"composition-root\"]",
                "Root.swift:5 explicit [\"composition-root\", \"composition-root\"]",
                "Root.swift:8 explicit [\"composition-root\", \"composition-root\"]",
                "Scheduler.swift:15 bridge",
                "Scheduler.swift:19 self.bridge",
                "Scheduler.swift:24 self.bridge",
            ])
        XCTAssertTrue(
            plan.summary.hasSuffix(
                "; 7 callers given the bridge: 3 from the bridge in reach, 4 explicitly (the container read moves to the caller), 1 of them outside the composition root (2 new direct accesses there)"
            ), plan.summary)
        XCTAssertTrue(
            plan.details.contains {
                $0.hasSuffix(
                    "Outside.swift:3:19: caller: Probe(…) now passes the bridge built from the container (the container read moves here, outside the composition root: 2 new direct accesses)"
                )
            }, "\(plan.details)")
        // Exporter: public, callers-in-run not set
        XCTAssertEqual(plan.manual.map(\.reason), [.callersRelyOnDefault, .callersRelyOnDefault])
        XCTAssertFalse(plan.isComplete) // the global outside the composition root now reads the container
    }

    /// A copy of the fixture's `.in` files in a fresh git repository, with the config.
    static func tree(_ name: String, _ test: XCTestCase) throws -> (root: URL, configuration: Configuration) {
        let root = try temporaryDirectory(test)
        let source = fixtures.appendingPathComponent(name)
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path) where file.hasSuffix(".in") {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(file),
                to: root.appendingPathComponent(String(file.dropLast(3))))
        }
        try git(root, "init", "-q")
        try git(root, "add", "-A")
        try git(root, "commit", "-qm", "before")
        // a tree's own `fix.yml` (keys only it needs), else the shared one
        let own = source.appendingPathComponent("fix.yml")
        let yaml = try String(
            contentsOf: FileManager.default.fileExists(atPath: own.path)
                ? own : fixtures.appendingPathComponent("fix.yml"), encoding: .utf8)
        return (root, try Configuration.parse(yaml: yaml, baseDirectory: root.path))
    }

    static func files(_ root: URL) throws -> [String] {
        try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path])
    }

    @discardableResult
    static func git(_ root: URL, _ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(
            "/usr/bin/env",
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments, in: root)
    }

    /// A Swift tree (its own stand-ins for the app's types included) must type-check with the
    /// toolchain's `swiftc` before and after each phase.
    static func typeCheckSwift(_ root: URL, _ when: String) throws {
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
            .sorted()
        guard !sources.isEmpty else { return }
        // each side of the fixtures' `#if DEBUG` (and `#if TESTING` in it)
        for flags in [[], ["-D", "DEBUG"], ["-D", "DEBUG", "-D", "TESTING"]] {
            let result = try runProcess("/usr/bin/env", ["swiftc", "-typecheck"] + flags + sources, in: root)
            XCTAssertEqual(result.status, 0, "\(when) \(flags): swiftc -typecheck: \(result.stderr)")
        }
    }

    private func runCase(_ name: String) throws { try Self.runCase(name, self) }

    /// `services`: `--service` (every service when empty).
    static func runCase(_ name: String, services: Set<String> = [], _ test: XCTestCase) throws {
        let (root, configuration) = try Self.tree(name, test)
        let expected = Self.fixtures.appendingPathComponent(name)
        try typeCheckSwift(root, "\(name) before")
        for phase in [FixPhase.inject, .finish] { // wire: FixWirePhaseCLITests
            let fixer = Fixer(configuration: configuration)
            fixer.services = services
            let files = try Self.files(root)
            let plan = fixer.plan(files: files, phase: phase)
            XCTAssertTrue(
                plan.refusedGroups.isEmpty,
                "\(name) \(phase): refused \(plan.refusedGroups.map { "\($0.title): \($0.refused!)" })")
            XCTAssertTrue(plan.secondRunEmpty, "\(name) \(phase): the plan is not idempotent")

            // The dry-run diff applies to the tree as it is.
            let diff = plan.unifiedDiff(root: root.path)
            let patch = try temporaryDirectory(test).appendingPathComponent("\(phase).patch")
            try Data(diff).write(to: patch)
            if !diff.isEmpty {
                let check = try Self.git(root, "apply", "--check", "--verbose", patch.path)
                XCTAssertEqual(
                    check.status, 0,
                    "\(name) \(phase): git apply --check: \(check.stderr)\n\(String(decoding: diff, as: UTF8.self))")
            }
            try FixApplier.apply(plan)
            try typeCheckSwift(root, "\(name) \(phase)")

            // Byte for byte.
            for file in try FileManager.default.contentsOfDirectory(atPath: expected.path) where file.hasSuffix(".in") {
                let base = String(file.dropLast(3))
                let want = [phase == .finish ? ".finish" : nil, ".inject", ".in"].compactMap { $0 }
                    .map { expected.appendingPathComponent(base + $0) }
                    .first { FileManager.default.fileExists(atPath: $0.path) }!
                let got = try Data(contentsOf: root.appendingPathComponent(base))
                let wanted = try Data(contentsOf: want)
                XCTAssertEqual(
                    got, wanted,
                    "\(name) \(phase): \(base) differs from \(want.lastPathComponent):\n\(String(decoding: got, as: UTF8.self))"
                )
            }

            // Re-lint: every rewritten access now classifies as wanted; what is left is what the plan
            // listed (after finish, a direct access left is listed too: the run is not done)
            let result = Linter(configuration: configuration).lint(files: try Self.files(root))
            let left = result.accesses.filter {
                $0.access.kind == .direct || (phase == .finish && $0.access.kind == .fallback)
            }
            .filter { services.isEmpty || $0.access.service.map(services.contains) == true }
            XCTAssertEqual(
                Set(left.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent):\($0.line)" }).count,
                Set(
                    plan.manual.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent):\($0.line)" }
                        + plan.acceptedCallers.filter(\.movedOutsideRoot).map {
                            "\(URL(fileURLWithPath: $0.path).lastPathComponent):\($0.line)"
                        }
                ).count,
                "\(name) \(phase): left \(left.map { "\($0.path):\($0.line) \($0.access.expression)" }), manual \(plan.manual.map { "\($0.path):\($0.line)" })"
            )

            // A second run plans nothing.
            let second = Fixer(configuration: configuration)
            second.services = services
            let again = second.plan(files: try Self.files(root), phase: phase)
            XCTAssertTrue(
                again.accepted.allSatisfy { $0.edits.isEmpty },
                "\(name) \(phase): second run plans \(again.accepted.map(\.title))")
            XCTAssertTrue(
                again.unifiedDiff(root: root.path).isEmpty, "\(name) \(phase): second run's diff is not empty")
        }
    }
}
