import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A crash of one build, processed after the program file was replaced by another build: the
/// report still names the crashing function, file and line, read from the copy of the crashed
/// build the integration kept at install (`dumps/symbols/<build ID>/crash-demo`).
final class SymbolStoreUpdateTests: XCTestCase {
    func testCrashOfTheOldBuildIsSymbolicatedAfterAnUpdate() throws {
        let store = DemoStoreDirectory(self)
        let app = try installedCopy(named: "app")

        let crash = try CrashDemoProcess.run(
            ["--store", store.path, "crash", "segv"], backtracer: .disabled,
            executable: app)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, crash.summary)
        let buildID = try XCTUnwrap(try keptBuild(of: "crash-demo", in: store), "the app's build is kept")
        let kept = store.dumps.appendingPathComponent("symbols/\(buildID)/crash-demo")
        XCTAssertEqual(try Data(contentsOf: kept), try Data(contentsOf: app), "the module itself, byte for byte")
        XCTAssertNotNil(try keptBuild(of: "libswiftCore.so", in: store), "the runtime's symbols are kept too")

        try replaceWithAnotherBuild(app, buildID: buildID)
        let relaunch = try CrashDemoProcess.run(
            ["--store", store.path, "launch"], backtracer: .disabled, executable: app)
        XCTAssertTrue(relaunch.exitedCleanly, relaunch.summary)
        let report = try onlyReport(relaunch)
        let frame = try XCTUnwrap(
            frames(report).first { ($0["function"] as? String)?.contains("crashBySegmentationFault()") == true },
            "the crashing function, from the kept build: \(frames(report).map { $0["function"] ?? "?" })")
        XCTAssertEqual((frame["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }, "Crashers.swift")
        XCTAssertGreaterThan(frame["line"] as? Int ?? 0, 0, "\(frame)")
        let module = try XCTUnwrap(modules(report).first { ($0["path"] as? String) == app.path })
        XCTAssertEqual(module["symbols"] as? String, "ok")
        XCTAssertEqual(module["symbols_source"] as? String, "symbol_store")
        XCTAssertEqual(module["build_id"] as? String, buildID)
    }

    func testWithoutTheKeptBuildTheNewBinaryIsRefused() throws {
        let store = DemoStoreDirectory(self)
        let app = try installedCopy(named: "app")
        let crash = try CrashDemoProcess.run(
            ["--store", store.path, "crash", "segv"], backtracer: .disabled, executable: app)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, crash.summary)
        let symbols = store.dumps.appendingPathComponent("symbols")
        let buildID = try XCTUnwrap(try keptBuild(of: "crash-demo", in: store))
        try replaceWithAnotherBuild(app, buildID: buildID)
        try FileManager.default.removeItem(at: symbols)
        let relaunch = try CrashDemoProcess.run(
            ["--store", store.path, "launch"], backtracer: .disabled, executable: app)
        let report = try onlyReport(relaunch)
        let module = try XCTUnwrap(modules(report).first { ($0["path"] as? String) == app.path })
        XCTAssertEqual(
            module["symbols"] as? String, "build_id_mismatch", "the other build is never read for this crash")
        XCTAssertNil(module["symbols_source"] as? String)
        XCTAssertFalse(
            frames(report).contains { ($0["function"] as? String)?.contains("crashBySegmentationFault") == true })
    }

    /// The build ID under which the store keeps the module file `name` (the store also holds
    /// the Swift runtime libraries' symbols, each under its own build ID).
    private func keptBuild(of name: String, in store: DemoStoreDirectory) throws -> String? {
        let symbols = store.dumps.appendingPathComponent("symbols")
        let builds = try FileManager.default.contentsOfDirectory(atPath: symbols.path)
        let holding = builds.filter {
            FileManager.default.fileExists(atPath: symbols.appendingPathComponent("\($0)/\(name)").path)
        }
        XCTAssertEqual(holding.count, 1, "one build of \(name) kept: \(builds)")
        return holding.first
    }

    /// A copy of the built crash-demo in a directory of its own, removed after the test.
    private func installedCopy(named name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "crash-demo-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("crash-demo")
        try FileManager.default.copyItem(at: try CrashDemoProcess.executable(), to: app)
        return app
    }

    /// Replaces the program file (new inode, as a deployment does) with the same program under
    /// another build ID: the build ID's bytes in its note changed.
    private func replaceWithAnotherBuild(_ app: URL, buildID: String) throws {
        var bytes = [UInt8](try Data(contentsOf: app))
        let id = stride(from: 0, to: buildID.count, by: 2).map {
            UInt8(
                buildID[
                    buildID.index(
                        buildID.startIndex, offsetBy: $0)..<buildID.index(buildID.startIndex, offsetBy: $0 + 2)],
                radix: 16)!
        }
        let at = try XCTUnwrap(
            (0...(bytes.count - id.count)).first { bytes[$0..<$0 + id.count].elementsEqual(id) },
            "the build ID is in the file")
        bytes[at + id.count - 1] ^= 0xff
        let next = app.deletingLastPathComponent().appendingPathComponent("crash-demo.next")
        try Data(bytes).write(to: next)
        chmod(next.path, 0o755)
        XCTAssertEqual(rename(next.path, app.path), 0)
    }

    private func onlyReport(_ run: ChildRun) throws -> [String: Any] {
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, run.summary)
        return try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try XCTUnwrap(lines.first).utf8)) as? [String: Any])
    }

    private func frames(_ report: [String: Any]) -> [[String: Any]] {
        (report["crashed_thread"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
    }

    private func modules(_ report: [String: Any]) -> [[String: Any]] {
        report["modules"] as? [[String: Any]] ?? []
    }
}
