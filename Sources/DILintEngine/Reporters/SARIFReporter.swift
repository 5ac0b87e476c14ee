import Foundation

/// SARIF 2.1.0 (the OASIS static-analysis exchange format), shaped for GitHub code scanning:
/// one run, every catalog rule under `tool.driver.rules`, paths relative to `%SRCROOT%` (the
/// project root), fingerprints under `partialFingerprints`. Baselined findings are kept with
/// `baselineState: unchanged` and an external suppression; new ones have `baselineState: new`.
/// The mapping is documented in docs/output-formats.md.
public struct SARIFReporter: Reporter {
    /// The project root `artifactLocation.uri`s are relative to.
    public var root: String

    public init(root: String) { self.root = root }

    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    static let rootBase = "%SRCROOT%"

    public func render(_ result: LintResult) -> String {
        log(result).text()
    }

    func log(_ result: LintResult) -> SARIFLog {
        let rules = RuleCatalog.shared.rules
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        var lines = SourceLines()
        var relative = RelativePaths(root: root)
        var uris: [String: String] = [:] // `uriPath` by relative path
        let results = result.findings.map { f -> SARIFLog.Result in
            let path = relative[f.path]
            let uri = uris[path] ?? Self.uriPath(path)
            uris[path] = uri
            let column = lines.utf16Column(byteColumn: f.column, line: f.line, of: f.path)
            var item = SARIFLog.Result(
                ruleId: f.rule, ruleIndex: ruleIndex[f.rule], level: f.severity.rawValue,
                message: .init(text: f.message),
                locations: [
                    .init(
                        physicalLocation: .init(
                            artifactLocation: .init(uri: uri, uriBaseId: path.hasPrefix("/") ? nil : Self.rootBase),
                            region: .init(
                                startLine: f.line, startColumn: column, snippet: f.snippet.map { .init(text: $0) })))
                ],
                partialFingerprints: f.fingerprint.map { [Fingerprints.scheme: $0] },
                baselineState: f.fingerprint == nil ? nil : (f.baselined ? "unchanged" : "new"),
                suppressions: f.baselined
                    ? [.init(kind: "external", status: "accepted", justification: "accepted in the di-lint baseline")]
                    : nil,
                properties: f.access.map {
                    .init(
                        container: $0.container, accessor: $0.accessor, service: $0.service,
                        kind: $0.kind.rawValue, viaMacro: $0.viaMacro)
                })
            item.fixes = f.fix.map { [SARIFFix($0)] } // `lint --fixes`
            return item
        }
        let rootURI = URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL.absoluteString
        let run = SARIFLog.Run(
            tool: .init(
                driver: .init(
                    name: "di-lint", version: DILintVersion.current, semanticVersion: DILintVersion.current,
                    rules: rules.map(Self.descriptor))),
            originalUriBaseIds: [
                Self.rootBase: .init(uri: rootURI.hasSuffix("/") ? rootURI : rootURI + "/", uriBaseId: nil)
            ],
            columnKind: "utf16CodeUnits",
            results: results,
            invocations: [.init(executionSuccessful: true)],
            properties: .init(
                diLint: .init(
                    files: result.filesChecked, parsed: result.filesParsed, notLinted: result.filesFailed,
                    cached: result.filesCached, stale: result.staleBaselineEntries,
                    handlerFunctionsReadPartly: result.handlerFunctionsReadPartly)))
        return SARIFLog(runs: [run])
    }

    static func descriptor(_ rule: RuleDescription) -> SARIFLog.Rule {
        var text = "\(rule.summary).\n\n\(rule.rationale)\n\nPrevents: \(rule.pitfall)"
        var markdown = "**\(rule.summary).**\n\n\(rule.rationale)\n\n*Prevents:* \(rule.pitfall)"
        if let example = rule.triggering.first {
            var code = example.code.replacingOccurrences(of: "↓", with: "")
            if !code.hasSuffix("\n") { code += "\n" }
            text += "\n\nExample that triggers it:\n\(code)"
            markdown +=
                "\n\n#### Example that triggers it\n\n```\(example.language == .c ? "c" : example.language == .cxx ? "cpp" : "objc")\n\(code)```"
        }
        text +=
            "\n\nSilence one occurrence with `// di-lint:disable-next-line \(rule.id) -- reason`; see `di-lint rules \(rule.id)`."
        markdown +=
            "\n\nSilence one occurrence with `// di-lint:disable-next-line \(rule.id) -- reason`; see `di-lint rules \(rule.id)`."
        return .init(
            id: rule.id,
            name: rule.id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(),
            shortDescription: .init(text: rule.summary), fullDescription: .init(text: rule.rationale),
            help: .init(text: text, markdown: markdown),
            defaultConfiguration: .init(level: rule.defaultSeverity.rawValue),
            properties: .init(tags: ["maintainability", "dependency-injection"]))
    }

    /// SARIF columns count UTF-16 code units; clang's count bytes. They differ only on lines
    /// with non-ASCII text before the finding; without the line the byte column is kept.
    static func utf16Column(byteColumn: Int, line: String) -> Int {
        let bytes = Array(line.utf8)
        guard byteColumn > 1, byteColumn - 1 <= bytes.count else { return byteColumn }
        return String(decoding: bytes[..<(byteColumn - 1)], as: UTF8.self).utf16.count + 1
    }

    /// A relative path as a URI reference: each component percent-encoded.
    static func uriPath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";?#[]%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}

/// The subset of SARIF 2.1.0 di-lint writes and `di-lint merge` reads back.
struct SARIFLog: Codable {
    var schema = SARIFReporter.schemaURI
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", version, runs
    }

    init(runs: [Run]) { self.runs = runs }

    struct Text: Codable { var text: String }
    struct Markdown: Codable { var text: String; var markdown: String }

    struct Rule: Codable {
        struct Configuration: Codable { var level: String }
        struct Properties: Codable { var tags: [String] }
        var id: String
        var name: String
        var shortDescription: Text
        var fullDescription: Text
        var help: Markdown
        var defaultConfiguration: Configuration
        var properties: Properties
    }

    struct Tool: Codable {
        struct Driver: Codable {
            var name: String
            var version: String
            var semanticVersion: String
            var rules: [Rule]
        }
        var driver: Driver
    }

    struct ArtifactLocation: Codable { var uri: String; var uriBaseId: String? }

    struct Result: Codable, Equatable {
        struct Message: Codable, Equatable { var text: String }
        struct Region: Codable, Equatable {
            var startLine: Int
            var startColumn: Int
            var snippet: Message?
        }
        struct PhysicalLocation: Codable, Equatable {
            var artifactLocation: Location
            var region: Region
        }
        struct Location: Codable, Equatable { var uri: String; var uriBaseId: String? }
        struct Wrapper: Codable, Equatable { var physicalLocation: PhysicalLocation }
        struct Suppression: Codable, Equatable { var kind: String; var status: String; var justification: String }
        struct Properties: Codable, Equatable {
            var container: String
            var accessor: String
            var service: String?
            var kind: String
            var viaMacro: String?
        }
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Message
        var locations: [Wrapper]
        var partialFingerprints: [String: String]?
        var baselineState: String?
        var suppressions: [Suppression]?
        var properties: Properties?
        /// Edits that fix the result (`di-lint fix --format sarif`), SARIF's `fix` objects.
        var fixes: [SARIFFix]?

        /// As the synthesized `encode(to:)` through `SARIFLog.rendered`, keys sorted; not for
        /// results with fixes.
        func write(to w: inout PrettyJSON) {
            w.element()
            w.beginObject()
            if let baselineState {
                w.key("baselineState")
                w.string(baselineState)
            }
            w.key("level")
            w.string(level)
            w.key("locations")
            w.beginArray()
            for l in locations {
                w.element()
                w.beginObject()
                w.key("physicalLocation")
                w.beginObject()
                w.key("artifactLocation")
                w.beginObject()
                w.key("uri")
                w.string(l.physicalLocation.artifactLocation.uri)
                if let base = l.physicalLocation.artifactLocation.uriBaseId {
                    w.key("uriBaseId")
                    w.string(base)
                }
                w.endObject()
                w.key("region")
                w.beginObject()
                if let snippet = l.physicalLocation.region.snippet {
                    w.key("snippet")
                    w.beginObject()
                    w.key("text")
                    w.string(snippet.text)
                    w.endObject()
                }
                w.key("startColumn")
                w.int(l.physicalLocation.region.startColumn)
                w.key("startLine")
                w.int(l.physicalLocation.region.startLine)
                w.endObject()
                w.endObject()
                w.endObject()
            }
            w.endArray()
            w.key("message")
            w.beginObject()
            w.key("text")
            w.string(message.text)
            w.endObject()
            if let partialFingerprints {
                w.key("partialFingerprints")
                w.beginObject()
                for (key, value) in partialFingerprints.sorted(by: { $0.key < $1.key }) {
                    w.key(key)
                    w.string(value)
                }
                w.endObject()
            }
            if let properties {
                w.key("properties")
                w.beginObject()
                w.key("accessor")
                w.string(properties.accessor)
                w.key("container")
                w.string(properties.container)
                w.key("kind")
                w.string(properties.kind)
                if let service = properties.service {
                    w.key("service")
                    w.string(service)
                }
                if let viaMacro = properties.viaMacro {
                    w.key("viaMacro")
                    w.string(viaMacro)
                }
                w.endObject()
            }
            w.key("ruleId")
            w.string(ruleId)
            if let ruleIndex {
                w.key("ruleIndex")
                w.int(ruleIndex)
            }
            if let suppressions {
                w.key("suppressions")
                w.beginArray()
                for s in suppressions {
                    w.element()
                    w.beginObject()
                    w.key("justification")
                    w.string(s.justification)
                    w.key("kind")
                    w.string(s.kind)
                    w.key("status")
                    w.string(s.status)
                    w.endObject()
                }
                w.endArray()
            }
            w.endObject()
        }

        init(
            ruleId: String, ruleIndex: Int?, level: String, message: Message, locations: [Wrapper],
            partialFingerprints: [String: String]?, baselineState: String?, suppressions: [Suppression]?,
            properties: Properties?
        ) {
            self.ruleId = ruleId
            self.ruleIndex = ruleIndex
            self.level = level
            self.message = message
            self.locations = locations
            self.partialFingerprints = partialFingerprints
            self.baselineState = baselineState
            self.suppressions = suppressions
            self.properties = properties
        }
    }

    struct Invocation: Codable { var executionSuccessful: Bool }

    struct RunProperties: Codable {
        /// di-lint's own run facts, which SARIF has no place for; `merge` adds them up.
        struct Summary: Codable {
            var files: Int, parsed: Int, notLinted: Int, cached: Int
            var stale: [BaselineEntry]
            /// As the JSON summary's: absent when `signal-handler-safety` did not run.
            var handlerFunctionsReadPartly: Int?
        }
        var diLint: Summary
    }

    struct Run: Codable {
        var tool: Tool
        var originalUriBaseIds: [String: ArtifactLocation]?
        var columnKind: String?
        var results: [Result]
        var invocations: [Invocation]?
        var properties: RunProperties?
    }

    /// The log through `JSONEncoder` (it has no floating-point number, the only thing it could throw on).
    func rendered() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// `rendered()`'s text, the results (but those with fixes) and the stale entries of a
    /// one-run log written by hand into what `JSONEncoder` writes for the rest (the same bytes).
    func text() -> String {
        guard runs.count == 1 else { return rendered() }
        var log = self
        let results = runs[0].results, stale = runs[0].properties?.diLint.stale ?? []
        let fast = !results.isEmpty && !results.contains(where: { $0.fixes != nil })
        if fast { log.runs[0].results = [] }
        if !stale.isEmpty { log.runs[0].properties?.diLint.stale = [] }
        var text = log.rendered()
        if fast {
            guard
                let spliced = PrettyJSON.splice(
                    text, key: "results", indent: 6, capacity: results.count * 1536,
                    write: { w in
                        for i in results.indices { results[i].write(to: &w) }
                    })
            else { return rendered() }
            text = spliced
        }
        if !stale.isEmpty {
            guard let spliced = BaselineEntry.splice(stale, into: text, indent: 10) else { return rendered() }
            text = spliced
        }
        return text
    }
}
