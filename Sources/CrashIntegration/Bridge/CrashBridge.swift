import CrashRuntime
import Foundation

/// The one facade through which the crash layers reach services. The integration creates it
/// before install and owns it, so it outlives the installed reporter; Swift layers receive it in
/// their initializers, the C reporter receives its C table (`retainedCTable()`) before install.
public final class CrashBridge {
    public let dateProvider: DateProvider
    public let notificationCenter: NotificationCenterWrapper
    public let crashReporter: CrashReporter
    public let systemInfo: [String: String]
    /// Attached to every crash dump.
    public let annotations: [String: String]
    /// Where pending crash dumps go.
    public let dumpDirectory: String

    let cAnnotations: CStringPairs
    let cSystemInfo: CStringPairs
    let cDumpDirectory: CString

    public init(
        dateProvider: DateProvider, notificationCenter: NotificationCenterWrapper,
        crashReporter: CrashReporter, systemInfo: [String: String],
        annotations: [String: String], dumpDirectory: String
    ) {
        self.dateProvider = dateProvider
        self.notificationCenter = notificationCenter
        self.crashReporter = crashReporter
        self.systemInfo = systemInfo
        self.annotations = annotations
        self.dumpDirectory = dumpDirectory
        cAnnotations = CStringPairs(annotations)
        cSystemInfo = CStringPairs(systemInfo)
        cDumpDirectory = CString(dumpDirectory)
    }

    /// Takes the services from `dependencies` and the rest from `options`.
    public convenience init(
        dependencies: CrashBridgeServices,
        crashReporter: CrashReporter, options: CrashIntegrationOptions
    ) {
        self.init(
            dateProvider: dependencies.dateProvider,
            notificationCenter: dependencies.notificationCenter,
            crashReporter: crashReporter, systemInfo: dependencies.systemInfo,
            annotations: options.annotations, dumpDirectory: options.dumpDirectory)
    }

    public var crashedLastLaunch: Bool { crashReporter.crashedLastLaunch }
    public var activeDurationSinceLastCrash: TimeInterval {
        crashReporter.activeDurationSinceLastCrash
    }
    /// The terminate handler the C layer stored at install, nil when not installed.
    public var terminateHandler: TerminateHandler? { crashReporter.terminateHandler }

    /// The C table over this bridge, holding one retain on it until `release()`: the C reporter
    /// keeps the context pointer for as long as it is installed.
    func retainedCTable() -> CBridgeLease {
        CBridgeLease(table: makeCServiceTable(context: Unmanaged.passRetained(self).toOpaque()))
    }
}

extension CrashBridge: CrashBridgeServices, CrashCServices {
    func setTerminateHandler(_ handler: TerminateHandler?) {
        crashReporter.terminateHandler = handler
    }
}

/// A C table whose context holds a retain on its provider.
struct CBridgeLease {
    let table: seam_crash_bridge

    func release() {
        Unmanaged<AnyObject>.fromOpaque(table.context).release()
    }
}
