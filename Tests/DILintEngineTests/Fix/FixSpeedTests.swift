import Foundation
import XCTest
@testable import DILintEngine

/// The shortcuts that keep a fix run cheap give the answers of the long way: the line ending
/// found with memchr, the weak-self check over the method's tokens only, and the dry-run diff
/// that compares a file with the bytes its digest was made from.
final class FixSpeedTests: XCTestCase {
    private func tokens(_ text: String, name: String = "F.m") throws -> FixTokens {
        let root = try temporaryDirectory(self)
        let url = root.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        let workspace = FixWorkspace(configuration: Configuration(), compileArguments: [:])
        return FixTokens(file: try workspace.parse(FixWorkspace.realPath(url.path)))
    }

    /// The byte-by-byte count the memchr scan replaced.
    private func walkedLineEnding(_ bytes: [UInt8]) -> String {
        var crlf = 0, lf = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            if i > 0 && bytes[i - 1] == UInt8(ascii: "\r") { crlf += 1 } else { lf += 1 }
        }
        return crlf > lf ? "\r\n" : "\n"
    }

    func testLineEndingIsTheMajorityOfTheFilesLineFeeds() throws {
        let cases = [
            "int a;\r\nint b;\r\nint c;\n", // mostly CRLF
            "int a;\r\nint b;\nint c;\n", // mostly LF
            "int a;\r\nint b;\n", // a tie: LF
            "\nint a;\r\n", // a line feed at offset 0 counts as LF
            "int a;", // none
            "int a;\r\n\r\n\r", // a CR that ends no line is not counted
        ]
        for text in cases {
            let tokens = try tokens(text, name: "F.c")
            XCTAssertEqual(tokens.lineEnding, walkedLineEnding(Array(text.utf8)), text.debugDescription)
        }
        XCTAssertEqual(try tokens("int a;\r\nint b;\r\nint c;\n", name: "F.c").lineEnding, "\r\n")
        XCTAssertEqual(try tokens("int a;\r\nint b;\n", name: "F.c").lineEnding, "\n")
    }

    func testWeakSelfBlockCheckSeesOnlyTheMethodsOwnWeakVariables() throws {
        let source = """
            @implementation A
            - (void)other {
                __weak A *weakSelf = self;
            }
            - (void)run {
                [self.queue async:^{ [weakSelf go]; id r = [Container sharedInstance].crashReporter; }];
            }
            - (void)guarded {
                __weak typeof(self) weakSelf = self;
                [self.queue async:^{ [weakSelf go]; id r = [Container sharedInstance].crashReporter; }];
            }
            @end

            """
        let tokens = try tokens(source)
        let accesses = (0..<tokens.count).filter { tokens.text($0) == "Container" }
        XCTAssertEqual(accesses.count, 2)
        let run = try XCTUnwrap(tokens.enclosingMethod(at: accesses[0]))
        let guarded = try XCTUnwrap(tokens.enclosingMethod(at: accesses[1]))
        XCTAssertEqual([run.name, guarded.name], ["run", "guarded"])
        // `-run` declares no weak variable (`-other`'s is not its own)
        XCTAssertFalse(tokens.isInBlockAvoidingSelf(accesses[0], method: run))
        XCTAssertTrue(tokens.isInBlockAvoidingSelf(accesses[1], method: guarded))
    }

    func testDryRunDiffLeavesOutAFileChangedSincePlanningAndKeepsTheOthers() throws {
        let root = try temporaryDirectory(self)
        let files = [
            "Bridge.h": "@interface Bridge\n@property (nonatomic, readonly) id clock;\n@end\n",
            "A.m":
                "#import \"Bridge.h\"\n@interface A\n@end\n@implementation A\n- (id)run {\n    return [Container sharedInstance].clock;\n}\n@end\n",
            "B.m":
                "#import \"Bridge.h\"\n@interface B\n@end\n@implementation B\n- (id)run {\n    return [Container sharedInstance].clock;\n}\n@end\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: root.appendingPathComponent(name)) }
        let fixer = Fixer(
            configuration: try Configuration.parse(
                yaml: "containers: [Container.sharedInstance]\nbridge-type: Bridge\n", baseDirectory: root.path))
        let paths = try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path])
        let plan = fixer.plan(files: paths, phase: .inject)
        let before = String(decoding: plan.unifiedDiff(root: root.path), as: UTF8.self)
        XCTAssertTrue(before.contains("+++ b/A.m") && before.contains("+++ b/B.m"), before)
        // the JSON plan carries the digests only
        XCTAssertFalse(plan.json().contains("digested"))
        XCTAssertEqual(plan.digests.count, 2, "\(plan.digests.keys.sorted())")
        // A.m changes on disk after planning (same length, other bytes): its diff is left out
        let a = root.appendingPathComponent("A.m")
        try Data(files["A.m"]!.replacingOccurrences(of: "- (id)run", with: "- (id)ran").utf8).write(to: a)
        let after = String(decoding: plan.unifiedDiff(root: root.path), as: UTF8.self)
        XCTAssertFalse(after.contains("A.m"), after)
        XCTAssertTrue(after.contains("+++ b/B.m"), after)
        // a plan read back from its JSON (no bytes kept) decides the same by the digests
        let decoded = try JSONDecoder().decode(FixPlan.self, from: Data(plan.json().utf8))
        XCTAssertEqual(String(decoding: decoded.unifiedDiff(root: root.path), as: UTF8.self), after)
        try Data(files["A.m"]!.utf8).write(to: a)
        XCTAssertEqual(String(decoding: decoded.unifiedDiff(root: root.path), as: UTF8.self), before)
    }
}
