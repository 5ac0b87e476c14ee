import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Facts about the OS, machine and process that every crash dump carries.
public enum SystemInfo {
    /// Reads uname(2) and `ProcessInfo` once; keys are stable, dotted names.
    public static func current() -> [String: String] {
        var names = utsname()
        _ = uname(&names)
        let process = ProcessInfo.processInfo
        return [
            "os.name": field(&names.sysname),
            "os.release": field(&names.release),
            "os.version": field(&names.version),
            "machine": field(&names.machine),
            "process.name": process.processName,
            "process.id": String(process.processIdentifier),
            "cpu.count": String(process.processorCount),
            "memory.bytes": String(process.physicalMemory),
        ].merging(OSRelease.systemInfo) { current, _ in current }
    }

    private static func field<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}

/// The distribution, from `/etc/os-release` (or `/usr/lib/os-release`), as the Swift
/// backtracer names it: "Debian GNU/Linux 12 (bookworm)".
public enum OSRelease {
    /// The file's text, nil when neither file is readable.
    public static let text: String? = ["/etc/os-release", "/usr/lib/os-release"].lazy
        .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.first

    /// KEY=value lines, quotes removed (os-release(5)).
    public static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            fields[String(line[..<equals])] = value
        }
        return fields
    }

    /// `os.distribution` (PRETTY_NAME), `os.distribution.id` and `os.distribution.version`.
    static var systemInfo: [String: String] {
        guard let text else { return [:] }
        let fields = fields(text)
        var info: [String: String] = [:]
        info["os.distribution"] = fields["PRETTY_NAME"] ?? fields["NAME"]
        info["os.distribution.id"] = fields["ID"]
        info["os.distribution.version"] = fields["VERSION_ID"]
        return info
    }
}
