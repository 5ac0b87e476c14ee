import Foundation

/// `di-lint fix` isolated (the default): the command runs itself again as one child process
/// that does the whole run (plan, verify, print or write, with standard output inherited), and
/// watches its libclang parses. A parse that outlives `parse-timeout`, crashes the child (a
/// signal), or fails where libclang says it ran out of memory (the child's address space is
/// limited to `parse-memory-limit`, as a lint worker's) or crashed (libclang recovers from both,
/// with the heap left as the failure left it) ends the child; every parse comes before anything
/// is printed or written, so the supervisor (`SupervisedChild`, as lint's parse workers) starts
/// the run again with that file left out, which the new child lists as a manual item naming the
/// cause (and never parses). Each file left out is one more run, at most `maxLeftOut`. When two parses ran at once (`fix` parses on a thread per core) the next
/// run parses one file at a time, so that its failure names one file. The child's standard
/// error is held and written when it ends: a run that is started again prints nothing twice.
public enum FixSupervisor {
    /// The environment variable that makes `di-lint fix` the supervised child (see `FixSupervision`).
    public static let environmentKey = "DI_LINT_FIX_SUPERVISED"
    /// At most this many files are left out; more is an error (exit 2).
    static let maxLeftOut = 32
    /// The descriptor the child reports its parses on.
    static let statusDescriptor: Int32 = 3

    /// Runs `arguments` (di-lint's own, `argv[0]` first) as the supervised child until it
    /// finishes, leaving out the files that end it; the exit status to end with.
    public static func run(arguments: [String], executable: String = "/proc/self/exe") -> Int32 {
        var leftOut: [(path: String, reason: String)] = []
        var serial = false
        // SIGTERM, SIGINT and SIGHUP are passed on to the child, which is the process that writes
        // (an apply under way finishes or undoes its work before the signal ends it); the
        // supervisor waits for it, then ends the same way
        let signals = HeldSignals(ignoringPipe: false)
        defer { signals.restore() }
        // the run's budget counts from here, over every child started; a child may parse again
        // after it the files an earlier child parsed to the end
        let started = RunBudget.now()
        var parsed = Set<String>()
        let child = SupervisedChild(name: "the fix process", timeout: 60, memoryLimit: 0) {
            startChild(
                executable: executable, arguments: arguments, leftOut: leftOut, serial: serial, started: started,
                parsed: parsed)
        }
        while true {
            if let signal = signals.caught { HeldSignals.end(signal) }
            switch child.live() {
            case let .success(process): signals.forward(to: process.pid)
            case let .failure(message):
                writeErrors("di-lint fix: error: \(message) (--no-isolation runs without a child process)\n")
                return 2
            }
            let end = wait(child, parsed: &parsed)
            signals.forward(to: 0)
            switch end.failure {
            case nil:
                writeErrors(end.errors)
                // a signal from outside (a closed pipe, an interrupt): the run ends as the child did
                if let signal = end.signal ?? signals.caught { HeldSignals.end(signal) }
                return end.status
            case let (reason, paths)? where paths.count == 1:
                guard !leftOut.contains(where: { $0.path == paths[0] }) else {
                    writeErrors(
                        end.errors
                            + Array(
                                "di-lint fix: error: \(paths[0]) was parsed after it was left out (\(reason))\n".utf8))
                    return 2
                }
                guard leftOut.count < maxLeftOut else {
                    writeErrors(
                        Array(
                            ("di-lint fix: error: more than \(maxLeftOut) files could not be parsed (the last: \(paths[0]): "
                                + "\(reason)); leave them out with --exclude\n").utf8))
                    return 2
                }
                leftOut.append((paths[0], reason))
            case (_, let paths)? where paths.count > 1 && !serial:
                serial = true
            case let (reason, _)?:
                // outside any parse (or several at once when they ran one at a time: cannot happen)
                writeErrors(
                    end.errors
                        + Array(
                            ("di-lint fix: error: the fix process ended outside a parse (\(reason)); "
                                + "--no-isolation runs the fix in di-lint's own process\n").utf8))
                return 2
            }
        }
    }

    /// Starts the supervised child: a `ChildProcess` reporting its parses on its descriptor 3, its
    /// standard error held (all of it), its standard output this process's.
    private static func startChild(
        executable: String, arguments: [String], leftOut: [(path: String, reason: String)], serial: Bool,
        started: UInt64, parsed: Set<String>
    ) -> Result<ChildProcess, ChildProcess.StartFailure> {
        // the files parsed before, sent on the status socket (a list too long for the environment)
        let parsedList = (try? JSONSerialization.data(withJSONObject: parsed.sorted())).map { [UInt8]($0) } ?? []
        let setup: [String: Any] = [
            "parent": Int(getpid()), "serial": serial, "leftOut": leftOut.map { [$0.path, $0.reason] },
            "started": String(started), "parsedBytes": parsedList.count,
        ]
        let json =
            (try? JSONSerialization.data(withJSONObject: setup)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let environment =
            ChildProcess.environment().filter { !$0.hasPrefix(environmentKey + "=") }
            + ["\(environmentKey)=\(json)"]
        switch ChildProcess.start(
            executable: executable, arguments: arguments, environment: environment, channelAt: [statusDescriptor],
            outputAt: [2])
        {
        case let .failure(failure):
            return .failure(ChildProcess.StartFailure(description: "cannot start the fix process (\(failure))"))
        case let .success(process):
            // the child reads it first thing; one that ends before has it fail here (no SIGPIPE), and reports nothing
            _ = process.send(parsedList)
            return .success(process)
        }
    }

    /// How the child ended: its exit status and standard error, and, when a parse ended it
    /// (or it ended outside one), why and the files being parsed.
    private struct End {
        var status: Int32
        var errors: [UInt8]
        var failure: (reason: String, paths: [String])?
        /// The signal that ended the child, when it came from outside (`externalSignals`).
        var signal: Int32?
    }

    /// Signals that end a process from outside, not a crash of its own: the child ended by
    /// one ends the run the same way (`SIGPIPE` quietly, as `di-lint` does on a closed pipe).
    private static let externalSignals: Set<Int32> = [SIGPIPE, SIGINT, SIGTERM, SIGHUP]

    /// Reads the child's reports and output until it ends (killing it at a parse's deadline or
    /// when it runs out of memory in a parse); reaps it. Adds the files it parsed to the end to
    /// `parsed`.
    private static func wait(_ child: SupervisedChild, parsed: inout Set<String>) -> End {
        let process = child.process!
        var failure: (reason: String, paths: [String])?
        switch child.watch(toTheEnd: true, answer: { handleReports(child, parsed: &parsed) }) {
        case let .answered(why): failure = why
        case let .late(late?):
            failure = ("\(child.parses.tookLonger) (left out of the fix; see --parse-timeout)", [late.path])
        case .late(nil), .ended, .pollFailed: break
        }
        let raw = process.reap(kill: failure != nil) ?? 0
        let signal = ChildProcess.signal(raw)
        if failure == nil, let signal, externalSignals.contains(signal) {
            return End(status: 2, errors: process.written, failure: nil, signal: signal)
        }
        if failure == nil, let signal, child.parses.running.isEmpty {
            failure = ("it ended with \(ChildProcess.signalDescription(signal))", [])
        } else if failure == nil, !child.parses.running.isEmpty {
            failure = (child.death(status: raw), child.parses.paths)
        }
        return End(status: (raw >> 8) & 0xff, errors: process.written, failure: failure)
    }

    /// Why a parse failed that libclang recovered from, when libclang said so (its own words,
    /// not the run's: the output read so far may hold the child's report, written after the
    /// parse's end was): an allocation that failed or another crash. The child does not go on:
    /// what the crash left of the heap stays (up to the whole limit when memory ran out), and
    /// the next parse would fail for it.
    private static func saidWhy(_ child: SupervisedChild) -> String? {
        let said = String(decoding: child.parseOutput, as: UTF8.self)
        if said.contains("LLVM ERROR: out of memory") {
            return ChildProcess.outOfMemory(child.name, limit: child.memoryLimit)
        }
        return said.contains("libclang: crash detected during parsing") ? "libclang crashed while parsing it" : nil
    }

    /// Takes the complete reports from the inbox: `c` (the run's deadline and memory limit),
    /// `b` (a parse begins), `e` (it ended; "failed" when it threw). The failure, when a parse
    /// that failed ran out of memory or crashed (libclang recovered).
    private static func handleReports(_ child: SupervisedChild, parsed: inout Set<String>) -> (
        reason: String, paths: [String]
    )? {
        let process = child.process!
        while process.inbox.count >= 9 {
            let id = Int(uint32(process.inbox, at: 1))
            let length = Int(uint32(process.inbox, at: 5))
            guard process.inbox.count >= 9 + length else { break }
            let text = String(decoding: process.inbox[9..<(9 + length)], as: UTF8.self)
            let kind = process.inbox[0]
            process.inbox.removeFirst(9 + length)
            switch kind {
            case UInt8(ascii: "c"):
                let fields = text.split(separator: " ")
                if fields.count == 2, let seconds = Double(fields[0]), let limit = Int(fields[1]) {
                    child.parses.seconds = seconds
                    child.memoryLimit = limit
                }
            case UInt8(ascii: "b"):
                child.parses.begin(id, path: text, output: child.roundStart)
            case UInt8(ascii: "e"):
                // what the parse wrote before it ended is read: libclang recovers from an
                // allocation that failed as from a crash, with its heap left as it was
                process.drainOutput()
                if text == "failed", let why = saidWhy(child) { return (why, child.parses.paths) }
                if let parse = child.parses.end(id), text.isEmpty { parsed.insert(parse.path) }
            default:
                break
            }
        }
        return nil
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
}

/// The supervised side of `FixSupervisor`: the `di-lint fix` process it started (found by
/// `FixSupervisor.environmentKey`). It limits its own address space and turns core dumps off as
/// a lint worker does, reports each libclang parse to the supervisor (which applies the
/// deadline), and leaves out the files the supervisor names.
public final class FixSupervision: @unchecked Sendable {
    /// The files left out by the supervisor (real path → why), for `Fixer.leftOut`.
    public let leftOut: [String: String]
    /// Parse one file at a time (a failure with several parses under way names none).
    let serial: Bool
    /// When the supervisor started the run (`RunBudget.now()`): the run's budget counts from there.
    public let started: UInt64?
    /// Files an earlier child parsed to the end (real paths): parsed again after the budget is spent.
    public let parsedBefore: Set<String>
    private let lock = NSLock()

    private init(leftOut: [String: String], serial: Bool, started: UInt64?, parsedBefore: Set<String>) {
        self.leftOut = leftOut
        self.serial = serial
        self.started = started
        self.parsedBefore = parsedBefore
    }

    /// The supervision when this process is the supervised child (the variable is then
    /// removed from its environment), nil otherwise. Starts watching the supervisor: a
    /// child whose supervisor is gone exits.
    public static func fromEnvironment() -> FixSupervision? {
        guard let value = getenv(FixSupervisor.environmentKey) else { return nil }
        let json = String(cString: value)
        unsetenv(FixSupervisor.environmentKey)
        let setup = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
        var leftOut: [String: String] = [:]
        for pair in setup["leftOut"] as? [[String]] ?? [] where pair.count == 2 { leftOut[pair[0]] = pair[1] }
        // the supervisor gone (killed): the run ends as by SIGTERM, an apply under way finished first
        if let parent = setup["parent"] as? Int { ParseWorker.watchParent(Int32(parent), signal: SIGTERM) }
        var parsedBefore = Set<String>()
        if let count = setup["parsedBytes"] as? Int, count > 0 {
            // the supervisor gone: the run ends
            guard let bytes = ParseWorker.readExactly(FixSupervisor.statusDescriptor, count) else { _exit(2) }
            parsedBefore = Set((try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String] ?? [])
        }
        return FixSupervision(
            leftOut: leftOut, serial: setup["serial"] as? Bool ?? false,
            started: (setup["started"] as? String).flatMap { UInt64($0) }, parsedBefore: parsedBefore)
    }

    /// Call once the configuration is known, before any parse: limits this process's address
    /// space to the configuration's `parse-memory-limit`, turns core dumps off, and tells the
    /// supervisor the deadline and the limit.
    public func start(configuration: Configuration) {
        let limit = SupervisedChild.effectiveLimit(configuration.parseMemoryLimit << 20)
        ParseWorker.limitResources(memoryLimit: limit)
        report("c", 0, "\(configuration.parseTimeout) \(limit)")
    }

    /// One report: a kind byte, the parse's id and the text's length (little-endian), the text.
    func report(_ kind: Character, _ id: UInt32, _ text: String) {
        let payload = Array(text.utf8)
        var bytes = [kind.asciiValue!]
        for value in [id, UInt32(payload.count)] {
            for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
        }
        bytes += payload
        lock.lock(); defer { lock.unlock() }
        guard writeAll(FixSupervisor.statusDescriptor, bytes, socket: true) else { _exit(2) } // the supervisor is gone
    }
}

/// Writes all of `bytes` to standard error (errors there are ignored: there is nowhere left to say them).
private func writeErrors(_ bytes: [UInt8]) { _ = writeAll(2, bytes) }

private func writeErrors(_ text: String) { writeErrors(Array(text.utf8)) }
