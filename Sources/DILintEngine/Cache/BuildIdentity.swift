import Foundation

/// What the cache key says about the program producing the outcomes: a rebuilt di-lint or another
/// libclang (`LibClang.identity`) may parse or classify differently, so their outcomes never mix.
enum BuildIdentity {
    /// The running executable's GNU build id (a hash of its code the linker writes), so identical
    /// rebuilds share a cache and changed code does not; else the executable's size and mtime.
    static let executable: String = {
        #if os(Linux)
        if let id = gnuBuildID() { return "build-id:" + SHA256.hexString(id) }
        #endif
        let path = Bundle.main.executablePath ?? CommandLine.arguments[0]
        var st = stat()
        guard stat(path, &st) == 0 else { return "unknown" }
        return "exe:\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }()

    #if os(Linux)
    /// Reads NT_GNU_BUILD_ID from the PT_NOTE segments of /proc/self/exe (64-bit little-endian ELF).
    private static func gnuBuildID() -> [UInt8]? {
        guard let file = FileHandle(forReadingAtPath: "/proc/self/exe") else { return nil }
        defer { try? file.close() }
        func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard (try? file.seek(toOffset: offset)) != nil, let data = try? file.read(upToCount: count),
                data.count == count
            else { return nil }
            return [UInt8](data)
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        guard let header = read(0, 64), header[0..<4] == [0x7f, 0x45, 0x4c, 0x46], header[4] == 2, header[5] == 1 else {
            return nil
        }
        let tableOffset = integer(header, 32, 8), entrySize = Int(integer(header, 54, 2)),
            entries = Int(integer(header, 56, 2))
        guard entrySize >= 56, let table = read(tableOffset, entrySize * entries) else { return nil }
        for e in 0..<entries where integer(table, e * entrySize, 4) == 4 /* PT_NOTE */ {
            let size = Int(integer(table, e * entrySize + 32, 8))
            guard size < 1 << 16, let notes = read(integer(table, e * entrySize + 8, 8), size) else { continue }
            var offset = 0
            while offset + 12 <= size {
                let nameSize = Int(integer(notes, offset, 4)), descSize = Int(integer(notes, offset + 4, 4))
                let type = integer(notes, offset + 8, 4)
                let descStart = offset + 12 + (nameSize + 3) & ~3
                guard descStart + descSize <= size else { break }
                if type == 3 /* NT_GNU_BUILD_ID */
                    && Array(notes[(offset + 12)..<(offset + 12 + nameSize)]) == Array("GNU\0".utf8)
                {
                    return Array(notes[descStart..<(descStart + descSize)])
                }
                offset = descStart + (descSize + 3) & ~3
            }
        }
        return nil
    }
    #endif
}
