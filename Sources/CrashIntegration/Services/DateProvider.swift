import Foundation

/// The current time, injectable so tests can pin it.
public protocol DateProvider: AnyObject {
    func date() -> Date
}

/// The system clock.
public final class SystemDateProvider: DateProvider {
    public init() {}
    public func date() -> Date { Date() }
}
