import Foundation
import SeamTestSupport
import XCTest

/// The package's root directory, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The built `di-lint` binary. SwiftPM builds it before these tests and puts it beside the test
/// bundle (.build/<config>/); `DI_LINT_BINARY` overrides the search.
let diLintBinary: String = {
    let fm = FileManager.default
    var candidates: [URL] = []
    if let path = ProcessInfo.processInfo.environment["DI_LINT_BINARY"] {
        candidates.append(URL(fileURLWithPath: path))
    }
    let places = [
        Bundle.main.bundleURL, Bundle(for: CLIRunner.self).bundleURL,
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
    ]
    for place in places {
        candidates.append(place.appendingPathComponent("di-lint"))
        candidates.append(place.deletingLastPathComponent().appendingPathComponent("di-lint"))
    }
    for configuration in ["debug", "release"] {
        candidates.append(packageRoot.appendingPathComponent(".build/\(configuration)/di-lint"))
    }
    return candidates.first { fm.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }?.path
        ?? "di-lint binary not found next to the test bundle; set DI_LINT_BINARY"
}()

/// Runs the real di-lint binary in a directory.
final class CLIRunner {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output parsed as a JSON object.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        }
    }

    static func run(
        _ arguments: [String], in directory: URL, binary: String = diLintBinary,
        environment: [String: String] = [:]
    ) throws -> Run {
        let result = try runProcess(binary, arguments, in: directory, environment: environment)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}

/// The shared temporary project, run through the built `di-lint` binary.
typealias Project = TemporaryProject

extension TemporaryProject {
    @discardableResult
    func run(_ arguments: String...) throws -> CLIRunner.Run { try CLIRunner.run(arguments, in: root) }

    func runArray(_ arguments: [String]) throws -> CLIRunner.Run { try CLIRunner.run(arguments, in: root) }

    /// Makes the project a git repository with every file in one commit.
    func commitEverything() throws {
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-qm", "start")
    }

    func git(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = root
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "git \(arguments)")
    }
}

/// A legacy Objective-C class: ordinary code with container accesses among it.
func legacySource(extra: [String] = []) -> String {
    """
    #import "Legacy.h"

    @implementation Legacy

    - (void)install {
        NSLog(@"installing");
        id reporter = [[Container sharedInstance] crashReporter];
        [reporter start];
        id center = Container.sharedInstance.notificationCenter;
        [center addObserver:self];
        id same = [[Container sharedInstance] crashReporter];
    \(extra.map { "    " + $0 + "\n" }.joined())}

    @end

    """
}

extension CLIRunner.Run {
    var findings: [[String: Any]] { json["findings"] as? [[String: Any]] ?? [] }
    var newFindings: [[String: Any]] { findings.filter { $0["baselined"] as? Bool == false } }
    var summary: [String: Any] { json["summary"] as? [String: Any] ?? [:] }
}

extension CLIRunner.Run {
    /// The JSON report with its timing (`summary.seconds`) taken out, keys sorted: two runs'
    /// reports compare as text.
    func reportWithoutTiming() throws -> String {
        var json = self.json
        var summary = json["summary"] as? [String: Any] ?? [:]
        summary["seconds"] = nil
        json["summary"] = summary
        return String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The `signal-handler-safety` findings of the JSON report as `path:line`, sorted.
    var signalFindings: [String] {
        ((json["findings"] as? [[String: Any]]) ?? []).filter { ($0["rule"] as? String) == "signal-handler-safety" }
            .map { "\($0["path"] ?? ""):\($0["line"] ?? "")" }.sorted()
    }

    /// The JSON report without `seconds` and `parsed`, and the count of files parsed (a default
    /// run against `--parse-every-file`).
    func reportAndParsed() throws -> (json: String, parsed: Int) {
        var object = json
        var summary = object["summary"] as? [String: Any] ?? [:]
        let parsed = summary.removeValue(forKey: "parsed") as? Int ?? -1
        summary.removeValue(forKey: "seconds")
        object["summary"] = summary
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        return (String(decoding: data, as: UTF8.self), parsed)
    }

    /// The JSON report's findings as `path:line rule`, sorted.
    var findingPlaces: [String] {
        ((json["findings"] as? [[String: Any]]) ?? []).map {
            "\($0["path"] ?? ""):\($0["line"] ?? "") \($0["rule"] ?? "")"
        }.sorted()
    }
}

/// The lines of a `DI_LINT_PCH_TRACE` file, sorted (none when it was not written).
func pchTraceLines(_ url: URL) -> [String] {
    ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).sorted()
}

/// The header-reuse tests' container: `MWBase::Environment::get()` in `include/env.hpp`, found
/// with `-Iinclude`.
enum EnvironmentFixture {
    static let config = "containers: [\"Environment::get\"]\nclang-flags: [-Iinclude]\n"
    static let header = """
        #pragma once
        namespace MWBase { struct World { int x; }; struct Environment { static Environment &get(); World *getWorld(); }; }

        """
}
