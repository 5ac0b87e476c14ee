import Foundation

/// One parse worker, owned by one `Linter` thread: started on the thread's first file to parse,
/// asked for one file at a time, killed when a file outlives the deadline, and replaced (by the
/// thread) after it died. See `WorkerIsolation`.
final class WorkerProcess {
    private let process: ChildProcess
    private let timeout: Double
    private let memoryLimit: Int
    /// The worker's `TMPDIR`, where libclang writes the precompiled preambles of its C++ parses
    /// (`ClangParser.headerReuseOptions`; tens of megabytes each, one at a time): removed with
    /// everything in it when the worker is gone, so a worker killed mid-parse leaves nothing.
    private let temporaryDirectory: String?

    /// What became of one request.
    enum Reply {
        case outcome(FileOutcome)
        /// The worker is gone (killed at the deadline, crashed, exited) or unusable; the reason
        /// is for the file's `parse-failure`.
        case failed(String)
    }

    private init(process: ChildProcess, timeout: Double, memoryLimit: Int, temporaryDirectory: String?) {
        self.process = process
        self.timeout = timeout
        self.memoryLimit = memoryLimit
        self.temporaryDirectory = temporaryDirectory
    }

    /// The owner stops or replaces a worker (`stop`, or a reply that reaped it) before letting it go.
    deinit {
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }

    /// A private directory for one worker's temporary files (nil: the worker uses the run's).
    static func makeTemporaryDirectory() -> String? {
        var template = Array((NSTemporaryDirectory() + "/di-lint-worker-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: made)
    }

    /// Starts a worker (the channel its descriptor 0, its standard output and error the other
    /// socket, the last 16 KB of it kept: what it said before dying, such as an out-of-memory
    /// report) and sends it the handshake; the reason when it cannot be started.
    static func start(_ isolation: WorkerIsolation, handshake: [UInt8], memoryLimit: Int) -> Result<
        WorkerProcess, ParseFailure
    > {
        let temporary = makeTemporaryDirectory()
        var environment = ChildProcess.environment()
        if let temporary { environment = environment.filter { !$0.hasPrefix("TMPDIR=") } + ["TMPDIR=" + temporary] }
        let started = ChildProcess.start(
            executable: isolation.executable, arguments: [isolation.executable] + isolation.arguments,
            environment: environment, channelAt: [0], outputAt: [1, 2], keep: 16 << 10)
        let process: ChildProcess
        switch started {
        case let .success(child): process = child
        case let .failure(failure):
            if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
            return .failure(ParseFailure(reason: "cannot start a parse worker (\(failure))"))
        }
        let worker = WorkerProcess(
            process: process, timeout: isolation.timeout, memoryLimit: memoryLimit, temporaryDirectory: temporary)
        guard process.send(WorkerFrames.frame(handshake)) else {
            _ = process.reap(kill: true)
            return .failure(ParseFailure(reason: "cannot start a parse worker (it ended before the handshake)"))
        }
        return .success(worker)
    }

    /// The address-space limit a worker gets: `wanted`, or the hard limit this process runs
    /// under (`ulimit -v`) when lower, since a child cannot raise it.
    static func effectiveLimit(_ wanted: Int) -> Int {
        var space = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space) == 0 else { return wanted }
        return min(wanted, Int(clamping: space.rlim_max))
    }

    /// Lints one file in the worker, until the file's deadline or the run's `budget` ends,
    /// whichever comes first. After `.failed` the worker is gone; start another.
    func outcome(path: String, bytes: [UInt8], budget: RunBudget? = nil) -> Reply {
        process.forgetOutput()
        var parses = ParseDeadlines(seconds: timeout)
        parses.begin(0, path: path)
        guard process.send(WorkerFrames.frame(WorkerFrames.request(path: path, bytes: bytes))) else {
            return .failed(death())
        }
        let fileDeadline = parses.next!
        let deadline = min(fileDeadline, budget?.end ?? .max)
        while true {
            if let length = WorkerFrames.length(process.inbox[...]) {
                if process.inbox.count == 8 + length {
                    // the reply is all the inbox holds (as always: one request at a time): read in place
                    let frame = process.inbox
                    process.inbox = []
                    return reply(frame, at: 8)
                }
                if process.inbox.count - 8 >= length {
                    let result = reply(Array(process.inbox[8..<(8 + length)]), at: 0)
                    process.inbox.removeFirst(8 + length)
                    return result
                }
                // a large reply (tens of megabytes for a large file) grows the inbox once
                if process.inbox.capacity < 8 + length, length < 1 << 32 { process.inbox.reserveCapacity(8 + length) }
            }
            guard RunBudget.now() < deadline else {
                _ = process.reap(kill: true)
                if let budget, deadline < fileDeadline { return .failed(budget.spentDuring) }
                return .failed("\(parses.tookLonger) (the parse worker was killed; see --parse-timeout)")
            }
            guard process.receive(until: deadline) else { return .failed(death(kill: true)) }
            if process.channel < 0 { return .failed(death()) }
        }
    }

    /// The reply whose kind byte is at `start` of `frame`, the rest of `frame` its body.
    private func reply(_ frame: [UInt8], at start: Int) -> Reply {
        switch start < frame.count ? frame[start] : nil {
        case WorkerFrames.outcome?:
            if let outcome = try? CacheEntryCodec.decodeUndigested(frame, from: start + 1) {
                // libclang recovers from running out of memory (the limit) as from a crash, and the
                // file fails as "libclang crashed"; what it printed says why. The worker is
                // replaced: its heap is what is left of a failed parse.
                if outcome.failed {
                    process.drainOutput()
                    if let outOfMemory {
                        _ = process.reap(kill: true)
                        return .failed(outOfMemory)
                    }
                }
                return .outcome(outcome)
            }
            return .failed(death(kill: true, fallback: "the parse worker sent a reply that does not decode"))
        case WorkerFrames.refused?:
            var r = ByteReader(frame, from: start + 1)
            let message = (try? r.string()) ?? "the parse worker refused to parse"
            _ = process.reap(kill: true)
            return .failed(message)
        default:
            return .failed(death(kill: true, fallback: "the parse worker sent a reply that does not decode"))
        }
    }

    /// Why the worker is gone, once it is reaped (killed first when `kill`).
    private func death(kill: Bool = false, fallback: String? = nil) -> String {
        let status = process.reap(kill: kill)
        return fallback ?? ChildProcess.death(of: "the parse worker", status: status, outOfMemory: outOfMemory)
    }

    /// Why the file failed when the worker said, since the request, that an allocation failed.
    private var outOfMemory: String? {
        ChildProcess.saysOutOfMemory(process.written)
            ? ChildProcess.outOfMemory("the parse worker", limit: memoryLimit) : nil
    }

    /// "signal 11, SIGSEGV" (see `ChildProcess.signalDescription`).
    static func signalDescription(_ signal: Int32) -> String { ChildProcess.signalDescription(signal) }

    /// Whether the worker is still there between requests (its socket not closed): a worker
    /// gone since its last reply is replaced before the next file, which it never saw.
    var isAlive: Bool { process.isAlive }

    /// Ends the worker: closing its socket makes it exit.
    func stop() {
        _ = process.reap(kill: false)
    }

    /// "2", "2.5": seconds as the option was given (see `ParseDeadlines.seconds`).
    static func seconds(_ value: Double) -> String { ParseDeadlines.seconds(value) }
}
