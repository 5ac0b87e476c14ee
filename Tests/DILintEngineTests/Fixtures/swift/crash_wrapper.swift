// Swift layers (seed 001): constructor injection is the goal; lazy container reads, container
// reads in init, mixed styles and an optional bridge set after init are reported.
import Foundation

public class LcCrashWrapper {                                                 // expect: swift-mixed-injection@14
    let processInfo: ProcessInfo
    // the lazy var reads the container on first use
    public private(set) lazy var systemInfo = Container.sharedInstance().crashReporter.systemInfo // expect: container-access@47 Container.sharedInstance.crashReporter; swift-lazy-container-access@47
    private let dateProvider = Container.shared.dateProvider                 // expect: container-access@32 Container.shared.dateProvider; container-access-in-initializer@32

    public init(processInfo: ProcessInfo) {
        self.processInfo = processInfo
        let reporter = Container.sharedInstance().crashReporter              // expect: container-access@24 Container.sharedInstance.crashReporter; container-access-in-initializer@24
        onLaunch = { Container.shared.start() }                              // expect: container-access@22 Container.shared.start
        _ = reporter
    }

    var onLaunch: () -> Void = {}
}

final class LcSessionHandler {                                                // expect: swift-mixed-injection@13
    private let crashWrapper: LcCrashWrapper
    private var bridge: LcCrashBridge?                                        // expect: swift-bridge-property-injection@17

    init(crashWrapper: LcCrashWrapper) {
        self.crashWrapper = crashWrapper
    }

    func attach(_ bridge: LcCrashBridge) {
        self.bridge = bridge
    }

    func start() {
        let now = bridge?.dateProvider.date() ?? Container.shared.dateProvider.date()   // a fallback: not a container-access finding
        let screen = DependencyContainerSwiftHelper.activeScreenSize()       // expect: container-access@22 DependencyContainerSwiftHelper.activeScreenSize
        _ = (now, screen)
    }
}

final class LcCrashIntegration {
    private var bridge: LcCrashBridge?
    weak var delegate: AnyObject?

    init(dependencies: LcDependencies) {
        let bridge = LcCrashBridge(dependencies: dependencies)
        self.bridge = bridge
        let crash = LcCrash()
        crash.install()
        crash.bridge = bridge                                                  // expect: bridge-injected-after-install@9
    }
}

final class LcCrashBridge {
    static let shared = LcCrashBridge(dependencies: LcDependencies())         // expect: bridge-singleton@16
    unowned var bridge: LcCrashBridge                                          // expect: bridge-weak-reference@5
    init(dependencies: LcDependencies) { bridge = self }
}

@_cdecl("lc_swift_crash_callback")
public func lcSwiftCrashCallback() {}

func lcSuppressed() {
    // di-lint:disable-next-line container-access -- fixture: Swift suppressions work like C ones
    _ = Container.shared.dateProvider
    _ = Container.shared.dateProvider // di-lint:disable-line -- fixture: every rule on this line
}
