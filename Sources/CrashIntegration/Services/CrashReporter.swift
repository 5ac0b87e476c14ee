import CrashRuntime
import Foundation

/// The handler the capture layer installs for `std::terminate` (the Linux analogue of an
/// uncaught-exception handler).
public typealias TerminateHandler = @convention(c) () -> Void

/// The crash reporter: what the previous launch left behind, the terminate-handler slot, and the
/// install lifecycle of the C reporter. The bridge is injected before install.
public protocol CrashReporter: AnyObject {
    /// The previous launch started and never exited cleanly.
    var crashedLastLaunch: Bool { get }
    /// Active seconds since the last crash (up to the crash when `crashedLastLaunch`).
    var activeDurationSinceLastCrash: TimeInterval { get }
    /// The slot the C layer fills at install and clears at uninstall.
    var terminateHandler: TerminateHandler? { get set }
    /// Injects the bridge's C table. Must precede `install()`.
    func setBridge(_ bridge: seam_crash_bridge) throws
    func install() throws
    func uninstall()
}

/// The production `CrashReporter`: the C reporter object of `CrashRuntime`.
public final class SeamCrashReporter: CrashReporter {
    private let reporter: OpaquePointer
    private let lock = NSLock()
    private var slot: TerminateHandler?

    public let crashedLastLaunch: Bool
    public let activeDurationSinceLastCrash: TimeInterval

    /// Reads the previous launch's record from `stateDirectory` (created when missing).
    public init(stateDirectory: String, catchSIGTERM: Bool = false) throws {
        var created: OpaquePointer?
        try stateDirectory.withCString { directory in
            var options = seam_crash_reporter_options(
                state_directory: directory, catch_sigterm: catchSIGTERM ? 1 : 0)
            try CrashIntegrationError.check { error, size in
                created = seam_crash_reporter_create(&options, error, size)
                return created == nil ? -1 : 0
            }
        }
        reporter = created!
        crashedLastLaunch = seam_crash_reporter_crashed_last_launch(reporter) != 0
        activeDurationSinceLastCrash = seam_crash_reporter_active_duration_since_last_crash(reporter)
    }

    deinit {
        seam_crash_reporter_destroy(reporter)
    }

    public var terminateHandler: TerminateHandler? {
        get { lock.withLock { slot } }
        set { lock.withLock { slot = newValue } }
    }

    public var isInstalled: Bool { seam_crash_reporter_is_installed(reporter) != 0 }

    /// The last install read its services from the container because no bridge was set.
    public var usedContainerFallback: Bool {
        seam_crash_reporter_used_container_fallback(reporter) != 0
    }

    /// The latest non-fatal problem, such as an unreadable launch record (named in the text).
    public var warning: String? {
        seam_crash_reporter_warning(reporter).map { String(cString: $0) }
    }

    public func setBridge(_ bridge: seam_crash_bridge) throws {
        var table = bridge
        try CrashIntegrationError.check { seam_crash_reporter_set_bridge(reporter, &table, $0, $1) }
    }

    public func install() throws {
        try CrashIntegrationError.check { seam_crash_reporter_install(reporter, $0, $1) }
    }

    public func uninstall() {
        seam_crash_reporter_uninstall(reporter)
    }
}
