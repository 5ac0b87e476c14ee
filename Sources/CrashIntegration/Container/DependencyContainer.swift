import CrashRuntime
import Foundation

/// The legacy service locator the codebase is migrating away from. New code receives its
/// services through the provider protocols (it conforms to all of them, so it can still be
/// passed as the dependencies). C code without an injected bridge reaches it through
/// `seam_container_shared()`, registered when `shared` is first read.
public final class DependencyContainer: CrashIntegrationProvider {
    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var instance: DependencyContainer?

    /// The process-wide container. Prefer passing it (or a test double) as dependencies.
    public static var shared: DependencyContainer {
        sharedLock.withLock {
            if let instance { return instance }
            let container = DependencyContainer()
            container.registerAsCFallback()
            instance = container
            return container
        }
    }

    /// Drops the shared container and unregisters its C table (tests only).
    static func reset() {
        sharedLock.withLock {
            instance?.unregisterCFallback()
            instance = nil
        }
    }

    private let lazyVars = LazyVarStore<DependencyContainer>()
    private let slotLock = NSLock()
    private var terminateSlot: TerminateHandler?
    private var registration: Unmanaged<DependencyContainer>?

    /// A fresh container; tests use one instead of `shared` to stay off global state.
    init() {}

    /// Returns the value stored for `key`, building it once on first read.
    func lazyVar<T>(_ key: KeyPath<DependencyContainer, T>, _ build: () -> T) -> T {
        lazyVars.value(key, build)
    }

    // Services. Setting one replaces it; do so before anything reads it.

    public var dateProvider: DateProvider {
        get { lazyVar(\.dateProvider) { SystemDateProvider() } }
        set { lazyVars.set(\.dateProvider, newValue) }
    }

    public var notificationCenter: NotificationCenterWrapper {
        get { lazyVar(\.notificationCenter) { FoundationNotificationCenter() } }
        set { lazyVars.set(\.notificationCenter, newValue) }
    }

    public var systemInfo: [String: String] {
        get { lazyVar(\.systemInfo) { SystemInfo.current() } }
        set { lazyVars.set(\.systemInfo, newValue) }
    }

    // What C code without a bridge gets: there are no integration options on this path.

    /// Dump directory for the C fallback path (default: `<tmp>/seam-crash`).
    public var fallbackDumpDirectory: String {
        get {
            lazyVar(\.fallbackDumpDirectory) {
                URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("seam-crash").path
            }
        }
        set { lazyVars.set(\.fallbackDumpDirectory, newValue) }
    }

    /// Annotations for the C fallback path (default: none).
    public var fallbackAnnotations: [String: String] {
        get { lazyVar(\.fallbackAnnotations) { [:] } }
        set { lazyVars.set(\.fallbackAnnotations, newValue) }
    }

    /// The terminate-handler slot C code fills when it installs through the fallback path.
    public var terminateHandler: TerminateHandler? {
        slotLock.withLock { terminateSlot }
    }
}

extension DependencyContainer: CrashCServices {
    var cAnnotations: CStringPairs { lazyVar(\.cAnnotations) { CStringPairs(fallbackAnnotations) } }
    var cSystemInfo: CStringPairs { lazyVar(\.cSystemInfo) { CStringPairs(systemInfo) } }
    var cDumpDirectory: CString { lazyVar(\.cDumpDirectory) { CString(fallbackDumpDirectory) } }

    func setTerminateHandler(_ handler: TerminateHandler?) {
        slotLock.withLock { terminateSlot = handler }
    }

    /// Registers this container's C table as `seam_container_shared()`, retained until
    /// `unregisterCFallback()`.
    func registerAsCFallback() {
        let retained = Unmanaged.passRetained(self)
        var table = makeCServiceTable(context: retained.toOpaque())
        let previous = registration
        registration = retained
        _ = seam_container_register(&table)
        previous?.release()
    }

    func unregisterCFallback() {
        guard let registration else { return }
        self.registration = nil
        if seam_container_shared()?.pointee.context == registration.toOpaque() {
            _ = seam_container_register(nil)
        }
        registration.release()
    }
}
