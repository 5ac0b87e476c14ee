/// Why processing could not go ahead or one dump could not be turned into a report;
/// every case names the file or directory concerned.
public enum ProcessingError: Error, Equatable, CustomStringConvertible {
    case notADirectory(path: String)
    case cannotCreateDirectory(path: String, reason: String)
    case cannotList(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .notADirectory(let path): return "\(path) exists but is not a directory"
        case .cannotCreateDirectory(let path, let reason): return "cannot create directory \(path): \(reason)"
        case .cannotList(let path, let reason): return "cannot list \(path): \(reason)"
        case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}
