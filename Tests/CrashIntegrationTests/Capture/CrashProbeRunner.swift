import Foundation
import XCTest

/// Runs the CrashProbe test executable in a child process and reports how it ended.
struct CrashProbeRunner {
    struct Outcome {
        /// Signal that killed the child, or nil when it exited.
        let signal: Int32?
        let exitCode: Int32?
        let stdout: String
        let stderr: String
        let dumps: [URL]
        let elapsed: TimeInterval
    }

    enum Backtracer {
        case unset
        case disabled
        case enabled
    }

    let dumpDirectory: URL

    /// The CrashProbe binary built alongside the test bundle.
    static func executable(file: StaticString = #filePath) throws -> URL {
        var candidates: [URL] = []
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: own).deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        let packageRoot = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let probe = directory.appendingPathComponent("CrashProbe")
            if FileManager.default.isExecutableFile(atPath: probe.path) { return probe }
        }
        throw ProbeMissing(searched: candidates.map(\.path))
    }

    /// Runs `CrashProbe <dumpDirectory> <mode>`; fails the test if it outlives `timeout`.
    func run(
        _ mode: String, backtracer: Backtracer = .disabled, timeout: TimeInterval = 10,
        stdin: FileHandle? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = [dumpDirectory.path, mode]
        var environment = ProcessInfo.processInfo.environment
        switch backtracer {
        case .unset: environment.removeValue(forKey: "SWIFT_BACKTRACE")
        case .disabled: environment["SWIFT_BACKTRACE"] = "enable=no"
        case .enabled: environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no"
        }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin ?? FileHandle.nullDevice
        let started = Date()
        try process.run()
        // Drain the pipes while waiting so a chatty child cannot block on a full pipe.
        let stdoutData = Collected(), stderrData = Collected()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { stdoutData.data = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { stderrData.data = err.fileHandleForReading.readDataToEndOfFile() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTFail("CrashProbe \(mode) still running after \(timeout) s: killed", file: file, line: line)
        }
        process.waitUntilExit()
        group.wait()
        let elapsed = Date().timeIntervalSince(started)
        let signaled = process.terminationReason == .uncaughtSignal
        return Outcome(
            signal: signaled ? process.terminationStatus : nil,
            exitCode: signaled ? nil : process.terminationStatus,
            stdout: String(decoding: stdoutData.data, as: UTF8.self),
            stderr: String(decoding: stderrData.data, as: UTF8.self),
            dumps: dumpFiles(), elapsed: elapsed)
    }

    func dumpFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dumpDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".seamdump") }.sorted().map { dumpDirectory.appendingPathComponent($0) }
    }
}

/// The CrashProbe executable was not found: a failure, never a skip, so the crash tests
/// cannot pass without running.
struct ProbeMissing: Error, CustomStringConvertible {
    let searched: [String]
    var description: String {
        "CrashProbe not built; looked in \(searched). `swift build` (or `swift build --product CrashProbe`) builds it."
    }
}

/// Bytes read by one background reader, handed over after DispatchGroup.wait().
private final class Collected: @unchecked Sendable {
    var data = Data()
}

/// A fresh temporary directory removed at the end of the test.
func makeProbeDirectory(_ test: XCTestCase, _ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("seam-\(label)-\(getpid())-\(UInt32.random(in: 0 ... .max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}
