import Foundation

/// The time a whole run may parse for (`--run-timeout`, `run-timeout:`), from its start. Once it
/// is spent no file is parsed: in `lint` and `report` a file still needing a parse is a
/// `parse-failure` naming the budget, and a parse worker still parsing one is killed; in `fix`
/// it is a manual item (a parse under way ends at its own deadline). Files linted before keep
/// their findings.
public struct RunBudget: Sendable {
    public let seconds: Double
    /// When it is spent, in `RunBudget.now()` nanoseconds.
    let end: UInt64

    /// A budget of `seconds` from `start` (`RunBudget.now()` nanoseconds; in another process of
    /// the same machine too: `fix`'s supervisor passes its start to the child it starts).
    public init(seconds: Double, from start: UInt64 = RunBudget.now()) {
        self.seconds = seconds
        let span = seconds * 1e9
        end = span >= Double(UInt64.max - start) ? UInt64.max : start + UInt64(span)
    }

    /// The system's monotonic clock in nanoseconds (`CLOCK_MONOTONIC`: the same in every process).
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    var isSpent: Bool { Self.now() >= end }

    /// Nanoseconds left (0 once spent).
    var left: UInt64 {
        let now = Self.now()
        return now >= end ? 0 : end - now
    }

    /// Why a file not parsed before the budget was spent is not linted.
    var spentBefore: String {
        "the run's budget of \(ParseDeadlines.seconds(seconds)) s was spent before it was parsed (see --run-timeout)"
    }

    /// Why a file whose parse was under way when the budget was spent is not linted.
    var spentDuring: String {
        "the run's budget of \(ParseDeadlines.seconds(seconds)) s was spent while it was parsed (the parse worker was killed; see --run-timeout)"
    }
}
