import Foundation
import SeamTestSupport
import XCTest

/// The re-parse verdict of `di-lint fix` on headerless Objective-C (no SDK headers: every parse
/// has errors): the same verdict every run, a refusal that names the new diagnostic and the edit
/// that caused it, and errors of the headerless parse met again in another shape not counted as new.
final class FixVerdictCLITests: XCTestCase {
    /// A class whose container read sits in an `#if` that imports the container, and a class
    /// extension whose primary interface is in a header of another folder.
    static let files: [String: String] = [
        "src/V.h": "#import <Foundation/Foundation.h>\n@interface V : NSObject\n- (id)windows;\n@end\n",
        "src/V.m": """
        #import "V.h"
        #if HAS_UIKIT
        #    import "Container.h"
        @implementation V
        - (id)windows { return [Container.sharedInstance.application windows]; }
        @end
        #endif

        """,
        "include/Parser.h": "#import <Foundation/Foundation.h>\n@interface Parser : NSObject\n- (id)parse;\n@end\n",
        "src/Parser.m": """
        #import "Parser.h"
        @interface Parser ()
        @property (nonatomic, copy) id name;
        @end
        @implementation Parser
        - (id)parse { return Container.sharedInstance.dateProvider; }
        @end

        """,
    ]

    static let bridgeHeader = """
        #import <Foundation/Foundation.h>
        @interface CrashBridge : NSObject
        @property (nonatomic, readonly) id application;
        @property (nonatomic, readonly) id dateProvider;
        @end

        """

    func testTenRunsGiveTheSameVerdict() throws {
        let project = try Project(
            self,
            files: Self.files.merging([
                "include/CrashBridge.h": Self.bridgeHeader,
                ".di-lint.yml": "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\nheader-map: true\n",
            ]) { $1 })
        var outputs = Set<String>()
        for _ in 0..<10 {
            let run = try project.run("fix", "--phase", "inject", "--format", "json", "src", "include")
            outputs.insert(run.stdout)
        }
        XCTAssertEqual(
            outputs.count, 1,
            "the verdict differs between identical runs:\n\(outputs.sorted().joined(separator: "\n----\n"))")
    }

    func testARefusalNamesTheNewDiagnosticAndTheEdit() throws {
        // no file of the run declares the bridge's header: the import fix adds to Parser.m is not
        // found (V.m's goes inside the `#if` that imports the container, which this parse skips)
        let project = try Project(
            self,
            files: Self.files.merging([
                ".di-lint.yml": "containers: [Container.sharedInstance]\nbridge-type: CrashBridge\n"
            ]) { $1 })
        let run = try project.run("fix", "--phase", "inject", "src")
        XCTAssertTrue(
            run.stderr.contains(
                "refused Objective-C class Parser: re-parse of src/Parser.m: new error: 'CrashBridge.h' file not found at line "
            ), run.stderr)
        XCTAssertTrue(run.stderr.contains("(edit at line "), run.stderr)
        XCTAssertTrue(run.stderr.contains(": inserted #import \"CrashBridge.h\")"), run.stderr)
        XCTAssertFalse(run.stderr.contains("''"), run.stderr)
    }
}
