import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `launch` on a store that is full or read-only: the app starts anyway (crash capture off,
/// processing deferred, a warning), and the pending dump is reported once the store is usable.
final class LaunchOnFaultyStoreTests: XCTestCase {
    func testReadOnlyStore() throws {
        let (mount, store) = try storeOnItsOwnFileSystem(megabytes: 32)
        try crashInto(store)
        XCTAssertEqual(run("/bin/mount", ["-o", "remount,ro", mount.path]), 0)
        try assertStartsAndDefers(store)
        XCTAssertEqual(run("/bin/mount", ["-o", "remount,rw", mount.path]), 0)
        try assertReportedAfterwards(store)
    }

    func testFullStore() throws {
        let (mount, store) = try storeOnItsOwnFileSystem(megabytes: 32)
        try crashInto(store)
        let filler = mount.appendingPathComponent("filler")
        fill(filler)
        try assertStartsAndDefers(store)
        try FileManager.default.removeItem(at: filler)
        try assertReportedAfterwards(store)
    }

    private func crashInto(_ store: URL) throws {
        let crash = try CrashDemoProcess.run(["--store", store.path, "crash", "segv"], backtracer: .disabled)
        XCTAssertEqual(crash.diedOfSignal, SIGSEGV, crash.summary)
    }

    private func assertStartsAndDefers(_ store: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let launch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
        XCTAssertTrue(launch.exitedCleanly, "the app starts: \(launch.summary)", file: file, line: line)
        XCTAssertTrue(launch.stderr.contains("crash-demo: warning:"), launch.stderr, file: file, line: line)
        let status = try launch.launchStatus()
        XCTAssertEqual(status.newReports, 0, file: file, line: line)
        let json = try XCTUnwrap(launch.stderr.split(separator: "\n").last { $0.hasPrefix(LaunchStatusLine.prefix) })
        XCTAssertTrue(json.contains("\"processing_deferred\":true"), String(json), file: file, line: line)
        let dumps =
            try FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("dumps").path)
            + ((try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("dumps/claimed").path))
                ?? [])
        XCTAssertTrue(
            dumps.contains { $0.hasSuffix(".seamdump") }, "the dump is kept: \(dumps)", file: file, line: line)
    }

    private func assertReportedAfterwards(_ store: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let launch = try CrashDemoProcess.run(["--store", store.path, "launch"], backtracer: .disabled)
        XCTAssertTrue(launch.exitedCleanly, launch.summary, file: file, line: line)
        let reports = try launch.reports()
        XCTAssertEqual(reports.count, 1, launch.summary, file: file, line: line)
        XCTAssertNotNil(
            reports.first?.frame(named: "crashBySegmentationFault()"), "\(reports.first?.functions ?? [])",
            file: file, line: line)
    }

    /// A tmpfs of its own (root only), unmounted after the test; the store is a directory in it.
    private func storeOnItsOwnFileSystem(megabytes: Int) throws -> (mount: URL, store: URL) {
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("crash-demo-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", mount.path]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here")
        }
        addTeardownBlock {
            _ = self.run("/bin/umount", ["-l", mount.path])
            try? FileManager.default.removeItem(at: mount)
        }
        return (mount, mount.appendingPathComponent("store"))
    }

    /// Writes `url` until the file system is full.
    private func fill(_ url: URL) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5a, count: 64 * 1024)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        var small = [UInt8](repeating: 0, count: 1)
        while write(fd, &small, 1) > 0 {}
    }

    private func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
