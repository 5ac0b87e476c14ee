import Foundation
import XCTest
@testable import CrashIntegration

/// The claim that keeps two uploaders from sending one report, including the narrow case of
/// an uploader that opened a report just before another one delivered it.
final class ReportClaimUploadTests: XCTestCase {
    func testHeldReportCannotBeClaimedAgainUntilReleased() throws {
        let directory = try ReportsDirectory(self)
        try directory.addReport("r")
        let first = try XCTUnwrap(ReportClaim.attempt(directory.file("r")).claim)
        XCTAssertEqual(try ReportClaim.attempt(directory.file("r")).name, "heldElsewhere")
        first.release()
        XCTAssertEqual(try ReportClaim.attempt(directory.file("r")).name, "claimed")
    }

    func testOpenedBeforeDeliveryButLockedAfterIsGone() throws {
        let directory = try ReportsDirectory(self)
        try directory.addReport("r")
        let late = try XCTUnwrap(ReportClaim.Opened(directory.file("r")))
        try XCTUnwrap(ReportClaim.attempt(directory.file("r")).claim).remove()
        XCTAssertEqual(try late.claim().name, "gone", "a delivered report must not be claimed again")
    }

    func testOpenedBeforeReplacementIsGoneNotTheNewFile() throws {
        let directory = try ReportsDirectory(self)
        try directory.addReport("r")
        let late = try XCTUnwrap(ReportClaim.Opened(directory.file("r")))
        try XCTUnwrap(ReportClaim.attempt(directory.file("r")).claim)
            .move(to: directory.url.appendingPathComponent("elsewhere.json"))
        try directory.addReport("r") // a new report under the same name
        XCTAssertEqual(try late.claim().name, "gone", "the lock on the old file must not count for the new one")
    }
}

private extension ReportClaim.Attempt {
    var claim: ReportClaim? {
        if case .claimed(let claim) = self { return claim }
        return nil
    }

    var name: String {
        switch self {
        case .claimed: return "claimed"
        case .heldElsewhere: return "heldElsewhere"
        case .gone: return "gone"
        }
    }
}
