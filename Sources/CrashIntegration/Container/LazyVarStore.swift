import Foundation

/// Values built on first read, once, keyed by the key path of the property that reads them.
/// One recursive lock guards all of them, so a builder may read other lazy values of the same
/// owner without deadlocking, and no two threads build the same value.
final class LazyVarStore<Owner> {
    private let lock = NSRecursiveLock()
    private var values: [PartialKeyPath<Owner>: Any] = [:]

    func value<T>(_ key: KeyPath<Owner, T>, _ build: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if let stored = values[key] {
            return stored as! T
        }
        let built = try build()
        values[key] = built
        return built
    }

    func set<T>(_ key: KeyPath<Owner, T>, _ value: T) {
        lock.withLock { values[key] = value }
    }
}
