import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one processing pass did.
public struct DumpProcessingSummary: Sendable {
    /// Reports new to the caller: written by this pass, or published by an earlier pass that was
    /// killed before it could remove the dump and return (so nobody has seen them yet).
    public var reports: [URL] = []
    /// Dumps left alone because another process holds their lock (a live process that may
    /// still crash into them, or another processor working on them), or because the name is
    /// not a regular file.
    public var skippedInUse: [URL] = []
    /// Temporary report files of earlier passes that were killed mid-write; deleted.
    public var removedTemporaries: [URL] = []
    /// Dumps that could not be turned into a report; they stay claimed and are retried.
    public var failures: [DumpProcessingFailure] = []
}

/// A dump that could not be processed, and why.
public struct DumpProcessingFailure: Sendable {
    public let dump: URL
    public let error: ProcessingError
}

/// Turns every finished intermediate dump in `pendingDirectory` into a JSON report in
/// `reportsDirectory` (schema: docs/crash-report-schema.md).
///
/// Each dump is claimed by renaming it into `pendingDirectory/claimed/` while holding its
/// lock, so concurrent processors never take the same dump; it is deleted only after its
/// report is on disk (fsync + rename), and a dump whose processor died is picked up again from
/// `claimed/`. Damaged dumps still give a report, marked incomplete, and so does a dump whose
/// process died without finishing it (killed, or a crash no handler could run for): a process
/// that ends cleanly removes its own dump. Temporaries left by a killed pass are removed.
/// Directories are created
/// 0700 and reports 0600. Throws only when a directory cannot be created or listed.
@discardableResult
public func processIntermediateDumps(in pendingDirectory: URL, into reportsDirectory: URL) throws
    -> DumpProcessingSummary
{
    try DumpProcessor(pending: pendingDirectory, reports: reportsDirectory).run()
}

/// The file extension of pending intermediate dumps.
public let intermediateDumpExtension = "seamdump"

struct DumpProcessor {
    let pending: URL
    let claimed: URL
    let reports: URL
    let builder: ReportBuilder

    init(pending: URL, reports: URL) {
        self.pending = pending
        self.claimed = pending.appendingPathComponent("claimed")
        self.reports = reports
        builder = ReportBuilder(symbolicator: Symbolicator(symbolStore: SymbolStore(dumpDirectory: pending)))
    }

    /// Dumps are finished in batches: each batch's reports are written to temporary files, made
    /// durable with one file-system flush, renamed into place, and only then are the batch's dumps
    /// deleted. The batch bound keeps the held dump locks (one descriptor each) well under limits.
    static let batchSize = 64

    func run() throws -> DumpProcessingSummary {
        for directory in [pending, claimed, reports] { try DurableFile.makeDirectory(directory) }
        var summary = DumpProcessingSummary()
        summary.removedTemporaries = removeAbandonedTemporaries()
        var batch: [(dump: LockedDump, name: String)] = []
        func flushBatch() {
            finish(batch, into: &summary)
            batch.removeAll()
        }
        // Dumps a processor claimed and then died on come first.
        for url in try dumps(in: claimed) {
            guard let dump = LockedDump(url) else { summary.skippedInUse.append(url); continue }
            batch.append((dump, url.lastPathComponent))
            if batch.count == Self.batchSize { flushBatch() }
        }
        for url in try dumps(in: pending) {
            guard let dump = LockedDump(url) else { summary.skippedInUse.append(url); continue }
            let target = claimed.appendingPathComponent(url.lastPathComponent)
            guard rename(url.path, target.path) == 0 else { continue } // another processor took it
            batch.append((dump, url.lastPathComponent))
            if batch.count == Self.batchSize { flushBatch() }
        }
        flushBatch()
        return summary
    }

    /// Writes the reports for claimed dumps, makes them durable, then deletes the dumps.
    private func finish(_ batch: [(dump: LockedDump, name: String)], into summary: inout DumpProcessingSummary) {
        guard !batch.isEmpty else { return }
        var staged: [(claimed: URL, temporary: ReportOutputs.Staged?, report: URL)] = []
        for (dump, name) in batch {
            let claimedURL = claimed.appendingPathComponent(name)
            let reportURL = reports.appendingPathComponent(reportName(for: name))
            if FileManager.default.fileExists(atPath: reportURL.path) {
                // Published by a pass killed before it removed the dump: new to the caller.
                staged.append((claimedURL, nil, reportURL))
                continue
            }
            do {
                let bytes = try dump.readAll(path: claimedURL.path)
                let snapshot = ProcessSnapshot(IntermediateDump(bytes: bytes))
                let report = builder.report(for: snapshot, fileName: name)
                let temporary = try ReportOutputs.stage(report, of: snapshot, as: reportURL)
                staged.append((claimedURL, temporary, reportURL))
            } catch let error as ProcessingError {
                summary.failures.append(DumpProcessingFailure(dump: claimedURL, error: error))
            } catch {
                summary.failures.append(
                    DumpProcessingFailure(
                        dump: claimedURL, error: .cannotWrite(path: reportURL.path, reason: "\(error)")))
            }
        }
        do {
            try DurableFile.flush(fileSystemOf: reports)
        } catch let error as ProcessingError {
            // Nothing is durable: keep every dump, drop the temporaries; the next pass retries.
            for s in staged { s.temporary?.discard() }
            for s in staged { summary.failures.append(DumpProcessingFailure(dump: s.claimed, error: error)) }
            return
        } catch {
            return
        }
        var published: [URL] = []
        for s in staged {
            guard let temporary = s.temporary else {
                summary.reports.append(s.report)
                published.append(s.claimed)
                continue
            }
            do {
                try temporary.publish(as: s.report)
                summary.reports.append(s.report)
                published.append(s.claimed)
            } catch let error as ProcessingError {
                summary.failures.append(DumpProcessingFailure(dump: s.claimed, error: error))
            } catch {}
        }
        DurableFile.syncDirectory(reports)
        // No fsync needed after these: if an unlink is lost, the next pass finds the report and
        // only removes the dump.
        for claimedURL in published { unlink(claimedURL.path) }
    }

    /// Deletes the hidden `.<name>.<pid>.<random>.tmp` files in reports/ whose writing process is
    /// gone (a pass killed between writing and renaming); a live processor's are left alone.
    private func removeAbandonedTemporaries() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: reports.path)) ?? []
        var removed: [URL] = []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.split(separator: ".")
            guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), pid > 0 else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH { continue }
            let url = reports.appendingPathComponent(name)
            if unlink(url.path) == 0 { removed.append(url) }
        }
        return removed
    }

    private func reportName(for dumpName: String) -> String {
        let base =
            dumpName.hasSuffix("." + intermediateDumpExtension)
            ? String(dumpName.dropLast(intermediateDumpExtension.count + 1)) : dumpName
        return base + ".json"
    }

    private func dumps(in directory: URL) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ProcessingError.cannotList(path: directory.path, reason: error.localizedDescription)
        }
        return names.filter { $0.hasSuffix("." + intermediateDumpExtension) && !$0.hasPrefix(".") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }
}

/// An open dump file whose exclusive flock this process holds, verified to be a regular file
/// (not a symlink, directory or device) still at its path. The lock is released when the
/// value is dropped.
final class LockedDump {
    private let fd: Int32
    let size: Int

    init?(_ url: URL) {
        fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var held = stat(), named = stat()
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &held) == 0, (held.st_mode & S_IFMT) == S_IFREG,
            lstat(url.path, &named) == 0,
            held.st_ino == named.st_ino, held.st_dev == named.st_dev
        else {
            close(fd)
            return nil
        }
        size = Int(held.st_size)
    }

    deinit { close(fd) }

    func readAll(path: String) throws -> [UInt8] {
        let limit = min(size, DumpParser.Limits().maxFileBytes)
        var bytes = [UInt8](repeating: 0, count: limit)
        var offset = 0
        while offset < limit {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, limit - offset, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ProcessingError.cannotRead(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            offset += n
        }
        return Array(bytes.prefix(offset))
    }
}
