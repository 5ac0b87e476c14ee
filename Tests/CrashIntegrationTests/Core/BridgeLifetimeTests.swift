@testable import CrashIntegration
import CrashRuntime
import XCTest

/// The integration owns the bridge; the C reporter's context holds a retain while installed.
final class BridgeLifetimeTests: XCTestCase {
    func testBridgeLivesUntilIntegrationIsUninstalledAndReleased() throws {
        let dependencies = TestDependencies()
        let directory = makeTemporaryDirectory()
        weak var weakBridge: CrashBridge?
        var integration: CrashIntegration<TestDependencies>? = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: directory), dependencies: dependencies)
        weakBridge = integration?.bridge
        XCTAssertNotNil(weakBridge)

        // The installed C reporter still reaches the bridge's services.
        dependencies.clock.advance(by: 7)
        dependencies.post(.seamAppDidStart)
        XCTAssertEqual(
            readLaunchRecord(in: directory)["last_checkpoint"]!,
            dependencies.clock.date().timeIntervalSince1970, accuracy: 0.001)

        integration?.uninstall()
        XCTAssertNotNil(weakBridge, "the integration still owns the bridge")
        integration = nil
        XCTAssertNil(weakBridge)
    }

    func testReleasingAnInstalledIntegrationUninstallsAndFreesTheBridge() throws {
        weak var weakBridge: CrashBridge?
        var integration: CrashIntegration<TestDependencies>? = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory()),
            dependencies: TestDependencies())
        weakBridge = integration?.bridge
        XCTAssertEqual(seam_capture_is_installed(), 1)

        integration = nil

        XCTAssertEqual(seam_capture_is_installed(), 0)
        XCTAssertNil(weakBridge)
    }

    func testCTableKeepsBridgeAliveWithoutSwiftOwners() {
        let dependencies = TestDependencies()
        var bridge: CrashBridge? = CrashBridge(
            dependencies: dependencies, crashReporter: RecordingCrashReporter(),
            options: CrashIntegrationOptions(dumpDirectory: "/unused"))
        weak let weakBridge = bridge
        let lease = bridge!.retainedCTable()
        bridge = nil

        XCTAssertNotNil(weakBridge)
        XCTAssertEqual(
            lease.table.now(lease.table.context),
            dependencies.clock.date().timeIntervalSince1970)
        lease.release()
        XCTAssertNil(weakBridge)
    }

    func testFailedInstallDoesNotLeakTheBridge() throws {
        let first = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory()),
            dependencies: TestDependencies())
        let dependencies = TestDependencies()

        XCTAssertThrowsError(
            try CrashIntegration(
                options: CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory()),
                dependencies: dependencies)
        ) { error in
            XCTAssertTrue("\(error)".contains("another reporter is installed"), "\(error)")
        }
        XCTAssertEqual(
            dependencies.log.all,
            ["makeCrashReporter", "makeSessionHandler"])
        XCTAssertNil(dependencies.sessionBridge, "the refused integration's bridge is freed")
        XCTAssertTrue(first.isInstalled)
    }
}
