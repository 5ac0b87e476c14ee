/// The final crash report written as JSON (schema: docs/crash-report-schema.md).
/// Addresses are "0x…" hex strings so 64-bit values survive any JSON parser.
public struct CrashReport: Codable, Equatable, Sendable {
    public static let schemaVersion = 1

    public var schemaVersion = CrashReport.schemaVersion
    public var dumpFile: String
    public var dumpFormatVersion: UInt32
    public var incomplete: Bool
    public var incompleteReasons: [String]
    public var crashTime: String?
    public var handlerDurationNs: UInt64?
    public var process: Process
    public var signal: Signal?
    public var exception: Exception?
    /// The Swift runtime's fatal-error message (fatalError, precondition, ...), when it had one.
    public var fatalErrorMessage: String?
    /// What std::terminate reports, when it ran ("terminate called after throwing ...").
    public var terminateMessage: String?
    public var crashedThread: CrashedThread?
    public var threads: [Thread]
    public var modules: [Module]
    public var system: [String: String]
    public var annotations: [String: String]
    /// The distribution and kernel the app ran on.
    public var os: OperatingSystem?
    /// The app's own identity, when given.
    public var app: App?

    public struct OperatingSystem: Codable, Equatable, Sendable {
        /// os-release PRETTY_NAME, e.g. "Debian GNU/Linux 12 (bookworm)".
        public var name: String?
        /// os-release ID and VERSION_ID, e.g. "debian", "12".
        public var id: String?
        public var version: String?
        /// uname -r.
        public var kernel: String?

        enum CodingKeys: String, CodingKey {
            case name
            case id
            case version
            case kernel
        }
    }

    public struct App: Codable, Equatable, Sendable {
        /// The `release` annotation, e.g. "1.4.2".
        public var release: String?

        enum CodingKeys: String, CodingKey {
            case release
        }
    }

    public struct Process: Codable, Equatable, Sendable {
        public var pid: UInt64?
        public var parentPid: UInt64?
        public var executable: String?
        public var installTime: String?

        enum CodingKeys: String, CodingKey {
            case pid
            case parentPid = "parent_pid"
            case executable
            case installTime = "install_time"
        }
    }

    public struct Signal: Codable, Equatable, Sendable {
        public var number: Int
        public var name: String
        public var code: Int
        public var codeName: String?
        public var address: String?
        public var senderPid: UInt64?

        enum CodingKeys: String, CodingKey {
            case number
            case name
            case code
            case codeName = "code_name"
            case address
            case senderPid = "sender_pid"
        }
    }

    public struct Exception: Codable, Equatable, Sendable {
        /// Demangled C++ type, e.g. "std::runtime_error".
        public var type: String
        public var mangledType: String
        public var what: String?

        enum CodingKeys: String, CodingKey {
            case type
            case mangledType = "mangled_type"
            case what
        }
    }

    public struct CrashedThread: Codable, Equatable, Sendable {
        public var id: UInt64?
        public var name: String?
        public var architecture: String?
        public var registers: [String: String]
        public var frames: [Frame]
        /// Frames left out between the innermost and the outermost of a very deep stack.
        public var framesElided: Int?
        /// The Swift async callers awaiting the innermost async frame (resume functions from its
        /// task's async contexts), innermost first.
        public var asyncFrames: [Frame]?

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case architecture
            case registers
            case frames
            case framesElided = "frames_elided"
            case asyncFrames = "async_frames"
        }
    }

    public struct Frame: Codable, Equatable, Sendable {
        public var index: Int
        public var address: String
        /// How the address was found: context, frame_pointer, scan, link_register.
        public var trust: String
        public var module: String?
        /// Address minus the module's load bias: the ELF virtual address.
        public var moduleOffset: String?
        public var function: String?
        public var mangledFunction: String?
        public var functionOffset: UInt64?
        /// Source location from the module's DWARF line table, when it has one.
        public var file: String?
        public var line: Int?
        public var column: Int?
        /// True for a function the compiler inlined into the frame that follows it; such an entry
        /// shares its address with that frame.
        public var inlined: Bool?

        enum CodingKeys: String, CodingKey {
            case index
            case address
            case trust
            case module
            case moduleOffset = "module_offset"
            case function
            case mangledFunction = "mangled_function"
            case functionOffset = "function_offset"
            case file
            case line
            case column
            case inlined
        }
    }

    public struct Thread: Codable, Equatable, Sendable {
        public var id: UInt64
        public var name: String
        public var crashed: Bool
        /// How the thread's registers were obtained: captured, crashed, no_answer, not_asked,
        /// signal_blocked (they stay in the dump; the report keeps the crashed thread's only).
        public var context: String?
        /// The thread's stack, unwound from its captured stack memory, innermost first.
        public var frames: [Frame]?

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case crashed
            case context
            case frames
        }
    }

    public struct Module: Codable, Equatable, Sendable {
        public var path: String
        public var buildId: String?
        /// Load bias (runtime address minus ELF virtual address).
        public var base: String
        public var start: String?
        public var end: String?
        /// ok, no_symbols, unreadable, build_id_mismatch, not_a_file, not_used.
        public var symbols: String
        /// Where symbols came from when `symbols` is ok: `module_file` (the module's own file) or
        /// `symbol_store` (the copy kept for its build when the file on disk is another build).
        public var symbolsSource: String? = nil

        enum CodingKeys: String, CodingKey {
            case path
            case buildId = "build_id"
            case base
            case start
            case end
            case symbols
            case symbolsSource = "symbols_source"
        }
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case dumpFile = "dump_file"
        case dumpFormatVersion = "dump_format_version"
        case incomplete
        case incompleteReasons = "incomplete_reasons"
        case crashTime = "crash_time"
        case handlerDurationNs = "handler_duration_ns"
        case process
        case signal
        case exception
        case fatalErrorMessage = "fatal_error_message"
        case terminateMessage = "terminate_message"
        case crashedThread = "crashed_thread"
        case threads
        case modules
        case system
        case annotations
        case os
        case app
    }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
