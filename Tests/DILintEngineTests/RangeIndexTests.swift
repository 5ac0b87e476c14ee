import XCTest
@testable import DILintEngine

/// `RangeIndex` answers what a scan of every range answers, for nested, overlapping, empty and
/// out-of-order ranges, and inserts keep it so.
final class RangeIndexTests: XCTestCase {
    func testContainingEqualsAScanOfEveryRange() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let ranges: [Range<Int>] = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                let start = Int.random(in: 0...200, using: &generator)
                return start..<(start + Int.random(in: 0...60, using: &generator))
            }
            var index = RangeIndex(Array(ranges.prefix(ranges.count / 2)))
            for i in ranges.indices.dropFirst(ranges.count / 2) { index.insert(ranges[i], id: i) }
            for offset in -1...262 {
                let scanned = ranges.indices.filter { ranges[$0].contains(offset) }
                XCTAssertEqual(index.containing(offset).sorted(), scanned, "offset \(offset) in \(ranges)")
                XCTAssertEqual(index.contains(offset), !scanned.isEmpty)
            }
        }
    }
}
