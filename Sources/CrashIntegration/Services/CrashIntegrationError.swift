/// A failure of the crash integration, with a message naming the file or setting at fault.
public struct CrashIntegrationError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// Runs a C call that fills an error buffer and returns non-zero on failure.
    static func check(_ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws {
        var buffer = [CChar](repeating: 0, count: 512)
        let result = buffer.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
        if result != 0 {
            throw CrashIntegrationError(String(cString: buffer))
        }
    }
}
