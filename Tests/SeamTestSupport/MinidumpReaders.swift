import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The two independent minidump readers the crash tests check Seam's minidumps with: PyPI's
/// `minidump` package (through `scripts/read-minidump`) and Debian's `lldb`. Both are installed
/// by `scripts/bootstrap`; each function returns nil when its reader is not installed, so a test
/// can skip and say so.
public enum MinidumpReaders {
    /// Debian's lldb (the toolchain's own lldb may come first on PATH).
    public static let lldb = "/usr/bin/lldb"

    /// What `scripts/read-minidump` printed; throws with the reader's complaint when it failed.
    public static func pythonPackage(_ file: URL) throws -> [String: Any]? {
        guard try run("/usr/bin/env", ["python3", "-c", "import minidump"], timeout: 30).status == 0 else { return nil }
        let result = try run("/usr/bin/env", ["python3", script.path, file.path], timeout: 60)
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else {
            throw ServerError("read-minidump \(file.path) failed (status \(result.status)): \(result.stderr)")
        }
        return object
    }

    /// `lldb -c FILE -o bt`'s output (the crashed thread's backtrace), nil without lldb.
    public static func lldbBacktrace(_ file: URL) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: lldb) else { return nil }
        let result = try run(lldb, ["--no-lldbinit", "--batch", "-c", file.path, "-o", "bt"], timeout: 120)
        return result.stdout + result.stderr
    }

    private static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/read-minidump")
    }

    /// Runs a command with output in files; kills it past `timeout` seconds.
    public static func run(_ path: String, _ arguments: [String], timeout: TimeInterval) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)")
        let out = base.appendingPathExtension("out"), err = base.appendingPathExtension("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw ServerError("\(path) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return (
            process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }
}
