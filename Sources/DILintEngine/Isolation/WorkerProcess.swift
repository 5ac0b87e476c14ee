import Foundation

/// One parse worker, owned by one `Linter` thread: started on the thread's first file to parse,
/// asked for one file at a time, killed when a file outlives the deadline, and replaced (by the
/// thread) after it died. See `WorkerIsolation`.
final class WorkerProcess {
    private let pid: pid_t
    /// The parent's end of the socket the worker has as descriptor 0.
    private let socket: Int32
    /// The parent's end of the socket the worker has as descriptors 1 and 2 (its output).
    private var errors: Int32
    /// The last bytes the worker wrote there (what it said before dying: an out-of-memory report).
    private var errorTail: [UInt8] = []
    private var inbox: [UInt8] = []
    /// What `recv` reads into (allocated once, on the first reply).
    private var receiveBuffer: [UInt8] = []
    private let timeout: Double
    private let memoryLimit: Int

    /// What became of one request.
    enum Reply {
        case outcome(FileOutcome)
        /// The worker is gone (killed at the deadline, crashed, exited) or unusable; the reason
        /// is for the file's `parse-failure`.
        case failed(String)
    }

    private init(pid: pid_t, socket: Int32, errors: Int32, timeout: Double, memoryLimit: Int) {
        self.pid = pid
        self.socket = socket
        self.errors = errors
        self.timeout = timeout
        self.memoryLimit = memoryLimit
    }

    /// Starts a worker and sends it the handshake; the reason when it cannot be started.
    static func start(_ isolation: WorkerIsolation, handshake: [UInt8], memoryLimit: Int) -> Result<WorkerProcess, ParseFailure> {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return .failure(ParseFailure(reason: "cannot start a parse worker (socketpair: \(String(cString: strerror(errno))))"))
        }
        // Standard error is a socket too: socketpair sets close-on-exec atomically, so a worker
        // another thread starts meanwhile does not inherit this one's descriptors.
        var pipe: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipe) == 0 else {
            let reason = String(cString: strerror(errno))
            close(pair[0]); close(pair[1])
            return .failure(ParseFailure(reason: "cannot start a parse worker (socketpair: \(reason))"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        let argv = ([isolation.executable] + isolation.arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment().map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, isolation.executable, &actions, nil, argv, envp)
        close(pair[1])
        close(pipe[1])
        guard status == 0 else {
            close(pair[0]); close(pipe[0])
            return .failure(ParseFailure(reason: "cannot start a parse worker (\(isolation.executable): \(String(cString: strerror(status))))"))
        }
        let worker = WorkerProcess(pid: pid, socket: pair[0], errors: pipe[0], timeout: isolation.timeout, memoryLimit: memoryLimit)
        guard worker.send(WorkerFrames.frame(handshake)) else {
            _ = worker.reap(kill: true)
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

    /// The run's environment, with Swift's crash backtracer off (a crash is reported as the
    /// file's `parse-failure`; printing a backtrace would only slow the respawn).
    static func environment() -> [String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "SWIFT_BACKTRACE" }.map { "\($0.key)=\($0.value)" }
            + ["SWIFT_BACKTRACE=enable=no"]
    }

    /// Lints one file in the worker, until the file's deadline or the run's `budget` ends,
    /// whichever comes first. After `.failed` the worker is gone; start another.
    func outcome(path: String, bytes: [UInt8], budget: RunBudget? = nil) -> Reply {
        let start = DispatchTime.now().uptimeNanoseconds
        errorTail = []
        guard send(WorkerFrames.frame(WorkerFrames.request(path: path, bytes: bytes))) else { return .failed(death()) }
        let fileDeadline = start + UInt64(timeout * 1e9)
        let budgetEnd = budget.map { start.addingReportingOverflow($0.left) }.map { $0.overflow ? UInt64.max : $0.partialValue }
        let deadline = min(fileDeadline, budgetEnd ?? .max)
        while true {
            if let length = WorkerFrames.length(inbox[...]) {
                if inbox.count == 8 + length {
                    // the reply is all the inbox holds (as always: one request at a time): read in place
                    let frame = inbox
                    inbox = []
                    return reply(frame, at: 8)
                }
                if inbox.count - 8 >= length {
                    let result = reply(Array(inbox[8..<(8 + length)]), at: 0)
                    inbox.removeFirst(8 + length)
                    return result
                }
                // a large reply (tens of megabytes for a large file) grows the inbox once
                if inbox.capacity < 8 + length, length < 1 << 32 { inbox.reserveCapacity(8 + length) }
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                _ = reap(kill: true)
                if let budget, deadline < fileDeadline { return .failed(budget.spentDuring) }
                return .failed("took longer than \(Self.seconds(timeout)) s to parse (the parse worker was killed; see --parse-timeout)")
            }
            let wait = Int32(min(Double(deadline - now) / 1e6 + 1, Double(Int32.max)))
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, errors >= 0 ? 2 : 1, wait)
            if ready < 0 && errno != EINTR { return .failed(death(kill: true)) }
            guard ready > 0 else { continue }
            if errors >= 0 && fds[1].revents != 0 { drainErrors() }
            if fds[0].revents != 0 {
                if receiveBuffer.isEmpty { receiveBuffer = [UInt8](repeating: 0, count: 1 << 20) }
                let n = receiveBuffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, $0.count, 0) }
                if n > 0 {
                    inbox += receiveBuffer[..<n]
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    return .failed(death())
                }
            }
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
                if outcome.failed, errors >= 0 {
                    var fd = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
                    while errors >= 0, poll(&fd, 1, 0) > 0 { drainErrors(); fd.fd = errors }
                    if saidOutOfMemory {
                        _ = reap(kill: true)
                        return .failed(outOfMemory)
                    }
                }
                return .outcome(outcome)
            }
            return .failed(death(kill: true, fallback: "the parse worker sent a reply that does not decode"))
        case WorkerFrames.refused?:
            var r = ByteReader(frame, from: start + 1)
            let message = (try? r.string()) ?? "the parse worker refused to parse"
            _ = reap(kill: true)
            return .failed(message)
        default:
            return .failed(death(kill: true, fallback: "the parse worker sent a reply that does not decode"))
        }
    }

    /// Reads what the worker wrote to its standard error, keeping the last 16 KB.
    private func drainErrors() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress!, $0.count) }
        if n > 0 {
            errorTail += buffer[..<n]
            if errorTail.count > 16 << 10 { errorTail.removeFirst(errorTail.count - (16 << 10)) }
        } else if n == 0 || errno != EINTR {
            close(errors)
            errors = -1
        }
    }

    /// Why the worker is gone, once it is reaped (killed first when `kill`).
    private func death(kill: Bool = false, fallback: String? = nil) -> String {
        let status = reap(kill: kill)
        if let fallback { return fallback }
        if saidOutOfMemory { return outOfMemory }
        guard let status else { return "the parse worker ended without a reply" }
        if status & 0x7f == 0 { return "the parse worker exited with status \((status >> 8) & 0xff) without a reply" }
        let signal = status & 0x7f
        if signal == SIGKILL {
            return "the parse worker was killed (signal 9, SIGKILL), perhaps by the system's out-of-memory killer"
        }
        return "the parser crashed (\(Self.signalDescription(signal)))"
    }

    /// "signal 11, SIGSEGV".
    static func signalDescription(_ signal: Int32) -> String {
        "signal \(signal)" + (signalNames[signal].map { ", " + $0 } ?? "")
    }

    /// Whether the worker said, since the request, that an allocation failed.
    private var saidOutOfMemory: Bool { Self.saysOutOfMemory(errorTail) }

    /// Whether `output` (a process's standard error) says that an allocation failed (LLVM, the C++ or Swift runtime).
    static func saysOutOfMemory(_ output: [UInt8]) -> Bool {
        let said = String(decoding: output, as: UTF8.self)
        return ["out of memory", "bad_alloc", "Could not allocate memory", "Cannot allocate memory", "memory exhausted"]
            .contains { said.contains($0) }
    }

    private var outOfMemory: String {
        "ran out of memory (over the parse worker's \(memoryLimit >> 20) MiB address-space limit; see parse-memory-limit)"
    }

    static let signalNames: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP",
        SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGPIPE: "SIGPIPE", SIGXCPU: "SIGXCPU",
        SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS", SIGQUIT: "SIGQUIT",
    ]

    /// Whether the worker is still there between requests (its socket not closed): a worker
    /// gone since its last reply is replaced before the next file, which it never saw.
    var isAlive: Bool {
        guard !reaped else { return false }
        var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) == 0
    }

    /// Ends the worker: closing its socket makes it exit.
    func stop() {
        _ = reap(kill: false)
    }

    private var reaped = false

    /// Waits for the worker to end, after closing its socket (and killing it when `kill`);
    /// drains its standard error meanwhile. The raw wait status, nil when already reaped.
    private func reap(kill: Bool) -> Int32? {
        guard !reaped else { return nil }
        reaped = true
        if kill { Glibc.kill(pid, SIGKILL) }
        close(socket)
        while errors >= 0 { drainErrors() }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    private func send(_ bytes: [UInt8]) -> Bool { ParseWorker.writeAll(socket, bytes) }

    /// "2", "2.5": seconds as the option was given.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e15 ? String(Int(value)) : "\(value)"
    }
}
