// The crashes a server meets away from its main thread: a stack overflow on a worker thread
// or inside a Swift concurrency task, a fatal error with a message, and a crash while other
// named threads are parked in known functions (every thread's stack is in the report).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Name of the pthread that overflows its stack in `stack-overflow-thread`.
let overflowThreadName = "crash-demo-deep"

/// SIGSEGV: unbounded recursion on a plain pthread (8 MiB default stack) started after install.
func crashByStackOverflowOnThread() -> Never {
    var thread = pthread_t()
    let status = pthread_create(
        &thread, nil,
        { _ in
            Thread.current.name = overflowThreadName
            _ = crashByStackOverflow(depth: 0)
            return nil
        }, nil)
    if status != 0 { survived("stack-overflow-thread (pthread_create failed: \(status))") }
    waitForCrash("stack-overflow-thread")
}

/// SIGSEGV: unbounded recursion inside a detached Swift concurrency task (a cooperative-pool thread).
func crashByStackOverflowInTask() -> Never {
    Task.detached {
        _ = crashByStackOverflow(depth: 0)
    }
    waitForCrash("stack-overflow-task")
}

/// The message crash-demo's `fatal-error-message` kind dies with.
let fatalErrorDemoMessage = "crash-demo: the request handler found an impossible state"

/// Swift's fatalError with a message the report must carry.
@inline(never)
func crashByFatalErrorWithMessage() -> Never {
    fatalError(fatalErrorDemoMessage)
}

/// Names of the threads parked while the main thread crashes in `threads-report`.
let parkedThreadNames = (0..<4).map { "crash-demo-pk\($0)" }

/// Four named threads park in `parkedThreadWaits(_:)`, then the main thread stores to an
/// unmapped address in `crashWhileThreadsAreParked()`.
func crashWhileOtherThreadsWait() -> Never {
    let parked = DispatchSemaphore(value: 0)
    for name in parkedThreadNames {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            started.wait() // Foundation applies `Thread.name` only once `start()` has returned
            Thread.current.name = name
            parked.signal()
            parkedThreadWaits()
        }
        thread.start()
        started.signal()
    }
    // A Dispatch worker and a Swift concurrency task: their threads block every signal but the
    // synchronous faults, SIGPIPE and SIGPROF.
    DispatchQueue.global().async {
        Thread.current.name = parkedDispatchWorkerName
        parked.signal()
        parkedDispatchWorkerWaits()
    }
    Task.detached {
        nameCurrentThread(parkedTaskThreadName)
        parked.signal()
        parkedTaskWaits()
    }
    for _ in 0..<(parkedThreadNames.count + 2) { parked.wait() }
    usleep(20_000) // let every thread reach its wait
    crashWhileThreadsAreParked()
}

/// Names given to the Dispatch worker and to the concurrency task's thread parked in `threads-report`.
let parkedDispatchWorkerName = "crash-demo-dq"
let parkedTaskThreadName = "crash-demo-task"

/// Names the thread running the caller (synchronous, so a task can call it).
func nameCurrentThread(_ name: String) {
    Thread.current.name = name
}

/// Where the Dispatch worker sits when the process crashes. (Each parked function sleeps for
/// its own time: a release build merges functions whose code is the same.)
@inline(never)
func parkedDispatchWorkerWaits() {
    while true { sleep(61) }
}

/// Where the concurrency task's thread sits when the process crashes.
@inline(never)
func parkedTaskWaits() {
    while true { sleep(62) }
}

/// Where each parked thread sits when the process crashes.
@inline(never)
func parkedThreadWaits() {
    while true { sleep(60) }
}

@inline(never)
func crashWhileThreadsAreParked() -> Never {
    UnsafeMutablePointer<Int>(bitPattern: 0x10)!.pointee = 42
    survived("threads-report")
}
