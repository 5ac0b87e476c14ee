import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// A headerless parse defines Foundation's annotation macros as the SDK does
/// (`SourceLanguage.foundationAnnotations`): `NS_ASSUME_NONNULL_BEGIN` and
/// `NS_SWIFT_NAME(X)` before an `@interface` no longer hide it from the parse, so a property
/// inject adds there is checked against a parse that sees the interface.
final class FixFoundationAnnotationsTests: XCTestCase {
    private static let header = "Parsers/RetryParser.h"

    /// The header's own parse sees its `@interface` (the methods are in an Objective-C context),
    /// as the compiler with the SDK would; without the definitions it did not.
    func testAnnotatedInterfaceIsParsed() throws {
        let source = FixObjCServiceStyleTests.fixtures.appendingPathComponent("objcannotated/\(Self.header).in")
        let bytes = Array(try Data(contentsOf: source))
        let path = try temporaryDirectory(self).appendingPathComponent("RetryParser.h").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        func errors(_ arguments: [String]) throws -> [String] {
            let parsed = try ClangParser().parse(
                path: path, buffer: SourceBuffer(bytes: bytes), language: .objectiveC, arguments: arguments)
            return parsed.errorDiagnostics().map(\.message)
        }
        let lost = ["missing context for method declaration", "'@end' must appear in an Objective-C context"]
        let plain = SourceLanguage.objectiveC.clangArguments(isHeader: true).filter {
            !SourceLanguage.foundationAnnotations.contains($0)
        }
        XCTAssertTrue(
            try errors(plain).contains { lost.contains($0) }, "the fixture no longer shows the lost interface")
        let annotated = try errors(SourceLanguage.objectiveC.clangArguments(isHeader: true))
        XCTAssertFalse(annotated.contains { lost.contains($0) }, "\(annotated)")
        XCTAssertEqual(annotated.filter { $0.contains("NS_") }, [], "an annotation macro is still unknown")
    }

    /// sentry-cocoa 9ce54cc68e's shape: the property goes into the annotated header's interface
    /// and the verification accepts it (the starting binary refused the group: the edited
    /// header's parse ran `@end` and `NS_ASSUME_NONNULL_END` out of a context it never had).
    /// Checked byte for byte, by re-lint, by an empty second run and by `git apply --check`.
    func testPropertyInAnnotatedHeaderIsAccepted() throws {
        let plan = try FixObjCServiceStyleTests.runCase("objcannotated", expectedManual: [], getters: 1, self)
        XCTAssertEqual(plan.accepted.map(\.title), ["Objective-C class RetryParser service dateProvider"])
        XCTAssertTrue(
            plan.accepted[0].edits.contains {
                $0.path.hasSuffix(Self.header) && $0.replacement.contains("@property (nonatomic, strong) DateProvider")
            })
    }
}
