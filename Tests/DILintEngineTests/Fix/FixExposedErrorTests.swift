import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// Errors an edit exposes, not makes (`ExposedError`): a headerless parse drops a statement whose
/// receiver does not resolve (`[Container.sharedInstance.modelService requestAgencies:^(…) {…}]`
/// with the container's header out of reach); once the edit makes the receiver resolve
/// (`self.modelService`), the block literal's body is checked, and a class-extension property of a
/// type the parse cannot see (`NSArray<Agency *> *agencies`) fails there. The shape of
/// OneBusAway 74226cd247's OBAAgenciesListViewController.
final class FixExposedErrorTests: XCTestCase {
    private static let source = "UI/AgenciesController.m"
    private static let agencies = "property 'agencies' not found on object of type 'AgenciesController *'"

    /// The group is accepted (the starting binary refused it: `new error: property 'agencies'
    /// not found … at line 20 (edit at line 15: replaced with self.modelService)`), and the
    /// exposed error is listed in the file's diagnostics. Checked byte for byte, by re-lint, by
    /// an empty second run and by `git apply --check`.
    func testErrorInDroppedStatementsBlockBodyIsExposed() throws {
        let plan = try FixObjCServiceStyleTests.runCase("objcexposed", expectedManual: [], getters: 1, self)
        XCTAssertEqual(plan.accepted.map(\.title), ["Objective-C class AgenciesController service modelService"])
        let counts = try XCTUnwrap(plan.diagnostics.first { $0.key.hasSuffix(Self.source) }?.value)
        XCTAssertEqual(counts.new, [])
        XCTAssertEqual(
            counts.exposed, ["\(Self.agencies) at line 20 (edit at line 15: replaced with self.modelService)"])
    }

    /// The headerless parse drops each statement holding an error (the text stays in the
    /// tokens): the send whose receiver does not resolve, block literal and all, and `return
    /// self.agencies == nil;`. The statements without an error are not listed.
    func testDroppedStatementIsTheUnresolvedSend() throws {
        let source = FixObjCServiceStyleTests.fixtures.appendingPathComponent("objcexposed/\(Self.source).in")
        let bytes = Array(try Data(contentsOf: source))
        let path = try temporaryDirectory(self).appendingPathComponent("AgenciesController.m").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let buffer = SourceBuffer(bytes: bytes)
        let parsed = try ClangParser().parse(
            path: path, buffer: buffer, language: .objectiveC,
            arguments: SourceLanguage.objectiveC.clangArguments(isHeader: false))
        let errors = parsed.errorDiagnostics()
        XCTAssertTrue(errors.contains { $0.message.hasPrefix(Self.agencies) }, "\(errors.map(\.message))")
        let dropped = parsed.droppedStatements(holding: errors.compactMap(\.offset)).map { buffer.text($0) }
        XCTAssertEqual(dropped.count, 2, "\(dropped)")
        XCTAssertEqual(dropped.first, "return self.agencies == nil;")
        XCTAssertTrue(
            dropped.last?.hasPrefix("return [Container.sharedInstance.modelService requestAgencies:^(id data") == true
                && dropped.last?.hasSuffix("}\n    }];") == true, "\(dropped)")
    }

    /// The same plan twice: the same verdict and the same listing.
    func testVerdictIsTheSameEveryRun() throws {
        let (root, configuration) = try FixObjCServiceStyleTests.tree("objcexposed", self)
        let files = try FixFixtureTests.files(root)
        let first = Fixer(configuration: configuration).plan(files: files, phase: .inject)
        let second = Fixer(configuration: configuration).plan(files: files, phase: .inject)
        XCTAssertEqual(first.groups.map(\.refused), [nil])
        XCTAssertEqual(second.groups.map(\.refused), first.groups.map(\.refused))
        XCTAssertEqual(second.diagnostics, first.diagnostics)
    }

    /// An error on the send itself stays new: a selector the injected property's type does not
    /// declare, at the selector in text the edit left (a wrong service type would show there).
    /// The starting binary refused this group too, naming the error in the block's body, which
    /// libclang reports first.
    func testSelectorTheServiceTypeLacksStillRefuses() throws {
        try assertRefused(
            replacing: [
                "@interface AgenciesController ()":
                    "@interface ModelService : NSObject\n- (id)requestRoutes:(void (^)(id data))block;\n@end\n\n@interface AgenciesController ()"
            ],
            "no visible @interface for 'ModelService' declares the selector 'requestAgencies:' at line 19 (edit at line 19: replaced with self.modelService)"
        )
    }

    /// An error in the dropped statement outside the block's body (an argument before it) stays
    /// new, with the starting binary's message.
    func testErrorOutsideTheBlockBodyStillRefuses() throws {
        try assertRefused(
            replacing: ["requestAgencies:^(id data": "requestAgencies:self.agencies.count completion:^(id data"],
            "\(Self.agencies) at line 15 (edit at line 15: replaced with self.modelService)")
    }

    /// An error in the block's body stays new when an edit lies in that body (here a second
    /// container read the same group rewrites), with the starting binary's message.
    func testBlockBodyHoldingAnEditStillRefuses() throws {
        try assertRefused(
            replacing: [
                "            self.agencies = [NSArray":
                    "            [Container.sharedInstance.modelService cancel];\n            self.agencies = [NSArray"
            ],
            "\(Self.agencies) at line 21 (edit at line 20: replaced with self.modelService)")
    }

    /// An edit whose read initializes a variable of inferred type (`__auto_type`) that the
    /// block's body reads: the read's type reaches the body through the variable, so the error
    /// in the body stays new, with the starting binary's message (without this rule the group was
    /// accepted).
    func testReadIntoAnInferredTypeStillRefuses() throws {
        try assertRefused(
            replacing: [
                "    return [Container.sharedInstance.modelService requestAgencies:":
                    "    __auto_type service = Container.sharedInstance.modelService;\n    return [Container.sharedInstance.modelService requestAgencies:",
                "        if (error) {": "        [service cancel];\n        if (error) {",
            ],
            "\(Self.agencies) at line 22 (edit at line 16: replaced with self.modelService)")
    }

    /// A block body that names the property the edits declare (`self.modelService`): it reads
    /// what the edit added, so the error in the body stays new, with the starting binary's message.
    func testBodyNamingTheInjectedPropertyStillRefuses() throws {
        try assertRefused(
            replacing: [
                "            [self refreshCompleteWithCode:code];":
                    "            [self refreshCompleteWithCode:code];\n            [self.modelService cancel];"
            ],
            "\(Self.agencies) at line 20 (edit at line 15: replaced with self.modelService)")
    }

    /// The fixture with `replacing` applied to its `.m` is refused, naming `error` as the new error.
    private func assertRefused(
        replacing: [String: String], _ error: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (root, configuration) = try FixObjCServiceStyleTests.tree("objcexposed", self)
        let path = root.appendingPathComponent(Self.source)
        var text = try String(contentsOf: path, encoding: .utf8)
        for (old, new) in replacing {
            XCTAssertNotNil(text.range(of: old), "the fixture no longer holds \(old)", file: file, line: line)
            text = text.replacingOccurrences(of: old, with: new)
        }
        try Data(text.utf8).write(to: path)
        let plan = Fixer(configuration: configuration).plan(files: try FixFixtureTests.files(root), phase: .inject)
        XCTAssertEqual(plan.groups.count, 1, file: file, line: line)
        let refused = try XCTUnwrap(plan.groups.first?.refused, "accepted", file: file, line: line)
        XCTAssertTrue(
            refused.hasPrefix("re-parse of ") && refused.hasSuffix("\(Self.source): new error: \(error)"), refused,
            file: file, line: line)
    }
}
