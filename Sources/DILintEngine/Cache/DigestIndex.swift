import Foundation

/// Content digests of files, remembered with the file's stat data (device, inode, size, mtime,
/// ctime) the way git's index does, so an unchanged file is not hashed again on the next run.
/// A digest is only remembered for a file whose ctime is over two seconds old when it is hashed:
/// a file being written as it is read, or modified within the file system's timestamp granularity
/// after, is never trusted. The file is plain text, one line per file; bad lines are skipped.
/// A file written by another user (its owner is not the effective uid) or reached through a
/// symbolic link is not read: a digest in it could make a changed file look unchanged.
final class DigestIndex: @unchecked Sendable {
    struct Stamp: Equatable {
        var device: UInt64, inode: UInt64, size: Int64
        var mtime: Int64, mtimeNanos: Int64, ctime: Int64, ctimeNanos: Int64

        init?(path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            self.init(st)
        }

        init(_ st: stat) {
            self.init(
                device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                mtime: Int64(st.st_mtim.tv_sec), mtimeNanos: Int64(st.st_mtim.tv_nsec),
                ctime: Int64(st.st_ctim.tv_sec), ctimeNanos: Int64(st.st_ctim.tv_nsec))
        }

        init(
            device: UInt64, inode: UInt64, size: Int64, mtime: Int64, mtimeNanos: Int64, ctime: Int64, ctimeNanos: Int64
        ) {
            (self.device, self.inode, self.size) = (device, inode, size)
            (self.mtime, self.mtimeNanos, self.ctime, self.ctimeNanos) = (mtime, mtimeNanos, ctime, ctimeNanos)
        }

        var fields: [String] {
            ["\(device)", "\(inode)", "\(size)", "\(mtime)", "\(mtimeNanos)", "\(ctime)", "\(ctimeNanos)"]
        }
    }

    /// The directory holding the file (a descriptor), and the file's name in it.
    private let directory: Int32, name: String
    private let ownsDirectory: Bool
    private let lock = NSLock()
    private var entries: [String: (stamp: Stamp, digest: String)] = [:]
    private var changed = false

    /// The index in file `name` of the directory open at `directory` (the caller keeps it open).
    init(directory: Int32, name: String) {
        (self.directory, self.name, ownsDirectory) = (directory, name, false)
        load()
    }

    /// The index in `file`.
    init(file: URL) {
        directory = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        (name, ownsDirectory) = (file.lastPathComponent, true)
        load()
    }

    deinit {
        if ownsDirectory && directory >= 0 { close(directory) }
    }

    private func load() {
        var st = stat()
        guard let bytes = readFileBytes(name, status: &st, directory: directory, flags: O_NOFOLLOW),
            st.st_uid == geteuid()
        else { return }
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if let (path, entry) = Self.parse(bytes[start..<end]) { entries[path] = entry }
            start = end + 1
        }
    }

    /// `digest⇥device⇥inode⇥size⇥mtime⇥ns⇥ctime⇥ns⇥path`, or nil for a line that is not one.
    private static func parse(_ line: ArraySlice<UInt8>) -> (String, (stamp: Stamp, digest: String))? {
        var fields: [ArraySlice<UInt8>] = []
        var from = line.startIndex
        for i in line.indices where line[i] == UInt8(ascii: "\t") && fields.count < 8 {
            fields.append(line[from..<i])
            from = i + 1
        }
        fields.append(line[from...])
        guard fields.count == 9, fields[0].count == 64, !fields[8].isEmpty else { return nil }
        var numbers: [Int64] = []
        for f in fields[1...7] {
            guard !f.isEmpty, f.count <= 18, f.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            numbers.append(f.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) })
        }
        let stamp = Stamp(
            device: UInt64(numbers[0]), inode: UInt64(numbers[1]), size: numbers[2], mtime: numbers[3],
            mtimeNanos: numbers[4], ctime: numbers[5], ctimeNanos: numbers[6])
        return (String(decoding: fields[8], as: UTF8.self), (stamp, String(decoding: fields[0], as: UTF8.self)))
    }

    /// The SHA-256 of the file at `path`. When its stat data (`status`, or read now when nil)
    /// matches what the index remembers, the remembered digest, without calling `content`;
    /// otherwise `content()` hashed (nil if unreadable).
    func digest(path: String, status: stat? = nil, content: () -> [UInt8]?) -> String? {
        let stamp = status.map(Stamp.init) ?? Stamp(path: path)
        lock.lock()
        let known = entries[path]
        lock.unlock()
        if let stamp, let known, known.stamp == stamp { return known.digest }
        guard let content = content() else { return nil }
        let digest = content.withUnsafeBytes { bytes -> String in
            var hasher = SHA256()
            hasher.update(bytes)
            return SHA256.hexString(hasher.finalize())
        }
        if let stamp, Int64(content.count) == stamp.size, stamp.ctime < Int64(Date().timeIntervalSince1970) - 2 {
            lock.lock()
            entries[path] = (stamp, digest)
            changed = true
            lock.unlock()
        }
        return digest
    }

    /// Drops the digests of files that no longer exist; returns how many.
    func forgetMissingFiles() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let gone = entries.keys.filter { access($0, F_OK) != 0 }
        for path in gone { entries[path] = nil }
        if !gone.isEmpty { changed = true }
        return gone.count
    }

    /// Writes the index if it learned anything (temporary file, then rename).
    func save() {
        lock.lock()
        defer { lock.unlock() }
        guard changed else { return }
        let text =
            entries.map { path, e in ([e.digest] + e.stamp.fields + [path]).joined(separator: "\t") }.joined(
                separator: "\n") + "\n"
        writeAtomically(Array(text.utf8), directory: directory, name: name)
        changed = false
    }
}

/// Writes file `name` (a path relative to the directory open at `directory`) through a temporary
/// file beside it renamed into place, so readers see the old file or the new one, never a part;
/// neither open follows a symbolic link at the end of the path. No fsync: the cache may lose an
/// entry, not corrupt one that is then trusted (entries that do not decode are recomputed).
/// False, with `errno` set, when it could not be written.
@discardableResult
func writeAtomically(_ bytes: [UInt8], directory: Int32, name: String) -> Bool {
    let folder = name.lastIndex(of: "/").map { String(name[...$0]) } ?? ""
    let temporary = folder + ".tmp-\(UUID().uuidString)"
    let fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    var written = 0
    while written < bytes.count {
        let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        written += n
    }
    let error = written == bytes.count ? 0 : (errno == 0 ? EIO : errno)
    close(fd)
    guard error == 0, renameat(directory, temporary, directory, name) == 0 else {
        let saved = error == 0 ? errno : error
        unlinkat(directory, temporary, 0)
        errno = saved
        return false
    }
    return true
}
