/// What a minidump is written from: a small model independent of the intermediate dump, so the
/// writer does not change when the capture records more (see `MinidumpInput(dump:)`).
public struct MinidumpInput: Sendable, Equatable {
    /// CPU architecture of the crashed process.
    public enum Architecture: String, Sendable {
        case x86_64, aarch64
    }

    public struct System: Sendable, Equatable {
        public var architecture: Architecture
        public var cpuCount: Int
        /// Kernel version as `uname -r` gives it, e.g. "6.1.0-18-amd64".
        public var kernelRelease: String
        /// One line naming the OS build (uname -srvm), stored as the CSD version string.
        public var osDescription: String
        public init(
            architecture: Architecture, cpuCount: Int = 0, kernelRelease: String = "", osDescription: String = ""
        ) {
            self.architecture = architecture
            self.cpuCount = cpuCount
            self.kernelRelease = kernelRelease
            self.osDescription = osDescription
        }
    }

    public struct Exception: Sendable, Equatable {
        public var signal: UInt32
        /// si_code.
        public var code: Int32
        /// Fault address (si_addr), or 0.
        public var address: UInt64
        public var threadID: UInt32
        public init(signal: UInt32, code: Int32, address: UInt64, threadID: UInt32) {
            self.signal = signal
            self.code = code
            self.address = address
            self.threadID = threadID
        }
    }

    public struct Thread: Sendable, Equatable {
        public var id: UInt32
        public var name: String?
        /// Register name (as in the dump: "rip", "rsp", "x0", "pc"…) to value; empty when unknown.
        public var registers: [String: UInt64]
        /// Raw floating-point state (x86_64: the 512-byte FXSAVE area), when captured.
        public var floatingPoint: [UInt8]?
        /// Stack memory from `stackStart` upward, when captured.
        public var stackStart: UInt64?
        public var stackBytes: [UInt8]
        public init(
            id: UInt32, name: String? = nil, registers: [String: UInt64] = [:], floatingPoint: [UInt8]? = nil,
            stackStart: UInt64? = nil, stackBytes: [UInt8] = []
        ) {
            self.id = id
            self.name = name
            self.registers = registers
            self.floatingPoint = floatingPoint
            self.stackStart = stackStart
            self.stackBytes = stackBytes
        }
    }

    public struct Module: Sendable, Equatable {
        public var path: String
        /// Lowest runtime address of the module's loaded segments.
        public var base: UInt64
        public var size: UInt64
        /// ELF `NT_GNU_BUILD_ID` bytes.
        public var buildID: [UInt8]?
        public init(path: String, base: UInt64, size: UInt64, buildID: [UInt8]?) {
            self.path = path
            self.base = base
            self.size = size
            self.buildID = buildID
        }
    }

    /// A further block of process memory.
    public struct Memory: Sendable, Equatable {
        public var start: UInt64
        public var bytes: [UInt8]
        public init(start: UInt64, bytes: [UInt8]) {
            self.start = start
            self.bytes = bytes
        }
    }

    public var system: System
    public var processID: UInt32?
    /// Seconds since 1970 (header time stamp).
    public var crashTime: UInt32
    public var exception: Exception?
    public var threads: [Thread]
    public var modules: [Module]
    public var memory: [Memory]
    /// Text of Linux files kept as Breakpad's Linux streams, when known.
    public var procMaps: String?
    public var cpuInfo: String?
    public var osRelease: String?

    public init(
        system: System, processID: UInt32? = nil, crashTime: UInt32 = 0, exception: Exception? = nil,
        threads: [Thread] = [], modules: [Module] = [], memory: [Memory] = [],
        procMaps: String? = nil, cpuInfo: String? = nil, osRelease: String? = nil
    ) {
        self.system = system
        self.processID = processID
        self.crashTime = crashTime
        self.exception = exception
        self.threads = threads
        self.modules = modules
        self.memory = memory
        self.procMaps = procMaps
        self.cpuInfo = cpuInfo
        self.osRelease = osRelease
    }
}
