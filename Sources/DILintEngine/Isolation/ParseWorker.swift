import Foundation

/// The worker side of `WorkerIsolation`: di-lint run as `di-lint __parse-worker` by a `Linter`,
/// with a socket as descriptor 0 and another to its parent as descriptors 1 and 2.
///
/// It reads the handshake, rebuilds the configuration from its recipe and refuses to parse when
/// that configuration's canonical description differs from the parent's; it then limits its
/// own address space (`RLIMIT_AS`), turns core dumps off, and answers each request (a file's
/// path and bytes) with the file's `FileOutcome`, built by the same `Linter` code the
/// in-process path runs, on a thread with the same 16 MB stack. It exits when the socket
/// closes or its parent is gone.
public enum ParseWorker {
    /// The hidden argument that makes di-lint a worker.
    public static let command = "__parse-worker"

    /// Closes every descriptor above 2 the worker inherited: descriptors the run itself
    /// inherited without close-on-exec (a pipe whose end its own caller waits on) must not be
    /// held open by a worker. Call first, before anything opens a file.
    public static func closeInheritedDescriptors() {
        var fds: [Int32] = []
        if let directory = opendir("/proc/self/fd") {
            let own = dirfd(directory)
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if let fd = Int32(name), fd > 2, fd != own { fds.append(fd) }
            }
            closedir(directory)
        }
        for fd in fds { close(fd) }
    }

    public static func serve() -> Never {
        let socket: Int32 = 0
        guard let handshakeBytes = readFrame(socket) else { exit(0) }
        let handshake: WorkerFrames.Handshake
        do { handshake = try WorkerFrames.Handshake(decoding: handshakeBytes) } catch {
            refuse(socket, "the parse worker got a handshake it cannot read")
        }
        watchParent(handshake.parent)
        SharedPrecompiledHeader.inheritRunDirectory()
        limitResources(memoryLimit: handshake.memoryLimit)

        let configuration: Configuration
        do {
            configuration = try handshake.recipe.build()
        } catch {
            refuse(socket, "the parse worker cannot rebuild the configuration (\(error))")
        }
        guard ConfigurationRecipe.digest(configuration) == handshake.digest else {
            refuse(
                socket,
                "the parse worker's configuration differs from the run's (was the config file changed during the run?)")
        }
        let linter = Linter(configuration: configuration)
        linter.compileArguments = handshake.compileArguments
        let thread = Thread {
            var frontEnd: ClangFrontEnd?
            while let payload = readFrame(socket) {
                guard let (path, bytes, systemBodies) = try? WorkerFrames.decodeRequest(payload) else {
                    refuse(socket, "the parse worker got a request it cannot read")
                }
                // a large file's findings are written while its facts are being collected
                var begun: CacheEntryCodec.PartialBody?
                let (outcome, model) = linter.isolatedOutcome(
                    path: path, bytes: bytes, frontEnd: &frontEnd, systemBodies: systemBodies,
                    whileFactsRun: { begun = CacheEntryCodec.beginBody($0) })
                // a frame of the kind byte and the body, not copied into one
                let body: [UInt8]
                if begun != nil {
                    body = CacheEntryCodec.finishBody(&begun!, outcome) // in place: the begun bytes are not copied
                } else {
                    body = CacheEntryCodec.encodeUndigested(outcome)
                }
                guard writeAll(socket, WorkerFrames.header(1 + body.count) + [WorkerFrames.outcome], socket: true),
                    writeAll(socket, body, socket: true)
                else { exit(0) }
                withExtendedLifetime(model) {} // released once the parent has the reply
            }
            exit(0)
        }
        thread.stackSize = Linter.workerStackSize
        thread.start()
        while true { sleep(1_000) }
    }

    /// Turns core dumps off and limits the process's address space (`RLIMIT_AS`) to
    /// `memoryLimit` bytes, or to the hard limit it runs under when that is lower.
    static func limitResources(memoryLimit: Int) {
        var core = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &core)
        var space = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space)
        let wanted = rlim_t(max(0, memoryLimit))
        space.rlim_cur = min(wanted, space.rlim_max) // RLIM_INFINITY is the largest value
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space)
    }

    /// Ends the process when its parent is gone (a killed run leaves no worker parsing on): at
    /// once, or by sending it `signal` (a process that must finish what it writes first
    /// handles it, see `HeldSignals`).
    static func watchParent(_ parent: Int32, signal: Int32? = nil) {
        let thread = Thread {
            while true {
                if getppid() != parent {
                    guard let signal else { _exit(0) }
                    kill(getpid(), signal)
                    return
                }
                usleep(500_000)
            }
        }
        thread.stackSize = 64 << 10
        thread.start()
    }

    private static func refuse(_ socket: Int32, _ message: String) -> Never {
        var w = ByteWriter()
        w.string(message)
        _ = writeAll(socket, WorkerFrames.frame([WorkerFrames.refused] + w.bytes), socket: true)
        exit(3)
    }

    /// One frame's payload; nil at the end of the input or on a read error.
    static func readFrame(_ fd: Int32) -> [UInt8]? {
        guard let header = readExactly(fd, 8), let length = WorkerFrames.length(header[...]) else { return nil }
        return readExactly(fd, length)
    }

    /// Exactly `count` bytes from `fd`; nil at its end or on a read error.
    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }
}
