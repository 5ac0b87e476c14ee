// The crashes. Each one happens inside a distinctly named, never-inlined function, so a
// symbolicated report shows exactly where the program died.
import CrashDemoSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SIGSEGV: a store to an unmapped address.
@inline(never)
func crashBySegmentationFault() -> Never {
    unmappedAddress.pointee = 42
    survived("segv")
}

/// SIGABRT.
@inline(never)
func crashByAbort() -> Never {
    abort()
}

/// Swift's fatalError: a trap instruction (SIGILL on x86_64, SIGTRAP on aarch64).
@inline(never)
func crashByFatalError() -> Never {
    fatalError("crash-demo: fatal-error requested")
}

/// SIGFPE (x86_64): an integer division by zero done by the CPU.
@inline(never)
func crashByDivisionByZero() -> Never {
    let quotient = demo_divide(1, 0)
    survived("fpe (quotient \(quotient); integer division by zero does not trap on this CPU)")
}

/// SIGSEGV on the guard page: unbounded recursion, each frame keeping 256 bytes alive.
@inline(never)
func crashByStackOverflow(depth: Int) -> Int {
    var frame = (
        depth, depth, depth, depth, depth, depth, depth, depth,
        depth, depth, depth, depth, depth, depth, depth, depth,
        depth, depth, depth, depth, depth, depth, depth, depth,
        depth, depth, depth, depth, depth, depth, depth, depth
    )
    withUnsafeMutableBytes(of: &frame) { keepAlive($0.baseAddress) }
    return crashByStackOverflow(depth: depth &+ 1) &+ frame.31
}

/// SIGABRT after std::terminate: a C++ std::runtime_error nobody catches.
@inline(never)
func crashByUncaughtCppException() -> Never {
    demo_throw_runtime_error("crash-demo: uncaught std::runtime_error")
    survived("cpp-exception")
}

/// Name given to the thread that crashes in `background-thread`.
let backgroundThreadName = "crash-demo-bg"

/// SIGSEGV on a named background thread while the main thread waits.
func crashOnBackgroundThread() -> Never {
    let started = DispatchSemaphore(value: 0)
    let thread = Thread {
        started.wait() // Foundation applies `Thread.name` only once `start()` has returned
        Thread.current.name = backgroundThreadName
        if SleepWitness.enabled { usleep(200_000) } // the waiting thread is asleep by then
        crashBySegmentationFaultOnBackgroundThread()
    }
    thread.start()
    started.signal()
    waitForCrash("background-thread")
}

@inline(never)
func crashBySegmentationFaultOnBackgroundThread() -> Never {
    unmappedAddress.pointee = 42
    survived("background-thread")
}

/// Eight named threads released by one barrier, each storing to an unmapped address.
func crashOnEightThreadsAtOnce() -> Never {
    let count: UInt32 = 8
    // `started` includes this thread: Foundation names a thread only once its `start()` returned.
    nonisolated(unsafe) let started = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    nonisolated(unsafe) let go = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    pthread_barrier_init(started, nil, count + 1)
    pthread_barrier_init(go, nil, count)
    for index in 0..<count {
        Thread {
            pthread_barrier_wait(started)
            Thread.current.name = "crash-demo-t\(index)"
            pthread_barrier_wait(go)
            crashOnOneOfEightThreads()
        }.start()
    }
    pthread_barrier_wait(started)
    waitForCrash("threads-8")
}

@inline(never)
func crashOnOneOfEightThreads() -> Never {
    unmappedAddress.pointee = 42
    survived("threads-8")
}

/// Address 0x10: never mapped, so a store there is a segmentation fault in the storing function.
private let unmappedAddress = UnsafeMutablePointer<Int>(bitPattern: 0x10)!

/// Keeps a stack buffer from being optimised away.
@_optimize(none)
@inline(never)
private func keepAlive(_ pointer: UnsafeMutableRawPointer?) {}

/// Parks the calling thread while another thread crashes the process.
func waitForCrash(_ what: String) -> Never {
    if SleepWitness.enabled {
        SleepWitness.sleepAcrossCrash()
    } else {
        Thread.sleep(forTimeInterval: 10)
    }
    survived(what)
}
