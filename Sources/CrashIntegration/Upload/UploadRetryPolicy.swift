/// How often and how patiently an upload pass retries reports that got no 2xx answer.
///
/// Attempt 1 goes out at once; before attempt `n` (n ≥ 2) the pass waits
/// `min(maxDelay, baseDelay × 2^(n-2))`. With `jitter`, each wait is drawn uniformly from
/// [half of that, all of it], so many clients do not retry in lockstep.
public struct UploadRetryPolicy: Sendable, Equatable {
    /// Attempts per report in one pass (at least 1). A report still undelivered after that
    /// stays in the directory for the next pass.
    public var maxAttempts: Int
    /// Wait before the first retry.
    public var baseDelay: Duration
    /// Upper bound for any single wait.
    public var maxDelay: Duration
    /// Randomise waits into [delay/2, delay].
    public var jitter: Bool

    public init(
        maxAttempts: Int = 4,
        baseDelay: Duration = .seconds(2),
        maxDelay: Duration = .seconds(60),
        jitter: Bool = true
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// The wait before `attempt` (2 for the first retry). `unitRandom` in [0, 1] picks the
    /// jittered point; it is ignored without jitter.
    public func delay(beforeAttempt attempt: Int, unitRandom: Double = Double.random(in: 0...1)) -> Duration {
        guard attempt >= 2 else { return .zero }
        let doublings = min(attempt - 2, 62)
        let uncapped = baseDelay.inSeconds * Double(1 << doublings)
        let full = min(uncapped, maxDelay.inSeconds)
        let chosen = jitter ? full * (0.5 + 0.5 * min(max(unitRandom, 0), 1)) : full
        return .nanoseconds(Int64((chosen * 1e9).rounded()))
    }
}
