import Foundation

/// Keeps the session record: ends the session a crashed launch left open (as crashed), starts a
/// session on `.seamAppDidStart` and ends it as exited on `.seamAppWillTerminate`.
/// Every dependency arrives through the initializer.
public final class CrashIntegrationSessionHandler {
    private let crashWrapper: CrashWrapper
    private let store: SessionFileStore
    private let dateProvider: DateProvider
    private let notificationCenter: NotificationCenterWrapper
    private let lock = NSLock()
    private var observers: [NSObjectProtocol] = []
    private var error: Error?

    public convenience init(
        crashWrapper: CrashWrapper, store: SessionFileStore,
        bridge: CrashBridge
    ) {
        self.init(
            crashWrapper: crashWrapper, store: store, dateProvider: bridge.dateProvider,
            notificationCenter: bridge.notificationCenter)
    }

    /// The production handler: records under `<dumpDirectory>/sessions`, state from the bridge.
    public static func standard(
        options: CrashIntegrationOptions,
        bridge: CrashBridge
    ) throws -> CrashIntegrationSessionHandler {
        let directory = URL(fileURLWithPath: options.dumpDirectory).appendingPathComponent("sessions")
        return CrashIntegrationSessionHandler(
            crashWrapper: CrashWrapper(bridge: bridge),
            store: try SessionFileStore(directory: directory.path),
            bridge: bridge)
    }

    /// Plain services, for tests.
    init(
        crashWrapper: CrashWrapper, store: SessionFileStore, dateProvider: DateProvider,
        notificationCenter: NotificationCenterWrapper
    ) {
        self.crashWrapper = crashWrapper
        self.store = store
        self.dateProvider = dateProvider
        self.notificationCenter = notificationCenter
    }

    deinit { stop() }

    /// The latest failure to read or write a session record (the text names the file).
    public var lastError: Error? { lock.withLock { error } }

    /// Ends the previous launch's open session, then follows the lifecycle notifications.
    public func start() {
        lock.withLock {
            guard observers.isEmpty else { return }
            record { try endPreviousSession() }
            observers = [
                notificationCenter.addObserver(forName: .seamAppDidStart) { [weak self] _ in
                    self?.locked { try $0.startSession() }
                },
                notificationCenter.addObserver(forName: .seamAppWillTerminate) { [weak self] _ in
                    self?.locked { try $0.endCurrentSession() }
                },
            ]
        }
    }

    public func stop() {
        let removed = lock.withLock { () -> [NSObjectProtocol] in
            defer { observers = [] }
            return observers
        }
        removed.forEach(notificationCenter.removeObserver)
    }

    private func locked(_ body: (CrashIntegrationSessionHandler) throws -> Void) {
        lock.withLock { record { try body(self) } }
    }

    private func record(_ body: () throws -> Void) {
        do { try body() } catch { self.error = error }
    }

    /// A session still open from the previous launch ends as crashed at
    /// now − activeDurationSinceLastCrash (kept between its start and now), else as abnormal.
    private func endPreviousSession() throws {
        let open: SessionRecord?
        do {
            open = try store.loadCurrent()
        } catch {
            try store.setCurrentAside()
            throw error
        }
        guard var session = open, session.status == .running else { return }
        if crashWrapper.crashedLastLaunch {
            let now = dateProvider.date()
            let crashTime = now.addingTimeInterval(-crashWrapper.activeDurationSinceLastCrash)
            session.ended = min(max(crashTime, session.started), now)
            session.status = .crashed
        } else {
            session.status = .abnormal
        }
        try store.appendEnded(session) // appended before the open copy goes: never lost
        try store.clearCurrent()
    }

    private func startSession() throws {
        if let current = try store.loadCurrent(), current.status == .running { return }
        try store.saveCurrent(
            SessionRecord(
                id: UUID(), started: dateProvider.date(), ended: nil,
                status: .running, attributes: crashWrapper.systemInfo))
    }

    private func endCurrentSession() throws {
        guard var session = try store.loadCurrent(), session.status == .running else { return }
        session.ended = dateProvider.date()
        session.status = .exited
        try store.appendEnded(session)
        try store.clearCurrent()
    }
}
