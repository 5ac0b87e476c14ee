import Foundation
import SeamTestSupport
import XCTest
@testable import DILintEngine

/// The shared temporary project, linted in-process with real libclang.
typealias GateProject = TemporaryProject

extension TemporaryProject {
    var configuration: Configuration {
        get throws { try Configuration.load(path: root.appendingPathComponent(".di-lint.yml").path) }
    }

    func files() throws -> [String] {
        try FileCollector(excludes: [], baseDirectory: root.path).collect([root.path])
    }

    /// Lints every file, fingerprints the findings (paths relative to the project root).
    func lint(cache: OutcomeCache? = nil, files: [String]? = nil) throws -> LintResult {
        let linter = Linter(configuration: try configuration)
        linter.cache = cache
        var result = linter.lint(files: try files ?? self.files())
        Fingerprints.assign(to: &result.findings, root: root.path)
        return result
    }
}

/// An Objective-C file with `count` direct accesses on lines of their own, after `padding` lines.
func objcSource(accesses: [String], padding: Int = 0, function: String = "f") -> String {
    String(repeating: "// padding\n", count: padding)
        + "void \(function)(void) {\n"
        + accesses.map { "    id x = \($0);\n" }.joined()
        + "}\n"
}

/// Validates a SARIF document against the official 2.1.0 schema with Python's `jsonschema`
/// (a real validator, run in a subprocess). Returns the validator's complaint, or nil when valid.
func sarifSchemaViolation(_ sarif: String, in directory: URL) throws -> String? {
    let document = directory.appendingPathComponent("validate-\(UUID().uuidString).sarif")
    try Data(sarif.utf8).write(to: document)
    let schema = packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/schemas/sarif-schema-2.1.0.json")
    let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("python3 has no jsonschema module: pip install 'jsonschema>=4'"); sys.exit(3)
        schema = json.load(open(sys.argv[2]))
        errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(json.load(open(sys.argv[1]))), key=str)
        for e in errors[:5]: print("/".join(map(str, e.absolute_path)) + ": " + e.message)
        sys.exit(1 if errors else 0)
        """
    let result = try runProcess("/usr/bin/env", ["python3", "-c", script, document.path, schema.path], in: directory)
    if result.status == 0 { return nil }
    return "exit \(result.status): \(result.stdout)\(result.stderr)"
}
