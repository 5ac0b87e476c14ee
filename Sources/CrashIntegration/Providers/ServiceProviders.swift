import Foundation

// One small protocol per service. Code states the services it needs by composing them, and
// any type that conforms (the legacy container, a test double) can supply them.

public protocol DateProviderProvider {
    var dateProvider: DateProvider { get }
}

public protocol NotificationCenterProvider {
    var notificationCenter: NotificationCenterWrapper { get }
}

public protocol SystemInfoProvider {
    /// OS, machine and process facts (see `SystemInfo.current()`).
    var systemInfo: [String: String] { get }
}

/// The services a `CrashBridge` carries, one provider each: what every integration's dependencies
/// supply (the legacy container too). A new bridge service adds its provider here; how:
/// CONTRIBUTING.md, "Add a bridge service".
public typealias CrashBridgeServices = DateProviderProvider & NotificationCenterProvider
    & SystemInfoProvider
