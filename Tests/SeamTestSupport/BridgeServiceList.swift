import Foundation

/// The C bridge table's services as its one list declares them (`SEAM_BRIDGE_SERVICES` in
/// `Sources/CrashRuntime/include/seam_crash_runtime.h`), read from the source so tests follow
/// the list instead of repeating it.
public enum BridgeServiceList {
    /// The header declaring the list.
    public static let header = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/CrashRuntime/include/seam_crash_runtime.h")

    /// Service names in table order: the `name` of each `X(type, name, (parameters))` entry.
    public static func names() throws -> [String] {
        let text = try String(contentsOf: header, encoding: .utf8)
        guard let start = text.range(of: "#define SEAM_BRIDGE_SERVICES(X)") else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: header.path])
        }
        var names: [String] = []
        for line in text[start.lowerBound...].split(separator: "\n").dropFirst() {
            let entry = line.trimmingCharacters(in: .whitespaces)
            if entry.hasPrefix("X(") {
                let fields = entry.dropFirst(2).split(separator: ",", maxSplits: 2)
                if fields.count == 3 { names.append(fields[1].trimmingCharacters(in: .whitespaces)) }
            }
            if !line.hasSuffix("\\") { break } // the macro's last line
        }
        return names
    }
}
