/// Byte ranges kept in order of their starts, for "which ranges contain this offset" without
/// looking at every range: a file with 100,000 accesses on one line made each such question a
/// scan of all of them, and the file quadratic. A lookup looks back from the last range that
/// starts at or before the offset only while some range that far back still reaches past it.
struct RangeIndex {
    private var starts: [Int] = []
    private var ends: [Int] = []
    /// `reach[k]`: the furthest end among ranges 0...k.
    private var reach: [Int] = []
    private var ids: [Int] = []

    init() {}

    init(_ ranges: [Range<Int>]) {
        for i in ranges.indices.sorted(by: { ranges[$0].lowerBound < ranges[$1].lowerBound }) {
            insert(ranges[i], id: i)
        }
    }

    /// Adds a range; constant time when it starts at or after every range already in.
    mutating func insert(_ range: Range<Int>, id: Int) {
        var at = starts.count
        if let last = starts.last, range.lowerBound < last { at = firstStart(after: range.lowerBound) }
        starts.insert(range.lowerBound, at: at)
        ends.insert(range.upperBound, at: at)
        ids.insert(id, at: at)
        reach.insert(0, at: at)
        for k in at..<reach.count { reach[k] = max(k > 0 ? reach[k - 1] : Int.min, ends[k]) }
    }

    /// The ids of the ranges that contain `offset`, latest start first.
    func containing(_ offset: Int) -> [Int] {
        var found: [Int] = []
        var k = firstStart(after: offset) - 1
        while k >= 0, reach[k] > offset {
            if ends[k] > offset { found.append(ids[k]) }
            k -= 1
        }
        return found
    }

    func contains(_ offset: Int) -> Bool { !containing(offset).isEmpty }

    /// Index of the first range starting after `offset` (binary search).
    private func firstStart(after offset: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
