import Foundation
import XCTest
@testable import DILintEngine

/// Planner details the fixture trees do not isolate: methods found from tokens, a header reached
/// through a symlink, overlapping groups, `--service`, and the config keys.
final class FixPlannerTests: XCTestCase {
    let config = "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"

    func directory(_ files: [String: String]) throws -> URL {
        let root = try temporaryDirectory(self)
        var files = files
        files["CrashBridge.h"] =
            files["CrashBridge.h"]
            ?? "@interface CrashBridge\n@property (nonatomic, readonly) id crashReporter;\n@property (nonatomic, readonly) id clock;\n@end\n"
        for (name, text) in files {
            try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return root
    }

    func plan(_ root: URL, files: [String]? = nil, phase: FixPhase = .inject, services: Set<String> = []) throws
        -> FixPlan
    {
        let fixer = Fixer(configuration: try Configuration.parse(yaml: config, baseDirectory: root.path))
        fixer.services = services
        let paths =
            try files.map { $0.map { root.appendingPathComponent($0).path } }
            ?? FileCollector(excludes: [], baseDirectory: root.path).collect([root.path])
        return fixer.plan(files: paths, phase: phase)
    }

    /// Class `A`, importing the bridge's header, whose `-run` holds `body`.
    func classA(run body: String) -> String {
        "#import \"CrashBridge.h\"\n@interface A\n@end\n@implementation A\n- (void)run {\n    \(body)\n}\n@end\n"
    }

    func testMethodWhoseSignatureDoesNotResolveIsFoundFromTokens() throws {
        let source = """
            @interface Worker
            @end
            @implementation Worker
            - (instancetype)initWithQueue:(UnknownQueue *)queue
                                    clock:(UnknownClock *)clock {
                return [self initWithReporter:[Container sharedInstance].crashReporter];
            }
            - (void)runWith:(UnknownOptions *)options {
                id reporter = [Container sharedInstance].crashReporter;
            }
            @end

            """
        let root = try directory(["Worker.m": source])
        let workspace = FixWorkspace(configuration: Configuration(), compileArguments: [:])
        let tokens = FixTokens(
            file: try workspace.parse(FixWorkspace.realPath(root.appendingPathComponent("Worker.m").path)))
        let k = try XCTUnwrap((0..<tokens.count).last { tokens.text($0) == "Container" })
        let method = try XCTUnwrap(tokens.enclosingMethod(at: k))
        XCTAssertEqual(method.name, "runWith:")
        XCTAssertEqual(method.typeName, "Worker")
        let first = try XCTUnwrap((0..<tokens.count).first { tokens.text($0) == "Container" })
        XCTAssertEqual(tokens.enclosingMethod(at: first)?.name, "initWithQueue:clock:")
        XCTAssertEqual(tokens.enclosingMethod(at: first)?.isInitializer, true)

        let plan = try plan(root)
        XCTAssertEqual(plan.accepted.flatMap(\.targets).map(\.line), [9], "\(plan.refusedGroups.map { $0.refused! })")
        XCTAssertEqual(plan.manual.map(\.reason), [.initializerOrDealloc])
    }

    func testHeaderReachedThroughASymlinkIsEditedOnce() throws {
        let root = try directory([
            "Store.h": "@interface Store\n@end\n",
            "Store.m":
                "#import \"Store.h\"\n#import \"CrashBridge.h\"\n@implementation Store\n- (void)a {\n    id c = Container.sharedInstance.clock;\n}\n@end\n",
        ])
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("Alias.h").path, withDestinationPath: "Store.h")
        let plan = try plan(root, files: ["Store.h", "Alias.h", "Store.m"])
        XCTAssertTrue(plan.refusedGroups.isEmpty, "\(plan.refusedGroups.map { $0.refused! })")
        let edits = plan.editsByFile
        XCTAssertEqual(edits.count, 2, "\(edits.keys)")
        let header = try XCTUnwrap(edits[FixWorkspace.realPath(root.appendingPathComponent("Store.h").path)])
        XCTAssertEqual(header.filter { $0.replacement.contains("@property") }.count, 1)
    }

    func testServiceOptionMigratesOneServiceAtATime() throws {
        let root = try directory([
            "A.m": classA(
                run: "id r = Container.sharedInstance.crashReporter;\n    id c = Container.sharedInstance.clock;")
        ])
        let plan = try plan(root, services: ["clock"])
        XCTAssertEqual(plan.accepted.flatMap(\.targets).map(\.expression), ["Container.sharedInstance.clock"])
        XCTAssertTrue(plan.manual.isEmpty) // crashReporter is out of scope, not manual work
    }

    func testAGroupThatBreaksTheParseIsRefusedWithTheMessage() throws {
        // the bridge's header does not declare `network`: the rewritten file would not compile
        let root = try directory(["A.m": classA(run: "id n = Container.sharedInstance.network;")])
        let plan = try plan(root)
        XCTAssertEqual(plan.accepted.count, 0)
        XCTAssertEqual(plan.refusedGroups.count, 1)
        XCTAssertTrue(
            plan.refusedGroups[0].refused!.contains("property 'network' not found"), plan.refusedGroups[0].refused!)
        XCTAssertTrue(plan.unifiedDiff(root: root.path).isEmpty)
        XCTAssertFalse(plan.isComplete)
    }

    func testConfigKeys() throws {
        let c = try Configuration.parse(
            yaml: "bridge-type: SentryCrashBridge\nbridge-header: Bridges/SentryCrashBridge.h\n", baseDirectory: "/")
        XCTAssertEqual(c.bridgeType, "SentryCrashBridge")
        XCTAssertEqual(c.bridgeHeader, "Bridges/SentryCrashBridge.h")
        XCTAssertThrowsError(try Configuration.parse(yaml: "bridge-type: 'a b'\n", baseDirectory: "/"))
        XCTAssertThrowsError(try Configuration.parse(yaml: "bridge-header: ''\n", baseDirectory: "/"))
    }

    /// The bounded-input check `lint` runs guards the fix's parses too: a file including a device
    /// is listed as not parsed (never read by libclang, never dropped silently); the others go on.
    func testIncludeOfADeviceIsReportedNotRead() throws {
        let root = try directory([
            "Zero.m": "#include \"/dev/zero\"\n" + classA(run: "id r = Container.sharedInstance.crashReporter;"),
            "Fine.m": classA(run: "id r = Container.sharedInstance.crashReporter;").replacingOccurrences(
                of: "A\n", with: "B\n"),
        ])
        let started = Date()
        let plan = try plan(root)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        let notParsed = plan.manual.filter { $0.reason == .notParsed }
        XCTAssertEqual(notParsed.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["Zero.m"])
        XCTAssertTrue(notParsed[0].detail?.contains("/dev/zero") == true, notParsed[0].detail ?? "")
        XCTAssertEqual(
            plan.accepted.flatMap(\.targets).map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["Fine.m"])
        XCTAssertFalse(plan.isComplete)
    }

    /// A Swift file lint calls a parse-failure (nesting past the parser's limits) is listed as
    /// not parsed, not planned from the part of it that was read, nor left out silently.
    func testSwiftFileNestingPastTheLimitIsListedAsNotParsed() throws {
        let deep = String(repeating: "[", count: 200) + "1" + String(repeating: "]", count: 200)
        let root = try directory([
            "Deep.swift":
                "final class Deep {\n    func run() {\n        let r = Container.sharedInstance.crashReporter\n        let x = \(deep)\n    }\n}\n"
        ])
        let plan = try plan(root)
        let notParsed = plan.manual.filter { $0.reason == .notParsed }
        XCTAssertEqual(notParsed.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["Deep.swift"])
        XCTAssertTrue(notParsed.first?.detail?.contains("nest") == true, notParsed.first?.detail ?? "")
        XCTAssertTrue(plan.accepted.isEmpty)
        XCTAssertFalse(plan.isComplete)
    }

    /// Only files whose text holds an access's shape are parsed (lint's pre-filter), not every
    /// file naming the accessor: `[Other sharedInstance]` alone does not select a file. The
    /// unrelated file includes a device, so parsing it would list it as not parsed.
    func testFilesWithoutTheAccessShapeAreNotParsed() throws {
        let root = try directory([
            "Other.m":
                "#include \"/dev/zero\"\n@implementation Other\n- (void)run {\n    id o = [Other sharedInstance];\n}\n@end\n",
            "Fine.m": classA(run: "id r = Container.sharedInstance.crashReporter;"),
        ])
        let plan = try plan(root)
        XCTAssertEqual(
            plan.manual.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent): \($0.reason.rawValue)" }, [])
        XCTAssertEqual(
            plan.accepted.flatMap(\.targets).map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["Fine.m"])
    }

    /// The placer parses only files that may declare the class's interface: `@interface`, blanks,
    /// the name as a whole word; a file that imports or mentions the class is not read for it.
    func testFilesDeclaringAClassAreFoundByTheDirectiveAndTheWholeName() {
        func declares(_ text: String) -> Bool { FixContext.declaredInterfaces(in: Array(text.utf8)).contains("Store") }
        XCTAssertTrue(declares("@interface Store : NSObject\n@end\n"))
        XCTAssertTrue(declares("@interface\n  Store ()\n@end\n"))
        XCTAssertTrue(declares("@interface Store<T>\n@end"))
        XCTAssertTrue(declares("@interface Store(Load)"))
        XCTAssertFalse(declares("#import \"Store.h\"\n@interface Cache\n- (Store *)store;\n@end\n"))
        XCTAssertFalse(declares("@interface StoreManager\n@end\n"))
        XCTAssertFalse(declares("@interface MyStore\n@end\n"))
        XCTAssertFalse(declares("@interfaces Store"))
        XCTAssertEqual(
            FixContext.declaredInterfaces(in: Array("@interface A : B\n@end\n@interface C (D)\n@end\n@interface".utf8)),
            ["A", "C"])
    }
}
