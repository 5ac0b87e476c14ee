import Foundation
import XCTest
@testable import DILintEngine

/// Runs every triggering and non-triggering example of every rule in `Rules/` (SwiftLint style):
/// a triggering example must be reported exactly where its `↓` markers are, and nowhere else.
final class RuleExampleTests: XCTestCase {
    func testEveryRuleHasExamples() {
        for rule in RuleCatalog.shared.rules {
            XCTAssertFalse(rule.triggering.isEmpty, "\(rule.id) has no triggering example")
            XCTAssertFalse(rule.nonTriggering.isEmpty, "\(rule.id) has no non-triggering example")
        }
    }

    func testEveryExample() throws {
        let dir = try temporaryDirectory(self)
        var checked = 0
        for rule in RuleCatalog.shared.rules {
            for (n, example) in (rule.triggering.map { ($0, true) } + rule.nonTriggering.map { ($0, false) })
                .enumerated()
            {
                let (sample, triggers) = example
                let (code, markers) = Self.stripMarkers(sample.code)
                let ext = ["c": "c", "objective-c": "m", "c++": "cpp", "objective-c++": "mm", "swift": "swift"][
                    sample.language.rawValue]!
                let file = dir.appendingPathComponent(sample.fileName ?? "\(rule.id)-\(n).\(ext)").path
                try code.write(toFile: file, atomically: true, encoding: .utf8)
                let yaml = rule.exampleConfig + "\n" + (sample.config ?? "")
                let found = try lint([file], configYAML: yaml).findings.filter { $0.rule == rule.id }
                let positions = found.map { "\($0.line):\($0.column)" }
                let label = "\(rule.id) \(triggers ? "triggering" : "non-triggering") example:\n\(sample.code)"
                if triggers {
                    XCTAssertFalse(markers.isEmpty, "\(label)\nhas no ↓ marker")
                    XCTAssertEqual(positions.sorted(), markers.sorted(), label)
                } else {
                    XCTAssertEqual(positions, [], label)
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 10)
    }

    /// Removes `↓` markers, returning the code and the 1-based `line:column` (bytes) of each.
    static func stripMarkers(_ code: String) -> (String, [String]) {
        var out: [UInt8] = []
        var markers: [String] = []
        var line = 1, column = 1
        let arrow = Array("↓".utf8)
        let bytes = Array(code.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i...].starts(with: arrow) {
                markers.append("\(line):\(column)")
                i += arrow.count
                continue
            }
            out.append(bytes[i])
            if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), markers)
    }
}
