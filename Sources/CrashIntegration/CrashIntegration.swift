import CrashRuntime
import Foundation

/// Installs crash capture for a program. It builds everything from its dependencies in one
/// order: crash reporter, bridge, session handler (given the bridge), bridge injected into the
/// C reporter, install. It owns the bridge, so the bridge outlives the installed reporter.
/// Keep the integration alive while crashes should be captured; releasing it uninstalls.
public final class CrashIntegration<Dependencies: CrashIntegrationProvider> {
    public let options: CrashIntegrationOptions
    public let bridge: CrashBridge
    public let sessionHandler: CrashIntegrationSessionHandler
    private let crashReporter: CrashReporter
    private let lock = NSLock()
    /// One retain on the bridge for the C reporter, held from install to uninstall.
    private var installedBridge: CBridgeLease?
    /// What install could not do without failing (a module the symbol store could not keep).
    public let warnings: [String]

    /// Installs; throws `CrashIntegrationError` naming what failed.
    public init(options: CrashIntegrationOptions, dependencies: Dependencies) throws {
        try options.validate()
        self.options = options
        crashReporter = try dependencies.makeCrashReporter(options: options)
        bridge = CrashBridge(
            dependencies: dependencies, crashReporter: crashReporter,
            options: options)
        sessionHandler = try dependencies.makeCrashIntegrationSessionHandler(
            options: options,
            bridge: bridge)
        let lease = bridge.retainedCTable()
        do {
            try crashReporter.setBridge(lease.table)
            try crashReporter.install()
        } catch {
            lease.release()
            throw error
        }
        installedBridge = lease
        // Once per build (afterwards one stat per module): what processing needs to symbolicate
        // this build's crashes after an update.
        warnings =
            options.keepSymbols
            ? SymbolStore(dumpDirectory: URL(fileURLWithPath: options.dumpDirectory)).keepLoadedModules().warnings : []
        sessionHandler.start()
    }

    deinit { uninstall() }

    public var isInstalled: Bool { lock.withLock { installedBridge != nil } }

    /// Stops session tracking and capture, then gives up the C reporter's retain on the bridge.
    public func uninstall() {
        guard
            let lease = lock.withLock({ () -> CBridgeLease? in
                defer { installedBridge = nil }
                return installedBridge
            })
        else { return }
        sessionHandler.stop()
        crashReporter.uninstall()
        lease.release()
    }
}
