import Foundation
import XCTest
@testable import DILintEngine
import SeamTestSupport

/// di-lint on Seam's own crash runtime: in this phase every container access in the C layer is a
/// fallback; switching the phase to `fallback: error` must show exactly those, and nothing direct.
final class SelfLintTests: XCTestCase {
    func runtimeFiles() throws -> [String] {
        try FileCollector(excludes: [], baseDirectory: packageRoot.path)
            .collect([packageRoot.appendingPathComponent("Sources/CrashRuntime").path])
    }

    func testSeamsOwnConfigPassesTheGate() throws {
        let config = try Configuration.load(path: packageRoot.appendingPathComponent(".di-lint.yml").path)
        let result = Linter(configuration: config).lint(files: try runtimeFiles())
        XCTAssertEqual(result.findings.map { "\($0.path):\($0.line) \($0.message)" }, [])
    }

    func testFallbackErrorShowsExactlyTheExpectedFallbacks() throws {
        var config = try Configuration.load(path: packageRoot.appendingPathComponent(".di-lint.yml").path)
        config.fallback = .error
        let result = Linter(configuration: config).lint(files: try runtimeFiles())
        XCTAssertTrue(
            result.findings.allSatisfy { $0.rule == "container-fallback" && $0.severity == .error },
            "\(result.findings.filter { $0.rule != "container-fallback" })")
        XCTAssertTrue(result.findings.allSatisfy { $0.path.hasSuffix("CrashRuntime/crash_reporter.c") })
        // one fallback per service the C layer reads (plus the availability check), each with the
        // container's context pointer passed alongside
        let services = result.findings.map { $0.access?.service ?? "-" }
        // every service of the table's one list (SEAM_BRIDGE_SERVICES) has its fallback, seen by di-lint
        let listed = try BridgeServiceList.names()
        XCTAssertFalse(listed.isEmpty, "no service list read from \(BridgeServiceList.header.path)")
        XCTAssertEqual(Set(services), Set(listed + ["-", "context"]))
        XCTAssertEqual(
            services.filter { $0 == "context" }.count, services.filter { $0 != "context" && $0 != "-" }.count)
        // and each is guarded by the bridge: injected reads of the same services exist
        let injected = Set(result.accesses.filter { $0.access.kind == .injected }.compactMap(\.access.service))
        XCTAssertTrue(injected.isSuperset(of: Set(services).subtracting(["-", "context"])), "\(injected)")
    }
}
