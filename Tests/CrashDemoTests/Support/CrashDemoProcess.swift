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
            XCTFail(
                "crash-demo is not built at \(url.path); run `swift build --product crash-demo`",
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

    /// Runs `crash-demo <arguments>` to completion in its own process group. After `timeout`
    /// seconds the whole group is killed and the test fails (a hang is a defect, not a result).
    /// Whatever the child left running in its group (an orphaned `swift-backtrace`) is killed
    /// once the child has been reaped.
    ///
    /// posix_spawn and waitpid rather than Foundation's Process: Process learns of the exit
    /// through a descriptor the child inherits, so a grandchild that outlives the child keeps
    /// `waitUntilExit()` waiting for ever.
    /// With `killAfter`, the child's group is killed with SIGKILL after that many seconds (if it
    /// is still running): a process killed at some point of its work, on purpose.
    /// `executable` runs another copy of crash-demo (default: the one SwiftPM built).
    static func run(
        _ arguments: [String], backtracer: Backtracer = .runtimeDefault,
        timeout: TimeInterval = 20, killAfter: TimeInterval? = nil, executable other: URL? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ChildRun {
        let executable = try other ?? executable(file: file, line: line)
        var environment = ProcessInfo.processInfo.environment
        switch backtracer {
        case .runtimeDefault: environment.removeValue(forKey: "SWIFT_BACKTRACE")
        case .disabled: environment["SWIFT_BACKTRACE"] = "enable=no"
        }
        // Files, not pipes: the backtracer can write more than a pipe holds.
        let output = try CapturedOutput()
        defer { output.remove() }
        let start = Date()
        let pid = try spawn(
            executable.path, arguments: arguments,
            environment: environment.map { "\($0.key)=\($0.value)" }, output: output)
        var status: Int32 = 0
        var reaped = false
        let deadline = start.addingTimeInterval(timeout)
        while !reaped {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { reaped = true; break }
            if result < 0 && errno != EINTR {
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "waitpid: \(errno)"])
            }
            if let killAfter, Date() >= start.addingTimeInterval(killAfter) {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                reaped = true
                break
            }
            if Date() >= deadline {
                kill(-pid, SIGKILL)
                XCTFail(
                    "crash-demo \(arguments.joined(separator: " ")) did not finish within \(timeout) s; killed",
                    file: file, line: line)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                reaped = true
                break
            }
            usleep(2_000)
        }
        kill(-pid, SIGKILL) // anything the child left behind in its process group
        let signaled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        return ChildRun(
            arguments: arguments, reason: signaled ? .uncaughtSignal : .exit,
            status: signaled ? status & 0x7f : (status >> 8) & 0xff,
            stdout: output.read(\.stdoutURL), stderr: output.read(\.stderrURL),
            seconds: Date().timeIntervalSince(start))
    }

    /// Starts `path` as the leader of a new process group, stdout and stderr into `output`.
    private static func spawn(
        _ path: String, arguments: [String], environment: [String],
        output: CapturedOutput
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        let flags = O_WRONLY | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 1, output.stdoutURL.path, flags, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, output.stderrURL.path, flags, 0o600)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "posix_spawn \(path): \(String(cString: strerror(code)))"
                ])
        }
        return pid
    }
}

/// Two temporary files a child writes its stdout and stderr to.
private final class CapturedOutput {
    let stdoutURL: URL
    let stderrURL: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("crash-demo-\(UUID().uuidString)")
        stdoutURL = base.appendingPathExtension("out")
        stderrURL = base.appendingPathExtension("err")
        for url in [stdoutURL, stderrURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
    }

    func read(_ which: KeyPath<CapturedOutput, URL>) -> String {
        (try? String(contentsOf: self[keyPath: which], encoding: .utf8)) ?? ""
    }

    func remove() {
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}
