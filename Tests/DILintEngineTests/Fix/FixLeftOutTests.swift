import Foundation
import XCTest
@testable import DILintEngine

/// `Fixer.leftOut`: the files an isolated `fix` run's supervisor left out (they crashed its
/// process, ran it out of memory or outlived the deadline) are never parsed, each is a manual
/// item naming why, and the other files are planned as usual.
final class FixLeftOutTests: XCTestCase {
    func testALeftOutFileIsAManualItemNamingWhyAndIsNotParsedNorPlanned() throws {
        let root = try temporaryDirectory(self)
        let use = { (name: String) in
            "#import \"CrashBridge.h\"\n@interface \(name)\n@end\n@implementation \(name)\n- (void)run {\n    id r = [Container sharedInstance].crashReporter;\n}\n@end\n"
        }
        let files = [
            "CrashBridge.h": "@interface CrashBridge\n@property (nonatomic, readonly) id crashReporter;\n@end\n",
            "A.m": use("A"), "B.m": use("B"),
            // not a candidate (no access): parsed only when a planner looks for an interface
            "C.h": "@interface C\n@end\n",
        ]
        for (name, text) in files {
            try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n", baseDirectory: root.path)
        let paths = try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path])
        let real = { (name: String) in FixWorkspace.realPath(root.appendingPathComponent(name).path) }

        let all = Fixer(configuration: configuration).plan(files: paths, phase: .inject)
        XCTAssertEqual(Set(all.accepted.flatMap { $0.edits.map(\.path) }), [real("A.m"), real("B.m")])
        XCTAssertEqual(all.manual.count, 0)

        let fixer = Fixer(configuration: configuration)
        fixer.leftOut = [
            real("A.m"): "the parser crashed (signal 11, SIGSEGV)", real("C.h"): "took longer than 2 s to parse",
        ]
        let plan = fixer.plan(files: paths, phase: .inject)
        XCTAssertEqual(Set(plan.accepted.flatMap { $0.edits.map(\.path) }), [real("B.m")])
        XCTAssertEqual(plan.manual.map(\.reason), [.notParsed, .notParsed])
        XCTAssertEqual(
            plan.manual.map(\.detail), ["the parser crashed (signal 11, SIGSEGV)", "took longer than 2 s to parse"])
        XCTAssertEqual(plan.manual.map { ($0.path as NSString).lastPathComponent }, ["A.m", "C.h"])
        XCTAssertFalse(plan.isComplete)
        XCTAssertEqual(
            plan.unifiedDiff(),
            Fixer(configuration: configuration).plan(files: paths.filter { !$0.hasSuffix("A.m") }, phase: .inject)
                .unifiedDiff())
    }
}
