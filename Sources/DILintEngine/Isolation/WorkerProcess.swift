import Foundation

/// One parse worker, owned by one `Linter` thread: started on the thread's first file to parse,
/// asked for one file at a time, killed when a file outlives the deadline, and started again for
/// the next file after it died (`SupervisedChild`). See `WorkerIsolation`.
final class WorkerProcess {
    private let child: SupervisedChild
    /// The worker's `TMPDIR`, where libclang writes its temporary files: every child
    /// this worker starts uses it, and it is removed with everything in it when the worker is
    /// gone, so a child killed mid-parse leaves nothing behind.
    private let temporaryDirectory: String?

    /// What became of one request.
    enum Reply {
        case outcome(FileOutcome)
        /// The worker is gone (killed at the deadline, crashed, exited) or unusable; the reason
        /// is for the file's `parse-failure`.
        case failed(String)
    }

    /// A worker for `isolation`, started on the first request (the channel its descriptor 0, its
    /// standard output and error the other socket, the last 16 KB of it kept: what it said
    /// before dying, such as an out-of-memory report) and sent the handshake; started again for
    /// the request after one it died in.
    init(_ isolation: WorkerIsolation, handshake: [UInt8]) {
        let temporary = Self.makeTemporaryDirectory()
        // the run's shared precompiled headers: made before the worker starts, which inherits it
        if ClangFrontEnd.headerReuseRequested { _ = SharedPrecompiledHeader.runDirectory() }
        temporaryDirectory = temporary
        var environment = ChildProcess.environment()
        if let temporary { environment = environment.filter { !$0.hasPrefix("TMPDIR=") } + ["TMPDIR=" + temporary] }
        child = SupervisedChild(
            name: "the parse worker", timeout: isolation.timeout,
            memoryLimit: SupervisedChild.effectiveLimit(isolation.memoryLimit)
        ) {
            let started = ChildProcess.start(
                executable: isolation.executable, arguments: [isolation.executable] + isolation.arguments,
                environment: environment, channelAt: [0], outputAt: [1, 2], keep: 16 << 10)
            switch started {
            case let .failure(failure):
                return .failure(ChildProcess.StartFailure(description: "cannot start a parse worker (\(failure))"))
            case let .success(process):
                guard process.send(WorkerFrames.frame(handshake)) else {
                    _ = process.reap(kill: true)
                    return .failure(
                        ChildProcess.StartFailure(
                            description: "cannot start a parse worker (it ended before the handshake)"))
                }
                return .success(process)
            }
        }
    }

    /// The owner stops a worker before letting it go.
    deinit {
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }

    /// A private directory for one worker's temporary files (nil: the worker uses the run's).
    static func makeTemporaryDirectory() -> String? {
        var template = Array((NSTemporaryDirectory() + "/di-lint-worker-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: made)
    }

    /// Lints one file in the worker, until the file's deadline or the run's `budget` ends,
    /// whichever comes first. After `.failed` the worker is gone; the next request starts another.
    func outcome(path: String, bytes: [UInt8], budget: RunBudget? = nil, systemBodies: Bool = true) -> Reply {
        let process: ChildProcess
        switch child.live() {
        case let .success(live): process = live
        case let .failure(failure): return .failed(failure.description)
        }
        process.forgetOutput()
        child.parses.begin(0, path: path)
        defer { child.parses.end(0) }
        guard
            process.send(WorkerFrames.frame(WorkerFrames.request(path: path, bytes: bytes, systemBodies: systemBodies)))
        else {
            return .failed(death())
        }
        let fileDeadline = child.parses.next!
        let limit = budget?.end ?? .max
        switch child.watch(limit: limit, answer: { takeReply(process) }) {
        case let .answered(reply):
            return reply
        case .late:
            _ = process.reap(kill: true)
            if let budget, limit < fileDeadline { return .failed(budget.spentDuring) }
            return .failed("\(child.parses.tookLonger) (the parse worker was killed; see --parse-timeout)")
        case .ended:
            return .failed(death())
        case .pollFailed:
            return .failed(death(kill: true))
        }
    }

    /// The reply, once the inbox holds all of it.
    private func takeReply(_ process: ChildProcess) -> Reply? {
        guard let length = WorkerFrames.length(process.inbox[...]) else { return nil }
        if process.inbox.count == 8 + length {
            // the reply is all the inbox holds (as always: one request at a time): read in place
            let frame = process.inbox
            process.inbox = []
            return reply(frame, at: 8, process)
        }
        if process.inbox.count - 8 >= length {
            let result = reply(Array(process.inbox[8..<(8 + length)]), at: 0, process)
            process.inbox.removeFirst(8 + length)
            return result
        }
        // a large reply (tens of megabytes for a large file) grows the inbox once
        if process.inbox.capacity < 8 + length, length < 1 << 32 { process.inbox.reserveCapacity(8 + length) }
        return nil
    }

    /// The reply whose kind byte is at `start` of `frame`, the rest of `frame` its body.
    private func reply(_ frame: [UInt8], at start: Int, _ process: ChildProcess) -> Reply {
        switch start < frame.count ? frame[start] : nil {
        case WorkerFrames.outcome?:
            if let outcome = try? CacheEntryCodec.decodeUndigested(frame, from: start + 1) {
                // libclang recovers from running out of memory (the limit) as from a crash, and the
                // file fails as "libclang crashed"; what it printed says why. The worker is
                // replaced: its heap is what is left of a failed parse.
                if outcome.failed {
                    process.drainOutput()
                    if let outOfMemory = child.outOfMemory {
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
        let status = child.process?.reap(kill: kill)
        return fallback ?? child.death(status: status)
    }

    /// "signal 11, SIGSEGV" (see `ChildProcess.signalDescription`).
    static func signalDescription(_ signal: Int32) -> String { ChildProcess.signalDescription(signal) }

    /// Ends the worker: closing its socket makes it exit.
    func stop() {
        _ = child.process?.reap(kill: false)
    }
}
