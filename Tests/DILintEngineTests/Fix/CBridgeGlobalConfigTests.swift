import XCTest
@testable import DILintEngine

/// `c-bridge-global:` as the config reads it.
final class CBridgeGlobalConfigTests: XCTestCase {
    func testReadsTheMappingAndCountsTheVariableAsABridgeName() throws {
        let config = try Configuration.parse(
            yaml: """
                bridge: [bridge]
                c-bridge-global:
                  name: g_bridge
                  c-type: "const struct crash_bridge *"
                  setter: "{file}_set_bridge"
                """, baseDirectory: "/")
        let global = try XCTUnwrap(config.cBridgeGlobal)
        XCTAssertEqual(global.name, "g_bridge")
        XCTAssertEqual(global.type, "const struct crash_bridge *")
        XCTAssertEqual(config.bridgeNames, ["bridge", "g_bridge"]) // the fix still writes `bridge` for properties
        XCTAssertEqual(
            global.setterName(for: "/x/SentryCrashMonitor_NSException.m"), "SentryCrashMonitor_NSException_set_bridge")
        XCTAssertEqual(global.setterName(for: "/x/crash-monitor.c"), "crash_monitor_set_bridge")
        XCTAssertEqual(global.type(forExtension: "m", bridgeType: "CrashBridge"), "CrashBridge *")
        XCTAssertEqual(global.type(forExtension: "c", bridgeType: "CrashBridge"), "const struct crash_bridge *")
        XCTAssertNil(global.type(forExtension: "h", bridgeType: "CrashBridge"))
        XCTAssertNil(global.type(forExtension: "mm", bridgeType: "CrashBridge"))
    }

    func testAStringIsTheNameAndCFilesAreLeftWithoutAType() throws {
        let config = try Configuration.parse(yaml: "c-bridge-global: g_bridge", baseDirectory: "/")
        XCTAssertEqual(config.cBridgeGlobal?.setterName(for: "/a/monitor.m"), "monitor_setBridge")
        XCTAssertNil(config.cBridgeGlobal?.type(forExtension: "c", bridgeType: "B"))
    }

    func testRejectsWhatCannotBeWritten() {
        for yaml in [
            "c-bridge-global: 'g bridge'", "c-bridge-global: {name: g, colour: red}",
            "c-bridge-global: {name: g, c-type: 'int; int'}", "c-bridge-global: {name: g, setter: 'set-it'}",
            "c-bridge-global: [g]",
        ] {
            XCTAssertThrowsError(try Configuration.parse(yaml: yaml, baseDirectory: "/"), yaml)
        }
    }

    func testSwiftCallersInRun() throws {
        XCTAssertFalse(try Configuration.parse(yaml: "bridge: [bridge]", baseDirectory: "/").swiftCallersInRun)
        XCTAssertTrue(try Configuration.parse(yaml: "swift-callers-in-run: true", baseDirectory: "/").swiftCallersInRun)
        XCTAssertThrowsError(try Configuration.parse(yaml: "swift-callers-in-run: yes please", baseDirectory: "/"))
    }
}
