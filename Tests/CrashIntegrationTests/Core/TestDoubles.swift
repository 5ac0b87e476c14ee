@testable import CrashIntegration
import CrashRuntime
import Foundation
import XCTest

/// A clock the test moves by hand.
final class TestDateProvider: DateProvider {
    private let lock = NSLock()
    private var current: Date

    init(_ date: Date = Date()) { current = date }

    func date() -> Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// What the integration asked its dependencies to do, in order.
final class CallLog {
    private let lock = NSLock()
    private var calls: [String] = []

    func append(_ call: String) { lock.withLock { calls.append(call) } }
    var all: [String] { lock.withLock { calls } }
}

/// A crash reporter that only records calls; refuses install without a bridge like the C one.
final class RecordingCrashReporter: CrashReporter {
    let log: CallLog
    var crashedLastLaunch = false
    var activeDurationSinceLastCrash: TimeInterval = 0
    var terminateHandler: TerminateHandler?
    private(set) var bridgeTable: seam_crash_bridge?

    init(log: CallLog = CallLog()) { self.log = log }

    func setBridge(_ bridge: seam_crash_bridge) throws {
        log.append("setBridge")
        bridgeTable = bridge
    }

    func install() throws {
        guard bridgeTable != nil else { throw CrashIntegrationError("install without a bridge") }
        log.append("install")
    }

    func uninstall() { log.append("uninstall") }
}

/// Dependencies for one test: a private notification center, a hand-moved clock, and hooks to
/// see what the integration built. No global state.
final class TestDependencies: CrashIntegrationProvider {
    let clock = TestDateProvider()
    var dateProvider: DateProvider { clock }
    let center = NotificationCenter()
    lazy var notificationCenter: NotificationCenterWrapper = FoundationNotificationCenter(center: center)
    var systemInfo: [String: String] = ["os.name": "TestOS", "machine": "test-machine"]
    let log = CallLog()
    /// Used instead of the real C reporter when set.
    var reporter: CrashReporter?
    private(set) var madeReporter: CrashReporter?
    private(set) weak var sessionBridge: CrashBridge?

    func makeCrashReporter(options: CrashIntegrationOptions) throws -> CrashReporter {
        log.append("makeCrashReporter")
        let made = try reporter ?? SeamCrashReporter(stateDirectory: options.dumpDirectory)
        madeReporter = made
        return made
    }

    func makeCrashIntegrationSessionHandler(
        options: CrashIntegrationOptions,
        bridge: CrashBridge
    ) throws
        -> CrashIntegrationSessionHandler
    {
        log.append("makeSessionHandler")
        sessionBridge = bridge
        return try CrashIntegrationSessionHandler.standard(options: options, bridge: bridge)
    }

    func post(_ name: Notification.Name) { notificationCenter.post(name: name) }
}

extension XCTestCase {
    /// A fresh directory removed after the test.
    func makeTemporaryDirectory() -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("seam-core-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// The reporter's launch record as key → number.
    func readLaunchRecord(
        in directory: String, file: StaticString = #filePath,
        line: UInt = #line
    ) -> [String: Double] {
        let path = directory + "/launch-record"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            XCTFail("no launch record at \(path)", file: file, line: line)
            return [:]
        }
        var record: [String: Double] = [:]
        for entry in text.split(separator: "\n") {
            let parts = entry.split(separator: "=")
            record[String(parts[0])] = Double(parts[1])
        }
        return record
    }

    func writeLaunchRecord(_ text: String, in directory: String) {
        try! text.write(toFile: directory + "/launch-record", atomically: true, encoding: .utf8)
    }
}
