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

    /// Foundation's annotation macros, defined as the SDK defines them (nullability regions,
    /// Swift names, designated initializers, format checks, availability left empty). Without
    /// the SDK (a headerless parse) `NS_ASSUME_NONNULL_BEGIN` is read as a type name and
    /// `NS_SWIFT_NAME(X)` as a function declarator, and the `@interface` after them is lost with
    /// its methods and properties. A Foundation the parse finds defines them again, and its
    /// definitions hold from its import on.
    static let foundationAnnotations: [String] =
        [
            #"-DNS_ASSUME_NONNULL_BEGIN=_Pragma("clang assume_nonnull begin")"#,
            #"-DNS_ASSUME_NONNULL_END=_Pragma("clang assume_nonnull end")"#,
            "-DNS_SWIFT_NAME(_name)=__attribute__((swift_name(#_name)))",
            "-DNS_SWIFT_UNAVAILABLE(_msg)=__attribute__((availability(swift, unavailable, message=_msg)))",
            "-DNS_REFINED_FOR_SWIFT=__attribute__((swift_private))",
            "-DNS_SWIFT_NOTHROW=__attribute__((swift_error(none)))",
            "-DNS_DESIGNATED_INITIALIZER=__attribute__((objc_designated_initializer))",
            "-DNS_UNAVAILABLE=__attribute__((unavailable))",
            "-DNS_REQUIRES_SUPER=__attribute__((objc_requires_super))",
            "-DNS_REQUIRES_NIL_TERMINATION=__attribute__((sentinel(0,1)))",
            "-DNS_NOESCAPE=__attribute__((noescape))",
            "-DNS_RETURNS_RETAINED=__attribute__((ns_returns_retained))",
            "-DNS_RETURNS_NOT_RETAINED=__attribute__((ns_returns_not_retained))",
            "-DNS_RETURNS_INNER_POINTER=__attribute__((objc_returns_inner_pointer))",
            "-DNS_FORMAT_FUNCTION(F,A)=__attribute__((format(__NSString__, F, A)))",
            "-DNS_STRING_ENUM=__attribute__((swift_wrapper(enum)))",
            "-DNS_TYPED_ENUM=__attribute__((swift_wrapper(enum)))",
            "-DNS_EXTENSIBLE_STRING_ENUM=__attribute__((swift_wrapper(struct)))",
            "-DNS_TYPED_EXTENSIBLE_ENUM=__attribute__((swift_wrapper(struct)))",
        ]
        + [
            "API_AVAILABLE", "API_UNAVAILABLE", "API_DEPRECATED", "API_DEPRECATED_WITH_REPLACEMENT", "NS_AVAILABLE",
            "NS_AVAILABLE_IOS", "NS_AVAILABLE_MAC", "NS_DEPRECATED", "NS_DEPRECATED_IOS", "NS_CLASS_AVAILABLE",
            "NS_CLASS_AVAILABLE_IOS", "NS_EXTENSION_UNAVAILABLE", "NS_EXTENSION_UNAVAILABLE_IOS",
        ].map { "-D\($0)(...)=" }

    /// What a compilation database's flags need on top, for Objective-C: the runtime and
    /// Foundation's annotation macros.
    var objcRuntimeArguments: [String] {
        self == .objectiveC || self == .objectiveCxx ? [Self.objcRuntime] + Self.foundationAnnotations : []
    }

    /// The language flags di-lint passes to libclang (and the benchmark to `clang -fsyntax-only`).
    public func clangArguments(isHeader: Bool) -> [String] {
        let header = isHeader ? "-header" : ""
        let objc = [Self.objcRuntime, "-fobjc-arc", "-fblocks"] + Self.foundationAnnotations
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

extension SourceLanguage {
    /// The arguments di-lint's parse of a file starts with, before any configuration: the common
    /// ones and the language's (read from the file, as a lint run detects it). Nil for Swift or
    /// an unreadable file. `di-lint __clang-arguments` prints them, so that the benchmarks' floor
    /// (`clang -fsyntax-only`) parses with the very same flags.
    public static func defaultClangArguments(path: String) -> [String]? {
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        let language = bytes.withUnsafeBytes { detect(path: path, contents: $0) }
        guard language != .swift else { return nil }
        let isHeader = headerExtensions.contains((path as NSString).pathExtension)
        return ClangParser.commonArguments + language.clangArguments(isHeader: isHeader)
    }
}
