import Foundation

/// What every part of one fix run shares: the configuration, the files of the run, their parses.
final class FixContext {
    let configuration: Configuration
    let workspace: FixWorkspace
    /// The file rules a C-family file's verification compares (the container rules, which the
    /// edits are meant to change, left out: `Fixer.comparedWithoutRules`).
    let comparedRules: FileRules
    /// The file rules a Swift file's verification compares (all; its check leaves the container
    /// rules out of the comparison).
    let swiftRules: FileRules
    /// `--service`: only these services are migrated (every service when empty).
    let services: Set<String>
    /// The run's files by real path, each with the name it is shown by.
    let runFiles: [String]
    private let displayNames: [String: String]
    private var analyses: [String: FixFileAnalysis] = [:]
    /// The run's files that declare an `@interface` of each class name (built on first use).
    private var interfaceFiles: [String: [String]]?
    private var swiftFiles: [String: SwiftFixFile] = [:]
    /// Titles of the groups the verification refused, set before the second run (which only
    /// checks that nothing else comes back).
    var refusedTitles: Set<String> = []
    /// The project's Swift files outside the run, read for declarations only (`--types-from`).
    var declarations: SwiftDeclarationIndex?
    /// Why files could not be parsed, by real path (reported, never dropped silently).
    private(set) var failures: [String: String] = [:]
    /// Held while `analysis` reads or fills the cache.
    private let analysisLock = NSLock()

    /// Why the file could not be parsed, read under the lock `analysis` fills it under.
    func failure(_ realPath: String) -> String? {
        analysisLock.lock()
        defer { analysisLock.unlock() }
        return failures[realPath]
    }

    init(
        configuration: Configuration, workspace: FixWorkspace, services: Set<String>,
        files: [(real: String, display: String)]
    ) {
        self.configuration = configuration
        self.workspace = workspace
        self.services = services
        comparedRules = FileRules(configuration: configuration, except: Fixer.comparedWithoutRules)
        swiftRules = FileRules(configuration: configuration)
        runFiles = files.map(\.real)
        displayNames = Dictionary(files.map { ($0.real, $0.display) }, uniquingKeysWith: { a, _ in a })
    }

    /// Whether the run's bridge is a Swift facade `--phase bridge` wrote (its parameter's default
    /// is then the facade built from the container: `BridgeWriter.swiftDefault`).
    lazy var generatedSwiftBridge = BridgeWriter.isGeneratedSwiftBridge(self)

    /// The bridge's name as the fix writes it.
    var bridgeName: String { configuration.bridgeNames.first ?? "bridge" }

    func display(_ realPath: String) -> String { displayNames[realPath] ?? realPath }

    /// Why fix may not write the bridge style's declarations (a stored bridge, a property, an
    /// import of its header): the config names no `bridge-type:` and no file of the run declares
    /// the default type (`Bridge`), so they would name a type the project does not have. Nil
    /// when it may.
    lazy var missingBridgeType: String? = {
        guard !configuration.bridgeTypeIsConfigured else { return nil }
        let type = configuration.bridgeType
        let declared = runFiles.contains { path in
            guard let bytes = workspace.diskBytes(path), bytes.withUnsafeBytes({ $0.containsASCII(type) }) else {
                return false
            }
            return Self.declaresType(type, in: String(decoding: bytes, as: UTF8.self))
        }
        return declared ? nil : "the config names no bridge-type and no file of the run declares '\(type)'"
    }()

    /// Whether the text declares a type named `type`: a Swift `class`, `struct`, `enum`, `actor`,
    /// `protocol` or `typealias`, an Objective-C `@interface`, `@protocol` or `@class`, or a C
    /// `typedef` (`struct T` is a Swift or C declaration).
    static func declaresType(_ type: String, in text: String) -> Bool {
        guard text.contains(type) else { return false }
        return declaration(of: type).firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// `declaresType`'s expression for a type, compiled once per type name (a bridge check asks
    /// for the same names over every file of the run).
    private static func declaration(of type: String) -> NSRegularExpression {
        declarationsLock.lock()
        defer { declarationsLock.unlock() }
        if let known = declarations[type] { return known }
        let name = NSRegularExpression.escapedPattern(for: type)
        let pattern =
            #"(\b(class|struct|enum|actor|protocol|typealias)|@(interface|protocol|class))\s+"# + name + #"\b"#
            + #"|\btypedef\b[^;]*\b"# + name + #"\s*;"#
        let expression = try! NSRegularExpression(pattern: pattern) // escaped name in a fixed pattern: always valid
        declarations[type] = expression
        return expression
    }

    nonisolated(unsafe) private static var declarations: [String: NSRegularExpression] = [:]
    private static let declarationsLock = NSLock()

    /// Whether the member the container is asked for registers something with it
    /// (`register(…)`, `registerService:`, `unregister…`, `deregister…`): a call on the container,
    /// not a read of a service, so never rewritten onto the bridge.
    static func isRegistration(_ member: String?) -> Bool {
        guard let member else { return false }
        return member.range(of: "^(register|unregister|deregister)($|[A-Z_:(])", options: .regularExpression) != nil
    }

    func selects(_ access: ContainerAccess) -> Bool {
        services.isEmpty || access.service.map(services.contains) == true
    }

    /// The file parsed and analysed (as of the workspace's overlay), cached until `forget()`.
    /// Safe to call from several threads at once (the verification's checks): one parses at a
    /// time, on the workspace's front end.
    func analysis(_ realPath: String) -> FixFileAnalysis? {
        analysisLock.lock()
        defer { analysisLock.unlock() }
        if let known = analyses[realPath] { return known }
        do {
            let analysis = try analyze(realPath, frontEnd: workspace.frontEnd)
            analyses[realPath] = analysis
            return analysis
        } catch {
            failures[realPath] = Self.reason(error)
            return nil
        }
    }

    /// The file parsed (with `frontEnd`, as of the overlay) and analysed, under the parse deadline.
    /// An edited file's findings are found at once (the verification compares them all); a file
    /// as on disk runs each rule when its findings are first asked for (`RuleFindings`).
    private func analyze(_ realPath: String, frontEnd: ClangFrontEnd) throws -> FixFileAnalysis {
        try workspace.deadline.parsing(realPath) {
            FixFileAnalysis(
                path: realPath, file: try workspace.parse(realPath, frontEnd: frontEnd), frontEnd: frontEnd,
                rules: comparedRules, findingsNow: workspace.overlay[realPath] != nil,
                asOnDisk: workspace.overlay[realPath] == nil)
        }
    }

    /// Why a parse failed, as a file's failure says it.
    private static func reason(_ error: any Error) -> String { (error as? ParseFailure)?.reason ?? "\(error)" }

    /// Takes another context's parses of the run's files as they are on disk (the bridge phase
    /// planned before the inject): files not cached yet, whose contents are the same here. The
    /// caller makes sure no parse here could read a file the other could not (the files planned
    /// but not written are all implementation files, which no parse is given).
    func adopt(_ other: FixContext) {
        var adopted = 0
        defer { FixTrace.mark("  adopted \(adopted) of \(other.analysesOnDisk.count) parses") }
        for (path, analysis) in other.analysesOnDisk
        where analyses[path] == nil && workspace.overlay[path] == nil
            && workspace.diskBytes(path) == other.workspace.diskBytes(path)
        {
            analyses[path] = analysis
            workspace.noteRead(path, analysis.inclusions)
            adopted += 1
        }
        for (path, file) in other.swiftFilesOnDisk where swiftFilesOnDisk[path] == nil { swiftFilesOnDisk[path] = file }
    }

    /// The C-family analyses made as on disk (kept by `plan` after the verification dropped
    /// its caches): what `adopt` takes.
    var analysesOnDisk: [String: FixFileAnalysis] = [:]

    /// Parses and analyses the files not cached yet on one parse thread per core (`ParseThreads`,
    /// as lint's), each with its own front end, each taking the next file when done with one,
    /// then caches them.
    func prefetch(_ paths: [String]) {
        var seen = Set<String>()
        let missing = paths.filter { analyses[$0] == nil && seen.insert($0).inserted }
        guard missing.count > 1 else { return }
        // the caches are filled here, read below
        for path in missing { _ = workspace.bytes(path); _ = workspace.diskBytes(path) }
        let results = IndexedResults<FixFileAnalysis>(count: missing.count)
        let shared = workspace.frontEnd // made here, not raced for by the threads
        ParseThreads.run(min(ProcessInfo.processInfo.activeProcessorCount, missing.count)) { [self] in
            let frontEnd = ClangFrontEnd(sharing: shared) // its own libclang index
            while let i = results.next() {
                do {
                    results.set(i, try analyze(missing[i], frontEnd: frontEnd))
                } catch {
                    results.fail(i, Self.reason(error))
                }
            }
        }
        FixTrace.mark(
            "  parsed \(missing.count) files (\(workspace.overlayRetries) in the run parsed again with every edited header)"
        )
        for (i, path) in missing.enumerated() {
            analyses[path] = results.values[i]
            if let why = results.failures[i] { failures[path] = why }
        }
    }

    /// A Swift file parsed and analysed (as of the workspace's overlay), cached until `forget()`;
    /// nil when it cannot be read or parsed (why: `failures`).
    func swiftFile(_ realPath: String) -> SwiftFixFile? {
        if let known = swiftFiles[realPath] { return known }
        // a file the overlay leaves as on disk: its parse as on disk, made once for the run
        if workspace.overlay[realPath] == nil { return swiftFileOnDisk(realPath) }
        guard let bytes = workspace.bytes(realPath) else { return nil }
        guard let file = parseSwift(realPath, bytes: bytes) else { return nil }
        swiftFiles[realPath] = file
        return file
    }

    /// A Swift file as on disk (what the plan was made from), parsed once for the run: the
    /// verification's "before" of every round and the files no edit touches, which the
    /// planners and the second run read again after each `forget()`.
    func swiftFileOnDisk(_ realPath: String) -> SwiftFixFile? {
        if let known = swiftFilesOnDisk[realPath] { return known }
        guard let bytes = workspace.diskBytes(realPath), let file = parseSwift(realPath, bytes: bytes) else {
            return nil
        }
        swiftFilesOnDisk[realPath] = file
        return file
    }

    private(set) var swiftFilesOnDisk: [String: SwiftFixFile] = [:]

    /// A Swift file's `bytes` parsed, analysed and linted as `lint` does, under the same bounds:
    /// reported to the supervisor as a parse (its deadline, memory limit and crash containment;
    /// the in-process deadline without one), on a thread with the stack lint's parse threads
    /// have (swift-syntax's parser recurses per nesting level and chain link). Nil when the file
    /// was left out of the run or lint's Swift front end refuses it (`SwiftFrontEnd`: nesting or
    /// chains past what the parser takes); why is in `failures`, in lint's words.
    func parseSwift(_ realPath: String, bytes: [UInt8]) -> SwiftFixFile? {
        let display = display(realPath)
        do {
            return try workspace.deadline.parsing(realPath) {
                try Self.onParseStack { [configuration, swiftRules] in
                    Result {
                        try SwiftFixFile(
                            path: realPath, display: display, bytes: bytes, configuration: configuration,
                            rules: swiftRules)
                    }
                }.get()
            }
        } catch {
            failures[realPath] = Self.reason(error)
            return nil
        }
    }

    /// `body`'s result, computed on a parse thread (`ParseThreads`).
    static func onParseStack<R>(_ body: @escaping @Sendable () -> R) -> R {
        ParseThreads.value(name: "di-lint fix Swift parse", body)
    }

    /// The Swift files of the run whose text mentions `name` (as of the workspace's overlay,
    /// cached until `forget()`: the Swift planners ask for the same names again and again).
    func swiftFilesMentioning(_ name: String) -> [String] {
        if let known = mentioning[name] { return known }
        let found = swiftRunFiles.filter { workspace.bytes($0)?.withUnsafeBytes { $0.containsASCII(name) } == true }
        mentioning[name] = found
        return found
    }

    private lazy var swiftRunFiles: [String] = runFiles.filter { ($0 as NSString).pathExtension == "swift" }
    private var mentioning: [String: [String]] = [:]

    /// Answers the planners derive from the run's files (as of the workspace's overlay), by a
    /// key naming the look-up and its arguments, kept until a file changes (cleared with the
    /// parses): a look-up every service asks for (the container's member blocks, a provider
    /// protocol, the headers in reach) is made once, not once per service.
    private var runAnswers: [String: Any] = [:]

    /// `compute()`'s value for `key`, computed once until the run's files change (nil included).
    func remembered<T>(_ key: String, _ compute: () -> T) -> T {
        if let known = runAnswers[key], let value = known as? T { return value }
        let value = compute()
        runAnswers.updateValue(value as Any, forKey: key)
        return value
    }

    /// Drops cached parses (after the overlay changed).
    func forget() { analyses = [:]; swiftFiles = [:]; mentioning = [:]; runAnswers = [:] }

    /// Drops the cached parses the change of these files' contents may change: theirs, and those
    /// of the files that included one of them (the rest would parse the same again).
    func forget(changed: Set<String>) {
        guard !changed.isEmpty else { return }
        let keys = changed.compactMap(FixFileAnalysis.FileKey.init(path:))
        guard keys.count == changed.count else { forget(); return } // a file that cannot be told apart: all again
        analyses = analyses.filter { path, analysis in
            !changed.contains(path) && !keys.contains(where: analysis.includes)
        }
        swiftFiles = swiftFiles.filter { !changed.contains($0.key) }
        mentioning = [:]
        runAnswers = [:]
    }

    /// Files of the run that may declare an Objective-C interface of `className`: `@interface`,
    /// blanks, then the name as a whole word (a file that only mentions the class is not parsed for it).
    func filesDeclaring(_ className: String) -> [String] {
        if interfaceFiles == nil {
            // each file read once: the names its `@interface`s declare, by name (a lookup per class
            // was a scan of every such file, quadratic on a tree of many classes)
            var index: [String: [String]] = [:]
            for path in runFiles where ["h", "m", "mm"].contains((path as NSString).pathExtension) {
                guard let bytes = workspace.bytes(path), bytes.withUnsafeBytes({ $0.containsASCII("@interface") })
                else { continue }
                for name in Self.declaredInterfaces(in: bytes) { index[name, default: []].append(path) }
            }
            interfaceFiles = index
        }
        return interfaceFiles![className] ?? []
    }

    /// The names after each `@interface` directive of the text (`@interface Name`, blanks between).
    static func declaredInterfaces(in bytes: [UInt8]) -> Set<String> {
        let directive = Array("@interface".utf8)
        func isWord(_ b: UInt8) -> Bool {
            b == UInt8(ascii: "_") || b >= 0x80 || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
        }
        var names = Set<String>()
        var i = 0
        while i + directive.count <= bytes.count {
            guard bytes[i] == directive[0], bytes[i..<(i + directive.count)].elementsEqual(directive) else {
                i += 1; continue
            }
            var k = i + directive.count
            guard k < bytes.count, !isWord(bytes[k]) else { i = k; continue }
            while k < bytes.count,
                [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[k])
            { k += 1 }
            var end = k
            while end < bytes.count, isWord(bytes[end]) { end += 1 }
            if end > k { names.insert(String(decoding: bytes[k..<end], as: UTF8.self)) }
            i = max(end, k)
        }
        return names
    }

    func manual(_ located: LocatedAccess, in analysis: FixFileAnalysis, _ reason: ManualReason, detail: String? = nil)
        -> ManualItem
    {
        let (line, column) = analysis.lineColumn(located.offset)
        var detail = detail
        if detail == nil, let enclosing = located.enclosing {
            detail = "in \(enclosing.typeName.map { "\($0) " } ?? "")\(enclosing.name)"
        }
        return ManualItem(
            path: display(analysis.path), line: line, column: column, expression: located.access.expression,
            reason: reason, detail: detail)
    }
}
