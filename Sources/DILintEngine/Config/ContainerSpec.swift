/// One way of reaching the container singleton, as named in `.di-lint.yml` or `--container`.
public enum ContainerSpec: Hashable, Sendable, CustomStringConvertible {
    /// `Type.accessor`: `[Type accessor]`, `Type.accessor` (Objective-C, Swift) or `Type::accessor()` (C++).
    case member(type: String, accessor: String)
    /// `function()`: a C accessor function such as `container_shared()`.
    case function(String)

    /// Parses `Type.accessor`, `Type::accessor` or `func()`.
    public init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("()") {
            let name = String(t.dropLast(2))
            guard name.isIdentifier else { throw ConfigError.invalid("container '\(text)': '\(name)' is not a C identifier") }
            self = .function(name)
            return
        }
        let separator = t.contains("::") ? "::" : "."
        let parts = t.components(separatedBy: separator)
        guard parts.count == 2, parts.allSatisfy(\.isIdentifier) else {
            throw ConfigError.invalid("container '\(text)': expected 'Type.accessor', 'Type::accessor' or 'function()'")
        }
        self = .member(type: parts[0], accessor: parts[1])
    }

    public var description: String {
        switch self {
        case let .member(type, accessor): return "\(type).\(accessor)"
        case let .function(name): return "\(name)()"
        }
    }

    /// Every identifier the spec needs in a file's text for the file to possibly contain an access.
    var anchorIdentifiers: [String] {
        switch self {
        case let .member(type, accessor): return [type, accessor]
        case let .function(name): return [name]
        }
    }
}

import Foundation

extension String {
    var isIdentifier: Bool {
        guard let first = unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}
