import Foundation
import XCTest

/// A temporary project directory with a `.di-lint.yml` and source files, removed after the test.
/// Each test target adds what it does with one (run the CLI, lint in-process).
public struct TemporaryProject {
    public static let config = "containers: [Container.sharedInstance, container_shared()]\n"
    public let root: URL

    public init(_ test: XCTestCase, files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("di-lint-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let root = root
        test.addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        try write(".di-lint.yml", Self.config)
        for (path, text) in files { try write(path, text) }
    }

    public func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    public func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}

/// Runs a program and returns its exit status and standard output and error.
@discardableResult
public func runProcess(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
)
    throws -> (status: Int32, stdout: String, stderr: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self)
    )
}
