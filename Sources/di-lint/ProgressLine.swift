import DILintEngine
import Foundation

/// The updating progress line of a long run, on standard error when it is a terminal:
/// `di-lint: 1234/5678 files, 42 findings`. Not shown when standard error is not a terminal (CI
/// logs, pipes), when `CI` is set or `TERM` is `dumb`, with `--quiet`, or before the run has
/// lasted `delay` seconds (`DI_LINT_PROGRESS_DELAY` overrides the half second); cleared when the run ends.
final class ProgressLine: @unchecked Sendable {
    let progress = LintProgress()
    private let delay: TimeInterval
    private let interval: TimeInterval = 0.2
    private let lock = NSLock()
    private var finished = false
    private var drawn = false
    private let done = DispatchSemaphore(value: 0)

    init(
        delay: TimeInterval = ProcessInfo.processInfo.environment["DI_LINT_PROGRESS_DELAY"].flatMap(Double.init) ?? 0.5
    ) {
        self.delay = delay
    }

    /// Whether a progress line may be drawn on standard error at all.
    static func enabled(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        !quiet && isatty(2) == 1 && environment["CI"].map { $0.isEmpty || $0 == "false" || $0 == "0" } != false
            && environment["TERM"] != "dumb"
    }

    /// Starts redrawing on a thread until `finish`.
    func start() {
        let thread = Thread { [self] in
            let start = Date()
            while done.wait(timeout: .now() + interval) == .timedOut {
                guard Date().timeIntervalSince(start) >= delay else { continue }
                let (files, total, findings) = progress.snapshot
                draw("di-lint: \(files)/\(total) files, \(findings) finding\(findings == 1 ? "" : "s")")
            }
        }
        thread.start()
    }

    /// Stops redrawing and clears the line.
    func finish() {
        lock.lock()
        finished = true
        lock.unlock()
        done.signal()
        lock.lock(); defer { lock.unlock() }
        if drawn { StandardStreams.raw("\r\u{1B}[K") }
        drawn = false
    }

    private func draw(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        guard !finished else { return }
        StandardStreams.raw("\r\u{1B}[K" + text)
        drawn = true
    }
}
