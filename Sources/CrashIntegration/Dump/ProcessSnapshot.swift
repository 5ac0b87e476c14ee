import CrashRuntime

/// What an intermediate dump recorded about the crashed process, read once into types: the
/// process, its threads, modules, the signal and C++ exception, memory, system information and
/// annotations. The report builder and the minidump writer both read this, never the dump's key
/// tree (as Crashpad's writers read a `ProcessSnapshot`). A field the dump lacks is nil or empty;
/// deciding what that means is left to the consumer.
struct ProcessSnapshot {
    struct Frame: Equatable {
        let address: UInt64
        /// A `seam_dump_frame_trust` value.
        let trust: UInt32
    }

    struct Memory: Equatable {
        let start: UInt64
        let bytes: [UInt8]
    }

    struct Thread {
        var id: UInt64?
        var name: String?
        /// THREADS elements: the thread that took the signal.
        var crashed = false
        /// THREADS elements: a `seam_dump_context_status`, when the capture asked for the context.
        var contextStatus: UInt32?
        var architecture: String?
        /// Register name as in the dump ("rip", "x0", "pc"…) to value.
        var registers: [String: UInt64] = [:]
        var floatingPoint: [UInt8]?
        var stackStart: UInt64?
        /// Nil when the dump holds no stack window (absent, not merely empty).
        var stackBytes: [UInt8]?
        /// Further memory regions recorded for this thread.
        var memory: [Memory] = []
        /// The handler's own walk (crashed thread): innermost frames, the outermost ones of a very
        /// deep stack, the walk's total count, and the Swift async callers.
        var frames: [Frame] = []
        var outerFrames: [Frame] = []
        var frameCount: UInt64?
        var asyncFrames: [Frame] = []
    }

    struct Module {
        var path: String?
        var bias: UInt64?
        var start: UInt64?
        var end: UInt64?
        var buildID: [UInt8]?
    }

    struct Signal {
        let number: UInt64
        let code: UInt64?
        let address: UInt64?
        let senderPID: UInt64?
    }

    struct Exception {
        /// Mangled type name, as `std::type_info::name()` gives it.
        let mangledType: String?
        let what: String?
    }

    let formatVersion: UInt32
    /// Why the dump is incomplete (the parser's reason); nil when complete.
    let incompleteReason: String?
    var pid: UInt64?
    var parentPID: UInt64?
    var executable: String?
    var installTimeSeconds: UInt64?
    var crashTimeSeconds: UInt64?
    var crashTimeNanoseconds: UInt64?
    var handlerEntryNanoseconds: UInt64?
    var handlerExitNanoseconds: UInt64?
    var nestedSignal: UInt64?
    var fatalErrorMessage: String?
    var terminateCalled = false
    var signal: Signal?
    var exception: Exception?
    /// The CRASHED_THREAD section: the signal's context and the handler's walk.
    var crashedThread: Thread?
    /// The THREADS section, in the dump's order.
    var threads: [Thread] = []
    var modules: [Module] = []
    /// Process memory beyond the threads' stacks.
    var memory: [Memory] = []
    /// SYSTEM_INFO entries ("os.release", "cpu.count"…); a repeated key keeps its last value.
    var system: [String: String] = [:]
    var annotations: [String: String] = [:]

    init(_ dump: IntermediateDump) {
        formatVersion = dump.version
        incompleteReason = dump.incompleteReason
        let root = dump.root
        pid = root.uint64(SEAM_DK_PID)
        if let process = root.map(SEAM_DK_PROCESS) {
            parentPID = process.uint64(SEAM_DK_PROCESS_PARENT_PID)
            executable = process.string(SEAM_DK_PROCESS_EXECUTABLE)
        }
        installTimeSeconds = root.uint64(SEAM_DK_INSTALL_TIME_SEC)
        crashTimeSeconds = root.uint64(SEAM_DK_CRASH_TIME_SEC)
        crashTimeNanoseconds = root.uint64(SEAM_DK_CRASH_TIME_NSEC)
        handlerEntryNanoseconds = root.uint64(SEAM_DK_HANDLER_ENTRY_MONO_NS)
        handlerExitNanoseconds = root.uint64(SEAM_DK_HANDLER_EXIT_MONO_NS)
        nestedSignal = root.uint64(SEAM_DK_NESTED_SIGNAL)
        fatalErrorMessage = root.string(SEAM_DK_FATAL_ERROR_MESSAGE)
        terminateCalled = root.uint64(SEAM_DK_TERMINATE_CALLED) == 1
        if let map = root.map(SEAM_DK_SIGNAL), let number = map.uint64(SEAM_DK_SIGNAL_NUMBER) {
            signal = Signal(
                number: number, code: map.uint64(SEAM_DK_SIGNAL_CODE), address: map.uint64(SEAM_DK_SIGNAL_ADDRESS),
                senderPID: map.uint64(SEAM_DK_SIGNAL_SENDER_PID))
        }
        if let map = root.map(SEAM_DK_EXCEPTION) {
            exception = Exception(
                mangledType: map.string(SEAM_DK_EXCEPTION_TYPE), what: map.string(SEAM_DK_EXCEPTION_WHAT))
        }
        crashedThread = root.map(SEAM_DK_CRASHED_THREAD).map(Self.thread)
        threads = root.array(SEAM_DK_THREADS).map(Self.thread)
        modules = root.array(SEAM_DK_MODULES).map { map in
            Module(
                path: map.string(SEAM_DK_MODULE_PATH), bias: map.uint64(SEAM_DK_MODULE_BIAS),
                start: map.uint64(SEAM_DK_MODULE_START), end: map.uint64(SEAM_DK_MODULE_END),
                buildID: map.bytes(SEAM_DK_MODULE_BUILD_ID))
        }
        memory = Self.memory(root.array(SEAM_DK_MEMORY))
        system = Self.entries(root.array(SEAM_DK_SYSTEM_INFO))
        annotations = Self.entries(root.array(SEAM_DK_ANNOTATIONS))
    }

    private static func thread(_ map: DumpMap) -> Thread {
        var thread = Thread(id: map.uint64(SEAM_DK_THREAD_ID), name: map.string(SEAM_DK_THREAD_NAME))
        thread.crashed = map.uint64(SEAM_DK_THREAD_CRASHED) == 1
        thread.contextStatus = map.uint64(SEAM_DK_CONTEXT_STATUS).map { UInt32(truncatingIfNeeded: $0) }
        thread.architecture = map.string(SEAM_DK_ARCHITECTURE)
        for register in map.array(SEAM_DK_REGISTERS) {
            if let name = register.string(SEAM_DK_REGISTER_NAME), let value = register.uint64(SEAM_DK_REGISTER_VALUE) {
                thread.registers[name] = value
            }
        }
        thread.floatingPoint = map.bytes(SEAM_DK_FP_REGISTERS)
        thread.stackStart = map.uint64(SEAM_DK_STACK_START)
        thread.stackBytes = map.bytes(SEAM_DK_STACK_BYTES)
        thread.memory = memory(map.array(SEAM_DK_MEMORY))
        thread.frames = frames(map.array(SEAM_DK_FRAMES))
        thread.outerFrames = frames(map.array(SEAM_DK_OUTER_FRAMES))
        thread.frameCount = map.uint64(SEAM_DK_FRAME_COUNT)
        thread.asyncFrames = frames(map.array(SEAM_DK_ASYNC_FRAMES))
        return thread
    }

    private static func frames(_ maps: [DumpMap]) -> [Frame] {
        maps.compactMap { frame in
            frame.uint64(SEAM_DK_FRAME_ADDRESS).map {
                Frame(address: $0, trust: frame.uint64(SEAM_DK_FRAME_TRUST).map { UInt32(truncatingIfNeeded: $0) } ?? 0)
            }
        }
    }

    private static func memory(_ maps: [DumpMap]) -> [Memory] {
        maps.compactMap { map in
            guard let start = map.uint64(SEAM_DK_MEMORY_START), let bytes = map.bytes(SEAM_DK_MEMORY_BYTES) else {
                return nil
            }
            return Memory(start: start, bytes: bytes)
        }
    }

    private static func entries(_ maps: [DumpMap]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in maps {
            if let key = entry.string(SEAM_DK_ENTRY_KEY), let value = entry.string(SEAM_DK_ENTRY_VALUE) {
                result[key] = value
            }
        }
        return result
    }
}
