import Foundation

/// A parsed intermediate dump. Parsing never fails: damage yields the tree read so far,
/// with `isComplete == false` and the reason.
public struct IntermediateDump: Equatable, Sendable {
    /// Format version from the header (0 when the header itself is unreadable).
    public let version: UInt32
    public let root: DumpMap
    /// True only when the stream was well-formed and ended with END_DOCUMENT.
    public let isComplete: Bool
    /// Why the dump is incomplete, naming the byte offset; nil when complete.
    public let incompleteReason: String?

    /// Parses bytes already in memory.
    public init(bytes: [UInt8], limits: DumpParser.Limits = .init()) {
        self = DumpParser(bytes: bytes, limits: limits).parse()
    }

    init(version: UInt32, root: DumpMap, incompleteReason: String?) {
        self.version = version
        self.root = root
        self.isComplete = incompleteReason == nil
        self.incompleteReason = incompleteReason
    }

    /// Reads and parses a dump file. Throws only when the file cannot be read.
    public init(contentsOf url: URL, limits: DumpParser.Limits = .init()) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw DumpReadError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        self.init(bytes: [UInt8](data.prefix(limits.maxFileBytes)), limits: limits)
        if data.count > limits.maxFileBytes {
            self = IntermediateDump(
                version: version, root: root,
                incompleteReason: "file is \(data.count) bytes, only the first \(limits.maxFileBytes) were read")
        }
    }
}

/// A dump file that could not be read at all.
public enum DumpReadError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read intermediate dump \(path): \(reason)"
        }
    }
}
