import Foundation
import SeamTestSupport
import XCTest

/// `-p DIR`: files named relative to the current directory, when the database's `directory`
/// is another one.
final class CompileDatabaseCLITests: XCTestCase {
    func testARelativePathIsParsedWhenTheDatabaseWorksElsewhere() throws {
        let project = try Project(
            self,
            files: [
                ".di-lint.yml": Project.config,
                "src/a.c": "#include \"cont.h\"\nint f(void) { return container_shared()->x; }\n",
                "src/cont.h": "struct C { int x; };\nstruct C *container_shared(void);\n",
            ])
        let build = project.root.appendingPathComponent("build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        let database = """
            [{"directory": "\(build.path)", "file": "../src/a.c", "arguments": ["clang", "-c", "../src/a.c", "-I../src"]}]
            """
        try database.write(to: build.appendingPathComponent("compile_commands.json"), atomically: true, encoding: .utf8)
        for path in ["src/a.c", project.root.appendingPathComponent("src/a.c").path] {
            let run = try project.run("-p", "build", path)
            XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
            XCTAssertTrue(
                run.stdout.contains(
                    "a.c:2:22: error: direct access to container 'container_shared()' reaching service 'x'"), run.stdout
            )
            XCTAssertFalse(run.stdout.contains("parse-failure"), run.stdout)
        }
    }
}
