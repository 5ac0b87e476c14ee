import Foundation

/// One way of reaching the container singleton, as named in `.di-lint.yml` or `--container`.
public enum ContainerSpec: Hashable, Sendable, CustomStringConvertible {
    /// `Type.accessor`: `[Type accessor]`, `Type.accessor` (Objective-C, Swift) or `Type::accessor()` (C++).
    /// The accessor may be an Objective-C selector piece taking an argument (`hasEnabledOption:`), or
    /// `*`: any class (static) member of the type (a helper type; `Type.self` and `alloc` never count).
    case member(type: String, accessor: String)
    /// `function()`: a C accessor function such as `container_shared()`.
    case function(String)
    /// `Type::accessor<>`: a C++ template accessor; the service is its template argument
    /// (`ServiceLocator::getService<ComponentManager>()`).
    case template(type: String, accessor: String)
    /// `name` or `name->`: a global variable or pointer holding the container (`g_browser_process`);
    /// the service is the member read through it.
    case global(String)
    /// `@Wrapper`: a Swift property wrapper that reads the container; the service is the declared type.
    case propertyWrapper(String)
    /// An "ambient" property (`ambient-properties:`): an extension or category property of a base
    /// class whose getter reads the container; each use on `self` is an access with the property as service.
    case ambient(String)

    /// Parses `Type.accessor`, `Type.selector:`, `Type.*`, `Type::accessor`, `ns::Type::accessor`,
    /// `Type::accessor<>`, `func()`, `global`, `global->` or `@Wrapper`.
    public init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces)
        let forms =
            "expected 'Type.accessor', 'Type.selector:', 'Type.*', 'Type::accessor', 'ns::Type::accessor', 'Type::accessor<>', 'function()', 'global', 'global->' or '@Wrapper'"
        func identifier(_ s: String) throws -> String {
            guard s.isIdentifier else {
                throw ConfigError.invalid("container '\(text)': '\(s)' is not an identifier (\(forms))")
            }
            return s
        }
        if t.hasSuffix("()") {
            let name = String(t.dropLast(2))
            guard name.isIdentifier else {
                throw ConfigError.invalid("container '\(text)': '\(name)' is not a C identifier")
            }
            self = .function(name)
        } else if t.hasPrefix("@") {
            self = .propertyWrapper(try identifier(String(t.dropFirst())))
        } else if t.hasSuffix("->") {
            self = .global(try identifier(String(t.dropLast(2))))
        } else if t.isIdentifier {
            self = .global(t)
        } else if t.contains("::") {
            // `ns::Type::accessor`: namespaces qualify the type; the last two parts are type and accessor
            var parts = t.components(separatedBy: "::")
            let isTemplate = parts.last?.hasSuffix("<>") == true
            if isTemplate { parts[parts.count - 1].removeLast(2) }
            guard parts.count >= 2, parts.allSatisfy(\.isIdentifier) else {
                throw ConfigError.invalid("container '\(text)': \(forms)")
            }
            let type = parts[parts.count - 2], accessor = parts[parts.count - 1]
            self = isTemplate ? .template(type: type, accessor: accessor) : .member(type: type, accessor: accessor)
        } else {
            let parts = t.components(separatedBy: ".")
            guard parts.count == 2, parts[0].isIdentifier else {
                throw ConfigError.invalid("container '\(text)': \(forms)")
            }
            let accessor = parts[1]
            let selector =
                accessor.hasSuffix(":")
                && accessor.dropLast().split(separator: ":", omittingEmptySubsequences: false).allSatisfy {
                    String($0).isIdentifier
                }
            guard accessor.isIdentifier || accessor == "*" || selector else {
                throw ConfigError.invalid("container '\(text)': \(forms)")
            }
            // a selector matches on its first piece, with an argument after it
            self = .member(type: parts[0], accessor: selector ? String(accessor.prefix { $0 != ":" }) + ":" : accessor)
        }
    }

    public var description: String {
        switch self {
        case let .member(type, accessor): return "\(type).\(accessor)"
        case let .function(name): return "\(name)()"
        case let .template(type, accessor): return "\(type)::\(accessor)<>"
        case let .global(name): return name
        case let .propertyWrapper(name): return "@\(name)"
        case let .ambient(name): return "ambient \(name)"
        }
    }

    /// Every identifier the spec needs in a file's text for the file to possibly contain an access.
    var anchorIdentifiers: [String] {
        switch self {
        case let .member(type, accessor):
            return accessor == "*" ? [type] : [type, String(accessor.prefix { $0 != ":" })]
        case let .template(type, accessor): return [type, accessor]
        case let .function(name), let .global(name), let .propertyWrapper(name), let .ambient(name): return [name]
        }
    }
}

/// The container name ambient accesses carry (`ambient.databaseStorage`).
let ambientContainerName = "ambient"

/// Members no `Type.*` spec counts: the type itself and object creation.
let memberWildcardExclusions: Set<String> = [
    "self", "Type", "Protocol", "init", "alloc", "new", "class", "allocWithZone", "superclass", "description",
]

extension String {
    var isIdentifier: Bool {
        guard let first = unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else {
            return false
        }
        return unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}
