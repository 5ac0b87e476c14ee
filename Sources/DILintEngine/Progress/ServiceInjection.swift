import Foundation

/// One file's facts for counting service-style injected accesses (`ServiceInjection`), kept in
/// the incremental cache with the file's outcome.
struct ServiceInjectionFacts: Codable, Equatable {
    /// A typed member of a type declaration: `var tabs: TabStore`, `let clock = Clock()`,
    /// `func dateProvider() -> DateProvider`.
    struct Member: Codable, Equatable {
        var owner: String
        var name: String
        var type: String
        var isStatic: Bool
    }

    /// A read of a stored property or an initializer parameter whose declaration writes its type.
    struct Read: Codable, Equatable {
        var line: Int
        var column: Int
        var name: String
        /// nil: the type of the property `name` of `owner`, declared in any file of the run
        /// (an Objective-C class's `@interface` is often in a header).
        var type: String?
        /// The enclosing types, innermost first, and the types each inherits from or conforms to.
        var enclosing: [String]
        var owner: String? = nil
    }

    var members: [Member] = []
    var reads: [Read] = []

    /// The key of the facts in `FileOutcome.facts` (no rule has it).
    static let key = "report:service-injection"

    func encoded() -> Data { (try? JSONEncoder().encode(self)) ?? Data() }
}

/// Service-style injected accesses for `di-lint report`: each service read became a dependency
/// of the type that reads it (a stored `let tabs: TabStore`, an initializer parameter). A read
/// counts as an injected access of service S when:
/// - it reads a stored property or an initializer parameter whose declaration in the file writes
///   its type T (`let tabs: TabStore`, `init(tabs: TabStore)`, `let tabs = TabStore()`);
/// - the container vends T: a member S of the container's type, or of the type of its accessor
///   (`static var shared: DependencyProvider`), declared in the run, has type T (property type,
///   method result, the type its initial value builds), or a `resolve()` in the run resolves T;
/// - T is not a standard type (`String`, `Int`, `URL`, …) nor the container's own type;
/// - it is not inside the composition root, nor inside the container's own types or a type
///   that inherits from or conforms to one of them.
/// Writes (`self.tabs = …`) and storing an initializer parameter (`self.tabs = tabs`) are not reads.
public enum ServiceInjection {
    /// Types never counted, even when the container vends one.
    static let standardTypes: Set<String> = [
        "Any", "AnyObject", "AnyHashable", "Bool", "Character", "CGFloat", "CGPoint", "CGRect", "CGSize", "Data",
        "Date", "Decimal", "Double", "Float", "Int", "Int8", "Int16", "Int32", "Int64", "NSNumber", "NSString",
        "NSObject", "Never", "String", "Substring", "TimeInterval", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "URL", "UUID", "Void", "Bundle", "UserDefaults", "NotificationCenter", "FileManager", "DispatchQueue",
        "OperationQueue", "ProcessInfo", "Locale", "Calendar", "TimeZone",
    ]

    /// A service the container vends: the member's name, and the container and accessor reaching it.
    public struct Vendor: Sendable, Equatable {
        var service: String
        var container: String
        var accessor: String
    }

    /// The injected accesses the facts of a run's files show, and the types the container vends.
    /// `earlier`: types vended at an earlier commit (`report --history`); a service the container
    /// no longer has keeps counting where it is injected.
    static func accesses(
        facts: [(path: String, facts: Data)], accesses: [AccessRecord], configuration: Configuration,
        earlier: [String: [Vendor]] = [:]
    ) -> (accesses: [AccessRecord], vended: [String: [Vendor]]) {
        let decoder = JSONDecoder()
        let files = facts.compactMap { item in
            (try? decoder.decode(ServiceInjectionFacts.self, from: item.facts)).map { (path: item.path, facts: $0) }
        }
        // the container's types and their accessors
        var accessors: [String: Set<String>] = [:]
        for spec in configuration.accessSpecs {
            switch spec {
            case let .member(type, accessor), let .template(type, accessor):
                accessors[SwiftServiceReads.simpleName(type), default: []].insert(accessor)
            default: break
            }
        }
        let members = files.flatMap(\.facts.members)
        // owners of services: the container's types and the types of their accessors
        var owners: [String: (container: String, accessor: String)] = [:]
        for (type, names) in accessors {
            for accessor in names.sorted() where owners[type] == nil { owners[type] = (type, accessor) }
        }
        for member in members {
            guard let names = accessors[member.owner], names.contains(member.name) else { continue }
            let type = SwiftServiceReads.simpleName(member.type)
            if owners[type] == nil { owners[type] = (member.owner, member.name) }
        }
        // the types they vend, by type: the members of that type
        var vended: [String: [Vendor]] = [:]
        for member in members {
            guard let owner = owners[member.owner], accessors[member.owner]?.contains(member.name) != true else {
                continue
            }
            let type = SwiftServiceReads.simpleName(member.type)
            guard owners[type] == nil, isCountable(type) else { continue }
            vended[type, default: []].append(
                Vendor(service: member.name, container: owner.container, accessor: owner.accessor))
        }
        // `resolve()`: the resolved type is the service
        let memberNames = Set(members.map(\.name))
        for record in accesses {
            guard let service = record.access.service, service.first?.isUppercase == true,
                !memberNames.contains(service), owners[service] == nil, isCountable(service)
            else { continue }
            vended[service, default: []].append(
                Vendor(service: service, container: record.access.container, accessor: record.access.accessor))
        }
        for (type, vendors) in earlier where vended[type] == nil && owners[type] == nil { vended[type] = vendors }
        // Objective-C properties by class, for reads whose type is their property's
        var properties: [String: [String: String]] = [:]
        for member in members where !member.isStatic {
            properties[member.owner, default: [:]][member.name] = member.type
        }
        var found: [AccessRecord] = []
        for (path, file) in files {
            for read in file.reads {
                guard let declared = read.type ?? read.owner.flatMap({ properties[$0]?[read.name] }) else { continue }
                let type = SwiftServiceReads.simpleName(declared)
                guard let services = vended[type], !read.enclosing.contains(where: { owners[$0] != nil }) else {
                    continue
                }
                // the member named as the read, else the first by name
                let sorted = services.sorted { $0.service < $1.service }
                let service = sorted.first { $0.service == read.name } ?? sorted[0]
                let access = ContainerAccess(
                    container: service.container, accessor: service.accessor, service: service.service, kind: .injected)
                found.append(AccessRecord(path: path, line: read.line, column: read.column, access: access))
            }
        }
        return (found, vended)
    }

    /// A single named type (not a standard type, a collection, a closure or a composition).
    static func isCountable(_ type: String) -> Bool {
        guard let first = type.unicodeScalars.first, CharacterSet.letters.contains(first) || first == "_" else {
            return false
        }
        return !standardTypes.contains(type) && !type.contains(where: { "<>[]()&-: ?!".contains($0) })
    }
}
