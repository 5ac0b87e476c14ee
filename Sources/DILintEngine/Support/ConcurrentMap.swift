import Dispatch

extension Array {
    /// `transform` of each element, computed on all cores (`DispatchQueue.concurrentPerform`),
    /// in the array's order. `transform` must be safe to call from several threads at once.
    func concurrentMap<T>(_ transform: (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        withoutActuallyEscaping(transform) { transform in
            self.withUnsafeBufferPointer { elements in
                DispatchQueue.concurrentPerform(iterations: elements.count) { i in results[i] = transform(elements[i]) }
            }
        }
        return results.map { $0! }
    }
}
