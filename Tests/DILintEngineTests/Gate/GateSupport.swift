import Foundation
import XCTest
@testable import DILintEngine

/// A temporary project: a directory with `.di-lint.yml` and source files, linted with real libclang.
struct GateProject {
    let root: URL
    static let config = "containers: [Container.sharedInstance, container_shared()]\n"

    init(_ test: XCTestCase, files: [String: String] = [:]) throws {
        root = try temporaryDirectory(test)
        try write(".di-lint.yml", Self.config)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }

    var configuration: Configuration { get throws { try Configuration.load(path: root.appendingPathComponent(".di-lint.yml").path) } }

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

/// Runs a program and returns its exit status and standard output and error.
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                input: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Validates a SARIF document against the official 2.1.0 schema with Python's `jsonschema`
/// (a real validator, run in a subprocess). Returns the validator's complaint, or nil when valid.
func sarifSchemaViolation(_ sarif: String, in directory: URL) throws -> String? {
    let document = directory.appendingPathComponent("validate-\(UUID().uuidString).sarif")
    try Data(sarif.utf8).write(to: document)
    let schema = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas/sarif-schema-2.1.0.json")
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
