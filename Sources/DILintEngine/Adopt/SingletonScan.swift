import Foundation

/// Finds the singleton accessors a tree calls most, for `di-lint init`: a text scan, no parse.
///
/// It counts the call sites of `[Type shared…]` and `Type.shared…` (Objective-C, Swift),
/// `Type::instance()` (C++) and `name_shared()` (a C accessor function), and the member each
/// call site reads next (its service). Only types and functions the tree declares count, so
/// `NSFileManager.defaultManager` and `UIApplication.shared` are not proposed.
public struct SingletonScan {
    /// One accessor and what the tree does with it.
    public struct Candidate: Equatable, Sendable {
        /// The `containers:` entry: `Type.accessor`, `Type::accessor` or `function()`.
        public var spec: String
        public var callSites: Int
        public var files: Int
        /// The services read through it, most used first.
        public var services: [(name: String, count: Int)]

        public init(spec: String, callSites: Int, files: Int, services: [(name: String, count: Int)]) {
            self.spec = spec
            self.callSites = callSites
            self.files = files
            self.services = services
        }

        public static func == (a: Candidate, b: Candidate) -> Bool {
            a.spec == b.spec && a.callSites == b.callSites && a.files == b.files
                && a.services.map(\.name) == b.services.map(\.name)
                && a.services.map(\.count) == b.services.map(\.count)
        }
    }

    /// Accessor names that read as a singleton's.
    static let accessor =
        #"(?:shared[A-Za-z0-9_]*|default[A-Z][A-Za-z0-9_]*|default|instance|getInstance|current[A-Z][A-Za-z0-9_]*|current)"#

    private static func regex(_ pattern: String) -> NSRegularExpression {
        // the patterns are literals of this file
        try! NSRegularExpression(pattern: pattern)
    }

    // `[Type accessor]`
    private static let send = regex(#"\[\s*([A-Z][A-Za-z0-9_]*)\s+("# + accessor + #")\s*\]"#)
    // `Type.accessor` (not `x.Type.accessor`), Swift's `Type.accessor()` included
    private static let dot = regex(#"(?<![A-Za-z0-9_.])([A-Z][A-Za-z0-9_]*)\.("# + accessor + #")(?![A-Za-z0-9_])"#)
    // `Type::accessor()`, `ns::Type::accessor()`
    private static let cxx = regex(
        #"(?<![A-Za-z0-9_:])((?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Z][A-Za-z0-9_]*)::("# + accessor + #"|get|Get)\s*\(\s*\)"#)
    // `name_shared()`, `sharedContainer()`: a free function taking nothing
    private static let cFunction = regex(
        #"(?<![A-Za-z0-9_.:>\]])([a-z_][A-Za-z0-9_]*(?:shared|instance|singleton|Shared|Instance|Singleton)[A-Za-z0-9_]*)\s*\(\s*(?:void)?\s*\)"#
    )
    // what a call site reads next
    private static let memberAfter = regex(#"^\s*(?:\.|->)\s*([A-Za-z_][A-Za-z0-9_]*)"#)
    private static let sendAfter = regex(#"^\s+([A-Za-z_][A-Za-z0-9_]*)\s*[\]:]"#)
    // what the tree declares
    // (an Objective-C category, `@interface NSApplication (Sentry)`, declares no type)
    private static let typeDeclaration = regex(
        #"(?:@interface|@implementation|@protocol|\bclass|\bstruct|\bactor|\benum)\s+([A-Z][A-Za-z0-9_]*)(?![A-Za-z0-9_]|\s*\()"#
    )

    /// Names that end like notifications or keys are constants, not accessors.
    private static func isConstantName(_ name: String) -> Bool {
        name.hasSuffix("Notification") || name.hasSuffix("Key") || name.hasSuffix("Identifier")
    }

    private struct FileFacts {
        var sites: [String: [String?]] = [:] // spec → the service each site reads (nil: none)
        var declaredTypes: Set<String> = []
        var definedFunctions: Set<String> = []
    }

    public init() {}

    /// Scans `files`, and returns the accessors called at `minimumCallSites` places or more, most
    /// called first. Files larger than `maxFileSize` or not regular are skipped.
    public func candidates(files: [String], minimumCallSites: Int = 2, maxFileSize: Int = 16 << 20) -> [Candidate] {
        let facts = files.concurrentMap { file in
            (try? InputFile.read(file, limit: maxFileSize)).map { Self.scan(String(decoding: $0, as: UTF8.self)) }
                ?? FileFacts()
        }
        var declared: Set<String> = []
        var defined: Set<String> = []
        for f in facts {
            declared.formUnion(f.declaredTypes)
            defined.formUnion(f.definedFunctions)
        }
        var sites: [String: Int] = [:]
        var fileCount: [String: Int] = [:]
        var services: [String: [String: Int]] = [:]
        for f in facts {
            for (spec, found) in f.sites {
                let owner =
                    spec.hasSuffix("()") ? String(spec.dropLast(2)) : String(spec.prefix { $0 != "." && $0 != ":" })
                let known =
                    spec.hasSuffix("()")
                    ? defined.contains(owner)
                    : declared.contains(String(owner.split(separator: ":").last ?? Substring(owner)))
                guard known else { continue }
                sites[spec, default: 0] += found.count
                fileCount[spec, default: 0] += 1
                for s in found.compactMap({ $0 }) { services[spec, default: [:]][s, default: 0] += 1 }
            }
        }
        return sites.filter { $0.value >= minimumCallSites }.map { spec, count in
            Candidate(
                spec: spec, callSites: count, files: fileCount[spec] ?? 0,
                services: (services[spec] ?? [:]).sorted {
                    $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
                }
                .map { (name: $0.key, count: $0.value) })
        }.sorted { $0.callSites != $1.callSites ? $0.callSites > $1.callSites : $0.spec < $1.spec }
    }

    private static func scan(_ text: String) -> FileFacts {
        var facts = FileFacts()
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        func string(_ r: NSRange) -> String { ns.substring(with: r) }
        func after(_ r: NSRange, _ pattern: NSRegularExpression) -> String? {
            let rest = NSRange(location: r.upperBound, length: min(200, ns.length - r.upperBound))
            return pattern.firstMatch(in: text, options: .anchored, range: rest).map { string($0.range(at: 1)) }
        }
        /// A definition or declaration of the accessor rather than a call: `… X::instance() {`, `T *name(void);` at file scope.
        func isDefinition(_ r: NSRange) -> Bool {
            let rest = string(NSRange(location: r.upperBound, length: min(40, ns.length - r.upperBound)))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return rest.hasPrefix("{") || rest.hasPrefix("const {") || rest.hasPrefix("const{")
        }
        for m in typeDeclaration.matches(in: text, range: whole) { facts.declaredTypes.insert(string(m.range(at: 1))) }
        for m in send.matches(in: text, range: whole) {
            let name = string(m.range(at: 2))
            guard !isConstantName(name) else { continue }
            // `[[Type accessor] service]`: the outer send's selector; `[Type accessor].service`
            let service =
                after(m.range, memberAfter)
                ?? (m.range.location > 0 && ns.character(at: m.range.location - 1) == 0x5B
                    ? after(m.range, sendAfter) : nil)
            facts.sites[string(m.range(at: 1)) + "." + name, default: []].append(service)
        }
        for m in dot.matches(in: text, range: whole) {
            let name = string(m.range(at: 2))
            guard !isConstantName(name) else { continue }
            var end = m.range
            // Swift's `Type.shared()`: the service follows the call
            let call = NSRange(location: end.upperBound, length: min(2, ns.length - end.upperBound))
            if string(call) == "()" { end = NSRange(location: end.location, length: end.length + 2) }
            facts.sites[string(m.range(at: 1)) + "." + name, default: []].append(after(end, memberAfter))
        }
        for m in cxx.matches(in: text, range: whole) where !isDefinition(m.range) {
            facts.sites[string(m.range(at: 1)) + "::" + string(m.range(at: 2)), default: []].append(
                after(m.range, memberAfter))
        }
        for m in cFunction.matches(in: text, range: whole) {
            let name = string(m.range(at: 1))
            if isDefinition(m.range) {
                facts.definedFunctions.insert(name)
                continue
            }
            // `T *name(void);`: a prototype (the word before is a type), not a call
            let before = string(NSRange(location: max(0, m.range.location - 40), length: min(40, m.range.location)))
                .trimmingCharacters(in: .whitespaces)
            if let last = before.last,
                last == "*" || ((last.isLetter || last.isNumber || last == "_") && !before.hasSuffix("return"))
            {
                continue
            }
            facts.sites[name + "()", default: []].append(after(m.range, memberAfter))
        }
        return facts
    }
}
