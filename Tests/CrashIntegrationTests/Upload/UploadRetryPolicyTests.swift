import XCTest
@testable import CrashIntegration

final class UploadRetryPolicyTests: XCTestCase {
    func testWaitsDoubleFromBaseDelayAndStopAtMaxDelay() {
        let policy = UploadRetryPolicy(maxAttempts: 8, baseDelay: .seconds(1), maxDelay: .seconds(5), jitter: false)
        XCTAssertEqual(
            (1...6).map { policy.delay(beforeAttempt: $0) },
            [.zero, .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }

    func testJitterStaysBetweenHalfAndFullDelay() {
        let policy = UploadRetryPolicy(baseDelay: .seconds(2), jitter: true)
        XCTAssertEqual(policy.delay(beforeAttempt: 3, unitRandom: 0), .seconds(2))
        XCTAssertEqual(policy.delay(beforeAttempt: 3, unitRandom: 1), .seconds(4))
        XCTAssertEqual(policy.delay(beforeAttempt: 3, unitRandom: 0.5), .seconds(3))
        for _ in 0..<100 {
            let wait = policy.delay(beforeAttempt: 3)
            XCTAssertTrue(wait >= .seconds(2) && wait <= .seconds(4), "\(wait)")
        }
    }

    func testAtLeastOneAttemptAndHugeAttemptNumbersDoNotOverflow() {
        XCTAssertEqual(UploadRetryPolicy(maxAttempts: 0).maxAttempts, 1)
        let policy = UploadRetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(60), jitter: false)
        XCTAssertEqual(policy.delay(beforeAttempt: 500), .seconds(60))
    }
}
