import Foundation

/// How far a run has come: files done out of the total, findings so far (before suppressions
/// and the baseline). The linter's workers count; a progress display reads `snapshot`.
public final class LintProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0, done = 0, findings = 0

    public init() {}

    func start(total: Int) {
        lock.lock(); defer { lock.unlock() }
        self.total = total
        done = 0
        findings = 0
    }

    func fileDone(findings count: Int) {
        lock.lock(); defer { lock.unlock() }
        done += 1
        findings += count
    }

    public var snapshot: (done: Int, total: Int, findings: Int) {
        lock.lock(); defer { lock.unlock() }
        return (done, total, findings)
    }
}
