import Foundation
import SeamTestSupport
import XCTest

/// The same fix run twice gives the same bytes: the bridge the inject plans first creates its
/// header and implementation in path order (they came from a dictionary, whose order differs
/// from process to process, so the JSON plan's `creates` and edits flipped between runs).
final class FixDeterminismCLITests: XCTestCase {
    func testTheBridgeInjectPlansFirstIsTheSameJSONEveryRun() throws {
        let fixture = packageRoot.appendingPathComponent("Tests/DILintEngineTests/Fixtures/fix/bridgegen-objc")
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: fixture.path)!
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".in") else { continue }
            files[String(relative.dropLast(3))] = try String(
                contentsOf: fixture.appendingPathComponent(relative), encoding: .utf8)
        }
        XCTAssertEqual(files.count, 4, "\(files.keys)")
        files[".di-lint.yml"] = try String(contentsOf: fixture.appendingPathComponent("config.yml"), encoding: .utf8)
        let project = try Project(self, files: files)
        var outputs = Set<String>()
        // two orders, each equally likely per process: six runs all alike by chance 1 time in 32
        for _ in 0..<6 {
            let run = try project.run("fix", "--phase", "inject", "--unsafe", ".", "--format", "json")
            XCTAssertTrue(run.stdout.contains("CrashBridge.h"), run.stderr)
            outputs.insert(run.stdout)
        }
        XCTAssertEqual(outputs.count, 1)
        let creates = try XCTUnwrap(
            ((project.run("fix", "--phase", "inject", "--unsafe", ".", "--format", "json").json["groups"]
                as? [[String: Any]])?.first { $0["creates"] != nil })?["creates"] as? [String])
        XCTAssertEqual(creates.map { ($0 as NSString).lastPathComponent }, ["CrashBridge.h", "CrashBridge.m"])
    }
}
