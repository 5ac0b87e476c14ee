import Foundation
import RuleFiles

// rule-catalog: generates, from Rules/*.yml (read as di-lint reads them: `RuleFile`, over Yams) and
// the rule types in Sources/DILintEngine/Rules/:
//
// - Sources/DILintEngine/Rules/EmbeddedRules+Generated.swift: each rule file's text, embedded in
//   the binary, and a small index (id, default severity, options and their defaults) so that a
//   run does not parse the rule files' YAML at start-up;
// - Sources/DILintEngine/Rules/RuleRegistry+Generated.swift: every rule type, by kind.
//
// Fails when a YAML file does not read, has no type, a type has no YAML, an id is claimed twice,
// or a rule type with a fix (`static let fixPhase`) has no `fix-examples:` in its rule file (or
// the reverse). With --check, writes nothing and fails when a generated file is out of date.
// Run through scripts/generate-rule-catalog [--check] (`scripts/new-rule ID` runs it for you).
//
//     rule-catalog --root PACKAGE_DIRECTORY [--check]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let rootIndex = arguments.firstIndex(of: "--root"), rootIndex + 1 < arguments.count,
    arguments.allSatisfy({ ["--root", "--check", arguments[rootIndex + 1]].contains($0) })
else {
    FileHandle.standardError.write(Data("usage: rule-catalog --root PACKAGE_DIRECTORY [--check]\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: arguments[rootIndex + 1]).standardizedFileURL
let check = arguments.contains("--check")
let typesPath = "Sources/DILintEngine/Rules"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func read(_ relative: String) -> String? {
    try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
}

func files(in relative: String, suffix: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(relative).path)) ?? []
    return names.filter { $0.hasSuffix(suffix) }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
}

/// The capture groups of each match of `pattern` (`^`/`$` at each line) in `text`.
func matches(_ pattern: String, in text: String) -> [[String]] {
    let expression = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    let ns = text as NSString
    return expression.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
        (1..<match.numberOfRanges).map { ns.substring(with: match.range(at: $0)) }
    }
}

/// A block's text on one line: its lines trimmed, blank ones dropped, joined by spaces.
func oneLine(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }.joined(separator: " ")
}

struct Rule {
    var file: String
    var text: String
    var severity: String
    var options: [RuleFile.Option]
    var summary: String
    var pitfall: String
    var tableDefault: String
    var hasFixExamples: Bool
}

var problems: [String] = []
var rules: [String: Rule] = [:]
for name in files(in: "Rules", suffix: ".yml") {
    guard let text = read("Rules/\(name)") else { problems.append("Rules/\(name): cannot be read as UTF-8"); continue }
    do {
        let file = try RuleFile(yaml: text)
        let id = try file.id
        let severity = try file.severity
        guard ["note", "warning", "error"].contains(severity) else {
            problems.append("Rules/\(name): severity must be note, warning or error")
            continue
        }
        if name != id + ".yml" {
            problems.append("Rules/\(name): its id is '\(id)'; the file must be named '\(id).yml'")
        }
        rules[id] = Rule(
            file: name, text: text, severity: severity, options: try file.options,
            summary: oneLine(try file.string("summary", required: false)),
            pitfall: try file.string("pitfall", required: false),
            tableDefault: oneLine(try file.string("table-default", required: false)),
            hasFixExamples: file.hasFixExamples)
    } catch {
        problems.append("Rules/\(name): \(error)")
    }
}

var types: [String: (name: String, kind: String, file: String)] = [:]
for name in files(in: typesPath, suffix: ".swift") {
    guard let source = read("\(typesPath)/\(name)") else { continue }
    let declared = matches(#"^struct (\w+): (FileRule|ProjectRule|EngineRule)\b"#, in: source)
    let ids = matches(#"^    static let id = "([a-z0-9-]+)""#, in: source).map { $0[0] }
    if declared.isEmpty && ids.isEmpty { continue }
    guard declared.count == 1, ids.count == 1 else {
        problems.append(
            "\(typesPath)/\(name): a rule file holds exactly one rule type with one 'static let id' "
                + "(found \(declared.count) types, \(ids.count) ids)")
        continue
    }
    let id = ids[0]
    if let other = types[id] {
        problems.append("\(typesPath)/\(name): rule '\(id)' is already implemented by \(other.name)")
    }
    types[id] = (declared[0][0], declared[0][1], name)
    let hasFix = !matches(#"^    static let fixPhase: FixPhase\? = \.\w+"#, in: source).isEmpty
    if let rule = rules[id], hasFix != rule.hasFixExamples {
        problems.append(
            "\(typesPath)/\(name) and Rules/\(rule.file): a rule type with a fix (static let fixPhase) "
                + "documents it with 'fix-examples:' in its rule file, and only such a rule does")
    }
}
for id in Set(rules.keys).subtracting(types.keys).sorted() {
    problems.append("Rules/\(rules[id]!.file): no rule type declares 'static let id = \"\(id)\"' in \(typesPath)/")
}
for id in Set(types.keys).subtracting(rules.keys).sorted() {
    problems.append("\(typesPath)/\(types[id]!.file): rule '\(id)' has no Rules/\(id).yml")
}
if !problems.isEmpty { fail("generate-rule-catalog:\n  " + problems.joined(separator: "\n  ")) }

func swiftString(_ s: String) -> String {
    "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

let byFile = rules.keys.sorted { rules[$0]!.file < rules[$1]!.file }
var lines = [
    "// Generated by scripts/generate-rule-catalog from Rules/*.yml. Do not edit.",
    "enum EmbeddedRules {",
    "    static let files: [(name: String, text: String)] = [",
]
for id in byFile {
    let text = rules[id]!.text
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) { hashes += "#" }
    lines.append("        (\"\(rules[id]!.file)\", \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),")
}
lines += [
    "    ]", "",
    "    /// Id, default severity, option names and option defaults of each rule, as the files say.",
    "    static let index: [RuleIndexEntry] = [",
]
for id in byFile {
    let rule = rules[id]!
    let names = rule.options.map { swiftString($0.name) }.joined(separator: ", ")
    let defaults = rule.options.filter { !$0.defaultValue.isEmpty }
        .map { "\(swiftString($0.name)): RuleOptionValue(defaultText: \(swiftString($0.defaultValue)))" }.joined(
            separator: ", ")
    lines.append(
        "        RuleIndexEntry(id: \"\(id)\", defaultSeverity: .\(rule.severity), options: [\(names)], "
            + "defaults: [\(defaults.isEmpty ? ":" : defaults)]),")
}
lines += ["    ]", "}", ""]
let embedded = lines.joined(separator: "\n")

lines = [
    "// Generated by scripts/generate-rule-catalog from the rule types in this directory. Do not edit.",
    "/// Every rule this build implements, one type per id (each with its `Rules/<id>.yml`).",
    "enum RuleRegistry {",
]
for (kind, name) in [("FileRule", "fileRules"), ("ProjectRule", "projectRules"), ("EngineRule", "engineRules")] {
    let members = types.keys.sorted().filter { types[$0]!.kind == kind }.map { types[$0]!.name }
    let singular = String(name.dropLast())
    // types, then instances: a static holding `BridgeSingletonRule()` would read as a bridge singleton
    lines.append("    static let \(name): [any \(kind)] = \(singular)Types.map { $0.init() }")
    lines.append("    static let \(singular)Types: [any \(kind).Type] = [")
    lines += members.map { "        \($0).self," }
    lines.append("    ]")
}
lines += ["}", ""]
let registry = lines.joined(separator: "\n")

// docs/rules.md is not written here: `di-lint rules --format markdown` renders it from the
// embedded files (scripts/check-docs compares), so the binary is the one reader of the rules' text
for id in rules.keys.sorted() where matches(#"docs/migration-pitfalls\.md#(p\d+)"#, in: rules[id]!.pitfall).isEmpty {
    fail("generate-rule-catalog: Rules/\(rules[id]!.file): 'pitfall' must point into docs/migration-pitfalls.md#pN")
}

let outputs = [
    ("\(typesPath)/EmbeddedRules+Generated.swift", embedded), ("\(typesPath)/RuleRegistry+Generated.swift", registry),
]
if check {
    let stale = outputs.filter { read($0.0) != $0.1 }.map(\.0)
    if !stale.isEmpty {
        fail(
            "generate-rule-catalog --check: out of date: " + stale.joined(separator: ", ")
                + " (run scripts/generate-rule-catalog)")
    }
    print("generate-rule-catalog: up to date")
} else {
    for (path, content) in outputs {
        do {
            try Data(content.utf8).write(to: root.appendingPathComponent(path))
        } catch {
            fail("generate-rule-catalog: cannot write \(path): \(error)")
        }
    }
    print("wrote " + outputs.map(\.0).joined(separator: ", "))
}
