import XCTest

@testable import DILintEngine

/// The pieces of `report`'s service-style count that need no tree.
final class ReportServiceInjectionTests: XCTestCase {
    func testStandardCollectionAndClosureTypesAreNeverCounted() {
        XCTAssertTrue(ServiceInjection.isCountable("TabStore"))
        XCTAssertTrue(ServiceInjection.isCountable("VoiceSearchHelperProtocol"))
        for type in ["String", "Int", "URL", "[TabStore]", "TabStore?", "() -> Void", "A & B", "Box<TabStore>", "1x"] {
            XCTAssertFalse(ServiceInjection.isCountable(type), type)
        }
    }

    func testChartTitleShortensFullCommitIds() {
        let full = String(repeating: "5424cb1a74", count: 4)
        XCTAssertEqual(MigrationHistory.shortRange("\(full)..\(full)"), "5424cb1a74..5424cb1a74")
        XCTAssertEqual(MigrationHistory.shortRange("v1.0..main"), "v1.0..main")
    }
}
