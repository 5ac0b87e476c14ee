@testable import CrashIntegration
import CrashRuntime
import XCTest

/// What the C reporter concludes from the record the previous launch left behind.
final class LaunchRecordTests: XCTestCase {
    func testUncleanPreviousLaunchIsACrash() throws {
        let directory = makeTemporaryDirectory()
        writeLaunchRecord(
            "clean_exit=0\nactive_before=100\nactive_since=1000\nlast_checkpoint=1030\n",
            in: directory)

        let reporter = try SeamCrashReporter(stateDirectory: directory)

        XCTAssertTrue(reporter.crashedLastLaunch)
        XCTAssertEqual(reporter.activeDurationSinceLastCrash, 130, accuracy: 0.001)
        XCTAssertNil(reporter.warning)
    }

    func testADumpWrittenAfterTheLastCheckpointDatesTheCrash() throws {
        let directory = makeTemporaryDirectory()
        writeLaunchRecord(
            "clean_exit=0\nactive_before=0\nactive_since=1000\nlast_checkpoint=1030\n",
            in: directory)
        let dump = directory + "/pending.dump"
        XCTAssertTrue(FileManager.default.createFile(atPath: dump, contents: Data("x".utf8)))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1060)], ofItemAtPath: dump)

        let reporter = try SeamCrashReporter(stateDirectory: directory)

        XCTAssertEqual(reporter.activeDurationSinceLastCrash, 60, accuracy: 0.001)
    }

    func testCleanPreviousLaunchCarriesItsActiveTime() throws {
        let directory = makeTemporaryDirectory()
        writeLaunchRecord(
            "clean_exit=1\nactive_before=42\nactive_since=0\nlast_checkpoint=1030\n",
            in: directory)

        let reporter = try SeamCrashReporter(stateDirectory: directory)

        XCTAssertFalse(reporter.crashedLastLaunch)
        XCTAssertEqual(reporter.activeDurationSinceLastCrash, 42)
    }

    func testCorruptRecordIsNamedAndNotFatal() throws {
        let directory = makeTemporaryDirectory()
        writeLaunchRecord("clean_exit=0\nactive_before=banana\n", in: directory)

        let reporter = try SeamCrashReporter(stateDirectory: directory)

        XCTAssertFalse(reporter.crashedLastLaunch)
        let warning = try XCTUnwrap(reporter.warning)
        XCTAssertTrue(warning.contains(directory + "/launch-record line 2"), warning)
    }

    func testUnusableStateDirectoryIsNamed() {
        XCTAssertThrowsError(try SeamCrashReporter(stateDirectory: "/proc/seam-no-such/state")) {
            XCTAssertTrue("\($0)".contains("cannot create /proc/seam-no-such"), "\($0)")
        }
    }

    func testARunningLaunchLooksCrashedToTheNextOne() throws {
        let directory = makeTemporaryDirectory()
        let dependencies = TestDependencies()
        let integration = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: directory), dependencies: dependencies)
        dependencies.clock.advance(by: 20)
        dependencies.post(.seamAppDidStart)

        let next = try SeamCrashReporter(stateDirectory: directory)
        XCTAssertTrue(next.crashedLastLaunch, "killed now, this launch would count as crashed")
        XCTAssertEqual(next.activeDurationSinceLastCrash, 20, accuracy: 0.001)

        dependencies.clock.advance(by: 10)
        dependencies.post(.seamAppWillTerminate)
        integration.uninstall()
        let afterCleanExit = try SeamCrashReporter(stateDirectory: directory)
        XCTAssertFalse(afterCleanExit.crashedLastLaunch)
        XCTAssertEqual(afterCleanExit.activeDurationSinceLastCrash, 30, accuracy: 0.001)
    }
}
