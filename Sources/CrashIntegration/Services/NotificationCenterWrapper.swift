import CrashRuntime
import Foundation

/// Posting and observing notifications, injectable so tests can use a private center.
public protocol NotificationCenterWrapper: AnyObject {
    /// Calls `block` on the posting thread each time `name` is posted; pass the returned token
    /// to `removeObserver` to stop.
    func addObserver(
        forName name: Notification.Name,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> NSObjectProtocol
    func removeObserver(_ token: NSObjectProtocol)
    func post(name: Notification.Name)
}

/// A `NotificationCenterWrapper` backed by Foundation's `NotificationCenter`.
public final class FoundationNotificationCenter: NotificationCenterWrapper {
    public let center: NotificationCenter

    public init(center: NotificationCenter = .default) {
        self.center = center
    }

    public func addObserver(
        forName name: Notification.Name,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> NSObjectProtocol {
        center.addObserver(forName: name, object: nil, queue: nil, using: block)
    }

    public func removeObserver(_ token: NSObjectProtocol) {
        center.removeObserver(token)
    }

    public func post(name: Notification.Name) {
        center.post(name: name, object: nil)
    }
}

extension Notification.Name {
    /// Post once the program has started; crash and session state count activity from here.
    public static let seamAppDidStart = Notification.Name(SEAM_NOTIFICATION_APP_DID_START)
    /// Post when the program is about to exit cleanly; the session ends as exited.
    public static let seamAppWillTerminate = Notification.Name(SEAM_NOTIFICATION_APP_WILL_TERMINATE)
    /// Posted by the crash reporter after it installed.
    public static let seamCrashReporterDidInstall =
        Notification.Name(SEAM_NOTIFICATION_CRASH_REPORTER_DID_INSTALL)
}
