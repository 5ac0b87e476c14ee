import Foundation

/// The crash reporter's state as immutable values, taken from the bridge once at construction
/// (never read lazily from a container).
public struct CrashWrapper {
    public let systemInfo: [String: String]
    public let crashedLastLaunch: Bool
    public let activeDurationSinceLastCrash: TimeInterval

    public init(bridge: CrashBridge) {
        self.init(
            systemInfo: bridge.systemInfo,
            crashedLastLaunch: bridge.crashedLastLaunch,
            activeDurationSinceLastCrash: bridge.activeDurationSinceLastCrash)
    }

    /// Plain values, for tests.
    init(
        systemInfo: [String: String], crashedLastLaunch: Bool,
        activeDurationSinceLastCrash: TimeInterval
    ) {
        self.systemInfo = systemInfo
        self.crashedLastLaunch = crashedLastLaunch
        self.activeDurationSinceLastCrash = activeDurationSinceLastCrash
    }
}
