@testable import CrashIntegration
import XCTest

/// The wrapper and the session handler, built from plain values.
final class SessionHandlerTests: XCTestCase {
    private let clock = TestDateProvider(Date(timeIntervalSince1970: 1_700_000_000))
    private let center = FoundationNotificationCenter(center: NotificationCenter())

    private func makeHandler(
        crashed: Bool, activeDuration: TimeInterval,
        store: SessionFileStore
    ) -> CrashIntegrationSessionHandler {
        CrashIntegrationSessionHandler(
            crashWrapper: CrashWrapper(
                systemInfo: ["os.name": "TestOS"], crashedLastLaunch: crashed,
                activeDurationSinceLastCrash: activeDuration),
            store: store, dateProvider: clock, notificationCenter: center)
    }

    private func openSession(
        startedSecondsAgo seconds: TimeInterval,
        in store: SessionFileStore
    ) throws -> SessionRecord {
        let session = SessionRecord(
            id: UUID(), started: clock.date() - seconds, ended: nil,
            status: .running, attributes: [:])
        try store.saveCurrent(session)
        return session
    }

    func testWrapperTakesBridgeValuesOnceAtConstruction() {
        let reporter = RecordingCrashReporter()
        reporter.crashedLastLaunch = true
        reporter.activeDurationSinceLastCrash = 12
        let bridge = CrashBridge(
            dependencies: TestDependencies(), crashReporter: reporter,
            options: CrashIntegrationOptions(dumpDirectory: "/unused"))

        let wrapper = CrashWrapper(bridge: bridge)
        reporter.crashedLastLaunch = false

        XCTAssertTrue(wrapper.crashedLastLaunch)
        XCTAssertEqual(wrapper.activeDurationSinceLastCrash, 12)
        XCTAssertEqual(wrapper.systemInfo["os.name"], "TestOS")
    }

    func testOpenSessionOfACrashedLaunchEndsAtNowMinusActiveDuration() throws {
        let store = try SessionFileStore(directory: makeTemporaryDirectory())
        let open = try openSession(startedSecondsAgo: 100, in: store)

        makeHandler(crashed: true, activeDuration: 30, store: store).start()

        let ended = try store.endedSessions()
        XCTAssertEqual(ended.map(\.id), [open.id])
        XCTAssertEqual(ended.first?.status, .crashed)
        XCTAssertEqual(ended.first?.ended, clock.date() - 30)
        XCTAssertNil(try store.loadCurrent())
    }

    func testCrashTimeIsNeverBeforeTheSessionStarted() throws {
        let store = try SessionFileStore(directory: makeTemporaryDirectory())
        let open = try openSession(startedSecondsAgo: 10, in: store)

        makeHandler(crashed: true, activeDuration: 1_000, store: store).start()

        XCTAssertEqual(try store.endedSessions().first?.ended, open.started)
    }

    func testOpenSessionWithoutACrashEndsAbnormal() throws {
        let store = try SessionFileStore(directory: makeTemporaryDirectory())
        _ = try openSession(startedSecondsAgo: 10, in: store)

        makeHandler(crashed: false, activeDuration: 5, store: store).start()

        let ended = try store.endedSessions()
        XCTAssertEqual(ended.map(\.status), [.abnormal])
        XCTAssertNil(ended.first?.ended)
    }

    func testLifecycleNotificationsStartAndEndTheSession() throws {
        let store = try SessionFileStore(directory: makeTemporaryDirectory())
        let handler = makeHandler(crashed: false, activeDuration: 0, store: store)
        handler.start()

        center.post(name: .seamAppDidStart)
        let current = try XCTUnwrap(try store.loadCurrent())
        XCTAssertEqual(current.status, .running)
        XCTAssertEqual(current.started, clock.date())
        XCTAssertEqual(current.attributes, ["os.name": "TestOS"])

        clock.advance(by: 5)
        center.post(name: .seamAppWillTerminate)
        XCTAssertNil(try store.loadCurrent())
        let ended = try store.endedSessions()
        XCTAssertEqual(ended.map(\.status), [.exited])
        XCTAssertEqual(ended.first?.ended, clock.date())

        handler.stop()
        center.post(name: .seamAppDidStart)
        XCTAssertNil(try store.loadCurrent(), "no observers after stop()")
        XCTAssertNil(handler.lastError)
    }

    func testUnreadableOpenSessionIsKeptAsideAndReported() throws {
        let directory = makeTemporaryDirectory()
        let store = try SessionFileStore(directory: directory)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: directory + "/current-session.json"))

        let handler = makeHandler(crashed: true, activeDuration: 0, store: store)
        handler.start()

        let error = try XCTUnwrap(handler.lastError)
        XCTAssertTrue("\(error)".contains(directory + "/current-session.json"), "\(error)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/current-session.json.corrupt"))
        XCTAssertNil(try store.loadCurrent())
        handler.stop()
    }

    func testIntegrationEndsTheCrashedLaunchsSessionOnTheNextLaunch() throws {
        let directory = makeTemporaryDirectory()
        let first = TestDependencies()
        let crashed = try CrashIntegration(
            options: CrashIntegrationOptions(dumpDirectory: directory),
            dependencies: first)
        first.post(.seamAppDidStart)
        let store = try SessionFileStore(directory: directory + "/sessions")
        let openSession = try XCTUnwrap(try store.loadCurrent())
        // Simulate the crash: the next launch reads the files while this one is still "running".
        let next = try SeamCrashReporter(stateDirectory: directory)
        crashed.sessionHandler.stop()

        let bridge = CrashBridge(
            dependencies: TestDependencies(), crashReporter: next,
            options: CrashIntegrationOptions(dumpDirectory: directory))
        CrashIntegrationSessionHandler(
            crashWrapper: CrashWrapper(bridge: bridge), store: store,
            bridge: bridge
        ).start()

        let ended = try store.endedSessions()
        XCTAssertEqual(ended.map(\.id), [openSession.id])
        XCTAssertEqual(ended.map(\.status), [.crashed])
        crashed.uninstall()
    }
}
