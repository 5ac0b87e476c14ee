import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns Swift and C++ symbol names into readable ones, in-process: `swift_demangle` from the
/// Swift runtime and `__cxa_demangle` from the C++ runtime, both found with dlsym.
enum Demangler {
    private typealias SwiftDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?
    private typealias CxaDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<CChar>?

    private static let swiftDemangle: SwiftDemangle? = symbol("swift_demangle")
    private static let cxaDemangle: CxaDemangle? = symbol("__cxa_demangle")

    private static func symbol<T>(_ name: String) -> T? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }

    /// The readable form of a function symbol, or nil when it is not mangled (or unknown).
    static func function(_ name: String) -> String? {
        if isSwift(name) { return demangleSwift(name) }
        if name.hasPrefix("_Z") { return demangleCxx(name) }
        return nil
    }

    /// The readable form of a C++ type name from std::type_info::name(), e.g. St13runtime_error.
    static func cxxType(_ name: String) -> String {
        demangleCxx(name) ?? name
    }

    private static func isSwift(_ name: String) -> Bool {
        ["$s", "$S", "$e", "_$s", "_T0", "@__swiftmacro_"].contains { name.hasPrefix($0) }
    }

    private static func demangleSwift(_ name: String) -> String? {
        guard let demangle = swiftDemangle else { return nil }
        return name.withCString { text in
            guard let result = demangle(text, strlen(text), nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
    }

    private static func demangleCxx(_ name: String) -> String? {
        guard let demangle = cxaDemangle else { return nil }
        var status: Int32 = -1
        return name.withCString { text in
            guard let result = demangle(text, nil, nil, &status) else { return nil }
            defer { free(result) }
            return status == 0 ? String(cString: result) : nil
        }
    }
}
