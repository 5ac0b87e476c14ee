import Foundation
import XCTest
@testable import DILintEngine

/// An entry written while the parse had lost a finding's method (no scope) still accepts the
/// finding once the front end finds the method in the tokens (a scope, so another fingerprint).
final class ScopeGainedBaselineTests: XCTestCase {
    private func findings(scope: String?, services: [String] = ["clock", "clock", "store"]) -> [Finding] {
        var all = services.enumerated().map { i, service in
            var f = Finding(
                rule: "container-access", path: "/p/A.m", line: 10 + i, column: 5, severity: .error, message: "m",
                access: ContainerAccess(container: "Container", accessor: "sharedInstance", service: service),
                snippet: "x")
            f.scope = scope
            return f
        }
        Fingerprints.assign(to: &all, root: "/p")
        return all
    }

    private func gate(_ now: [Finding], against before: [Finding]) -> (new: Int, stale: Int) {
        let baseline = Baseline(findings: before, root: "/p")
        var result = LintResult(findings: now, filesChecked: 1, filesParsed: 1, filesFailed: 0, seconds: 0)
        baseline.apply(to: &result, lintedFiles: ["/p/A.m"], root: "/p")
        return (result.findings.filter { !$0.baselined }.count, result.staleBaselineEntries.count)
    }

    func testAFindingThatGainedItsMethodIsStillAccepted() {
        let before = findings(scope: nil), after = findings(scope: "A.install")
        XCTAssertNotEqual(before.map(\.fingerprint), after.map(\.fingerprint))
        XCTAssertEqual(gate(after, against: before).new, 0)
        XCTAssertEqual(gate(after, against: before).stale, 0)
    }

    func testEachEntryAcceptsOneFindingAndOtherAccessesStayNew() {
        let before = findings(scope: nil, services: ["clock"])
        let after = findings(scope: "A.install", services: ["clock", "clock", "store"])
        XCTAssertEqual(gate(after, against: before).new, 2)
        XCTAssertEqual(gate(after, against: before).stale, 0)
    }

    func testAnEntryWithAScopeIsNotMatchedAnotherWay() {
        let before = findings(scope: "A.other"), after = findings(scope: "A.install")
        XCTAssertEqual(gate(after, against: before).new, 3)
        XCTAssertEqual(gate(after, against: before).stale, 3)
    }
}
