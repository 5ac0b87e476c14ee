import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File-system steps for processing: owner-only directories and files, and writes that are
/// either complete on disk or absent (temporary file, fsync, rename, fsync of the directory).
enum DurableFile {
    /// Creates directory (and parents) with mode 0700 when missing.
    static func makeDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ProcessingError.notADirectory(path: url.path) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                at: url, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            // Another processor may have created it in the meantime.
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return
            }
            throw ProcessingError.cannotCreateDirectory(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Writes data to url atomically with mode 0600.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = try writeTemporary(data, for: url, sync: true)
        try publish(temporary, as: url)
        syncDirectory(url.deletingLastPathComponent())
    }

    /// Writes data, mode 0600, to a hidden temporary file beside url and returns its URL; with
    /// `sync`, fsyncs it. Batch writers skip the per-file fsync and call `flush(fileSystemOf:)`
    /// once before publishing.
    static func writeTemporary(_ data: Data, for url: URL, sync: Bool) throws -> URL {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ProcessingError.cannotWrite(path: temporary.path, reason: String(cString: strerror(errno)))
        }
        var failure: String?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { failure = String(cString: strerror(errno)); return }
                offset += written
            }
        }
        if failure == nil && sync && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if let failure {
            unlink(temporary.path)
            throw ProcessingError.cannotWrite(path: url.path, reason: failure)
        }
        return temporary
    }

    /// Renames a written temporary file to its final name.
    static func publish(_ temporary: URL, as url: URL) throws {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw ProcessingError.cannotWrite(path: url.path, reason: reason)
        }
    }

    /// Flushes every file written on the file system holding `url` (one syncfs for a batch,
    /// instead of an fsync per file). Throws when the flush fails: nothing may be deleted then.
    static func flush(fileSystemOf url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ProcessingError.cannotWrite(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        guard linuxSyncfs(fd) == 0 else {
            throw ProcessingError.cannotWrite(path: url.path, reason: String(cString: strerror(errno)))
        }
    }

    static func syncDirectory(_ url: URL) {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }
}

/// syncfs(2) from glibc (declared only under _GNU_SOURCE, so Swift's Glibc module lacks it).
@_silgen_name("syncfs")
private func linuxSyncfs(_ fd: Int32) -> Int32
