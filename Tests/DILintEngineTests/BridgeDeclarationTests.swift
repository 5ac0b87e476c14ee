import Foundation
import XCTest
@testable import DILintEngine

/// A name of the `bridge` list counts as an injected access only where it is a bridge: declared
/// of the bridge type, a provider or a composition, built or bound from one, or not declared in
/// reach; a `String` or another value that happens to carry the name is not.
final class BridgeDeclarationTests: XCTestCase {
    func injectedServices(_ code: String) throws -> [String] {
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.shared]\nbridge-type: CrashBridge\n", baseDirectory: "/")
        return SwiftContainerAccessFinder(configuration: configuration).find(
            in: SwiftSourceFile(bytes: Array(code.utf8)).tree
        )
        .filter { $0.access.kind == .injected }.compactMap(\.access.service)
    }

    func testAStringNamedBridgeIsNoBridge() throws {
        XCTAssertEqual(
            try injectedServices(
                """
                func strip(bridge: String) -> String { bridge.hasPrefix("_") ? String(bridge.dropFirst()) : bridge }
                func local() { let bridge = "x"; _ = bridge.count }
                func built() { let bridge = String(repeating: "a", count: 2); _ = bridge.utf8 }
                func loop(names: [String]) { for bridge in names { _ = bridge.isEmpty } }
                func reference(finder: Finder) { if let bridge = finder.lookUp(), bridge.isValid { _ = bridge.name } }
                """), [])
    }

    func testBridgesDeclaredOrUnknownCount() throws {
        XCTAssertEqual(
            try injectedServices(
                """
                final class Wrapper {
                    private let bridge: CrashBridge
                    init(bridge: any DateProviding & ReporterProviding) { _ = bridge.dateProvider }
                    func a() { _ = bridge.crashReporter }
                    func b() { if let bridge = self.bridge as CrashBridge? { _ = bridge.systemInfo } }
                    func c() { guard let bridge = bridge as? CrashBridge else { return }; _ = bridge.annotations }
                    func d() { let bridge = CrashBridge(container: .shared); _ = bridge.notifications }
                    func e() { run { bridge in _ = bridge.clock } }
                }
                func free() { _ = bridge.sessionStore } // declared in code the file does not show
                """),
            ["dateProvider", "crashReporter", "systemInfo", "annotations", "notifications", "clock", "sessionStore"])
    }

    func testAnotherDeclarationOfTheTypeKeepsItsMemberABridge() throws {
        XCTAssertEqual(
            try injectedServices(
                """
                extension Wrapper { func a() { _ = self.bridge.dateProvider } }
                final class Wrapper { var bridge: CrashBridgeServices }
                """), ["dateProvider"])
    }
}

/// The same on the Objective-C and C side, where the accesses are read from the tokens.
final class ObjCBridgeDeclarationTests: XCTestCase {
    func injectedServices(_ code: String, ext: String = "m") throws -> [String] {
        let directory = try temporaryDirectory(self)
        let file = directory.appendingPathComponent("a.\(ext)")
        try code.write(to: file, atomically: true, encoding: .utf8)
        let result = try lint(
            [file.path], configYAML: "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n")
        return result.accesses.filter { $0.access.kind == .injected }.compactMap(\.access.service)
    }

    func testAStringNamedBridgeIsNoBridge() throws {
        XCTAssertEqual(
            try injectedServices(
                """
                @interface Names : NSObject
                @end
                @implementation Names
                - (BOOL)strip:(NSString *)bridge { return [bridge hasPrefix:@"_"] && bridge.length > 1; }
                - (void)local { NSString *bridge = @"x"; (void)bridge.length; }
                @end
                static int count(const char *bridge) { return bridge[0]; }
                """), [])
    }

    func testBridgesDeclaredOrUnknownCount() throws {
        XCTAssertEqual(
            try injectedServices(
                """
                @interface Wrapper : NSObject
                @property (nonatomic, strong) CrashBridge *bridge;
                @end
                @implementation Wrapper
                - (id)a { return self.bridge.dateProvider; }
                - (id)b:(id<DateProviding>)bridge { return bridge.clock; }
                - (id)c { id bridge = self.bridge; return [bridge crashReporter]; }
                @end
                static void other(struct crash_bridge *bridge) { bridge->notifications(); }
                static id unknown(void) { return g.bridge.sessionStore; } // declared in code the file does not show
                """), ["dateProvider", "clock", "crashReporter", "notifications", "sessionStore"])
    }

    func testAPropertyOfAnotherTypeIsNoBridge() throws {
        XCTAssertEqual(
            try injectedServices(
                """
                @interface Road : NSObject
                @property (nonatomic, copy) NSString *bridge;
                @end
                @implementation Road
                - (NSUInteger)span { return self.bridge.length; }
                @end
                """), [])
    }
}
