extension RandomAccessCollection {
    /// The first index whose element is not `below` (every element before it is): the collection
    /// must be partitioned that way, as a sorted one is by `{ $0 < x }`. Binary search.
    func partitionPoint(where below: (Element) throws -> Bool) rethrows -> Index {
        var lo = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let mid = index(lo, offsetBy: half)
            if try below(self[mid]) {
                lo = index(after: mid)
                count -= half + 1
            } else {
                count = half
            }
        }
        return lo
    }
}

extension RandomAccessCollection where Element: Comparable {
    /// Whether this sorted collection holds `element` (binary search).
    func sortedContains(_ element: Element) -> Bool {
        let i = partitionPoint { $0 < element }
        return i != endIndex && self[i] == element
    }
}

extension Array where Element: Comparable {
    /// The elements sorted, each once.
    func sortedUnique() -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(count)
        for e in sorted() where out.last != e { out.append(e) }
        return out
    }
}
