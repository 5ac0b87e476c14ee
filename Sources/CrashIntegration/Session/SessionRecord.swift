import Foundation

/// One run of the program between `.seamAppDidStart` and its end.
public struct SessionRecord: Codable, Equatable {
    public enum Status: String, Codable {
        /// Not ended yet (or the process died before it could say how).
        case running
        /// Ended by `.seamAppWillTerminate`.
        case exited
        /// The launch crashed; `ended` estimates the crash time.
        case crashed
        /// Left open by a launch that did not crash and did not end it; `ended` is unknown.
        case abnormal
    }

    public let id: UUID
    public let started: Date
    public var ended: Date?
    public var status: Status
    /// System info of the launch the session ran in.
    public var attributes: [String: String]
}
