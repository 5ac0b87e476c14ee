import Foundation

// Builders make objects that need run-time arguments (options, the bridge). Each has a default
// implementation, so a conforming type only overrides what it wants to replace.

/// Makes the crash reporter for one integration.
public protocol CrashReporterBuilder {
    func makeCrashReporter(options: CrashIntegrationOptions) throws -> CrashReporter
}

extension CrashReporterBuilder {
    /// The C reporter, keeping its launch record in the dump directory.
    public func makeCrashReporter(options: CrashIntegrationOptions) throws -> CrashReporter {
        try SeamCrashReporter(
            stateDirectory: options.dumpDirectory,
            catchSIGTERM: options.catchSIGTERM)
    }
}

/// Makes the session handler; it receives the bridge instead of reading a container.
public protocol CrashIntegrationSessionHandlerBuilder {
    func makeCrashIntegrationSessionHandler(
        options: CrashIntegrationOptions,
        bridge: CrashBridge
    ) throws
        -> CrashIntegrationSessionHandler
}

extension CrashIntegrationSessionHandlerBuilder {
    public func makeCrashIntegrationSessionHandler(
        options: CrashIntegrationOptions,
        bridge: CrashBridge
    ) throws
        -> CrashIntegrationSessionHandler
    {
        try CrashIntegrationSessionHandler.standard(options: options, bridge: bridge)
    }
}

/// Everything `CrashIntegration` needs from its dependencies.
public typealias CrashIntegrationProvider = CrashBridgeServices & CrashReporterBuilder
    & CrashIntegrationSessionHandlerBuilder
