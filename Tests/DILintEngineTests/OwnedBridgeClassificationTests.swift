import Foundation
import XCTest
@testable import DILintEngine

/// The read in a type's own bridge, built once in a stored property's initial value, is the
/// composition root's (what `fix --phase wire` writes for a root): with a property accessor
/// (`Container.shared`) and with a call accessor (`Container.sharedInstance()`, as sentry-cocoa's
/// `SentryDependencyContainer.sharedInstance()`), which was classified `direct` before.
final class OwnedBridgeClassificationTests: XCTestCase {
    func kinds(_ code: String) throws -> [AccessKind] {
        let configuration = try Configuration.parse(
            yaml: "containers: [Container.shared, Container.sharedInstance]\nbridge-type: CrashBridge\n",
            baseDirectory: "/")
        return SwiftContainerAccessFinder(configuration: configuration).find(
            in: SwiftSourceFile(bytes: Array(code.utf8)).tree
        ).map(\.access.kind).filter { $0 != .injected }
    }

    func testTheOwnedBridgeReadIsTheRootsWithEitherAccessorForm() throws {
        XCTAssertEqual(
            try kinds(
                """
                final class A { private let bridge: CrashBridge = CrashBridge(services: Container.shared) }
                final class B { private let bridge: CrashBridge = CrashBridge(services: Container.sharedInstance()) }
                """), [.compositionRoot, .compositionRoot])
    }

    func testOtherCallsStayDirect() throws {
        XCTAssertEqual(
            try kinds(
                """
                final class C { private let bridge: CrashBridge = CrashBridge(services: make(Container.sharedInstance())) }
                final class D { private let other: CrashBridge = CrashBridge(services: Container.sharedInstance()) }
                final class E { static let bridge: CrashBridge = CrashBridge(services: Container.sharedInstance()) }
                final class F { func f() { _ = CrashBridge(services: Container.sharedInstance()) } }
                """), [.direct, .direct, .direct, .direct])
    }
}
