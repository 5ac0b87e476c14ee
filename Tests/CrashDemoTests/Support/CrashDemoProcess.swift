import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// How a crash-demo child process ended, with everything it wrote.
struct ChildRun {
    let arguments: [String]
    let reason: Process.TerminationReason
    /// Exit code, or the signal number when `reason` is `.uncaughtSignal`.
    let status: Int32
    let stdout: String
    let stderr: String
    let seconds: Double

    var diedOfSignal: Int32? { reason == .uncaughtSignal ? status : nil }
    var exitedCleanly: Bool { reason == .exit && status == 0 }

    /// For failure messages: the command and the tail of its stderr.
    var summary: String {
        let how = reason == .exit ? "exit \(status)" : "signal \(status)"
        return "crash-demo \(arguments.joined(separator: " ")) -> \(how) after \(String(format: "%.2f", seconds)) s; "
            + "stderr tail:\n\(stderr.suffix(1500))"
    }
}

/// Runs the `crash-demo` executable SwiftPM built beside this test bundle.
enum CrashDemoProcess {
    /// What SWIFT_BACKTRACE the child sees.
    enum Backtracer {
        /// Unset: the Swift runtime's backtracer is on (the default in Swift 6.3), chained to.
        case runtimeDefault
        /// `SWIFT_BACKTRACE=enable=no`.
        case disabled
    }

    /// `<products directory>/crash-demo`; fails the test with a clear message when missing.
    static func executable(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        let url = productsDirectory.appendingPathComponent("crash-demo")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("crash-demo is not built at \(url.path); run `swift build --product crash-demo`",
                    file: file, line: line)
            throw XCTSkip("crash-demo missing")
        }
        return url
    }

    /// The directory holding the test bundle and the package's executables.
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.executableURL!.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Runs `crash-demo <arguments>` to completion; kills it with SIGKILL after `timeout`
    /// seconds and fails the test (a hang is a defect, not a result).
    static func run(_ arguments: [String], backtracer: Backtracer = .runtimeDefault,
                    timeout: TimeInterval = 20,
                    file: StaticString = #filePath, line: UInt = #line) throws -> ChildRun {
        let process = Process()
        process.executableURL = try executable(file: file, line: line)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        switch backtracer {
        case .runtimeDefault: environment.removeValue(forKey: "SWIFT_BACKTRACE")
        case .disabled: environment["SWIFT_BACKTRACE"] = "enable=no"
        }
        process.environment = environment
        // Files, not pipes: the backtracer can write more than a pipe holds.
        let output = try CapturedOutput()
        defer { output.remove() }
        process.standardOutput = output.stdout
        process.standardError = output.stderr
        let start = Date()
        try process.run()
        let deadline = start.addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            usleep(5_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("crash-demo \(arguments.joined(separator: " ")) did not finish within \(timeout) s; killed",
                    file: file, line: line)
        }
        process.waitUntilExit()
        return ChildRun(arguments: arguments, reason: process.terminationReason,
                        status: process.terminationStatus, stdout: output.read(\.stdoutURL),
                        stderr: output.read(\.stderrURL), seconds: Date().timeIntervalSince(start))
    }
}

/// Two temporary files a child writes its stdout and stderr to.
private final class CapturedOutput {
    let stdoutURL: URL
    let stderrURL: URL
    let stdout: FileHandle
    let stderr: FileHandle

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("crash-demo-\(UUID().uuidString)")
        stdoutURL = base.appendingPathExtension("out")
        stderrURL = base.appendingPathExtension("err")
        for url in [stdoutURL, stderrURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        stdout = try FileHandle(forWritingTo: stdoutURL)
        stderr = try FileHandle(forWritingTo: stderrURL)
    }

    func read(_ which: KeyPath<CapturedOutput, URL>) -> String {
        (try? String(contentsOf: self[keyPath: which], encoding: .utf8)) ?? ""
    }

    func remove() {
        try? stdout.close()
        try? stderr.close()
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}
