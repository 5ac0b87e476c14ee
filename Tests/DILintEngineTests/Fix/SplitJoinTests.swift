import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// `fix --split` when a unit does not verify on the tree the units before it leave: the landing
/// order cannot see every dependency between groups, so each prefix is verified with real
/// libclang parses, and a unit that fails is joined with the next one (and the summary says which
/// and why). A prefix that still fails at the end of the order is reported, not hidden.
final class SplitJoinTests: XCTestCase {
    static let bridge =
        "@interface CrashBridge\n@property (nonatomic, readonly) id clock;\n@property (nonatomic, readonly) id store;\n@end\n"

    /// `Sub` (A/Sub.m) is declared in Base/Base.h beside `Base` (Base/Base.m); each class's group
    /// adds its `bridge` property there, and both add `@class CrashBridge;` above them.
    private func tree() throws -> (project: TemporaryProject, configuration: Configuration) {
        let project = try TemporaryProject(
            self,
            files: [
                ".di-lint.yml": FixSamples.config,
                "Container.h":
                    "@interface Container\n+ (instancetype)sharedInstance;\n@property (nonatomic, readonly) id clock;\n@property (nonatomic, readonly) id store;\n@end\n",
                "Base/Base.h": "@interface Base\n- (void)tick;\n@end\n\n@interface Sub : Base\n- (void)save;\n@end\n",
                "Base/Base.m":
                    "#import \"Base.h\"\n#import \"../Container.h\"\n\n@implementation Base\n- (void)tick {\n    id c = [Container sharedInstance].clock;\n}\n@end\n",
                "A/Sub.m":
                    "#import \"../Base/Base.h\"\n#import \"../Container.h\"\n\n@implementation Sub\n- (void)save {\n    id s = [Container sharedInstance].store;\n}\n@end\n",
                "A/CrashBridge.h": Self.bridge, "Base/CrashBridge.h": Self.bridge,
            ])
        let configuration = try Configuration.parse(yaml: FixSamples.config, baseDirectory: project.root.path)
        return (project, configuration)
    }

    private func plan(_ project: TemporaryProject, _ configuration: Configuration) throws -> (Fixer, FixPlan) {
        let fixer = Fixer(configuration: configuration)
        let files = try FileCollector(excludes: [], baseDirectory: project.root.path).collect([project.root.path])
        let plan = fixer.plan(files: files, phase: .inject)
        XCTAssertEqual(plan.accepted.map(\.title).sorted(), ["Objective-C class Base", "Objective-C class Sub"])
        return (fixer, plan)
    }

    /// As planned, the two groups share nothing: `A` (Sub) lands first, alone, and verifies.
    func testIndependentUnitsStayApart() throws {
        let (project, configuration) = try tree()
        let (fixer, plan) = try self.plan(project, configuration)
        let split = fixer.split(plan, mode: .directory, root: project.root.path, repositoryRoot: project.root.path)
        XCTAssertEqual(split.patches.map(\.unit), ["A", "Base"])
        XCTAssertTrue(split.patches.allSatisfy { $0.verified && $0.merged.isEmpty }, "\(split.patches)")
        XCTAssertTrue(split.isSound)
    }

    /// Sub's group made to rely on Base's for the forward declaration (the `@class CrashBridge;`
    /// that both add is left in Base's group only, as a planner that adds a shared declaration
    /// once would): nothing in Sub's edits names `Base`, so `A` still comes first, and on its own
    /// the header's `CrashBridge *bridge` names an unknown type, and Sub.m's `self.bridge.store` fails
    /// to compile. The re-parse catches it; `A` is
    /// joined with `Base` into one patch whose header and summary say why, and that patch
    /// verifies and equals the one run.
    func testUnitThatFailsAloneIsJoinedWithTheNext() throws {
        let (project, configuration) = try tree()
        var (fixer, plan) = try self.plan(project, configuration)
        let header = FixWorkspace.realPath(project.root.appendingPathComponent("Base/Base.h").path)
        let sub = try XCTUnwrap(plan.groups.firstIndex { $0.title == "Objective-C class Sub" })
        let before = plan.groups[sub].edits.count
        plan.groups[sub].edits.removeAll { $0.path == header && $0.replacement.contains("@class CrashBridge;") }
        XCTAssertEqual(plan.groups[sub].edits.count, before - 1, "\(plan.groups[sub].edits)")
        XCTAssertTrue(
            plan.groups.contains { g in
                g.title == "Objective-C class Base"
                    && g.edits.contains { $0.path == header && $0.replacement.contains("@class CrashBridge;") }
            })

        let split = fixer.split(plan, mode: .directory, root: project.root.path, repositoryRoot: project.root.path)
        XCTAssertEqual(split.patches.count, 1, "\(split.patches.map(\.unit))")
        let patch = try XCTUnwrap(split.patches.first)
        XCTAssertEqual(patch.unit, "A + Base")
        XCTAssertEqual(patch.accesses, 2)
        XCTAssertTrue(patch.verified, patch.failure ?? "")
        XCTAssertEqual(patch.merged.count, 1, "\(patch.merged)")
        let why = patch.merged.first ?? ""
        // `bridge` typed with an unknown name: clang's error on the property read that uses it
        XCTAssertTrue(why.hasPrefix("A did not verify without Base (re-parse of "), why)
        XCTAssertTrue(why.contains("A/Sub.m: new error: "), why)
        XCTAssertTrue(split.isSound)
        XCTAssertTrue(split.table.contains("1: joined: A did not verify without Base ("), split.table)
        let text = String(decoding: patch.text, as: UTF8.self)
        XCTAssertTrue(text.contains("\nJoined: A did not verify without Base ("), text)
        XCTAssertTrue(text.contains("Verified on the tree patches 1-1 leave"), text)
    }

    /// The last unit of the order has nothing after it to join: when it fails, the patch is
    /// written, marked not verified with the reason, and the split is not sound (exit 1).
    func testLastUnitThatFailsIsReportedNotHidden() throws {
        let (project, configuration) = try tree()
        var (fixer, plan) = try self.plan(project, configuration)
        let header = FixWorkspace.realPath(project.root.appendingPathComponent("Base/Base.h").path)
        // neither group declares the bridge's class any more: no order makes them verify
        for i in plan.groups.indices {
            plan.groups[i].edits.removeAll { $0.path == header && $0.replacement.contains("@class CrashBridge;") }
        }
        let split = fixer.split(plan, mode: .directory, root: project.root.path, repositoryRoot: project.root.path)
        XCTAssertEqual(split.patches.map(\.unit), ["A + Base"])
        XCTAssertEqual(split.patches.first?.verified, false)
        XCTAssertTrue(
            split.patches.first?.failure?.hasPrefix("re-parse of ") == true, split.patches.first?.failure ?? "")
        XCTAssertFalse(split.isSound)
        XCTAssertTrue(split.table.contains("1: NOT verified: "), split.table)
    }
}
