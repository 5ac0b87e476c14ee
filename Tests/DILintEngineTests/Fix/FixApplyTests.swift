import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// Writing a plan (digests, mode, atomic replace), overlap detection and the diff writer's edge cases.
final class FixApplyTests: XCTestCase {
    let config = FixSamples.config
    let source = FixSamples.reporter

    /// A directory with the bridge's header, which the rewritten files import.
    func projectDirectory() throws -> URL {
        let root = try temporaryDirectory(self)
        try FixSamples.bridgeHeader.write(
            to: root.appendingPathComponent("CrashBridge.h"), atomically: true, encoding: .utf8)
        return root
    }

    func testApplyRefusesAFileChangedSincePlanningAndWritesNothing() throws {
        let root = try projectDirectory()
        let file = root.appendingPathComponent("Reporter.m")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let other = root.appendingPathComponent("Other.m")
        try source.replacingOccurrences(of: "Reporter\n", with: "Other\n").write(
            to: other, atomically: true, encoding: .utf8)
        let plan = Fixer(configuration: try Configuration.parse(yaml: config, baseDirectory: root.path))
            .plan(files: [file.path, other.path], phase: .inject)
        XCTAssertEqual(plan.accepted.count, 2)
        try (source + "// edited meanwhile\n").write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try FixApplier.apply(plan)) { error in
            XCTAssertTrue("\(error)".contains("changed since the fix was planned"), "\(error)")
        }
        XCTAssertEqual(
            try String(contentsOf: other, encoding: .utf8),
            source.replacingOccurrences(of: "Reporter\n", with: "Other\n"))
    }

    func testApplyKeepsTheFileModeAndLeavesNoTemporaryFile() throws {
        let root = try projectDirectory()
        let file = root.appendingPathComponent("Reporter.m")
        try source.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(file.path, 0o640), 0)
        let plan = Fixer(configuration: try Configuration.parse(yaml: config, baseDirectory: root.path)).plan(
            files: [file.path], phase: .inject)
        try FixApplier.apply(plan)
        var st = stat()
        XCTAssertEqual(stat(file.path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o640)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root.path).sorted(), ["CrashBridge.h", "Reporter.m"])
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("self.bridge ? self.bridge.crashReporter"))
    }

    func testOverlappingEditsAreFound() {
        let edits = [
            TextEdit(path: "f", range: 0..<10, replacement: "a"), TextEdit(path: "f", range: 5..<12, replacement: "b"),
            TextEdit(path: "f", range: 12..<12, replacement: "c"),
            TextEdit(path: "f", range: 12..<12, replacement: "d"),
            TextEdit(path: "f", range: 12..<15, replacement: "e"),
        ]
        let pairs = EditApplication.overlaps(edits)
        XCTAssertEqual(pairs.count, 1)
        XCTAssertEqual(pairs.first?.0.replacement, "a")
        XCTAssertEqual(pairs.first?.1.replacement, "b")
    }

    func testDiffOfAFileWithoutFinalNewlineAndCRLFAppliesWithGit() throws {
        let root = try temporaryDirectory(self)
        let bytes = Array("one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\neight\r\nnine\r\nten".utf8)
        try Data(bytes).write(to: root.appendingPathComponent("f.c"))
        try FixFixtureTests.git(root, "init", "-q")
        let two = 5, ten = bytes.count - 3
        let edits = [
            TextEdit(path: "f.c", range: two..<(two + 3), replacement: "TWO"),
            TextEdit(path: "f.c", range: ten..<bytes.count, replacement: "TEN"),
            TextEdit(path: "f.c", range: 0..<0, replacement: "zero\r\n"),
        ]
        .sorted { $0.range.lowerBound < $1.range.lowerBound }
        let diff = UnifiedDiff.diff(path: "f.c", old: bytes, edits: edits)
        let text = String(decoding: diff, as: UTF8.self)
        XCTAssertTrue(text.contains("+zero\r\n"), text)
        XCTAssertTrue(text.contains("-ten\n\\ No newline at end of file\n+TEN\n\\ No newline at end of file\n"), text)
        let patch = root.appendingPathComponent("p.patch")
        try Data(diff).write(to: patch)
        let applied = try FixFixtureTests.git(root, "apply", "p.patch")
        XCTAssertEqual(applied.status, 0, applied.stderr + text)
        XCTAssertEqual(
            Array(try Data(contentsOf: root.appendingPathComponent("f.c"))), EditApplication.apply(edits, to: bytes))
    }
}
