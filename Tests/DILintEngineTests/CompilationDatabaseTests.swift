import Foundation
import XCTest
@testable import DILintEngine

/// `-p DIR`: each file is parsed with its real flags from compile_commands.json.
final class CompilationDatabaseTests: XCTestCase {
    func testRealFlagsResolveHeadersAndDecideFeatureBlocks() throws {
        let dir = try temporaryDirectory(self)
        let include = dir.appendingPathComponent("include")
        try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
        try """
        @interface Container
        + (instancetype)sharedInstance;
        @property (readonly) id crashReporter;
        @end
        #define CURRENT_REPORTER [[Container sharedInstance] crashReporter]
        """.write(to: include.appendingPathComponent("Container.h"), atomically: true, encoding: .utf8)
        let source = dir.appendingPathComponent("App.m")
        try """
        #import "Container.h"
        void run(void) {
            id reporter = CURRENT_REPORTER;
        #if HAS_LEGACY_UI
            id legacy = [Container sharedInstance];
        #endif
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let database = """
            [{"directory": "\(dir.path)", "file": "App.m",
              "arguments": ["clang", "-x", "objective-c", "-Iinclude", "-DHAS_LEGACY_UI=0", "-fobjc-arc", "-c", "App.m", "-o", "App.o"]}]
            """
        try database.write(to: dir.appendingPathComponent("compile_commands.json"), atomically: true, encoding: .utf8)
        let config = try Configuration.parse(yaml: "containers: [Container.sharedInstance]", baseDirectory: dir.path)

        // Without the database: the macro's header is not found, and HAS_LEGACY_UI is unknown, so
        // the feature block is linted.
        let bare = Linter(configuration: config).lint(files: [source.path])
        XCTAssertEqual(bare.findings.map { "\($0.line):\($0.column)" }, ["5:17"])

        // With it: the header resolves the macro's access, and HAS_LEGACY_UI=0 really skips the block.
        let linter = Linter(configuration: config)
        linter.compileArguments = try CompilationDatabase.load(directory: dir.path)
        let real = linter.lint(files: [source.path])
        XCTAssertEqual(
            real.findings.map { "\($0.line):\($0.column) \($0.access?.expression ?? "") \($0.access?.viaMacro ?? "")" },
            ["3:19 Container.sharedInstance.crashReporter CURRENT_REPORTER"])
    }

    func testMissingDatabaseIsAClearError() throws {
        let dir = try temporaryDirectory(self)
        XCTAssertThrowsError(try CompilationDatabase.load(directory: dir.path)) { error in
            XCTAssertEqual("\(error)", "\(dir.path): no readable compile_commands.json")
        }
    }

    func testOutputAndDependencyFlagsAreDropped() {
        let args = CompilationDatabase.parseArguments(
            ["-c", "a.m", "-o", "a.o", "-MD", "-MF", "a.d", "-Iinc", "-DX=1", "-oa2.o"],
            file: "a.m", absolute: "/src/a.m")
        XCTAssertEqual(args, ["-Iinc", "-DX=1"])
    }
}
