import Foundation

/// A child process di-lint starts and watches while it parses: a lint run's parse worker
/// (`WorkerProcess`) or the process `di-lint fix` runs itself in (`FixSupervisor`).
///
/// It is started with `posix_spawn` holding two sockets, created close-on-exec (`socketpair`
/// sets the flag atomically, so a child another thread starts meanwhile inherits neither): a
/// channel for requests and reports, and its standard error (and output when asked), read as it
/// comes so that what it said before dying is known. The parent waits on both with `poll` until
/// a deadline (`ParseDeadlines`), then ends the child (`SIGKILL`), reaps it (`waitpid`) and says
/// why it ended (`death`). `SupervisedChild` supervises it.
final class ChildProcess {
    let pid: pid_t
    /// The parent's end of the channel; -1 once it closed.
    private(set) var channel: Int32
    /// The parent's end of the child's standard error; -1 once it closed.
    private(set) var output: Int32
    /// What the child wrote to its standard error: everything, or the last `keep` bytes.
    private(set) var written: [UInt8] = []
    private let keep: Int
    /// What the channel delivered, not yet taken.
    var inbox: [UInt8] = []
    /// What `recv` reads into (allocated once, on the first read).
    private var receiveBuffer: [UInt8] = []
    private var reaped = false

    /// Why a child could not be started ("socketpair: …", "program: …").
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    private init(pid: pid_t, channel: Int32, output: Int32, keep: Int) {
        self.pid = pid
        self.channel = channel
        self.output = output
        self.keep = keep
    }

    /// Starts `executable` with `arguments` (`argv[0]` first) and `environment`, the channel as
    /// its descriptors `channelAt` and its standard error as `outputAt`; the others it has are
    /// this process's (standard output when not in `outputAt`).
    static func start(
        executable: String, arguments: [String], environment: [String], channelAt: [Int32], outputAt: [Int32],
        keep: Int = .max
    ) -> Result<ChildProcess, StartFailure> {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        var channel: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, type, 0, &channel) == 0 else {
            return .failure(StartFailure(description: "socketpair: \(String(cString: strerror(errno)))"))
        }
        guard socketpair(AF_UNIX, type, 0, &output) == 0 else {
            let reason = String(cString: strerror(errno))
            close(channel[0]); close(channel[1])
            return .failure(StartFailure(description: "socketpair: \(reason)"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in channelAt { posix_spawn_file_actions_adddup2(&actions, channel[1], fd) }
        for fd in outputAt { posix_spawn_file_actions_adddup2(&actions, output[1], fd) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(channel[1])
        close(output[1])
        guard status == 0 else {
            close(channel[0]); close(output[0])
            return .failure(StartFailure(description: "\(executable): \(String(cString: strerror(status)))"))
        }
        return .success(ChildProcess(pid: pid, channel: channel[0], output: output[0], keep: keep))
    }

    /// The run's environment, with Swift's crash backtracer off (a crash is reported as the
    /// file's failure; printing a backtrace would only slow the respawn).
    static func environment() -> [String] {
        ProcessInfo.processInfo.environment.filter { $0.key != "SWIFT_BACKTRACE" }.map { "\($0.key)=\($0.value)" }
            + ["SWIFT_BACKTRACE=enable=no"]
    }

    /// Sends all of `bytes` on the channel; false when the child is gone.
    func send(_ bytes: [UInt8]) -> Bool { channel >= 0 && writeAll(channel, bytes, socket: true) }

    /// Waits until `deadline` (`RunBudget.now()` nanoseconds; nil: no end) for the child to
    /// write, then reads once from each descriptor that is ready: standard error first, so that
    /// what the child wrote before a report is read with it. Returns at the deadline having read
    /// nothing; false when `poll` fails.
    func receive(until deadline: UInt64?) -> Bool {
        var wait: Int32 = -1
        if let deadline {
            let now = RunBudget.now()
            wait = now >= deadline ? 0 : Int32(clamping: (deadline - now) / 1_000_000 + 1)
        }
        var fds = [
            pollfd(fd: output, events: Int16(POLLIN), revents: 0),
            pollfd(fd: channel, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, wait)
        if ready < 0 { return errno == EINTR }
        if fds[0].revents != 0 { readOutput() }
        if fds[1].revents != 0 { readChannel() }
        return true
    }

    /// Whether the channel has something to read now (or closed).
    var channelReady: Bool {
        var fd = pollfd(fd: channel, events: Int16(POLLIN), revents: 0)
        return channel >= 0 && poll(&fd, 1, 0) > 0
    }

    /// Whether the child is still there between requests: not reaped, its channel neither
    /// closed nor holding anything unasked.
    var isAlive: Bool { !reaped && channel >= 0 && !channelReady }

    /// One read from the channel into `inbox`; closes it at its end or on an error.
    func readChannel() {
        if receiveBuffer.isEmpty { receiveBuffer = [UInt8](repeating: 0, count: 1 << 20) }
        let n = receiveBuffer.withUnsafeMutableBytes { recv(channel, $0.baseAddress!, $0.count, 0) }
        if n > 0 {
            inbox += receiveBuffer[..<n]
        } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
            close(channel)
            channel = -1
        }
    }

    /// One read of the child's standard error into `written`; closes it at its end or on an error.
    private func readOutput() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
        if n > 0 {
            written += buffer[..<n]
            if written.count > keep { written.removeFirst(written.count - keep) }
        } else if n == 0 || errno != EINTR {
            close(output)
            output = -1
        }
    }

    /// Reads what the child's standard error holds now, without waiting.
    func drainOutput() {
        var fd = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        while output >= 0, poll(&fd, 1, 0) > 0 {
            readOutput()
            fd.fd = output
        }
    }

    /// Forgets what the child wrote so far (a new request's output starts here).
    func forgetOutput() { written = [] }

    /// Ends the child: kills it when `kill` (`SIGKILL`), closes the channel (a worker exits when it
    /// closes), reads its standard error to the end and waits for it. The raw wait status; nil
    /// when it was reaped before.
    func reap(kill: Bool) -> Int32? {
        guard !reaped else { return nil }
        reaped = true
        if kill { Glibc.kill(pid, SIGKILL) }
        if channel >= 0 { close(channel); channel = -1 }
        while output >= 0 { readOutput() }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// The signal that ended a process, from its raw wait status; nil when it exited.
    static func signal(_ status: Int32) -> Int32? { status & 0x7f == 0 ? nil : status & 0x7f }

    /// Why `process` ("the parse worker") ended while parsing a file, from its raw wait status
    /// (nil: reaped before): `outOfMemory` when it said an allocation failed, killed (perhaps for
    /// memory), crashed (a signal), or exited.
    static func death(of process: String, status: Int32?, outOfMemory: String?) -> String {
        if let outOfMemory { return outOfMemory }
        guard let status else { return "\(process) ended without a reply" }
        guard let signal = signal(status) else {
            return "\(process) exited with status \((status >> 8) & 0xff) while parsing it"
        }
        if signal == SIGKILL {
            return
                "\(process) was killed (\(signalDescription(SIGKILL))) while parsing it, perhaps by the system's out-of-memory killer"
        }
        return "the parser crashed (\(signalDescription(signal)))"
    }

    /// Why a file failed whose parse went over `process`'s address-space limit of `limit` bytes.
    static func outOfMemory(_ process: String, limit: Int) -> String {
        "ran out of memory (over \(process)'s \(limit >> 20) MiB address-space limit; see parse-memory-limit)"
    }

    /// Whether `output` (a process's standard error) says that an allocation failed (LLVM, the C++ or Swift runtime).
    static func saysOutOfMemory(_ output: [UInt8]) -> Bool {
        let said = String(decoding: output, as: UTF8.self)
        return [
            "out of memory", "bad_alloc", "Could not allocate memory", "Cannot allocate memory", "memory exhausted",
        ]
        .contains { said.contains($0) }
    }

    /// "signal 11, SIGSEGV": the number and glibc's abbreviation (`sigabbrev_np`), or its
    /// description (`strsignal`) for a signal without one (a real-time signal).
    static func signalDescription(_ signal: Int32) -> String {
        if let abbreviation = sigabbrev(signal) { return "signal \(signal), SIG" + String(cString: abbreviation) }
        guard signal > 0, signal < 128, let description = strsignal(signal) else { return "signal \(signal)" }
        return "signal \(signal), " + String(cString: description)
    }

    /// glibc's `sigabbrev_np` (2.32 and later), which the Glibc module does not declare (it is a
    /// GNU extension): looked up once.
    private static let sigabbrev: (@convention(c) (Int32) -> UnsafePointer<CChar>?) = {
        guard let symbol = dlsym(nil, "sigabbrev_np") else { return { _ in nil } }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> UnsafePointer<CChar>?).self)
    }()
}

/// The one supervisor of the children that parse for di-lint, lint's parse worker (`WorkerProcess`)
/// and fix's child (`FixSupervisor`): it starts the child, again after one died (`live`), reads
/// until it answers, ends or a parse passes its deadline (`watch`), and says why it died while
/// parsing (`death`). The child sets its own limits (`ParseWorker.limitResources`).
final class SupervisedChild {
    /// "the parse worker", "the fix process": the child in messages.
    let name: String
    /// The child's address-space limit in bytes (for the out-of-memory message).
    var memoryLimit: Int
    /// The parses under way in the child (deadline, where their output starts).
    var parses: ParseDeadlines
    private(set) var process: ChildProcess?
    /// `process.written.count` when the current round of reading began: where the output of a
    /// parse begun in it starts (its start may be read after the first of its output).
    private(set) var roundStart = 0
    private let start: () -> Result<ChildProcess, ChildProcess.StartFailure>

    init(
        name: String, timeout: Double, memoryLimit: Int,
        start: @escaping () -> Result<ChildProcess, ChildProcess.StartFailure>
    ) {
        self.name = name
        self.memoryLimit = memoryLimit
        self.start = start
        parses = ParseDeadlines(seconds: timeout)
    }

    /// The address-space limit a child gets: `wanted`, or this process's hard limit when lower.
    static func effectiveLimit(_ wanted: Int) -> Int {
        var space = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space) == 0 else { return wanted }
        return min(wanted, Int(clamping: space.rlim_max))
    }

    /// The child: the one started last while it is there between requests, else a new one (the
    /// one gone is reaped, and its parses forgotten).
    func live() -> Result<ChildProcess, ChildProcess.StartFailure> {
        if let process, process.isAlive { return .success(process) }
        _ = process?.reap(kill: false)
        parses = ParseDeadlines(seconds: parses.seconds)
        let started = start()
        process = try? started.get()
        return started
    }

    enum Watched<Answer> {
        case answered(Answer)
        /// A deadline passed (the child runs on): the first-begun late parse's, nil for `limit`.
        case late(ParseDeadlines.Parse?)
        /// The child closed its channel (with `toTheEnd`, its standard error too).
        case ended
        case pollFailed
    }

    /// Reads what the child sends until `answer` takes what it waits for from the inbox, the
    /// child ends, or `limit` or a parse's deadline passes (what was sent by then is read
    /// first: the end of a late parse may be waiting).
    func watch<Answer>(limit: UInt64 = .max, toTheEnd: Bool = false, answer: () -> Answer?) -> Watched<Answer> {
        guard let process else { return .ended }
        while true {
            if let answered = answer() { return .answered(answered) }
            guard process.channel >= 0 || (toTheEnd && process.output >= 0) else { return .ended }
            let deadline = min(parses.next ?? .max, limit)
            roundStart = process.written.count
            if RunBudget.now() > deadline {
                guard process.channelReady else { return .late(parses.late()) }
                process.drainOutput()
                process.readChannel()
                continue
            }
            guard process.receive(until: deadline == .max ? nil : deadline) else { return .pollFailed }
        }
    }

    /// What the child wrote since the first parse under way began (the last 64 KB).
    var parseOutput: [UInt8] {
        guard let process, let from = parses.running.values.map(\.output).min() else { return [] }
        return Array(process.written[min(from, process.written.count)...].suffix(64 << 10))
    }

    /// "ran out of memory (…)" when the child said, in the parses under way, that an allocation failed.
    var outOfMemory: String? {
        ChildProcess.saysOutOfMemory(parseOutput) ? ChildProcess.outOfMemory(name, limit: memoryLimit) : nil
    }

    /// Why the child, reaped with the raw wait `status` (nil: reaped before), ended while parsing.
    func death(status: Int32?) -> String {
        ChildProcess.death(of: name, status: status, outOfMemory: outOfMemory)
    }
}

/// The parses under way in a process and the deadline each has, `seconds` from its start
/// (`RunBudget.now()`): the one deadline lint's parse workers, fix's supervisor and fix's
/// in-process watch apply.
struct ParseDeadlines {
    var seconds: Double
    struct Parse {
        let path: String
        let start: UInt64
        /// Where the parse's output starts in what its process wrote (`ChildProcess.written`).
        let output: Int
    }
    private(set) var running: [Int: Parse] = [:]

    init(seconds: Double) { self.seconds = seconds }

    mutating func begin(_ id: Int, path: String, output: Int = 0, at now: UInt64 = RunBudget.now()) {
        running[id] = Parse(path: path, start: now, output: output)
    }

    @discardableResult
    mutating func end(_ id: Int) -> Parse? { running.removeValue(forKey: id) }

    /// When a parse begun at `start` is late.
    func deadline(of start: UInt64) -> UInt64 {
        let span = seconds * 1e9
        return span >= Double(UInt64.max - start) ? UInt64.max : start + UInt64(span)
    }

    /// The earliest deadline of the parses under way; nil when none is.
    var next: UInt64? { running.values.map { deadline(of: $0.start) }.min() }

    /// The first-begun parse whose deadline has passed at `now`.
    func late(at now: UInt64 = RunBudget.now()) -> Parse? {
        running.values.filter { now > deadline(of: $0.start) }.min { $0.start < $1.start }
    }

    /// The files being parsed, first begun first.
    var paths: [String] { running.values.sorted { $0.start < $1.start }.map(\.path) }

    /// "took longer than 2 s to parse".
    var tookLonger: String { "took longer than \(Self.seconds(seconds)) s to parse" }

    /// "2", "2.5": seconds as the option was given.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value < 1e15 ? String(Int(value)) : "\(value)"
    }
}
