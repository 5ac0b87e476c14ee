@testable import CrashIntegration
import CrashRuntime
import XCTest

/// C code without an injected bridge reads the table the container registered.
final class CFallbackTests: XCTestCase {
    private var container: DependencyContainer!
    private var clock: TestDateProvider!
    private var dumpDirectory: String!

    override func setUp() {
        super.setUp()
        clock = TestDateProvider()
        dumpDirectory = makeTemporaryDirectory() + "/dumps"
        container = DependencyContainer()
        container.dateProvider = clock
        container.notificationCenter = FoundationNotificationCenter(center: NotificationCenter())
        container.fallbackDumpDirectory = dumpDirectory
        container.fallbackAnnotations = ["release": "1.2.3"]
        container.registerAsCFallback()
    }

    override func tearDown() {
        container.unregisterCFallback()
        XCTAssertNil(seam_container_shared())
        super.tearDown()
    }

    func testContainerTableServesTheContainersValues() throws {
        let table = try XCTUnwrap(seam_container_shared()).pointee

        XCTAssertEqual(table.now(table.context), clock.date().timeIntervalSince1970)
        XCTAssertEqual(String(cString: try XCTUnwrap(table.dump_directory(table.context))), dumpDirectory)
        let annotations = table.annotations(table.context)
        XCTAssertEqual(annotations.count, 1)
        XCTAssertEqual(String(cString: annotations.keys[0]!), "release")
        XCTAssertEqual(String(cString: annotations.values[0]!), "1.2.3")
    }

    func testReporterWithoutBridgeInstallsThroughTheContainer() throws {
        let stateDirectory = makeTemporaryDirectory()
        let reporter = try SeamCrashReporter(stateDirectory: stateDirectory)
        let installedAt = clock.date().timeIntervalSince1970

        try reporter.install()

        XCTAssertTrue(reporter.usedContainerFallback)
        XCTAssertNotNil(container.terminateHandler, "the container's slot was filled")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: dumpDirectory),
            "capture got the container's dump directory")
        XCTAssertEqual(
            readLaunchRecord(in: stateDirectory)["last_checkpoint"]!, installedAt,
            accuracy: 0.001)

        clock.advance(by: 5)
        container.notificationCenter.post(name: .seamAppDidStart)
        XCTAssertEqual(
            readLaunchRecord(in: stateDirectory)["last_checkpoint"]!, installedAt + 5,
            accuracy: 0.001, "lifecycle observed through the container's center")

        reporter.uninstall()
        XCTAssertNil(container.terminateHandler)
        let record = readLaunchRecord(in: stateDirectory)
        XCTAssertEqual(record["clean_exit"], 1)
        XCTAssertEqual(record["active_before"]!, 5, accuracy: 0.001)
    }
}
