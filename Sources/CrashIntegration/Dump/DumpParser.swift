import CrashRuntime

/// Streams the command bytes of an intermediate dump into a `DumpMap` tree. Every read is
/// bounds-checked, nesting and sizes are capped, and the loop is iterative, so no input can
/// crash it or exhaust the stack; on the first problem it stops and keeps what it has.
public struct DumpParser {
    /// Caps that bound the work and memory spent on one dump.
    public struct Limits: Sendable {
        public var maxDepth = 32
        public var maxPropertyBytes = 1 << 20
        public var maxNodes = 1_000_000
        public var maxFileBytes = 64 << 20

        public init() {}
    }

    private struct OpenContainer {
        let key: UInt16
        let isArray: Bool
        var entries: [DumpEntry] = []
        var elements: [DumpMap] = []
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var offset = 0
    private var stack: [OpenContainer] = [OpenContainer(key: 0, isArray: false)]
    private var nodes = 0

    public init(bytes: [UInt8], limits: Limits = .init()) {
        self.bytes = bytes
        self.limits = limits
    }

    public func parse() -> IntermediateDump {
        var parser = self
        return parser.run()
    }

    private mutating func run() -> IntermediateDump {
        guard bytes.count >= Int(SEAM_DUMP_HEADER_SIZE) else {
            return IntermediateDump(
                version: 0, root: DumpMap(),
                incompleteReason: "file is \(bytes.count) bytes, shorter than the \(SEAM_DUMP_HEADER_SIZE)-byte header")
        }
        let magic = Array(SEAM_DUMP_MAGIC.utf8)
        guard Array(bytes[0..<magic.count]) == magic else {
            return IntermediateDump(
                version: 0, root: DumpMap(), incompleteReason: "not an intermediate dump: bad magic")
        }
        offset = magic.count
        let version = UInt32(truncatingIfNeeded: readLE(4) ?? 0)
        guard version >= 1 && version <= SEAM_DUMP_VERSION else {
            return IntermediateDump(
                version: version, root: DumpMap(),
                incompleteReason: "unsupported format version \(version) (this reader knows 1...\(SEAM_DUMP_VERSION))")
        }
        let problem = readCommands()
        return IntermediateDump(version: version, root: closeAll(), incompleteReason: problem)
    }

    /// Reads commands until END_DOCUMENT; returns the problem that stopped it, if any.
    private mutating func readCommands() -> String? {
        while true {
            let at = offset
            guard let tag = readLE(1) else { return "truncated at byte \(at): no END_DOCUMENT" }
            nodes += 1
            if nodes > limits.maxNodes { return "more than \(limits.maxNodes) commands at byte \(at)" }
            switch UInt32(tag) {
            case SEAM_DUMP_START_MAP.rawValue, SEAM_DUMP_START_ARRAY.rawValue:
                guard let key = readLE(2) else { return "truncated at byte \(at): container key cut off" }
                let isArray = UInt32(tag) == SEAM_DUMP_START_ARRAY.rawValue
                if stack.count > limits.maxDepth { return "nesting deeper than \(limits.maxDepth) at byte \(at)" }
                if isArray && stack[stack.count - 1].isArray {
                    return "corrupt at byte \(at): array directly inside an array"
                }
                stack.append(OpenContainer(key: UInt16(key), isArray: isArray))
            case SEAM_DUMP_END_MAP.rawValue, SEAM_DUMP_END_ARRAY.rawValue:
                let closesArray = UInt32(tag) == SEAM_DUMP_END_ARRAY.rawValue
                guard stack.count > 1, stack[stack.count - 1].isArray == closesArray else {
                    return "corrupt at byte \(at): \(closesArray ? "END_ARRAY" : "END_MAP") with no matching start"
                }
                closeTop()
            case SEAM_DUMP_PROPERTY.rawValue:
                guard let key = readLE(2), let length = readLE(4) else {
                    return "truncated at byte \(at): property header cut off"
                }
                if stack[stack.count - 1].isArray { return "corrupt at byte \(at): property directly inside an array" }
                guard length <= UInt64(limits.maxPropertyBytes) else {
                    return "corrupt at byte \(at): property of \(length) bytes exceeds \(limits.maxPropertyBytes)"
                }
                guard Int(length) <= bytes.count - offset else {
                    return "truncated at byte \(at): property of \(length) bytes, \(bytes.count - offset) left"
                }
                let value = Array(bytes[offset..<offset + Int(length)])
                offset += Int(length)
                stack[stack.count - 1].entries.append(DumpEntry(key: UInt16(key), value: .property(value)))
            case SEAM_DUMP_END_DOCUMENT.rawValue:
                if stack.count > 1 {
                    return "corrupt at byte \(at): END_DOCUMENT with \(stack.count - 1) containers open"
                }
                if offset != bytes.count {
                    return "corrupt: \(bytes.count - offset) bytes after END_DOCUMENT at byte \(at)"
                }
                return nil
            default:
                return "corrupt at byte \(at): unknown command \(tag)"
            }
        }
    }

    /// Pops the innermost container into its parent (arrays never hold arrays: checked at start).
    private mutating func closeTop() {
        let closed = stack.removeLast()
        if closed.isArray {
            stack[stack.count - 1].entries.append(DumpEntry(key: closed.key, value: .array(closed.elements)))
        } else if stack[stack.count - 1].isArray {
            stack[stack.count - 1].elements.append(DumpMap(entries: closed.entries))
        } else {
            stack[stack.count - 1].entries.append(
                DumpEntry(key: closed.key, value: .map(DumpMap(entries: closed.entries))))
        }
    }

    /// Closes whatever is still open so a damaged dump keeps everything read before the damage.
    private mutating func closeAll() -> DumpMap {
        while stack.count > 1 { closeTop() }
        return DumpMap(entries: stack[0].entries)
    }

    private mutating func readLE(_ size: Int) -> UInt64? {
        guard size <= bytes.count - offset else { return nil }
        var value: UInt64 = 0
        for i in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
        offset += size
        return value
    }
}
