@testable import CrashIntegration
import CrashRuntime
import XCTest

/// The integration builds the bridge, hands it to the session handler, injects it into the
/// reporter and only then installs; the C reporter refuses what breaks that order.
final class IntegrationOrderingTests: XCTestCase {
    func testBridgeIsBuiltAndInjectedBeforeInstall() throws {
        let dependencies = TestDependencies()
        let reporter = RecordingCrashReporter(log: dependencies.log)
        dependencies.reporter = reporter
        let options = CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory())

        let integration = try CrashIntegration(options: options, dependencies: dependencies)

        XCTAssertEqual(
            dependencies.log.all,
            ["makeCrashReporter", "makeSessionHandler", "setBridge", "install"])
        XCTAssertTrue(dependencies.sessionBridge === integration.bridge)
        XCTAssertEqual(
            reporter.bridgeTable?.context,
            Unmanaged.passUnretained(integration.bridge).toOpaque())
        integration.uninstall()
        XCTAssertEqual(dependencies.log.all.last, "uninstall")
        XCTAssertFalse(integration.isInstalled)
    }

    func testInstalledCReporterUsesTheInjectedBridgeNotTheContainer() throws {
        let dependencies = TestDependencies()
        let posted = CallLog()
        let token = dependencies.notificationCenter.addObserver(forName: .seamCrashReporterDidInstall) { _ in
            posted.append("didInstall")
        }
        defer { dependencies.notificationCenter.removeObserver(token) }

        let integration = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory()),
            dependencies: dependencies)

        let reporter = try XCTUnwrap(dependencies.madeReporter as? SeamCrashReporter)
        XCTAssertTrue(reporter.isInstalled)
        XCTAssertFalse(reporter.usedContainerFallback)
        XCTAssertEqual(posted.all, ["didInstall"], "the C layer posts through the bridge's notification center")
        XCTAssertNotNil(integration.bridge.terminateHandler, "install fills the terminate slot")
        XCTAssertEqual(seam_capture_is_installed(), 1)

        integration.uninstall()
        XCTAssertNil(integration.bridge.terminateHandler)
        XCTAssertEqual(seam_capture_is_installed(), 0)
    }

    func testCReporterRefusesInstallWithoutBridgeOrContainer() throws {
        XCTAssertNil(seam_container_shared(), "no container may be registered here")
        let reporter = try SeamCrashReporter(stateDirectory: makeTemporaryDirectory())

        XCTAssertThrowsError(try reporter.install()) { error in
            XCTAssertTrue("\(error)".contains("no bridge set"), "\(error)")
        }
        XCTAssertFalse(reporter.isInstalled)
        XCTAssertEqual(seam_capture_is_installed(), 0)
    }

    func testCReporterRefusesBridgeAfterInstall() throws {
        let dependencies = TestDependencies()
        let integration = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory()),
            dependencies: dependencies)
        let reporter = try XCTUnwrap(dependencies.madeReporter)
        let lease = integration.bridge.retainedCTable()
        defer { lease.release() }

        XCTAssertThrowsError(try reporter.setBridge(lease.table)) { error in
            XCTAssertTrue("\(error)".contains("set the bridge before install"), "\(error)")
        }
    }

    func testCReporterRefusesIncompleteBridge() throws {
        let reporter = try SeamCrashReporter(stateDirectory: makeTemporaryDirectory())
        XCTAssertThrowsError(try reporter.setBridge(seam_crash_bridge())) { error in
            XCTAssertTrue("\(error)".contains("function pointer is NULL"), "\(error)")
        }
    }

    func testBadOptionsAreRejectedByName() {
        XCTAssertThrowsError(
            try CrashIntegration(
                options: CrashIntegrationOptions(
                    dumpDirectory: makeTemporaryDirectory(),
                    annotations: ["": "x"]),
                dependencies: TestDependencies())
        ) { error in
            XCTAssertTrue("\(error)".contains("CrashIntegrationOptions.annotations"), "\(error)")
        }
        XCTAssertEqual(seam_capture_is_installed(), 0)
    }
}
