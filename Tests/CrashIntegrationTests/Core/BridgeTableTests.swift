@testable import CrashIntegration
import CrashRuntime
import SeamTestSupport
import XCTest

/// The C bridge table follows its one service list (`SEAM_BRIDGE_SERVICES`): a field per listed
/// service, each filled by the Swift table and each required by the reporter and by the
/// container's registration.
final class BridgeTableTests: XCTestCase {
    private let slot = MemoryLayout<UnsafeRawPointer?>.size

    func testTableHasOneFieldPerListedServiceInOrder() throws {
        let names = try BridgeServiceList.names()
        XCTAssertFalse(names.isEmpty, "no service list read from \(BridgeServiceList.header.path)")
        XCTAssertEqual(MemoryLayout<seam_crash_bridge>.size, (1 + names.count) * slot)
        XCTAssertEqual(Mirror(reflecting: seam_crash_bridge()).children.map(\.label), ["context"] + names)
    }

    func testEveryListedServiceIsFilledAndRequired() throws {
        let names = try BridgeServiceList.names()
        let bridge = CrashBridge(
            dependencies: TestDependencies(), crashReporter: RecordingCrashReporter(),
            options: CrashIntegrationOptions(dumpDirectory: makeTemporaryDirectory()))
        let lease = bridge.retainedCTable()
        defer { lease.release() }
        withUnsafeBytes(of: lease.table) { bytes in
            for index in 0...names.count {
                XCTAssertNotNil(
                    bytes.load(fromByteOffset: index * slot, as: UnsafeRawPointer?.self),
                    index == 0 ? "context" : names[index - 1])
            }
        }
        for (index, name) in names.enumerated() {
            var table = lease.table
            withUnsafeMutableBytes(of: &table) {
                $0.storeBytes(of: nil, toByteOffset: (index + 1) * slot, as: UnsafeRawPointer?.self)
            }
            let reporter = try SeamCrashReporter(stateDirectory: makeTemporaryDirectory())
            XCTAssertThrowsError(try reporter.setBridge(table), "a table without \(name) was taken")
            XCTAssertEqual(seam_container_register(&table), -1, "a container table without \(name) was registered")
        }
        let reporter = try SeamCrashReporter(stateDirectory: makeTemporaryDirectory())
        XCTAssertNoThrow(try reporter.setBridge(lease.table))
    }
}
