import Foundation

/// The source language of a file, which selects libclang's `-x` flag.
public enum SourceLanguage: String, Codable, Sendable {
    case c, objectiveC = "objective-c", cxx = "c++", objectiveCxx = "objective-c++"
    /// Parsed by swift-syntax (`FrontEnd/Swift`), not libclang.
    case swift

    /// Extensions di-lint lints by default.
    public static let lintedExtensions: Set<String> = ["c", "h", "m", "mm", "cc", "cpp", "cxx", "hh", "hpp", "swift"]

    /// The language for a path, reading a `.h` file's text to tell Objective-C and C++ from C.
    public static func detect(path: String, contents: UnsafeRawBufferPointer) -> SourceLanguage {
        switch path.split(separator: ".").last.map(String.init) ?? "" {
        case "m": return .objectiveC
        case "mm": return .objectiveCxx
        case "c": return .c
        case "cc", "cpp", "cxx", "hh", "hpp": return .cxx
        case "swift": return .swift
        default: return sniffHeader(contents)
        }
    }

    /// Objective-C directives win; then C++ keywords; else C.
    static func sniffHeader(_ text: UnsafeRawBufferPointer) -> SourceLanguage {
        let objcMarkers = [
            "@interface", "@protocol", "@implementation", "@class", "@property", "#import", "@end", "NS_ASSUME_NONNULL",
        ]
        let cxxMarkers = [
            "class ", "namespace ", "template<", "template <", "std::", "public:", "private:", "extern \"C++\"",
            "constexpr ",
        ]
        let isObjC = objcMarkers.contains { text.containsASCII($0) }
        let isCxx =
            cxxMarkers.contains { text.containsASCII($0) }
            && (!text.containsASCII("@class ")
                || cxxMarkers.contains { m in
                    // `@class Name;` is Objective-C: look again without it (of the markers, only
                    // `class ` can fall inside an `@class `, right after its `@`)
                    text.containsASCII(m, notAfter: m == "class " ? UInt8(ascii: "@") : nil)
                })
        switch (isObjC, isCxx) {
        case (true, true): return .objectiveCxx
        case (true, false): return .objectiveC
        case (false, true): return .cxx
        default: return .c
        }
    }

    /// Header extensions: parsed with `-x <language>-header`.
    public static let headerExtensions: Set<String> = ["h", "hh", "hpp"]

    /// The Objective-C runtime libclang 14 on Linux needs to accept `-fobjc-arc`.
    static let objcRuntime = "-fobjc-runtime=gnustep-2.0"

    /// What a compilation database's flags need on top: the Objective-C runtime, for Objective-C.
    var objcRuntimeArguments: [String] { self == .objectiveC || self == .objectiveCxx ? [Self.objcRuntime] : [] }

    /// The language flags di-lint passes to libclang (and the benchmark to `clang -fsyntax-only`).
    public func clangArguments(isHeader: Bool) -> [String] {
        let header = isHeader ? "-header" : ""
        let objc = [Self.objcRuntime, "-fobjc-arc", "-fblocks"]
        switch self {
        case .c: return ["-x", "c\(header)", "-std=gnu11"]
        case .objectiveC: return ["-x", "objective-c\(header)"] + objc
        case .cxx: return ["-x", "c++\(header)", "-std=gnu++17"]
        case .objectiveCxx: return ["-x", "objective-c++\(header)", "-std=gnu++17"] + objc
        case .swift: return []
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Plain byte search for an ASCII needle: each place of its first byte found by `memchr`,
    /// the rest compared by `memcmp`.
    /// `notAfter`: a hit right after this byte does not count.
    func containsASCII(_ needle: String, notAfter: UInt8? = nil) -> Bool {
        let n = Array(needle.utf8)
        guard n.count <= count, let first = n.first, let base = baseAddress else { return false }
        let last = count - n.count // the last offset the needle may start at
        return n.withUnsafeBytes { needleBytes in
            var i = 0
            while i <= last {
                guard let hit = memchr(base + i, Int32(first), last - i + 1) else { return false }
                i = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + i, needleBytes.baseAddress!, n.count) == 0
                    && (notAfter == nil || i == 0 || self[i - 1] != notAfter)
                {
                    return true
                }
                i += 1
            }
            return false
        }
    }
}
