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
        ]
    }

    private static func field<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
