import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// `di-lint fix` in the `service` injection style for Swift (no `bridge-type:` configured): each
/// fixture tree runs inject then finish and is checked byte for byte, by re-lint, by an empty
/// second run, by `git apply --check` and by `swiftc -typecheck` (see `FixFixtureTests`).
final class SwiftServiceFixTests: XCTestCase {
    /// The service itself injected: a stored `let`, an initializer parameter defaulting to the
    /// container read (before a trailing closure's parameter), reads rewritten (`self.` where a
    /// parameter shadows the name), the type from the container's declaration or a typed
    /// `resolve()`; `register(service:)` left alone; a `required init?(coder:)` that only traps
    /// left as it is, one that does not setting the service from the container (listed); an
    /// `NSObject` subclass whose selector an Objective-C file sends refused. finish: the
    /// argument inserted in the parameter's place (`AdViewModel(tabs: tabs, data: "x")`), from
    /// a parameter or stored property of the type in reach, else the container read.
    func testServiceStyle() throws { try FixFixtureTests.runCase("swiftservice", self) }

    /// finish of one service (`--service TabStore`) in an initializer whose other parameter
    /// (`profile`) keeps its container default: the other service does not block it.
    func testFinishOneServiceWithAnotherLeft() throws {
        try FixFixtureTests.runCase("swiftserviceone", services: ["TabStore"], self)
    }
}
