/// A text form of a value that is the same in every process for equal values: dictionaries and
/// sets are sorted (their iteration order is seeded per process), everything else is written in
/// declaration order. The cache keys on it, so a new `Configuration` field is keyed on without
/// anyone remembering to add it.
enum CanonicalDescription {
    static func of(_ value: Any) -> String {
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
            let name = String(reflecting: mirror.subjectType)
            if mirror.displayStyle == .enum && children.isEmpty { return "\(name).\(value)" }
            return "\(name)(" + children.joined(separator: ",") + ")"
        default:
            // Leaves: numbers, strings, booleans. Quote strings so "a,b" and ["a","b"] differ.
            if let s = value as? String { return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            return String(describing: value)
        }
    }
}
