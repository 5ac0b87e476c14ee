import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// The Objective-C and C side of the service style (`inject: service`, the default with no
/// `bridge-type`), the placement of what the bridge style adds in headerless parses, and the
/// safety tiers. Each tree in `Fixtures/fix/<name>` (subfolders kept: `include/Parser.h.in`) is
/// fixed with real libclang: inject, then finish, each checked byte for byte, by re-lint, by an
/// empty second run and by `git apply --check` of the dry-run diff.
final class FixObjCServiceStyleTests: XCTestCase {
    /// Reads in instance methods become `self.svc`, a property of the class (in its header's
    /// `@interface`, else its class extension) with a getter falling back to the container; a
    /// class method, a registration, a non-object service are left, each with its reason.
    func testObjectiveCServiceProperty() throws {
        let plan = try runCase(
            "objcservice",
            expectedManual: [
                "Reporter.m:8 notAServiceRead", "Reporter.m:15 serviceNotObject", "Reporter.m:25 classMethod",
            ], getters: 3)
        XCTAssertEqual(
            plan.accepted.map(\.title),
            [
                "Objective-C class Reporter service clock", "Objective-C class Reporter service store",
                "Objective-C class Uploader service store",
            ])
        XCTAssertTrue(plan.accepted.allSatisfy { $0.safety == .safe })
    }

    /// A C function reads the container through what it receives: a parameter of the container's
    /// type, a field of it in the struct a parameter points to (one embedded struct deep too);
    /// with none, or two, or a pointer the function tests for NULL, the access stays, with the
    /// reason. These groups are unsafe.
    func testCServiceThroughParameterOrField() throws {
        let plan = try runCase(
            "cservice",
            expectedManual: [
                "worktree.c:29 noContainerInReach", "worktree.c:34 noContainerInReach", "worktree.c:40 reachMayBeNull",
                "worktree.c:41 reachMayBeNull", "worktree.c:46 reachMayBeNull",
            ], getters: 0)
        XCTAssertEqual(
            plan.accepted.map(\.title),
            [
                "C function worktree_git_dir reads wt->repo", "C function repo_path reads r",
                "C function patch_apply reads s->s.r",
            ])
        XCTAssertTrue(plan.accepted.allSatisfy { $0.safety == .unsafe })
    }

    /// The bridge style in headerless parses: the `#import` of the bridge goes inside the `#if`
    /// that imports the container (where the code is); a class extension whose primary
    /// `@interface` is in a header of another folder of the run gets the property in that header.
    func testBridgePlacementInsideIfAndAcrossFolders() throws {
        let plan = try runCase("objcplacement", expectedManual: [], getters: 0)
        XCTAssertEqual(plan.accepted.map(\.title).sorted(), ["Objective-C class Parser", "Objective-C class V"])
        // the verdict does not flip from run to run
        let (root, configuration) = try tree("objcplacement")
        let verdicts = try (0..<5).map { _ in
            Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject).groups.map
            { "\($0.title): \($0.refused ?? "ok")" }
        }
        XCTAssertEqual(Set(verdicts.map { $0.joined(separator: "\n") }).count, 1, "\(verdicts)")
    }

    /// `--apply` writes the safe groups only; the unsafe ones are withheld (counted in the summary,
    /// kept in the JSON with their tier) until `--unsafe`. SARIF names the tier in each fix.
    func testSafetyTiers() throws {
        let (root, configuration) = try tree("cservice")
        var plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(plan.accepted.count, 3)
        let sarif = plan.sarif(root: root.path)
        XCTAssertTrue(
            sarif.contains("\"C function worktree_git_dir reads wt->repo (unsafe)\""), String(sarif.prefix(3000)))
        XCTAssertTrue(
            sarif.contains("the_repository (C function worktree_git_dir reads wt->repo; unsafe)"),
            String(sarif.prefix(3000)))
        XCTAssertTrue(
            plan.unifiedDiff(root: root.path).starts(with: Array("# di-lint fix: unsafe (behaviour may change): ".utf8))
        )
        plan.withholdUnsafe()
        XCTAssertTrue(plan.accepted.isEmpty)
        XCTAssertEqual(plan.withheldGroups.count, 3)
        XCTAssertTrue(plan.unifiedDiff(root: root.path).isEmpty)
        XCTAssertFalse(plan.isComplete)
        XCTAssertTrue(
            plan.summary.contains("3 accesses in 3 unsafe groups withheld (--unsafe shows and writes them)"),
            plan.summary)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.json().utf8)) as? [String: Any])
        let groups = try XCTUnwrap(json["groups"] as? [[String: Any]])
        XCTAssertEqual(groups.map { $0["tier"] as? String }, ["unsafe", "unsafe", "unsafe"])
        XCTAssertEqual(groups.map { $0["withheld"] as? Bool }, [true, true, true])
        // nothing withheld is written
        let before = try Data(contentsOf: root.appendingPathComponent("worktree.c"))
        _ = try FixApplier.apply(plan)
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("worktree.c")), before)
        // a safe group (the Objective-C property) is written without --unsafe
        let (objc, objcConfiguration) = try tree("objcservice")
        var safe = Fixer(configuration: objcConfiguration).plan(files: try FixFixtureTests.files(objc), phase: .inject)
        safe.withholdUnsafe()
        XCTAssertEqual(safe.accepted.count, 3)
        XCTAssertTrue(safe.withheldGroups.isEmpty)
    }

    // MARK: Support

    static let fixtures = FixFixtureTests.fixtures

    /// A copy of the fixture's `.in` files (subfolders kept) in a fresh git repository, with its config.
    func tree(_ name: String) throws -> (root: URL, configuration: Configuration) { try Self.tree(name, self) }

    static func tree(_ name: String, _ test: XCTestCase) throws -> (root: URL, configuration: Configuration) {
        let root = try temporaryDirectory(test)
        let source = Self.fixtures.appendingPathComponent(name)
        for file in try inputs(name) {
            let target = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source.appendingPathComponent(file + ".in"), to: target)
        }
        try FixFixtureTests.git(root, "init", "-q")
        try FixFixtureTests.git(root, "add", "-A")
        try FixFixtureTests.git(root, "commit", "-qm", "before")
        let yaml = try String(contentsOf: source.appendingPathComponent("fix.yml"), encoding: .utf8)
        return (root, try Configuration.parse(yaml: yaml, baseDirectory: root.path))
    }

    /// The fixture's input files, relative, without `.in`.
    private static func inputs(_ name: String) throws -> [String] {
        let source = Self.fixtures.appendingPathComponent(name)
        let all = FileManager.default.enumerator(atPath: source.path)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".in") }.map { String($0.dropLast(3)) }.sorted()
    }

    /// Runs inject then finish (unsafe groups included) and checks every phase; returns the
    /// inject plan. `expectedManual`: `file:line reason` of inject's manual items; `getters`: the
    /// container reads the service style's getters hold (direct accesses left, listed by finish).
    @discardableResult
    private func runCase(_ name: String, expectedManual: [String], getters: Int) throws -> FixPlan {
        try Self.runCase(name, expectedManual: expectedManual, getters: getters, self)
    }

    /// `runCase` for another test class.
    @discardableResult
    static func runCase(_ name: String, expectedManual: [String], getters: Int, _ test: XCTestCase) throws -> FixPlan {
        let (root, configuration) = try tree(name, test)
        let expected = Self.fixtures.appendingPathComponent(name)
        var injectPlan: FixPlan?
        for phase in [FixPhase.inject, .finish] {
            let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: phase)
            if phase == .inject { injectPlan = plan }
            XCTAssertTrue(
                plan.refusedGroups.isEmpty,
                "\(name) \(phase): refused \(plan.refusedGroups.map { "\($0.title): \($0.refused!)" })")
            XCTAssertTrue(plan.secondRunEmpty, "\(name) \(phase): the plan is not idempotent")
            let manual = plan.manual.map {
                "\(($0.path as NSString).lastPathComponent):\($0.line) \(String(describing: $0.reason))"
            }
            if phase == .inject {
                XCTAssertEqual(manual.sorted(), expectedManual.sorted(), "\(name) inject: manual \(plan.manual)")
            } else {
                XCTAssertEqual(
                    plan.manual.filter {
                        [.serviceGetterFallback, .serviceNoConstruction, .serviceConstructionNotSet].contains($0.reason)
                    }.count, getters,
                    "\(name) finish: \(plan.manual)")
            }
            let diff = plan.unifiedDiff(root: root.path)
            if !diff.isEmpty {
                let patch = try temporaryDirectory(test).appendingPathComponent("\(phase).patch")
                try Data(diff).write(to: patch)
                let check = try FixFixtureTests.git(root, "apply", "--check", "--verbose", patch.path)
                XCTAssertEqual(
                    check.status, 0,
                    "\(name) \(phase): git apply --check: \(check.stderr)\n\(String(decoding: diff, as: UTF8.self))")
            }
            try FixApplier.apply(plan)
            for file in try inputs(name) {
                let want = [phase == .finish ? ".finish" : nil, ".inject", ".in"].compactMap { $0 }
                    .map { expected.appendingPathComponent(file + $0) }
                    .first { FileManager.default.fileExists(atPath: $0.path) }!
                let got = try Data(contentsOf: root.appendingPathComponent(file))
                XCTAssertEqual(
                    got, try Data(contentsOf: want),
                    "\(name) \(phase): \(file) differs from \(want.lastPathComponent):\n\(String(decoding: got, as: UTF8.self))"
                )
            }
            // Re-lint: what is left direct is what the plan listed, plus the getters' fallbacks
            // (after inject: listed by the next run)
            let result = Linter(configuration: configuration).lint(files: try FixFixtureTests.files(root))
            let left = result.accesses.filter { $0.access.kind == .direct }
            XCTAssertEqual(
                left.count, (phase == .inject ? expectedManual.count + getters : plan.manual.count),
                "\(name) \(phase): left \(left.map { "\($0.path):\($0.line) \($0.access.expression)" })")
            let again = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: phase)
            XCTAssertTrue(
                again.accepted.allSatisfy { $0.edits.isEmpty },
                "\(name) \(phase): second run plans \(again.accepted.map(\.title))")
            XCTAssertTrue(
                again.unifiedDiff(root: root.path).isEmpty, "\(name) \(phase): second run's diff is not empty")
        }
        return try XCTUnwrap(injectPlan)
    }
}
