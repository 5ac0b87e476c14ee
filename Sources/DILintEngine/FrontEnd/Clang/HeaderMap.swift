import Foundation

/// The run's header map: the tree's headers made includable by their bare name, as Xcode's header
/// maps make every project header includable, without `-I` flags.
///
/// **What it maps.** From the files the run walks (the `.h`, `.hh`, `.hpp` among them; excluded
/// files are not walked, so not mapped), each header `…/A/B/C/X.h` gets the keys `X.h`, `C/X.h`,
/// `B/X.h` and `A/X.h` — its bare name, and the framework-style `<Module/X.h>` for each of its
/// nearest `maxAncestors` directory names (Xcode's `<Sentry/SentryHub.h>` for
/// `Sources/Sentry/Public/SentryHub.h`; a path of several directories, `"B/C/X.h"`, is not mapped)
/// — with the header's absolute, normalized path as the value. When several headers claim a key
/// (keys are compared case-insensitively, as clang looks them up), the nearer directory level wins
/// (`C/X.h` from `…/C/X.h` over one from `…/C/D/X.h`), then the path with fewer components, then
/// the shorter path, then the first in byte order; bare names several headers share are counted
/// (`ambiguousNames`). Keys that are not ASCII are left out (clang hashes `char`, whose signedness
/// differs between hosts); values (paths) may be anything.
///
/// **Where it goes** (`HeaderMapFile.arguments(after:)`): after the compile database's and
/// `clang-flags`' arguments, as `-iquote MAP` (each `-I` and `-isystem` directory repeated as
/// `-iquote` before it) and `-idirafter MAP`. clang searches, for `"X.h"`: the including file's directory, then
/// `-iquote`, `-I`, `-isystem`, the system directories, and `-idirafter` last (`<X.h>` skips the
/// first two); so every flag wins, a header beside its includer is still found there, a quoted
/// name the map resolves is a user header (project code), and for `<X.h>` the map is searched
/// last, as a system directory, so an in-tree `Time.h` cannot shadow `<time.h>`.
///
/// **The file format** (clang's `HeaderMap`, what Xcode writes; read by clang from any `-I`-style
/// argument naming a file): a 24-byte header of little-endian words — magic `'hmap'` (0x686D6170),
/// version 1 (16 bits), reserved 0 (16 bits), offset of the string pool, number of entries, number of
/// buckets (a power of two), length of the longest value — then the buckets, three 32-bit string
/// offsets each (key, value prefix, value suffix; key offset 0 marks an empty bucket, so the pool
/// starts with a NUL), then the pool of NUL-terminated strings. A key lives in the bucket
/// `hash & (buckets − 1)` or the next free one after it (linear probing), where the hash adds 13 ×
/// each lowercased byte; the value is prefix + suffix (here: the directory with its `/`, and the
/// file name). Buckets are at least twice the entries, so probes stay short and one is always empty.
public enum HeaderMap {
    /// Header extensions mapped (those `SourceLanguage` parses as headers).
    static let extensions = SourceLanguage.headerExtensions
    /// How many of a header's enclosing directories give a `Dir/X.h` key.
    static let maxAncestors = 3

    static let magic: UInt32 = 0x686D_6170
    static let headerSize = 24
    static let bucketSize = 12

    /// clang's `HashHMapKey`.
    static func hash<Bytes: Sequence>(_ key: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var result: UInt32 = 0
        for b in key {
            let lower = (b >= 65 && b <= 90) ? b + 32 : b
            result &+= UInt32(lower) &* 13
        }
        return result
    }

    /// The map's entries: key → absolute path, and how many bare names several headers share.
    static func entries(headers: [String], workingDirectory: String = FileManager.default.currentDirectoryPath)
        -> (entries: [(key: String, path: String)], ambiguousNames: Int)
    {
        // per lowercased key: the best candidate so far, by (level, components, length, path)
        var best: [String: (key: String, path: String, level: Int, components: Int, length: Int)] = [:]
        var bareNames: [String: Set<String>] = [:]
        for header in headers where extensions.contains((header as NSString).pathExtension) {
            let absolute = FileCollector.normalized(header.hasPrefix("/") ? header : workingDirectory + "/" + header)
            let parts = absolute.split(separator: "/").map(String.init)
            guard let name = parts.last else { continue }
            if name.utf8.allSatisfy({ $0 < 0x80 }) { bareNames[name.lowercased(), default: []].insert(absolute) }
            let directories = parts.dropLast()
            for level in 0...min(maxAncestors, directories.count) {
                let key = level == 0 ? name : directories[directories.count - level] + "/" + name
                guard key.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
                let lowered = key.lowercased()
                if let k = best[lowered],
                    (k.level, k.components, k.length, k.path) <= (level, parts.count, absolute.utf8.count, absolute)
                {
                    continue
                }
                best[lowered] = (key, absolute, level, parts.count, absolute.utf8.count)
            }
        }
        let entries = best.values.map { (key: $0.key, path: $0.path) }.sorted {
            $0.key.lowercased() < $1.key.lowercased()
        }
        return (entries, bareNames.values.filter { $0.count > 1 }.count)
    }

    /// The map file's bytes for the entries (keys distinct case-insensitively).
    static func encode(_ entries: [(key: String, path: String)]) -> [UInt8] {
        var buckets = 2
        while buckets < entries.count * 2 { buckets *= 2 }
        var pool: [UInt8] = [0]
        var offsets: [String: UInt32] = [:]
        func intern(_ s: String) -> UInt32 {
            if let known = offsets[s] { return known }
            let offset = UInt32(pool.count)
            pool += Array(s.utf8) + [0]
            offsets[s] = offset
            return offset
        }
        var table = [(UInt32, UInt32, UInt32)](repeating: (0, 0, 0), count: buckets)
        var longest = 0
        for (key, path) in entries {
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            let prefix = String(path[..<slash]), suffix = String(path[slash...])
            longest = max(longest, path.utf8.count)
            var slot = Int(hash(key.utf8) & UInt32(buckets - 1))
            while table[slot].0 != 0 { slot = (slot + 1) & (buckets - 1) }
            table[slot] = (intern(key), intern(prefix), intern(suffix))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize + buckets * bucketSize + pool.count)
        func word(_ w: UInt32) { withUnsafeBytes(of: w.littleEndian) { bytes += $0 } }
        word(magic)
        bytes += [1, 0, 0, 0] // version 1, reserved 0
        word(UInt32(headerSize + buckets * bucketSize))
        word(UInt32(entries.count))
        word(UInt32(buckets))
        word(UInt32(longest))
        for (k, p, s) in table { word(k); word(p); word(s) }
        return bytes + pool
    }

    /// A header map read back: the lookups clang makes on it.
    struct Table {
        let bytes: [UInt8]
        let buckets: Int
        let strings: Int
        let swapped: Bool

        /// Nil unless the bytes are a header map clang accepts.
        init?(bytes: [UInt8]) {
            guard bytes.count > HeaderMap.headerSize else { return nil }
            self.bytes = bytes
            let m = Self.word(bytes, 0, swapped: false)
            if m == HeaderMap.magic {
                swapped = false
            } else if m.byteSwapped == HeaderMap.magic {
                swapped = true
            } else {
                return nil
            }
            let version =
                swapped ? (UInt16(bytes[4]) << 8 | UInt16(bytes[5])) : (UInt16(bytes[5]) << 8 | UInt16(bytes[4]))
            guard version == 1, bytes[6] == 0, bytes[7] == 0 else { return nil }
            let n = Int(Self.word(bytes, 16, swapped: swapped))
            guard n > 0, n & (n - 1) == 0, bytes.count >= HeaderMap.headerSize + n * HeaderMap.bucketSize else {
                return nil
            }
            buckets = n
            strings = Int(Self.word(bytes, 8, swapped: swapped))
        }

        static func word(_ b: [UInt8], _ at: Int, swapped: Bool) -> UInt32 {
            let w = UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
            return swapped ? w.byteSwapped : w
        }

        private func string(_ offset: UInt32) -> [UInt8]? {
            let start = strings + Int(offset)
            guard start < bytes.count, let end = bytes[start...].firstIndex(of: 0) else { return nil }
            return Array(bytes[start..<end])
        }

        /// The path clang finds for the name, nil when the map has no such key.
        func lookup(_ name: String) -> String? {
            let key = Array(name.utf8)
            var slot = Int(HeaderMap.hash(key))
            for _ in 0..<buckets {
                let at = HeaderMap.headerSize + (slot & (buckets - 1)) * HeaderMap.bucketSize
                let k = Self.word(bytes, at, swapped: swapped)
                if k == 0 { return nil }
                slot += 1
                guard let stored = string(k), stored.count == key.count,
                    zip(stored, key).allSatisfy({ Self.lower($0) == Self.lower($1) })
                else { continue }
                guard let prefix = string(Self.word(bytes, at + 4, swapped: swapped)),
                    let suffix = string(Self.word(bytes, at + 8, swapped: swapped))
                else { return nil }
                return String(decoding: prefix + suffix, as: UTF8.self)
            }
            return nil
        }

        private static func lower(_ b: UInt8) -> UInt8 { (b >= 65 && b <= 90) ? b + 32 : b }
    }

    /// Writes the header map of the run's files into a private temporary directory (removed when
    /// the process exits); nil when the files hold no header.
    public static func write(files: [String]) throws -> HeaderMapFile? {
        let (entries, ambiguous) = entries(headers: files)
        guard !entries.isEmpty else { return nil }
        let bytes = encode(entries)
        var template = Array((NSTemporaryDirectory() + "/di-lint-hmap-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ConfigError.invalid(
                "cannot create a temporary directory for the header map (\(String(cString: strerror(errno))))")
        }
        let directory = String(cString: made)
        let path = directory + "/headers.hmap"
        TemporaryFiles.shared.add(directory: directory, file: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw ConfigError.invalid("cannot write the header map \(path) (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw ConfigError.invalid("cannot write the header map \(path)") }
        let headers = Set(entries.map(\.path)).count
        return HeaderMapFile(
            path: path, digest: SHA256.hex(bytes), headers: headers, keys: entries.count, ambiguousNames: ambiguous)
    }
}

/// A header map written for a run (see `HeaderMap`).
public struct HeaderMapFile: Sendable, CustomReflectable {
    public let path: String
    /// SHA-256 of the map's bytes: what the cache keys on (the path differs between runs).
    public let digest: String
    /// Headers mapped, keys written, and bare names several headers share.
    public let headers: Int, keys: Int, ambiguousNames: Int

    /// The clang arguments that put the map on the search path after `existing` (the language's,
    /// the compile database's and `clang-flags`' arguments). For `"X.h"` the map is a user
    /// directory (`-iquote`): a header found there is project code, its inline functions
    /// followed and its warnings reported. It comes after the includer's directory and every
    /// `-iquote`, `-I` and `-isystem` directory (the last two repeated as `-iquote` before it:
    /// clang searches `-iquote` before them for quoted names), so every flag wins; a quoted name
    /// found in an `-isystem` directory is a user header then. For `<X.h>` it is searched last
    /// (`-idirafter`, a system directory): an in-tree `Time.h` cannot shadow `<time.h>`.
    public func arguments(after existing: [String]) -> [String] {
        let angled = IncludeCheck.searchPaths(existing, directoryFlags: ["-I", "--include-directory"]).directories
        let system = IncludeCheck.searchPaths(existing, directoryFlags: ["-isystem"]).directories
        return (angled + system).flatMap { ["-iquote", $0] } + ["-iquote", path, "-idirafter", path]
    }

    /// Only the digest: the cache key (`CanonicalDescription`) then changes exactly when the map's content does.
    public var customMirror: Mirror { Mirror(self, children: ["digest": digest], displayStyle: .struct) }
}

/// Removes the run's temporary files when the process exits.
final class TemporaryFiles: @unchecked Sendable {
    static let shared = TemporaryFiles()
    private var items: [(directory: String, file: String)] = []
    private let lock = NSLock()

    private init() {
        atexit { TemporaryFiles.shared.removeAll() }
    }

    func add(directory: String, file: String) {
        lock.lock()
        items.append((directory, file))
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        for item in items {
            unlink(item.file)
            rmdir(item.directory)
        }
        items = []
        lock.unlock()
    }
}
