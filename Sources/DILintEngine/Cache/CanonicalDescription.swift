/// A text form of a value that is the same in every process for equal values: dictionaries and
/// sets are sorted (their iteration order is seeded per process), everything else is written in
/// declaration order with its field labels. The cache keys on it, so a new `Configuration` field
/// is keyed on without anyone remembering to add it.
///
/// Common leaves (strings, integers, booleans) are matched by their exact type before any
/// protocol cast: each first cast of a type scans every conformance in the binary, which in a
/// binary holding SwiftSyntax costs more than the rest of this function together.
enum CanonicalDescription {
    static func of(_ value: Any) -> String {
        let type = Swift.type(of: value)
        if type == String.self { return quoted(value as! String) }
        if type == Int.self { return String(value as! Int) }
        if type == Bool.self { return (value as! Bool) ? "true" : "false" }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return of(wrapped)
        case .dictionary, .set:
            return "{" + mirror.children.map { of($0.value) }.sorted().joined(separator: ",") + "}"
        case .collection:
            return "[" + mirror.children.map { of($0.value) }.joined(separator: ",") + "]"
        case .struct, .class, .tuple, .enum:
            let children = mirror.children.map { "\($0.label ?? "_")=\(of($0.value))" }
            if mirror.displayStyle == .enum && children.isEmpty { return ".\(value)" }
            return "(" + children.joined(separator: ",") + ")"
        default:
            if let s = value as? String { return quoted(s) }
            return String(describing: value)
        }
    }

    /// Quoted, so that "a,b" and ["a","b"] differ.
    private static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
