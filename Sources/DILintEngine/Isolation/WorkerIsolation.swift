import Foundation

/// How a `Linter` parses in worker processes instead of on its own threads (`di-lint lint` does by
/// default; the library API parses in-process unless this is set).
///
/// A libclang parse cannot be interrupted and a crash in it takes its process down, so each
/// worker thread of the run hands its files to a child process it owns (`executable arguments`,
/// normally di-lint itself running `ParseWorker.serve`). A file whose parse outlives `timeout`
/// has its worker killed (`SIGKILL`) and becomes a `parse-failure`; so does a file whose worker
/// dies (a signal, an exit, memory over `memoryLimit`); a fresh worker takes the next file. The
/// cache, the text pre-filter and the project rules stay in the calling process: workers only
/// build a file's model and run the file rules over it, and send the `FileOutcome` back in the
/// cache's own byte layout (`CacheEntryCodec`).
public struct WorkerIsolation: Sendable {
    /// The worker program and its arguments (di-lint: `/proc/self/exe __parse-worker`). A
    /// program embedding the engine that sets `isolation` must, when started with these
    /// arguments, call `ParseWorker.closeInheritedDescriptors()` then `ParseWorker.serve()`
    /// first thing, as di-lint's `main` does.
    public var executable: String
    public var arguments: [String]
    /// How the worker rebuilds the run's configuration; it must give the configuration the
    /// `Linter` holds (checked: a worker whose rebuilt configuration differs refuses to parse).
    public var recipe: ConfigurationRecipe
    /// Seconds one file may take in a worker before the worker is killed.
    public var timeout: Double
    /// Address-space limit of each worker in bytes (`RLIMIT_AS`); lowered to the hard limit
    /// the calling process runs under when that is lower.
    public var memoryLimit: Int

    public init(
        executable: String = "/proc/self/exe", arguments: [String] = [ParseWorker.command],
        recipe: ConfigurationRecipe, timeout: Double, memoryLimit: Int
    ) {
        self.executable = executable
        self.arguments = arguments
        self.recipe = recipe
        self.timeout = timeout
        self.memoryLimit = memoryLimit
    }
}

/// The messages between a `Linter` and its workers, each a frame: an 8-byte little-endian
/// length, then that many bytes. Parent to worker: one handshake (`Handshake`), then one request
/// per file (path and bytes). Worker to parent: one reply per request, a kind byte then the
/// `CacheEntryCodec` bytes of the file's outcome without the entry's digest
/// (`CacheEntryCodec.encodeUndigested`; `outcome`) or a message (`refused`: the worker
/// cannot parse at all, such as a configuration that differs).
enum WorkerFrames {
    static let outcome: UInt8 = 0
    static let refused: UInt8 = 1
    static let magic = "di-lint parse worker 2"

    /// The frame holding `payload`.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        header(payload.count) + payload
    }

    /// The 8 bytes a frame of `count` payload bytes starts with.
    static func header(_ count: Int) -> [UInt8] {
        var length = UInt64(count).littleEndian
        return withUnsafeBytes(of: &length) { Array($0) }
    }

    /// The length a frame starting at `bytes` announces, when its 8 bytes are there.
    static func length(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 8 else { return nil }
        var value: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { value |= UInt64(b) << (8 * UInt64(i)) }
        return value > UInt64(Int.max - 8) ? Int.max - 8 : Int(value)
    }

    struct Handshake {
        var recipe: ConfigurationRecipe
        var compileArguments: [String: [String]]
        /// `ConfigurationRecipe.digest` of the parent's configuration.
        var digest: String
        var memoryLimit: Int
        /// The parent's pid: a worker whose parent is gone exits.
        var parent: Int32

        func encoded() -> [UInt8] {
            var w = ByteWriter()
            w.string(WorkerFrames.magic)
            w.string(recipe.configPath)
            w.list(recipe.containers) { $0.string($1) }
            w.list(recipe.exclude) { $0.string($1) }
            w.count(recipe.headerMap.map { $0 ? 2 : 1 } ?? 0)
            w.bool(recipe.headerMapFile != nil)
            if let map = recipe.headerMapFile {
                w.string(map.path)
                w.string(map.digest)
                w.int(map.headers)
                w.int(map.keys)
                w.int(map.ambiguousNames)
            }
            // Double's description is its shortest exact round trip.
            w.string(recipe.parseTimeout.map { "\($0)" })
            w.bool(recipe.parseMemoryLimit != nil)
            if let limit = recipe.parseMemoryLimit { w.int(limit) }
            w.bool(recipe.countServiceInjection)
            w.count(compileArguments.count)
            for (path, arguments) in compileArguments.sorted(by: { $0.key < $1.key }) {
                w.string(path)
                w.list(arguments) { $0.string($1) }
            }
            w.string(digest)
            w.int(memoryLimit)
            w.int(Int(parent))
            return w.bytes
        }

        init(
            recipe: ConfigurationRecipe, compileArguments: [String: [String]], digest: String, memoryLimit: Int,
            parent: Int32
        ) {
            self.recipe = recipe
            self.compileArguments = compileArguments
            self.digest = digest
            self.memoryLimit = memoryLimit
            self.parent = parent
        }

        init(decoding bytes: [UInt8]) throws {
            var r = ByteReader(bytes)
            guard try r.optionalString() == WorkerFrames.magic else { throw ByteReader.Malformed() }
            recipe = ConfigurationRecipe()
            recipe.configPath = try r.optionalString()
            recipe.containers = try r.list { try $0.string() }
            recipe.exclude = try r.list { try $0.string() }
            switch try r.count() {
            case 0: recipe.headerMap = nil
            case 1: recipe.headerMap = false
            default: recipe.headerMap = true
            }
            if try r.bool() {
                recipe.headerMapFile = HeaderMapFile(
                    path: try r.string(), digest: try r.string(), headers: try r.int(),
                    keys: try r.int(), ambiguousNames: try r.int())
            }
            if let timeout = try r.optionalString() {
                guard let value = Double(timeout) else { throw ByteReader.Malformed() }
                recipe.parseTimeout = value
            }
            if try r.bool() { recipe.parseMemoryLimit = try r.int() }
            recipe.countServiceInjection = try r.bool()
            var arguments: [String: [String]] = [:]
            for _ in 0..<(try r.count()) {
                let path = try r.string()
                arguments[path] = try r.list { try $0.string() }
            }
            compileArguments = arguments
            digest = try r.string()
            memoryLimit = try r.int()
            parent = Int32(truncatingIfNeeded: try r.int())
            guard r.atEnd else { throw ByteReader.Malformed() }
        }
    }

    /// A request: the file's path and bytes.
    /// A file to lint: its path, its bytes, then one byte 1 when system headers' function bodies
    /// may be skipped (`ClangFrontEnd.parse(systemBodies:)`), nothing otherwise.
    static func request(path: String, bytes: [UInt8], systemBodies: Bool = true) -> [UInt8] {
        var w = ByteWriter()
        w.string(path)
        w.count(bytes.count)
        w.bytes += bytes
        if !systemBodies { w.bytes.append(1) }
        return w.bytes
    }

    static func decodeRequest(_ payload: [UInt8]) throws -> (path: String, bytes: [UInt8], systemBodies: Bool) {
        var r = ByteReader(payload)
        let path = try r.string()
        let bytes = Array(try r.raw(r.count()))
        if r.atEnd { return (path, bytes, true) }
        guard try r.raw(1) == [1], r.atEnd else { throw ByteReader.Malformed() }
        return (path, bytes, false)
    }
}
