import Foundation

/// The threads di-lint parses and analyses on: lint's workers, fix's prefetch and Swift parses,
/// and a large file's facts thread. Each has the stack deep trees need (libclang's visitor and
/// swift-syntax's parser recurse per nesting level); a parse worker process parses on one too,
/// so every path takes the same files.
enum ParseThreads {
    static let stackSize = 16 << 20

    /// Starts `body` on a new parse thread and returns.
    static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        if let name { thread.name = name }
        thread.stackSize = stackSize
        thread.start()
    }

    /// Runs `body` on `count` parse threads at once and waits for all of them (each takes its
    /// work from a queue the caller shares between them, so a thread the machine runs less does less).
    static func run(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            start {
                body()
                group.leave()
            }
        }
        group.wait()
    }

    /// `body`'s result, computed on a parse thread.
    static func value<R>(name: String? = nil, _ body: @escaping @Sendable () -> R) -> R {
        let box = Box<R>()
        start(name: name) {
            box.value = body()
            box.done.signal()
        }
        box.done.wait()
        return box.value!
    }

    private final class Box<R>: @unchecked Sendable {
        var value: R?
        let done = DispatchSemaphore(value: 0)
    }
}

/// Hands out the indices `0..<count` to the threads of a `ParseThreads.run`, one at a time, and
/// collects a value or a failure for each.
final class IndexedResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [Value?]
    private(set) var failures: [Int: String] = [:]
    private var taken = 0

    init(count: Int) { values = Array(repeating: nil, count: count) }

    /// The next index, nil when every one is taken.
    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard taken < values.count else { return nil }
        taken += 1
        return taken - 1
    }

    func set(_ i: Int, _ value: Value) { lock.lock(); values[i] = value; lock.unlock() }
    func fail(_ i: Int, _ why: String) { lock.lock(); failures[i] = why; lock.unlock() }
}
