import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files processing leaves for one dump: `<name>.dmp`, the minidump a crash backend
/// ingests, and `<name>.json`, the report. Both are written to temporary files first; the
/// minidump is published before the report, so an uploader (which lists reports) never finds a
/// report whose minidump is still missing.
enum ReportOutputs {
    /// File extension of minidumps beside the reports.
    static let minidumpExtension = "dmp"

    /// The minidump that belongs to a report file.
    static func minidumpURL(for reportURL: URL) -> URL {
        reportURL.deletingPathExtension().appendingPathExtension(minidumpExtension)
    }

    /// Temporary files written, not yet published.
    struct Staged {
        let minidump: URL
        let report: URL

        /// Renames both into place, the minidump first.
        func publish(as reportURL: URL) throws {
            do {
                try DurableFile.publish(minidump, as: ReportOutputs.minidumpURL(for: reportURL))
            } catch {
                unlink(report.path)
                throw error
            }
            try DurableFile.publish(report, as: reportURL)
        }

        /// Removes both temporaries (nothing was made durable).
        func discard() {
            unlink(minidump.path)
            unlink(report.path)
        }
    }

    /// Completes `report` (identity) and writes it and the minidump of `snapshot` to
    /// temporary files beside `reportURL`, unsynced: the caller flushes the file system once per batch.
    static func stage(_ report: CrashReport, of snapshot: ProcessSnapshot, as reportURL: URL) throws -> Staged {
        let complete = report.withIdentity()
        let minidump = Data(MinidumpWriter.bytes(for: MinidumpInput(snapshot: snapshot)))
        let minidumpFile = try DurableFile.writeTemporary(minidump, for: minidumpURL(for: reportURL), sync: false)
        do {
            return Staged(
                minidump: minidumpFile,
                report: try DurableFile.writeTemporary(ReportJSON.data(complete), for: reportURL, sync: false))
        } catch {
            unlink(minidumpFile.path)
            throw error
        }
    }
}
