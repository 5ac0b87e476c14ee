import Foundation

/// Content digests of files, remembered with the file's stat data (device, inode, size, mtime,
/// ctime) the way git's index does, so an unchanged file is not hashed again on the next run.
/// A digest is only remembered for a file whose ctime is over two seconds old when it is hashed:
/// a file being written as it is read, or modified within the file system's timestamp granularity
/// after, is never trusted. The file is plain text, one line per file; bad lines are skipped.
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
            self.init(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                      mtime: Int64(st.st_mtim.tv_sec), mtimeNanos: Int64(st.st_mtim.tv_nsec),
                      ctime: Int64(st.st_ctim.tv_sec), ctimeNanos: Int64(st.st_ctim.tv_nsec))
        }

        init(device: UInt64, inode: UInt64, size: Int64, mtime: Int64, mtimeNanos: Int64, ctime: Int64, ctimeNanos: Int64) {
            (self.device, self.inode, self.size) = (device, inode, size)
            (self.mtime, self.mtimeNanos, self.ctime, self.ctimeNanos) = (mtime, mtimeNanos, ctime, ctimeNanos)
        }

        var fields: [String] { ["\(device)", "\(inode)", "\(size)", "\(mtime)", "\(mtimeNanos)", "\(ctime)", "\(ctimeNanos)"] }
    }

    private let file: URL
    private let lock = NSLock()
    private var entries: [String: (stamp: Stamp, digest: String)] = [:]
    private var changed = false

    init(file: URL) {
        self.file = file
        guard let bytes = readFileBytes(file.path) else { return }
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
        let stamp = Stamp(device: UInt64(numbers[0]), inode: UInt64(numbers[1]), size: numbers[2], mtime: numbers[3],
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
        let text = entries.map { path, e in ([e.digest] + e.stamp.fields + [path]).joined(separator: "\t") }.joined(separator: "\n") + "\n"
        writeAtomically(Data(text.utf8), to: file)
        changed = false
    }
}

/// Writes through a temporary file in the same directory renamed into place, so readers see the
/// old file or the new one, never a part. No fsync: the cache may lose an entry, not corrupt one
/// that is then trusted (entries that do not decode are recomputed).
@discardableResult
func writeAtomically(_ data: Data, to url: URL) -> Bool {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".tmp-\(UUID().uuidString)").path
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard fd >= 0 else { return false }
    let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    guard written == data.count, rename(temporary, url.path) == 0 else {
        unlink(temporary)
        return false
    }
    return true
}
