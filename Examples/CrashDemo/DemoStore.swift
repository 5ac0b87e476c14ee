import CrashIntegration
import Foundation

/// Where crash-demo keeps its state: `<store>/dumps` is the integration's dump directory,
/// `<store>/reports` holds final reports until they are uploaded.
struct DemoStore {
    let root: URL

    init(path: String) {
        root = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    var dumps: URL { root.appendingPathComponent("dumps", isDirectory: true) }
    var reports: URL { root.appendingPathComponent("reports", isDirectory: true) }

    /// Creates the store root owner-only (0700) when it does not exist yet; the integration
    /// creates `dumps/` itself.
    func prepare() throws {
        if !FileManager.default.fileExists(atPath: root.path) {
            try FileManager.default.createDirectory(
                at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }
}

/// The services this app hands to the integration (constructor injection; no container).
struct DemoServices: CrashIntegrationProvider {
    let dateProvider: DateProvider = SystemDateProvider()
    let notificationCenter: NotificationCenterWrapper = FoundationNotificationCenter()
    let systemInfo: [String: String] = SystemInfo.current()
}

extension DemoStore {
    /// Installs crash capture with dumps under `dumps/` and tells the session handler the app
    /// started. Keep the result alive for as long as crashes should be captured.
    func startCrashIntegration(command: String) throws -> CrashIntegration<DemoServices> {
        try prepare()
        let options = CrashIntegrationOptions(
            dumpDirectory: dumps.path,
            annotations: ["app": "crash-demo", "command": command])
        let services = DemoServices()
        let integration = try CrashIntegration(options: options, dependencies: services)
        services.notificationCenter.post(name: .seamAppDidStart)
        return integration
    }
}
