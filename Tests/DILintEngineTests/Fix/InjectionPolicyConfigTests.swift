import XCTest
@testable import DILintEngine

/// `inject:` as the config reads it, and the style each service gets.
final class InjectionPolicyConfigTests: XCTestCase {
    func testServiceIsTheDefaultWithoutABridgeType() throws {
        let config = try Configuration.parse(yaml: "containers: [Container.shared]", baseDirectory: "/")
        XCTAssertEqual(config.injectionStyle(forService: "tabs"), .service)
    }

    func testBridgeIsTheDefaultWhenABridgeTypeIsNamed() throws {
        let config = try Configuration.parse(yaml: "bridge-type: CrashBridge", baseDirectory: "/")
        XCTAssertEqual(config.injectionStyle(forService: "tabs"), .bridge)
    }

    func testAScalarNamesEveryService() throws {
        let config = try Configuration.parse(yaml: "bridge-type: CrashBridge\ninject: service", baseDirectory: "/")
        XCTAssertEqual(config.injectionStyle(forService: "tabs"), .service)
    }

    func testAMappingNamesSingleServices() throws {
        let config = try Configuration.parse(
            yaml: """
                inject:
                  default: bridge
                  tabs: service
                """, baseDirectory: "/")
        XCTAssertEqual(config.injectionStyle(forService: "tabs"), .service)
        XCTAssertEqual(config.injectionStyle(forService: "clock"), .bridge)
    }

    func testRejectsWhatItCannotRead() {
        for yaml in ["inject: facade", "inject: [service]", "inject: {default: maybe}", "inject: {'a b': service}"] {
            XCTAssertThrowsError(try Configuration.parse(yaml: yaml, baseDirectory: "/"), yaml) { error in
                XCTAssertTrue("\(error)".contains("inject"), "\(error)")
            }
        }
    }
}
