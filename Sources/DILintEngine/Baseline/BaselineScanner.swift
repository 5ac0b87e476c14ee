import Foundation

/// Reads a baseline file as it streams in (`JSONScanner`), straight from its bytes into entries:
/// reading costs the entries it builds, not the file's bytes or a JSON tree as well.
/// (`JSONDecoder` built a value tree, a coding path and a keyed container per entry: most of a
/// million-entry baseline's load, and gigabytes for a large one.)
///
/// The shape is an object of `version`, `tool`, `toolVersion` and `entries`, each entry an object
/// of known string and integer fields; unknown keys are skipped, as `JSONDecoder` skips them, and
/// the tests compare the two readers. A key given twice, a field missing or of another type are
/// refused, named. Field values that repeat across entries (rule, path, scope) share one string's
/// storage.
enum BaselineScanner {
    typealias Problem = JSONScanner.Problem

    static let subject = "a valid baseline"
    static let remedy = "restore it from version control or write a new one with --write-baseline"

    /// The version and entries of the baseline file at `path` of at most `limit` bytes. Throws
    /// `InputFile.Refused` for a file that cannot be read, `Problem` for one that is not a baseline.
    static func read(path: String, limit: Int) throws -> (version: Int, entries: [BaselineEntry]) {
        try JSONScanner.scan(path: path, limit: limit, subject: subject, remedy: remedy) { try file(&$0, sizeHint: $1) }
    }

    /// The version and entries of a baseline's bytes.
    static func read(_ data: [UInt8]) throws -> (version: Int, entries: [BaselineEntry]) {
        try JSONScanner.scan(data, subject: subject, remedy: remedy) { try file(&$0, sizeHint: $1) }
    }

    private static func file(_ scanner: inout JSONScanner, sizeHint: Int) throws -> (
        version: Int, entries: [BaselineEntry]
    ) {
        guard scanner.peek() == UInt8(ascii: "{") else {
            throw scanner.problem("not a di-lint baseline: expected a JSON object with 'version' and 'entries'")
        }
        var version: Int?, entries: [BaselineEntry]?, tool: String?, toolVersion: String?
        try scanner.members { scanner, key in
            func once(_ first: Bool) throws {
                guard first else { throw scanner.problem("not \(subject): '\(key)' is given twice") }
            }
            switch key {
            case "version": try once(version == nil); version = try scanner.integer()
            case "tool": try once(tool == nil); tool = try scanner.optionalString() ?? ""
            case "toolVersion": try once(toolVersion == nil); toolVersion = try scanner.optionalString() ?? ""
            case "entries": try once(entries == nil); entries = try entryList(&scanner, sizeHint: sizeHint)
            default: try scanner.skipValue()
            }
        }
        try scanner.finish()
        guard let entries else { throw scanner.problem("not \(subject): missing 'entries'") }
        guard let version else { throw scanner.problem("not \(subject): missing 'version'") }
        return (version, entries)
    }

    private static func entryList(_ scanner: inout JSONScanner, sizeHint: Int) throws -> [BaselineEntry] {
        var entries: [BaselineEntry] = []
        // About 250 bytes of file per entry in di-lint's layout: one allocation, a little over.
        entries.reserveCapacity(sizeHint / 200 + 1)
        try scanner.elements { scanner, _ in entries.append(try entry(&scanner)) }
        return entries
    }

    private static func entry(_ scanner: inout JSONScanner) throws -> BaselineEntry {
        var fingerprint: String?, rule: String?, path: String?, line: Int?
        var snippet: String?, expression: String?, scope: String?, scheme: Int?
        var seen: UInt8 = 0
        try scanner.members { scanner, key in
            func once(_ bit: UInt8) throws {
                guard seen & bit == 0 else {
                    throw scanner.problem("not \(subject): \(scanner.placeText) is given twice")
                }
                seen |= bit
            }
            switch key {
            case "fingerprint": try once(1); fingerprint = try scanner.string(field: nil)
            case "rule": try once(2); rule = try scanner.string(field: 0)
            case "path": try once(4); path = try scanner.string(field: 1)
            case "line": try once(8); line = try scanner.integer()
            case "snippet": try once(16); snippet = try scanner.optionalString()
            case "expression": try once(32); expression = try scanner.optionalString()
            case "scope": try once(64); scope = try scanner.optionalString(field: 2)
            case "scheme": try once(128); scheme = try scanner.null() ? nil : try scanner.integer()
            default: try scanner.skipValue()
            }
        }
        func missing(_ name: String) -> Problem {
            scanner.problem("not \(subject): missing '\(name)' in \(scanner.placeText)")
        }
        guard let fingerprint else { throw missing("fingerprint") }
        guard let rule else { throw missing("rule") }
        guard let path else { throw missing("path") }
        guard let line else { throw missing("line") }
        return BaselineEntry(
            fingerprint: fingerprint, rule: rule, path: path, line: line,
            snippet: snippet, expression: expression, scope: scope, scheme: scheme)
    }
}
