import Foundation
import Runtime

/// File, line and column, with the chain of inlined calls, for addresses in another process's
/// modules, read from the modules' DWARF by the Swift toolchain's `Runtime` module (the
/// symbolicator behind Swift's own crash backtraces).
///
/// `Runtime` symbolicates a `Backtrace` against an `ImageMap` (paths and load addresses); both
/// are `Codable` in their documented compact formats (swift/docs/CompactBacktraceFormat.md and
/// CompactImageMapFormat.md), which is how a crash from an earlier run is handed to it here:
/// one backtrace per thread, holding every frame not located before. Results are cached per
/// module path, address and kind, across threads and dumps.
final class SourceLocator {
    /// One function at an address: the innermost inlined callee first, the concrete function last.
    struct Entry: Equatable {
        let rawName: String
        let file: String?
        let line: Int?
        let column: Int?
        let inlined: Bool
    }

    /// How a frame's address was found, which decides the instruction looked up: the address
    /// itself (a context's program counter, an async resume point) or the call before it.
    enum Kind: Hashable {
        case programCounter, returnAddress, asyncResumePoint
    }

    struct Request {
        let address: UInt64
        let kind: Kind
        let module: Symbolicator.Module
    }

    private struct Key: Hashable {
        let path: String
        let address: UInt64
        let kind: Kind
    }

    private var cache: [Key: [Entry]] = [:]

    /// The functions at `address` in `module`, innermost first; empty when the module has no
    /// line information there.
    func entries(at address: UInt64, in module: Symbolicator.Module, isReturnAddress: Bool) -> [Entry] {
        entries(for: [
            Request(address: address, kind: isReturnAddress ? .returnAddress : .programCounter, module: module)
        ])[0]
    }

    /// The functions at each request's address, innermost first (empty where the module has no
    /// line information), from one symbolication of the requests not already known.
    func entries(for requests: [Request]) -> [[Entry]] {
        let keys = requests.map { Key(path: $0.module.path, address: $0.address &- $0.module.bias, kind: $0.kind) }
        var missing: [Int] = []
        var seen: Set<Key> = []
        for (index, key) in keys.enumerated() where cache[key] == nil && seen.insert(key).inserted {
            // a damaged dump's address or module bounds that no process has: `Runtime` traps on
            // them (a negative offset), so they have no source location
            guard Self.plausible(requests[index]) else {
                cache[key] = []
                continue
            }
            missing.append(index)
        }
        if !missing.isEmpty {
            let batch = missing.map { requests[$0] }
            var located = locate(batch)
            if located == nil {
                // Runtime's frames could not be matched to the batch: one address at a time.
                located = batch.map { locate([$0]) ?? [[]] }.map { $0[0] }
            }
            for (index, entries) in zip(missing, located ?? []) { cache[keys[index]] = entries }
        }
        return keys.map { cache[$0] ?? [] }
    }

    /// Whether a request's address lies in its module, whose bounds are those of a user-space
    /// mapping (below 2^63, starting at or after the load bias).
    static func plausible(_ request: Request) -> Bool {
        let module = request.module
        let limit: UInt64 = 1 << 63
        return module.bias <= module.start && module.start < module.end && module.end < limit
            && request.address >= module.start && request.address < module.end
    }

    /// One `Runtime` symbolication of `requests`; nil when its frames do not map back one group
    /// (inlined callees, then the concrete function) per request.
    private func locate(_ requests: [Request]) -> [[Entry]]? {
        var modules: [String: Symbolicator.Module] = [:]
        for request in requests { modules[request.module.path] = request.module }
        let json = [
            "architecture": "\(MinidumpInput.Architecture.host)",
            "backtrace": Data(CompactFormats.backtrace(requests.map { ($0.address, $0.kind) })).base64EncodedString(),
            "imageMap": Data(CompactFormats.imageMap(Array(modules.values))).base64EncodedString(),
        ]
        guard let data = try? JSONEncoder().encode(json),
            let backtrace = try? JSONDecoder().decode(Backtrace.self, from: data),
            let symbolicated = backtrace.symbolicated(options: [.showInlineFrames, .showSourceLocations])
        else { return nil }
        var groups: [[Entry]] = []
        var group: [Entry] = []
        for frame in symbolicated.frames {
            if let symbol = frame.symbol, symbol.rawName != "<unknown>" {
                let location = symbol.sourceLocation
                group.append(
                    Entry(
                        rawName: symbol.rawName, file: location?.path,
                        line: location.map(\.line).flatMap { $0 > 0 ? $0 : nil },
                        column: location.map(\.column).flatMap { $0 > 0 ? $0 : nil }, inlined: frame.inlined))
            }
            if !frame.inlined {
                groups.append(group)
                group = []
            }
        }
        return groups.count == requests.count && group.isEmpty ? groups : nil
    }
}

/// Swift's compact backtrace and image map formats (version 0, 64-bit words), written with
/// absolute addresses only.
enum CompactFormats {
    /// Info byte: version 0, 64-bit words.
    private static let info: UInt8 = 0x02

    /// `pc` (0x1f), `ra` (0x2f) or `async` (0x3f) instructions with an 8-byte absolute address
    /// each, then `end`.
    static func backtrace(_ frames: [(address: UInt64, kind: SourceLocator.Kind)]) -> [UInt8] {
        var out = [info]
        for frame in frames {
            switch frame.kind {
            case .programCounter: out.append(0x1f)
            case .returnAddress: out.append(0x2f)
            case .asyncResumePoint: out.append(0x3f)
            }
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
