import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// seam_capture_install in this process: configuration errors are reported with a reason,
/// and a real install/uninstall leaves the previous signal handlers exactly as they were.
final class CaptureInstallTests: XCTestCase {
    private func install(directory: String?, annotations: Int = 0, nullKey: Bool = false) -> (Int32, String) {
        var error = [CChar](repeating: 0, count: 256)
        let keys: [UnsafePointer<CChar>?] = (0..<annotations).map { i in
            nullKey && i == 0 ? nil : UnsafePointer(strdup("k\(i)"))
        }
        let values: [UnsafePointer<CChar>?] = (0..<annotations).map { _ in UnsafePointer(strdup("v")) }
        defer { (keys + values).forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        var config = seam_capture_config()
        let status: Int32 = keys.withUnsafeBufferPointer { k in
            values.withUnsafeBufferPointer { v in
                config.annotation_keys = k.baseAddress
                config.annotation_values = v.baseAddress
                config.annotation_count = annotations
                guard let directory else { return seam_capture_install(&config, &error, error.count) }
                return directory.withCString { dir in
                    config.dump_directory = dir
                    return seam_capture_install(&config, &error, error.count)
                }
            }
        }
        return (status, String(cString: error))
    }

    func testConfigurationErrorsNameTheProblem() throws {
        let file = try makeProbeDirectory(self, "install").appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let cases: [(String?, Int, Bool, String)] = [
            (nil, 0, false, "no dump directory configured"),
            ("", 0, false, "no dump directory configured"),
            (file.path + "/dumps", 0, false, "cannot create dump directory \(file.path + "/dumps")"),
            ("/tmp/seam-unused", 129, false, "too many annotation entries: 129 (at most 128)"),
            ("/tmp/seam-unused", 2, true, "annotation entry 0 has a NULL key or value"),
        ]
        for (directory, count, nullKey, expected) in cases {
            let (status, message) = install(directory: directory, annotations: count, nullKey: nullKey)
            XCTAssertEqual(status, -1, expected)
            XCTAssertTrue(message.contains(expected), "expected '\(expected)', got '\(message)'")
            XCTAssertEqual(seam_capture_is_installed(), 0)
        }
    }

    func testInstallLocksAnEmptyDumpAndUninstallRestoresEverything() throws {
        let directory = try makeProbeDirectory(self, "inproc").appendingPathComponent("pending")
        let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGTERM]
        let before = signals.map(currentHandler)
        let (status, message) = install(directory: directory.path)
        XCTAssertEqual(status, 0, message)
        XCTAssertEqual(seam_capture_is_installed(), 1)
        XCTAssertNotNil(seam_capture_terminate_handler())
        XCTAssertGreaterThan(seam_capture_refresh_modules(), 3)
        let dump = URL(fileURLWithPath: String(cString: seam_capture_dump_path()))
        XCTAssertEqual(dump.deletingLastPathComponent().path, directory.path)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: dump.path)[.posixPermissions] as? Int, 0o600)
        XCTAssertNotEqual(currentHandler(SIGSEGV), before[0], "our handler is installed")
        XCTAssertEqual(currentHandler(SIGTERM), before[6], "SIGTERM is opt-in")

        let summary = try processIntermediateDumps(
            in: directory, into: directory.deletingLastPathComponent().appendingPathComponent("reports"))
        XCTAssertEqual(summary.skippedInUse, [dump], "a live process's dump is never claimed")

        seam_capture_uninstall()
        XCTAssertEqual(seam_capture_is_installed(), 0)
        XCTAssertNil(seam_capture_terminate_handler())
        XCTAssertFalse(FileManager.default.fileExists(atPath: dump.path), "unused dump removed")
        XCTAssertEqual(signals.map(currentHandler), before)
    }

    func testUninstallKeepsAHandlerInstalledOverOurs() throws {
        let directory = try makeProbeDirectory(self, "over").appendingPathComponent("pending")
        var original = sigaction()
        sigaction(SIGBUS, nil, &original)
        defer { sigaction(SIGBUS, &original, nil) }
        let before = currentHandler(SIGSEGV)
        XCTAssertEqual(install(directory: directory.path).0, 0)
        var custom = sigaction()
        custom.__sigaction_handler.sa_handler = { _ in }
        sigaction(SIGBUS, &custom, nil)
        let customAddress = currentHandler(SIGBUS)
        seam_capture_uninstall()
        XCTAssertEqual(currentHandler(SIGBUS), customAddress, "the later handler is left in place")
        XCTAssertEqual(currentHandler(SIGSEGV), before)
    }

    private func currentHandler(_ signal: Int32) -> UInt {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
    }
}
