// `crash --sleepers`: shows whether crash capture cuts other threads' sleeps short. A thread
// started before install sleeps 1 s across install, and the thread that waits for a crash on
// another thread does so in one 10 s sleep; each is one nanosleep call, timed with
// CLOCK_MONOTONIC, and what it lasted is written to stderr.
import CrashIntegration
import Foundation
#if canImport(Glibc)
import Glibc
#endif

enum SleepWitness {
    /// Set by `crash --sleepers`: `waitForCrash` then sleeps in one call and reports it.
    nonisolated(unsafe) static var enabled = false

    /// Seconds the thread started before install sleeps.
    static let acrossInstallSeconds = 1.0

    /// Starts the thread that sleeps across install and returns once it is asleep (so install
    /// happens during its sleep); `finished` is signalled when it has reported.
    static func startSleepingAcrossInstall() -> DispatchSemaphore {
        let finished = DispatchSemaphore(value: 0)
        let asleep = DispatchSemaphore(value: 0)
        Thread {
            asleep.signal()
            report("sleep across install", sleepOnce(seconds: acrossInstallSeconds))
            finished.signal()
        }.start()
        asleep.wait()
        usleep(50_000) // let it enter nanosleep
        return finished
    }

    /// One 10 s nanosleep while another thread crashes the process; says how it ended.
    static func sleepAcrossCrash() {
        report("sleep across crash", sleepOnce(seconds: 10))
    }

    /// One nanosleep call: its result, errno and the time it lasted.
    static func sleepOnce(seconds: Double) -> (asked: Double, slept: Double, result: Int32, error: Int32) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        let start = monotonicSeconds()
        errno = 0
        let result = nanosleep(&request, nil)
        let error = errno
        return (seconds, monotonicSeconds() - start, result, error)
    }

    /// `crash-demo: <what>: asked 1.000 s, slept 1.000 s, nanosleep 0 (errno 0)`, one write(2).
    static func report(_ what: String, _ outcome: (asked: Double, slept: Double, result: Int32, error: Int32)) {
        let line = String(
            format: "crash-demo: %@: asked %.3f s, slept %.3f s, nanosleep %d (errno %d)\n",
            what, outcome.asked, outcome.slept, outcome.result, outcome.error)
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// `crash --exit-during-crash`: a thread that blocks every signal (capture cannot park it) calls
/// exit(0) as soon as a crash has begun. The launch must still be recorded as crashed.
enum ExitDuringCrash {
    static func start() {
        let started = DispatchSemaphore(value: 0)
        Thread {
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_SETMASK, &all, nil)
            started.signal()
            while seam_capture_crash_in_progress() == 0 { usleep(200) }
            exit(0)
        }.start()
        started.wait()
    }
}
