import Foundation

/// Phase `inject` in the service style for Objective-C: the service itself becomes a property of
/// the class that reads it. Each read in an instance method becomes `self.svc`; the class gets
/// `@property (nonatomic, strong) Type *svc;` (its `@interface` in a header every implementation
/// file includes, else a class extension) and a getter that falls back to the container while
/// nothing sets the property, so behaviour is kept:
///
/// ```objc
/// - (Type *)svc
/// {
///     return _svc ?: Container.sharedInstance.svc;
/// }
/// ```
///
/// One group per class and service (one service never blocks another). The type is the one the
/// container declares for the service (`@property … Type *svc;` or `- (Type *)svc;` in its
/// `@interface`, in a file of the run or a header one of them imports); unknown, the reads are
/// left, with the reason.
struct ObjCServiceInjection {
    let context: FixContext
    let types: ObjCServiceTypes

    init(context: FixContext) {
        self.context = context
        types = ObjCServiceTypes(context: context)
    }

    private struct Item {
        var analysis: FixFileAnalysis
        var located: LocatedAccess
        var rewrite: InjectRewriter.Rewrite
        var target: FixTarget
    }

    private var items: [String: [Item]] = [:]
    private var order: [String] = []
    private var services: [String: (className: String, service: String, type: ObjCServiceTypes.Declared)] = [:]

    /// The property's name for a service: the service as lint names it, lower camel case.
    static func propertyName(_ service: String) -> String {
        guard let first = service.first else { return service }
        return first.lowercased() + service.dropFirst()
    }

    /// Takes an access in an instance method (after the checks every style shares), or says why not.
    mutating func add(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> ManualReason? {
        guard let service = located.access.service else { return .noService }
        guard let enclosing = located.enclosing, let className = enclosing.typeName, let k = located.tokenIndex else {
            return .unsupportedLanguage
        }
        let name = Self.propertyName(service)
        if Self.isGetterFallback(located, in: analysis) { return .serviceGetterFallback }
        let rewrite: InjectRewriter.Rewrite
        switch InjectRewriter(tokens: analysis.tokens).rewriteToService(located, at: k, reading: "self.\(name)") {
        case let .failure(reason): return reason
        case let .success(r): rewrite = r
        }
        guard let type = types.declared(service, of: located.access.container) else { return .serviceTypeUnknown }
        guard type.isObject else { return .serviceNotObject }
        let key = className + "\u{0}" + name
        if services[key] == nil {
            services[key] = (className, name, type)
            order.append(key)
        }
        let (line, column) = analysis.lineColumn(rewrite.range.lowerBound)
        let at = analysis.lineColumn(located.offset)
        var target = FixTarget(
            path: context.display(analysis.path), line: line, column: column, expression: rewrite.expression,
            range: rewrite.range, accessLine: at.line, accessColumn: at.column)
        target.reads = "self.\(name)"
        items[key, default: []].append(Item(analysis: analysis, located: located, rewrite: rewrite, target: target))
        return nil
    }

    /// The accesses of the service's own getter, past `_svc ?:` (the fallback this style writes).
    static func isGetterFallback(_ located: LocatedAccess, in analysis: FixFileAnalysis) -> Bool {
        guard let service = located.access.service, let k = located.tokenIndex else { return false }
        let name = propertyName(service)
        guard located.enclosing?.kind == .objcMethod, located.enclosing?.name == name else { return false }
        let tokens = analysis.tokens
        var i = k - 1
        while i >= 0 && tokens.text(i) == "[" { i -= 1 }
        return tokens.text(i) == ":" && tokens.text(i - 1) == "?" && tokens.text(i - 2) == "_\(name)"
    }

    /// The groups (and the accesses left, with why, when a class cannot take the property).
    func groups(into plan: inout FixPlan) {
        for key in order {
            let (className, name, type) = services[key]!
            let list = items[key]!
            var group = FixGroup(
                title: "Objective-C class \(className) service \(name)", edits: [], targets: list.map(\.target))
            group.tier = .safe
            group.edits = list.map {
                TextEdit(path: $0.analysis.path, range: $0.rewrite.range, replacement: $0.rewrite.replacement)
            }
            if !context.refusedTitles.contains(group.title) {
                switch declarations(
                    className: className, name: name, type: type, files: list.map(\.analysis),
                    read: list[0].rewrite.expression)
                {
                case let .failure(reason):
                    for item in list { plan.manual.append(context.manual(item.located, in: item.analysis, reason)) }
                    continue
                case let .success(edits):
                    group.edits += edits
                }
            }
            plan.groups.append(group)
        }
    }

    /// The property and its getter, or why the class cannot take them.
    private func declarations(
        className: String, name: String, type: ObjCServiceTypes.Declared, files: [FixFileAnalysis], read: String
    ) -> Result<[TextEdit], ManualReason> {
        var seen = Set<String>()
        let files = files.filter { seen.insert($0.path).inserted }
        // the getter goes into the class's own @implementation (a category has no ivar)
        var implementation: (FixFileAnalysis, Int)?
        for analysis in files {
            let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: [name])
            if let block = declarations.classImplementation(of: className) { implementation = (analysis, block); break }
        }
        guard let (main, end) = implementation else { return .failure(.serviceNoImplementation) }
        // a member of that name already (a property, its ivar, a method): the name is taken
        for path in Set(context.filesDeclaring(className)).union(files.map(\.path)).sorted() {
            guard let analysis = context.analysis(path) else { continue }
            let declarations = ObjCDeclarations(tokens: analysis.tokens, bridgeNames: [name])
            if declarations.interfaces(of: className).contains(where: { $0.bridgeProperty != nil })
                || declarations.declaresProperty(name, in: className)
            {
                return .failure(.serviceNameTaken)
            }
            if declarations.definesMember(name, in: className) { return .failure(.serviceNameTaken) }
        }
        let property = BridgePropertyPlacer.PlacedProperty(
            declaration: "@property (nonatomic, strong) \(type.spelled(name));", names: [name], forward: type.forward)
        let placer = BridgePropertyPlacer(context: context, property: property)
        let placed = placer.edits(for: className, implementationFiles: files)
        guard !placed.isEmpty else { return .failure(.serviceNoImplementation) }
        let tokens = main.tokens
        guard tokens.isFirstOnLine(end) else { return .failure(.serviceNoImplementation) }
        let eol = tokens.lineEnding
        let at = tokens.lineStart(tokens.start(end))
        let getter = "- (\(type.returnType))\(name)\(eol){\(eol)    return _\(name) ?: \(read);\(eol)}\(eol)\(eol)"
        return .success(placed + [TextEdit(path: main.path, range: at..<at, replacement: getter)])
    }
}

/// The type the container declares for a service, from its `@interface` (a property or a method
/// without arguments), found in the run's files and in the headers they import.
final class ObjCServiceTypes {
    struct Declared: Hashable {
        /// `SentryCurrentDateProvider`, `id<Clock>`, `BOOL`.
        var base: String
        /// Whether it is a pointer (`Type *`).
        var pointer: Bool

        var isObject: Bool { pointer || base == "id" || base.hasPrefix("id<") || base.hasPrefix("id <") }
        /// `Type *name`, `id<P> name`.
        func spelled(_ name: String) -> String { pointer ? "\(base) *\(name)" : "\(base) \(name)" }
        var returnType: String { pointer ? "\(base) *" : base }
        /// What a file must have seen to name the type.
        var forward: (keyword: String, name: String)? {
            let head = String(base.prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
            if pointer { return ("class", head) }
            let inside = base.drop { $0 != "<" }.dropFirst().prefix { $0 != ">" }.trimmingCharacters(in: .whitespaces)
            if head == "id", !inside.isEmpty, !inside.contains(",") { return ("protocol", inside) }
            return nil
        }
    }

    private let context: FixContext
    let headers: HeadersInReach
    private var cache: [String: Declared?] = [:]
    private var texts: [String: [String]] = [:] // container → the texts of its @interface blocks

    init(context: FixContext) {
        self.context = context
        headers = HeadersInReach(context: context)
    }

    func declared(_ service: String, of container: String) -> Declared? {
        let key = container + "." + service
        if let known = cache[key] { return known }
        let found = Set(interfaceTexts(of: container).compactMap { Self.find(service, in: $0) })
        let result = found.count == 1 ? found.first : nil // none, or two that disagree: unknown
        cache[key] = result
        return result
    }

    private static let typePattern = #"([A-Za-z_][A-Za-z_0-9]*(?:\s*<[^>;]*>)?)\s*(\*?)"#
    private static let qualifiers =
        #"(?:(?:_Nullable|_Nonnull|__nullable|__nonnull|nullable|nonnull|const|__kindof)\s*)*"#
    private static let trailing = #"(?:\s*[A-Z_][A-Z_0-9]*(?:\([^)]*\))?)*\s*;"#

    static func find(_ service: String, in text: String) -> Declared? {
        let name = NSRegularExpression.escapedPattern(for: service)
        let property =
            #"@property\s*(?:\([^)]*\))?\s*"# + qualifiers + typePattern + #"\s*"# + qualifiers + #"\b"# + name
            + trailing
        let method = #"-\s*\(\s*"# + qualifiers + typePattern + #"\s*"# + qualifiers + #"\)\s*"# + name + trailing
        for pattern in [property, method] {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            let ns = text as NSString
            if let m = regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) {
                let base = ns.substring(with: m.range(at: 1))
                if ["nullable", "nonnull", "const", "__kindof"].contains(base) { continue }
                return Declared(base: base, pointer: !ns.substring(with: m.range(at: 2)).isEmpty)
            }
        }
        return nil
    }

    /// Whether a text declares `@interface Name` (a primary interface or a category of it).
    static func declaresInterface(_ name: String, in text: String) -> Bool {
        text.range(
            of: #"@interface\s+"# + NSRegularExpression.escapedPattern(for: name) + #"\b"#, options: .regularExpression)
            != nil
    }

    /// The `@interface Container …` … `@end` blocks in the run's files and the headers they import.
    func interfaceTexts(of container: String) -> [String] {
        if let known = texts[container] { return known }
        var paths = context.filesDeclaring(container)
        paths += headers.headers().filter { !paths.contains($0) }
        let escaped = NSRegularExpression.escapedPattern(for: container)
        let regex = try? NSRegularExpression(pattern: #"@interface\s+"# + escaped + #"\b[\s\S]*?@end"#)
        var found: [String] = []
        for path in paths {
            guard let bytes = context.workspace.bytes(path), bytes.withUnsafeBytes({ $0.containsASCII(container) })
            else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let ns = text as NSString
            for m in regex?.matches(in: text, range: NSRange(location: 0, length: ns.length)) ?? [] {
                found.append(ns.substring(with: m.range))
            }
        }
        texts[container] = found
        return found
    }
}

/// The headers the run's C-family files import (and those these import), found where a build
/// would: beside the file, or by the imported name as a path tail under the folder fix runs in
/// (a headerless parse does not find `#import "Foo.h"` of an `include/` folder, nor
/// `<Kit/Kit.h>`). Read, never part of the run.
final class HeadersInReach {
    private let context: FixContext
    private var index: [String: [String]]?
    /// Files listed under the run's folder at most (a tree larger is searched no further).
    static let listingLimit = 50_000

    init(context: FixContext) { self.context = context }

    /// The real paths of the imported headers that exist, in the order first imported: those the
    /// run's files import, then those these import, `depth` levels deep (at most `limit` headers).
    func headers(depth: Int = 3, limit: Int = 400) -> [String] {
        // the same for every planner of the run (each makes its own `HeadersInReach`)
        context.remembered("headers in reach, \(depth) deep, at most \(limit)") { search(depth: depth, limit: limit) }
    }

    private func search(depth: Int, limit: Int) -> [String] {
        let runC = context.runFiles.filter {
            ["m", "mm", "h", "c", "cc", "cpp", "hh", "hpp"].contains(($0 as NSString).pathExtension)
        }
        let regex = try? NSRegularExpression(
            pattern: #"^[ \t]*#[ \t]*(?:import|include)[ \t]*["<]([^">\n]+)[">]"#, options: .anchorsMatchLines)
        var result: [String] = []
        var seen = Set(context.runFiles)
        var level = runC
        for _ in 0..<depth where !level.isEmpty && result.count < limit {
            var next: [String] = []
            for from in level {
                guard let bytes = context.workspace.bytes(from) else { continue }
                let text = String(decoding: bytes, as: UTF8.self), ns = text as NSString
                for m in regex?.matches(in: text, range: NSRange(location: 0, length: ns.length)) ?? []
                where result.count < limit {
                    let name = ns.substring(with: m.range(at: 1))
                    let beside = ((from as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
                    let candidates =
                        FileManager.default.fileExists(atPath: beside)
                        ? [beside]
                        : headerIndex(runC)[(name as NSString).lastPathComponent, default: []].filter {
                            $0.hasSuffix("/" + name)
                        }
                    // one file of that name, or none: two would be a guess
                    guard candidates.count == 1 else { continue }
                    let real = FixWorkspace.realPath(candidates[0])
                    if seen.insert(real).inserted { result.append(real); next.append(real) }
                }
            }
            level = next
        }
        return result
    }

    /// The headers under the folder fix runs in when it holds the run, else under the folder
    /// holding every file of the run, by file name (listed once).
    private func headerIndex(_ files: [String]) -> [String: [String]] {
        if let index { return index }
        var built: [String: [String]] = [:]
        let folders = files.map { ($0 as NSString).deletingLastPathComponent.split(separator: "/").map(String.init) }
        var common = folders.first ?? []
        for folder in folders.dropFirst() { common = zip(common, folder).prefix { $0.0 == $0.1 }.map(\.0) }
        var root = "/" + common.joined(separator: "/")
        // the folder fix runs in, when it holds the run (a project's headers are found from its root)
        let here = FixWorkspace.realPath(FileManager.default.currentDirectoryPath)
        if here != "/", root == here || root.hasPrefix(here + "/") { root = here }
        if root != "/", let walker = FileManager.default.enumerator(atPath: root) {
            var listed = 0
            while let entry = walker.nextObject() as? String, listed < Self.listingLimit {
                listed += 1
                let last = (entry as NSString).lastPathComponent
                if last.hasPrefix(".") { walker.skipDescendants(); continue }
                if ["h", "hh", "hpp"].contains((last as NSString).pathExtension) {
                    built[last, default: []].append((root as NSString).appendingPathComponent(entry))
                }
            }
        }
        index = built
        return built
    }
}
