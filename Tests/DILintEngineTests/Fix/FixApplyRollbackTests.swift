import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// `FixApplier`'s all-or-nothing write when the file system refuses midway: files already
/// replaced are put back; when putting back fails too, the failure names each file left and
/// where its original is, and the next run (holding the journal) puts it back.
final class FixApplyRollbackTests: XCTestCase {
    /// `chattr` on `path` (`+i`: not even root may rename or replace it, or anything in it when a directory).
    @discardableResult
    func chattr(_ flag: String, _ path: String) -> Bool {
        (try? runProcess("/usr/bin/env", ["chattr", flag, path]))?.status == 0
    }

    /// A plan that rewrites `A/a.c` and `B/b.c` in one group.
    func plan(_ root: URL) throws -> (FixPlan, [String: String]) {
        var originals: [String: String] = [:]
        var plan = FixPlan(phase: .inject)
        var group = FixGroup(title: "both", edits: [], targets: [])
        for name in ["A/a.c", "B/b.c"] {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = "int \(name.prefix(1).lowercased()) = 1;\n"
            try text.write(to: url, atomically: false, encoding: .utf8)
            let path = FixWorkspace.realPath(url.path)
            originals[path] = text
            plan.digests[path] = SHA256.hex(Array(text.utf8))
            group.edits.append(TextEdit(path: path, range: 8..<9, replacement: "2"))
        }
        plan.groups = [group]
        return (plan, originals)
    }

    func testAReplaceThatFailsPutsBackTheFilesReplacedBefore() throws {
        let root = try temporaryDirectory(self)
        let (plan, originals) = try plan(root)
        let b = root.appendingPathComponent("B/b.c").path
        guard chattr("+i", b) else { throw XCTSkip("chattr +i is not available here") }
        defer { chattr("-i", b) }
        XCTAssertThrowsError(try FixApplier.apply(plan, tree: FixTree(root: root.path))) { error in
            let failure = error as? FixApplier.Failure
            XCTAssertEqual(failure?.unchanged, true, "\(error)")
            XCTAssertTrue(
                "\(error)".contains(
                    "b.c: cannot replace it (Operation not permitted); every file put back as it was: nothing written"),
                "\(error)")
        }
        chattr("-i", b)
        for (path, text) in originals { XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text) }
        let left = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
            $0.contains("di-lint-fix.") && !$0.hasSuffix(".lock")
        }
        XCTAssertEqual(left, [])
    }

    func testARollbackThatFailsNamesTheFilesLeftAndTheNextRunPutsThemBack() throws {
        let root = try temporaryDirectory(self)
        let (plan, originals) = try plan(root)
        let a = root.appendingPathComponent("A").path, b = root.appendingPathComponent("B/b.c").path
        guard chattr("+i", b) else { throw XCTSkip("chattr +i is not available here") }
        defer { chattr("-i", b); chattr("-i", a) }
        // once A/a.c is replaced its directory is made immutable: putting it back fails
        FixApplier.afterReplacing = { path in
            if path.hasSuffix("/A/a.c") { _ = try? runProcess("/usr/bin/env", ["chattr", "+i", a]) }
        }
        defer { FixApplier.afterReplacing = nil }
        let tree = FixTree(root: root.path)
        XCTAssertThrowsError(try FixApplier.apply(plan, tree: tree)) { error in
            let failure = error as? FixApplier.Failure
            XCTAssertEqual(failure?.unchanged, false, "\(error)")
            XCTAssertTrue("\(error)".contains("putting the files back failed for 1 of them"), "\(error)")
            XCTAssertEqual(failure?.details.count, 1)
            XCTAssertTrue(
                failure?.details.first?.contains("/A/a.c: left as planned, its original is in ") == true,
                "\(failure?.details ?? [])")
        }
        FixApplier.afterReplacing = nil
        chattr("-i", a)
        chattr("-i", b)
        let aPath = FixWorkspace.realPath(root.appendingPathComponent("A/a.c").path)
        XCTAssertEqual(try String(contentsOfFile: aPath, encoding: .utf8), "int a = 2;\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: tree.journalPath))
        var notes: [String] = []
        FixApplier.recoverInterrupted(tree) { notes.append($0) }
        XCTAssertTrue(notes.first?.contains("put back 1 file as before it") == true, "\(notes)")
        for (path, text) in originals { XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tree.journalPath))
        let left = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
            $0.contains("di-lint-fix.") && !$0.hasSuffix(".lock")
        }
        XCTAssertEqual(left, [])
    }
}
