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
