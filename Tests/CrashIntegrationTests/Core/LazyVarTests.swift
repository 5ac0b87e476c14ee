@testable import CrashIntegration
import CrashRuntime
import XCTest

final class LazyVarTests: XCTestCase {
    /// An owner whose `pair` builder reads the `clock` lazy value, like the container's.
    private final class Owner {
        let store = LazyVarStore<Owner>()
        let builds = CallLog()

        var clock: TestDateProvider {
            store.value(\.clock) {
                builds.append("clock")
                Thread.sleep(forTimeInterval: 0.01) // widen the race window
                return TestDateProvider()
            }
        }

        var pair: (TestDateProvider, NSObject) {
            store.value(\.pair) {
                builds.append("pair")
                return (clock, NSObject())
            }
        }
    }

    func testEachValueIsBuiltOnceUnderConcurrentReads() {
        let owner = Owner()
        let lock = NSLock()
        var clocks = Set<ObjectIdentifier>()
        var pairs = Set<ObjectIdentifier>()

        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let pair = owner.pair // even iterations start from the builder that nests
            let clock = index % 2 == 0 ? pair.0 : owner.clock
            lock.withLock {
                clocks.insert(ObjectIdentifier(clock))
                clocks.insert(ObjectIdentifier(pair.0))
                pairs.insert(ObjectIdentifier(pair.1))
            }
        }

        XCTAssertEqual(clocks.count, 1)
        XCTAssertEqual(pairs.count, 1)
        XCTAssertEqual(owner.builds.all.sorted(), ["clock", "pair"])
    }

    func testContainerServicesAreSingleInstancesAcrossThreads() {
        let container = DependencyContainer()
        let lock = NSLock()
        var seen: [String: Set<ObjectIdentifier>] = [:]

        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            let ids = [
                "date": ObjectIdentifier(container.dateProvider),
                "center": ObjectIdentifier(container.notificationCenter),
                "systemInfo": ObjectIdentifier(container.cSystemInfo), // reads systemInfo
                "annotations": ObjectIdentifier(container.cAnnotations),
            ]
            lock.withLock { ids.forEach { seen[$0.key, default: []].insert($0.value) } }
        }

        XCTAssertEqual(
            seen.mapValues(\.count),
            ["date": 1, "center": 1, "systemInfo": 1, "annotations": 1])
        XCTAssertEqual(container.cSystemInfo.count, container.systemInfo.count)
    }

    func testSharedRegistersTheCAccessorAndResetRemovesIt() {
        DependencyContainer.reset()
        XCTAssertNil(seam_container_shared())

        let shared = DependencyContainer.shared
        XCTAssertTrue(shared === DependencyContainer.shared)
        XCTAssertEqual(
            seam_container_shared()?.pointee.context,
            Unmanaged.passUnretained(shared).toOpaque())

        DependencyContainer.reset()
        XCTAssertNil(seam_container_shared())
        XCTAssertFalse(shared === DependencyContainer.shared)
        DependencyContainer.reset()
    }
}
