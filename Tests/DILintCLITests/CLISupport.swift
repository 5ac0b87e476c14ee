import Foundation
import XCTest

/// The package's root directory, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The built `di-lint` binary. SwiftPM builds it before these tests and puts it beside the test
/// bundle (.build/<config>/); `DI_LINT_BINARY` overrides the search.
let diLintBinary: String = {
    let fm = FileManager.default
    var candidates: [URL] = []
    if let path = ProcessInfo.processInfo.environment["DI_LINT_BINARY"] { candidates.append(URL(fileURLWithPath: path)) }
    let places = [Bundle.main.bundleURL, Bundle(for: CLIRunner.self).bundleURL,
                  URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()]
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

    static func run(_ arguments: [String], in directory: URL, binary: String = diLintBinary) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A temporary project directory with a `.di-lint.yml`, removed after the test.
struct Project {
    let root: URL
    static let config = "containers: [Container.sharedInstance, container_shared()]\n"

    init(_ test: XCTestCase, files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("di-lint-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let root = root
        test.addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        try write(".di-lint.yml", Self.config)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }

    @discardableResult
    func run(_ arguments: String...) throws -> CLIRunner.Run { try CLIRunner.run(arguments, in: root) }

    func runArray(_ arguments: [String]) throws -> CLIRunner.Run { try CLIRunner.run(arguments, in: root) }

    func git(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"] + arguments
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
