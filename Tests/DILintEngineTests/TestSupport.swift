import Foundation
import XCTest
@testable import DILintEngine

/// The package's root directory, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A fresh temporary directory, removed at the end of the test.
func temporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("di-lint-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Lints files with a config given as YAML text.
func lint(_ files: [String], configYAML: String, base: String = "/") throws -> LintResult {
    let configuration = try Configuration.parse(yaml: configYAML, baseDirectory: base)
    let linter = Linter(configuration: configuration)
    linter.parseEveryFile = true
    return linter.lint(files: files)
}

/// One expected finding written inline in a fixture: `expect: RULE[@COL] [EXPRESSION]`.
struct Expectation: Hashable, CustomStringConvertible {
    var line: Int
    var rule: String
    var column: Int?
    var expression: String?

    var description: String { "\(line):\(column.map(String.init) ?? "*") \(rule) \(expression ?? "")" }

    static func parse(fileText: String) -> [Expectation] {
        var result: [Expectation] = []
        for (index, line) in fileText.components(separatedBy: "\n").enumerated() {
            guard let marker = line.range(of: "expect:") else { continue }
            var body = String(line[marker.upperBound...])
            if let end = body.range(of: "*/") { body = String(body[..<end.lowerBound]) }
            for item in body.split(separator: ";") {
                let words = item.split(separator: " ").map(String.init)
                guard let head = words.first else { continue }
                let parts = head.split(separator: "@").map(String.init)
                result.append(
                    Expectation(
                        line: index + 1, rule: parts[0], column: parts.count > 1 ? Int(parts[1]) : nil,
                        expression: words.count > 1 ? words[1] : nil))
            }
        }
        return result
    }

    func matches(_ f: Finding) -> Bool {
        f.line == line && f.rule == rule && (column == nil || f.column == column)
            && (expression == nil || f.access?.expression == expression)
    }
}
