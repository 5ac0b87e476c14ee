import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Copies of the program's own module files, one per build ID, so a crash is still symbolicated
/// after the program was rebuilt or upgraded: processing refuses a module file whose build ID is
/// not the one recorded at crash time, and then reads the copy kept for that build instead.
///
/// Layout: `<dump directory>/symbols/<build ID in hex>/<file name>`. At install the integration
/// keeps the executable (copied from `/proc/self/exe`, the file actually running) and the shared
/// libraries loaded from the executable's directory or below it. It also keeps the symbols of
/// the Swift runtime libraries loaded from the toolchain's directory (the one holding
/// libswiftCore.so), which an upgrade of the toolchain replaces in place: a symbols-only copy
/// (see `symbolRanges`). A build already kept costs one `stat`. Files over `maxFileBytes`, and
/// symbols-only copies over `maxSymbolsBytes` or that would leave less than
/// `symbolsFreeSpaceMargin` free on the store's file system, are not kept; only the newest `buildsKept` builds
/// of each file name stay (older ones are removed when a new build is kept). System libraries
/// (libc, libstdc++) are not kept.
public struct SymbolStore: Sendable {
    /// The store's directory inside the dump directory.
    public static let directoryName = "symbols"
    /// Largest module file kept (the most processing reads, `ELFSymbolTable.maxFileBytes`).
    public static let maxFileBytes = ELFSymbolTable.maxFileBytes
    /// Builds kept per file name.
    public static let buildsKept = 4
    /// Largest symbols-only copy of a runtime library kept (bytes written).
    public static let maxSymbolsBytes = 64 << 20
    /// Free space a symbols-only copy must leave on the store's file system: the runtime's
    /// symbols never take the room that dumps and reports need.
    public static let symbolsFreeSpaceMargin = 256 << 20

    public let directory: URL

    public init(dumpDirectory: URL) {
        directory = dumpDirectory.appendingPathComponent(Self.directoryName, isDirectory: true)
    }

    /// One module file as the store holds it.
    public struct Kept: Sendable, Equatable {
        public let module: String
        public let buildID: String
        public let file: URL
        public let bytes: Int
        /// False when this build was already kept.
        public let copied: Bool
    }

    /// Keeps the running program's own modules (see the type's description). Returns what the
    /// store holds for them, and a warning for each module it could not keep (the program runs
    /// on; only symbolication after an update loses that module).
    @discardableResult
    public func keepLoadedModules() -> (kept: [Kept], warnings: [String]) {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var sources: [(module: String, readFrom: String)] = []
        if !executable.isEmpty { sources.append((executable, "/proc/self/exe")) }
        let home = URL(fileURLWithPath: executable).deletingLastPathComponent().path + "/"
        let loaded = Self.loadedFiles()
        for library in loaded where library != executable && library.hasPrefix(home) {
            sources.append((library, library))
        }
        let own = keep(sources, symbolsOnly: false)
        let runtime = keepRuntimeLibraries(loaded: loaded, excluding: home)
        return (own.kept + runtime.kept, own.warnings + runtime.warnings)
    }

    /// Keeps a symbols-only copy of each loaded Swift runtime library (see the type's
    /// description); those under `excluding` (the executable's directory) are kept whole instead.
    @discardableResult
    func keepRuntimeLibraries(loaded: [String] = loadedFiles(), excluding home: String) -> (
        kept: [Kept], warnings: [String]
    ) {
        keep(Self.swiftRuntimeLibraries(loaded, excluding: home).map { ($0, $0) }, symbolsOnly: true)
    }

    private func keep(_ sources: [(module: String, readFrom: String)], symbolsOnly: Bool) -> (
        kept: [Kept], warnings: [String]
    ) {
        var kept: [Kept] = [], warnings: [String] = []
        for source in sources {
            do {
                if let entry = try keep(module: source.module, readingFrom: source.readFrom, symbolsOnly: symbolsOnly) {
                    kept.append(entry)
                }
            } catch {
                warnings.append("symbol store: cannot keep \(source.module): \(error)")
            }
        }
        return (kept, warnings)
    }

    /// The loaded libraries in the directory of the loaded libswiftCore.so (the Swift toolchain's
    /// runtime), unless that is under `excluding` (the executable's directory, kept whole).
    static func swiftRuntimeLibraries(_ loaded: [String], excluding home: String) -> [String] {
        guard let core = loaded.first(where: { $0.hasSuffix("/libswiftCore.so") }) else { return [] }
        let directory = String(core[...core.lastIndex(of: "/")!])
        guard !directory.hasPrefix(home) else { return [] }
        return loaded.filter { $0.hasPrefix(directory) && !$0.dropFirst(directory.count).contains("/") }
    }

    /// Copies `path` (read from `readFrom`) into the store under its build ID unless it is there
    /// already, whole or (`symbolsOnly`) its symbols only; nil when the file has no build ID or
    /// is too large to keep.
    func keep(module path: String, readingFrom readFrom: String, symbolsOnly: Bool = false) throws -> Kept? {
        guard let buildID = ELFBuildID.read(path: readFrom) else { return nil }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let hexID = ReportBuilder.hexBytes(buildID)
        let buildDirectory = directory.appendingPathComponent(hexID, isDirectory: true)
        let target = buildDirectory.appendingPathComponent(name)
        var source = stat(), existing = stat()
        guard stat(readFrom, &source) == 0 else { throw StoreError(String(cString: strerror(errno))) }
        if stat(target.path, &existing) == 0 && existing.st_size == source.st_size {
            return Kept(module: path, buildID: hexID, file: target, bytes: Self.bytesOnDisk(existing), copied: false)
        }
        guard Int(source.st_size) <= Self.maxFileBytes else { return nil }
        var symbolRanges: [Range<UInt64>] = []
        if symbolsOnly {
            symbolRanges = try Self.symbolRanges(of: readFrom, size: UInt64(source.st_size))
            let bytes = symbolRanges.reduce(0) { $0 + $1.count }
            guard bytes <= Self.maxSymbolsBytes, freeBytes() >= bytes + Self.symbolsFreeSpaceMargin else { return nil }
        }
        try DurableFile.makeDirectory(directory)
        try DurableFile.makeDirectory(buildDirectory)
        let temporary = buildDirectory.appendingPathComponent(".\(name).\(getpid()).tmp")
        do {
            if symbolsOnly {
                try Self.copy(readFrom, to: temporary.path, ranges: symbolRanges, size: UInt64(source.st_size))
            } else {
                try Self.copy(readFrom, to: temporary.path)
            }
            guard ELFBuildID.read(path: temporary.path) == buildID else {
                throw StoreError("the copy's build ID differs (the file changed while copied)")
            }
            guard rename(temporary.path, target.path) == 0 else {
                throw StoreError("rename: \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        prune(name: name, keeping: hexID)
        var written = stat()
        let bytes = stat(target.path, &written) == 0 ? Self.bytesOnDisk(written) : Int(source.st_size)
        return Kept(module: path, buildID: hexID, file: target, bytes: bytes, copied: true)
    }

    /// The kept copy of the module named `path` for `buildID`, when the store has it.
    public func file(buildID: [UInt8], module path: String) -> String? {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let candidate = directory.appendingPathComponent(ReportBuilder.hexBytes(buildID), isDirectory: true)
            .appendingPathComponent(name).path
        var info = stat()
        guard !buildID.isEmpty, lstat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return candidate
    }

    /// Bytes available to this process on the store's file system (of its nearest existing
    /// directory); 0 when unknown.
    func freeBytes() -> Int {
        var path = directory
        while !FileManager.default.fileExists(atPath: path.path) && path.path != "/" { path.deleteLastPathComponent() }
        var info = statvfs()
        guard statvfs(path.path, &info) == 0 else { return 0 }
        return Int(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
    }

    /// Bytes a file takes on disk (a symbols-only copy is sparse).
    static func bytesOnDisk(_ info: stat) -> Int { min(Int(info.st_size), Int(info.st_blocks) * 512) }

    /// Bytes the store holds for each build ID (on disk).
    public func bytesPerBuild() -> [String: Int] {
        var result: [String: Int] = [:]
        let builds = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for build in builds {
            let folder = directory.appendingPathComponent(build)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            result[build] = names.reduce(0) { total, name in
                var info = stat()
                return total
                    + (lstat(folder.appendingPathComponent(name).path, &info) == 0 ? Self.bytesOnDisk(info) : 0)
            }
        }
        return result
    }

    /// Removes the copies of `name` beyond the newest `buildsKept` builds (never `current`).
    private func prune(name: String, keeping current: String) {
        let builds = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var copies: [(build: String, modified: Int)] = []
        for build in builds where build != current {
            var info = stat()
            let path = directory.appendingPathComponent(build).appendingPathComponent(name).path
            if lstat(path, &info) == 0 { copies.append((build, info.st_mtim.tv_sec)) }
        }
        copies.sort { $0.modified > $1.modified }
        for old in copies.dropFirst(Self.buildsKept - 1) {
            let folder = directory.appendingPathComponent(old.build)
            unlink(folder.appendingPathComponent(name).path)
            rmdir(folder.path) // only when no other module of that build is left in it
        }
    }

    /// Regular files mapped executable into this process (from /proc/self/maps).
    static func loadedFiles() -> [String] {
        // Read to the end: /proc files report size 0, and String(contentsOfFile:) stops at 4 KiB.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return [] }
        let maps = String(decoding: data, as: UTF8.self)
        var seen = Set<String>(), files: [String] = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1].contains("x") else { continue }
            let path = fields[5].trimmingCharacters(in: .whitespaces)
            if path.hasPrefix("/") && !path.hasSuffix(" (deleted)") && seen.insert(path).inserted { files.append(path) }
        }
        return files
    }

    /// Sections a symbols-only copy keeps: what processing reads (symbol and string tables,
    /// notes with the build ID, call-frame information, DWARF and debug links).
    static func keepsSection(_ name: String) -> Bool {
        [
            ".dynsym", ".dynstr", ".symtab", ".strtab", ".shstrtab", ".eh_frame", ".eh_frame_hdr", ".gnu_debuglink",
            ".gnu_debugdata", ".dynamic",
        ].contains(name) || name.hasPrefix(".note") || name.hasPrefix(".debug") || name.hasPrefix(".zdebug")
    }

    /// The byte ranges of an ELF64 file a symbols-only copy holds: everything but the contents of
    /// the sections `keepsSection` does not name (code, read-only and writable data). Headers,
    /// program and section header tables stay, so every offset means what it meant.
    static func symbolRanges(of path: String, size: UInt64) throws -> [Range<UInt64>] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        func bytes(_ offset: UInt64, _ count: UInt64) -> ByteReader? {
            guard count > 0, count <= 64 << 20, offset <= size, count <= size - offset else { return nil }
            var buffer = [UInt8](repeating: 0, count: Int(count))
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(count), off_t(offset)) }
            return n == Int(count) ? ByteReader(bytes: buffer) : nil
        }
        guard let header = bytes(0, 64), header.u32(0) == 0x464C_457F, header.u8(4) == 2, header.u8(5) == 1 else {
            throw StoreError("\(path) is not a 64-bit little-endian ELF file")
        }
        let sectionsAt = header.u64(0x28), entrySize = UInt64(header.u16(0x3A)), count = UInt64(header.u16(0x3C))
        guard entrySize >= 64, count > 0, let table = bytes(sectionsAt, entrySize * count) else {
            throw StoreError("\(path) has no readable section headers")
        }
        let namesAt = UInt64(header.u16(0x3E)) * entrySize
        guard let names = bytes(table.u64(namesAt + 0x18), table.u64(namesAt + 0x20)) else {
            throw StoreError("\(path) has no readable section names")
        }
        var dropped: [Range<UInt64>] = []
        for i in 0..<count {
            let at = i * entrySize
            let type = table.u32(at + 4), offset = table.u64(at + 0x18), length = table.u64(at + 0x20)
            guard type != 0, type != 8 /* SHT_NOBITS */, length > 0, offset <= size, length <= size - offset else {
                continue
            }
            let name = names.cString(UInt64(table.u32(at)), limit: UInt64(names.bytes.count)) ?? ""
            if !keepsSection(name) { dropped.append(offset..<offset + length) }
        }
        var kept: [Range<UInt64>] = [], at: UInt64 = 0
        for range in dropped.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > at { kept.append(at..<range.lowerBound) }
            at = max(at, range.upperBound)
        }
        if at < size { kept.append(at..<size) }
        return kept
    }

    /// Copies a file's bytes into a new owner-only file: all of them, or only `ranges` at their
    /// own offsets in a file of `size` bytes (the rest is a hole, read as zeros).
    static func copy(_ from: String, to: String, ranges: [Range<UInt64>]? = nil, size: UInt64 = 0) throws {
        let input = open(from, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError("open \(from): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw StoreError("create \(to): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        if let ranges {
            guard ftruncate(output, off_t(size)) == 0 else {
                throw StoreError("truncate \(to): \(String(cString: strerror(errno)))")
            }
            for range in ranges {
                var at = range.lowerBound
                while at < range.upperBound {
                    let want = Int(min(UInt64(buffer.count), range.upperBound - at))
                    let n = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, want, off_t(at)) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else {
                        throw StoreError("read \(from): \(n == 0 ? "file shrank" : String(cString: strerror(errno)))")
                    }
                    var written = 0
                    while written < n {
                        let w = buffer.withUnsafeBytes {
                            pwrite(output, $0.baseAddress! + written, n - written, off_t(at) + off_t(written))
                        }
                        if w < 0 && errno == EINTR { continue }
                        guard w > 0 else { throw StoreError("write \(to): \(String(cString: strerror(errno)))") }
                        written += w
                    }
                    at += UInt64(n)
                }
            }
            guard fsync(output) == 0 else { throw StoreError("fsync \(to): \(String(cString: strerror(errno)))") }
            return
        }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw StoreError("read \(from): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { throw StoreError("write \(to): \(String(cString: strerror(errno)))") }
                written += w
            }
        }
        guard fsync(output) == 0 else { throw StoreError("fsync \(to): \(String(cString: strerror(errno)))") }
    }

    struct StoreError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// The GNU build ID of an ELF64 little-endian file, read from its program headers' notes
/// (a few pread calls, never the whole file).
enum ELFBuildID {
    static func read(path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func bytes(_ offset: UInt64, _ count: UInt64) -> ByteReader? {
            guard count > 0, count <= 1 << 20 else { return nil }
            var buffer = [UInt8](repeating: 0, count: Int(count))
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(count), off_t(offset)) }
            return n == Int(count) ? ByteReader(bytes: buffer) : nil
        }
        guard let header = bytes(0, 64), header.u32(0) == 0x464C_457F, header.u8(4) == 2, header.u8(5) == 1 else {
            return nil
        }
        let phoff = header.u64(0x20), phentsize = UInt64(header.u16(0x36)), phnum = UInt64(header.u16(0x38))
        guard phentsize >= 56, let table = bytes(phoff, phentsize * phnum) else { return nil }
        for i in 0..<phnum where table.u32(i * phentsize) == 4 /* PT_NOTE */ {
            let offset = table.u64(i * phentsize + 8), size = table.u64(i * phentsize + 32)
            if let notes = bytes(offset, size), let id = ELFSymbolTable.buildID(notes, notes: 0, size: size) {
                return id
            }
        }
        return nil
    }
}
