import Foundation
import Runtime

/// File, line and column, with the chain of inlined calls, for addresses in another process's
/// modules, read from the modules' DWARF by the Swift toolchain's `Runtime` module (the
/// symbolicator behind Swift's own crash backtraces).
///
/// `Runtime` symbolicates a `Backtrace` against an `ImageMap` (paths and load addresses); both
/// are `Codable` in their documented compact formats (swift/docs/CompactBacktraceFormat.md and
/// CompactImageMapFormat.md), which is how a crash from an earlier run is handed to it here.
/// Results are cached per module path and address, across dumps.
final class SourceLocator {
    /// One function at an address: the innermost inlined callee first, the concrete function last.
    struct Entry: Equatable {
        let rawName: String
        let file: String?
        let line: Int?
        let column: Int?
        let inlined: Bool
    }

    private struct Key: Hashable {
        let path: String
        let address: UInt64
        let isReturnAddress: Bool
    }

    private var cache: [Key: [Entry]] = [:]

    /// The functions at `address` in `module`, innermost first; empty when the module has no
    /// line information there.
    func entries(at address: UInt64, in module: Symbolicator.Module, isReturnAddress: Bool) -> [Entry] {
        let key = Key(path: module.path, address: address &- module.bias, isReturnAddress: isReturnAddress)
        if let cached = cache[key] { return cached }
        let found = locate(address, in: module, isReturnAddress: isReturnAddress)
        cache[key] = found
        return found
    }

    private func locate(_ address: UInt64, in module: Symbolicator.Module, isReturnAddress: Bool) -> [Entry] {
        let json = ["architecture": "\(MinidumpInput.Architecture.host)",
                    "backtrace": Data(CompactFormats.backtrace([(address, isReturnAddress)])).base64EncodedString(),
                    "imageMap": Data(CompactFormats.imageMap([module])).base64EncodedString()]
        guard let data = try? JSONEncoder().encode(json),
              let backtrace = try? JSONDecoder().decode(Backtrace.self, from: data),
              let symbolicated = backtrace.symbolicated(options: [.showInlineFrames, .showSourceLocations]) else { return [] }
        return symbolicated.frames.compactMap { frame in
            guard let symbol = frame.symbol, symbol.rawName != "<unknown>" else { return nil }
            let location = symbol.sourceLocation
            return Entry(rawName: symbol.rawName, file: location?.path, line: location.map(\.line).flatMap { $0 > 0 ? $0 : nil },
                         column: location.map(\.column).flatMap { $0 > 0 ? $0 : nil }, inlined: frame.inlined)
        }
    }
}

/// Swift's compact backtrace and image map formats (version 0, 64-bit words), written with
/// absolute addresses only.
enum CompactFormats {
    /// Info byte: version 0, 64-bit words.
    private static let info: UInt8 = 0x02

    /// `pc` (0x1f) or `ra` (0x2f) instructions with an 8-byte absolute address each, then `end`.
    static func backtrace(_ frames: [(address: UInt64, isReturnAddress: Bool)]) -> [UInt8] {
        var out = [info]
        for frame in frames {
            out.append(frame.isReturnAddress ? 0x2f : 0x1f)
            out += bigEndian(frame.address)
        }
        out.append(0x00)
        return out
    }

    /// Platform string, image count, then per image: header (absolute, 8-byte base and
    /// end-of-text offset), build ID, path as raw `str` chunks of at most 63 bytes, `end`.
    /// The base is the load bias, so an address minus it is the ELF virtual address.
    static func imageMap(_ modules: [Symbolicator.Module]) -> [UInt8] {
        var out = [info]
        let platform = Array("Linux".utf8)
        out += count(platform.count) + platform
        out += count(modules.count)
        for module in modules.sorted(by: { $0.bias < $1.bias }) {
            out.append(0x3f)
            out += bigEndian(module.bias) + bigEndian(module.end &- module.bias)
            let buildID = module.buildID ?? []
            out += count(buildID.count) + buildID
            var path = Array(module.path.utf8)[...]
            while !path.isEmpty {
                let chunk = path.prefix(63)
                out.append(UInt8(chunk.count))
                out += chunk
                path = path.dropFirst(chunk.count)
            }
            out.append(0x00)
        }
        return out
    }

    /// Seven bits a byte, most significant first, the top bit set on all but the last.
    private static func count(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7f)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7f) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
    }
}
