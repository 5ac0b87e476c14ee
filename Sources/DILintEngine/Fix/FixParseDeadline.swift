import Foundation

/// `di-lint fix` parses in its own process (it needs libclang's trees, not a worker's outcome),
/// where a parse cannot be interrupted.
///
/// Supervised (`supervision` set: the process `FixSupervisor` started), each parse is reported
/// to the supervisor (one at a time when it asks), which applies the deadline and starts the run again without a file that
/// crashed, ran out of memory or was late; the files it left out (`leftOut`) are never parsed
/// again, their parse failing with the reason. In-process (`--no-isolation`), a watchdog ends
/// the run, naming the file, when a parse outlives `parse-timeout`: nothing is written before
/// every parse is done, so ending there loses no file, and a pathological file stops the run
/// instead of holding it.
final class FixParseDeadline: @unchecked Sendable {
    /// Set before the first parse in a supervised run.
    var supervision: FixSupervision?
    /// Files left out of the run by the supervisor (real path → why), set before the first parse.
    var leftOut: [String: String] = [:]
    /// The run's budget: once spent, no parse starts (each throws, naming the budget) but those
    /// of files parsed to the end before, in this run or an earlier one of the supervisor's
    /// (`parsedBefore`): their edits are verified, and a run started again plans them again.
    var budget: RunBudget?
    /// Files parsed to the end before (real paths); set before the first parse, added to by each.
    var parsedBefore: Set<String> = []
    private let lock = NSLock()
    /// Held through each parse when the supervisor asks for one at a time.
    private let serialLock = NSLock()
    private var parses: ParseDeadlines
    private var next = 0
    private var watching = false
    private var stopped = false

    /// How long the watchdog sleeps between looks.
    private let nap: Double

    init(seconds: Double) {
        parses = ParseDeadlines(seconds: seconds)
        nap = min(0.25, seconds / 4)
    }

    deinit { stop() }

    /// Runs a parse of `path` under the deadline; throws `ParseFailure` for a file left out, and
    /// once the run's budget is spent.
    func parsing<R>(_ path: String, _ body: () throws -> R) throws -> R {
        if let why = leftOut[path] { throw ParseFailure(reason: why) }
        if let budget {
            lock.lock()
            let known = parsedBefore.contains(path)
            lock.unlock()
            if !known && budget.isSpent { throw ParseFailure(reason: budget.spentBefore) }
        }
        let serial = supervision?.serial == true
        if serial { serialLock.lock() }
        defer { if serial { serialLock.unlock() } }
        let id = begin(path)
        var failed = true
        defer { end(id, failed: failed) }
        let result = try body()
        failed = false
        if budget != nil { lock.lock(); parsedBefore.insert(path); lock.unlock() }
        return result
    }

    /// Ends the watch (the watchdog thread returns at its next look).
    func stop() {
        lock.lock(); defer { lock.unlock() }
        stopped = true
    }

    /// Begins a parse: reported to the supervisor, or watched here.
    private func begin(_ path: String) -> Int {
        lock.lock(); defer { lock.unlock() }
        let id = next
        next += 1
        if let supervision {
            supervision.report("b", UInt32(truncatingIfNeeded: id), path)
            return id
        }
        parses.begin(id, path: path)
        if !watching {
            watching = true
            let thread = Thread { [weak self] in
                while let self, self.look() {}
            }
            thread.name = "di-lint fix parse deadline"
            thread.start()
        }
        return id
    }

    /// Ends a parse (`failed` when it threw).
    private func end(_ id: Int, failed: Bool) {
        lock.lock(); defer { lock.unlock() }
        if let supervision {
            supervision.report("e", UInt32(truncatingIfNeeded: id), failed ? "failed" : "")
        } else {
            parses.end(id)
        }
    }

    /// Sleeps a moment, then ends the process if a parse is late; false once stopped.
    private func look() -> Bool {
        Thread.sleep(forTimeInterval: nap)
        lock.lock(); defer { lock.unlock() }
        if stopped { return false }
        if let late = parses.late() {
            let message =
                "di-lint fix: \(late.path) \(parses.tookLonger); nothing was written "
                + "(leave the file out with --exclude, or raise --parse-timeout)\n"
            _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            _exit(2)
        }
        return true
    }
}
