import Foundation

/// The files a fix looks at, as they are on disk or as the planned edits would leave them,
/// parsed with the flags `lint` uses, the edited contents passed to libclang as unsaved files.
final class FixWorkspace {
    let configuration: Configuration
    /// Per-file compile arguments from a compilation database, by absolute path.
    let compileArguments: [String: [String]]
    /// Contents that differ from the disk (the planned edits applied), by real path.
    private(set) var overlay: [String: [UInt8]] = [:]
    /// The overlay's files another file may include: all but implementation files (which no one includes).
    private var includableOverlay: [String] = []
    /// Each includable overlay file's identity on disk (nil: not on disk, always passed) and the
    /// names its edited contents include (see `IncludedFiles`).
    private var overlayFiles = OverlayFiles(paths: [], contents: [:])
    /// The files each file's last parse read, by real path (see `parse`).
    private let lastRead = LastRead()
    /// Parses that met an edited file left out of their unsaved files and were parsed again with all.
    var overlayRetries: Int { lastRead.retries }
    /// The edited files the last parse of `realPath` was given as unsaved files (for tests).
    func unsavedFiles(lastPassedTo realPath: String) -> [String]? { lastRead.passed(realPath) }
    private var diskCache: [String: [UInt8]] = [:]
    /// Ends the run when a parse (and its analysis) outlives the configuration's `parse-timeout`.
    let deadline: FixParseDeadline

    init(configuration: Configuration, compileArguments: [String: [String]]) {
        self.configuration = configuration
        self.compileArguments = compileArguments
        deadline = FixParseDeadline(seconds: configuration.parseTimeout)
    }

    deinit {
        deadline.stop()
    }

    /// The real path of a file (symlinks and `..` resolved): the key every edit uses.
    static func realPath(_ path: String) -> String {
        RepositoryRoot.realPath(path) ?? FileCollector.normalized(path)
    }

    /// The bytes of a file as of this workspace (overlay first), nil when unreadable.
    func bytes(_ realPath: String) -> [UInt8]? {
        overlay[realPath] ?? diskBytes(realPath)
    }

    /// The bytes as on disk when first read (what the plan was made from).
    func diskBytes(_ realPath: String) -> [UInt8]? {
        if let known = diskCache[realPath] { return known }
        let read = readFileBytes(realPath)
        diskCache[realPath] = read
        return read
    }

    /// Files planned in the same run that are not on disk yet (the bridge `inject` plans first):
    /// part of every overlay, by real path.
    private(set) var base: [String: [UInt8]] = [:]
    /// The real paths of `base`'s files.
    var created: [String] { base.keys.sorted() }

    /// Sets the files planned but not written yet, which every parse sees from now on.
    func setBase(_ files: [String: [UInt8]]) {
        base = files
        setOverlay([:])
    }

    /// Whether a parse may be given the file as an unsaved file: not an implementation file
    /// (`.c`, `.m`, `.mm`, `.cc`, `.cpp`, `.cxx`, `.swift`), which no parse of another file reads.
    static func isIncludable(_ path: String) -> Bool {
        !["c", "m", "mm", "cc", "cpp", "cxx", "swift"].contains((path as NSString).pathExtension)
    }

    /// Records what a parse made elsewhere read (an analysis adopted from another workspace of the
    /// same files: `FixContext.adopt`), as `parse` records its own.
    func noteRead(_ realPath: String, _ inclusions: Set<FixFileAnalysis.FileKey>) { lastRead[realPath] = inclusions }

    func setOverlay(_ edited: [String: [UInt8]]) {
        let contents = base.merging(edited) { $1 }
        overlay = contents
        includableOverlay = contents.keys.filter(Self.isIncludable).sorted()
        overlayFiles = OverlayFiles(paths: includableOverlay, contents: contents)
    }

    /// The edited files a parse of `realPath` (its contents `bytes`) is given as unsaved files:
    /// passing every edited header to every parse costs libclang a file entry and a look-up per
    /// header per parse (a third of the verification's parse time on a tree where every file is
    /// edited), so a file parsed before gets the edited headers that parse read, those its own
    /// contents include by name, and, transitively, those these include; and those not on disk.
    /// Which files a parse read is checked after it (`parse`): one that read an edited file left
    /// out is parsed again with all of them, so the parse is the same as with all.
    private func unsavedNames(_ realPath: String, bytes: [UInt8]) -> (names: [String], all: Bool) {
        let files = overlayFiles
        guard !files.paths.isEmpty, let read = lastRead[realPath] else {
            return (includableOverlay.filter { $0 != realPath }, true)
        }
        var chosen = files.notOnDisk
        for key in read { if let i = files.byKey[key] { chosen.insert(i) } }
        // the names the file includes, and those the edited headers it includes include, in turn
        var names = Array(IncludedFiles.names(in: bytes))
        var seenNames = Set(names)
        for i in chosen { for name in files.includes[i] where seenNames.insert(name).inserted { names.append(name) } }
        while let name = names.popLast() {
            for i in files.byName[name] ?? [] where chosen.insert(i).inserted {
                for next in files.includes[i] where seenNames.insert(next).inserted { names.append(next) }
            }
        }
        if let own = files.byPath[realPath] { chosen.remove(own) }
        let all = includableOverlay.count - (files.byPath[realPath] == nil ? 0 : 1)
        return chosen.count == all
            ? (includableOverlay.filter { $0 != realPath }, true) : (chosen.sorted().map { files.paths[$0] }, false)
    }

    /// Parses a C-family file through lint's front end (`ClangFrontEnd.parse`: the same guards,
    /// flags and parse), with the overlay as unsaved files. `frontEnd`: the calling thread's
    /// (each holds a libclang index); the workspace's own when nil.
    func parse(_ realPath: String, frontEnd: ClangFrontEnd? = nil) throws -> ParsedFile {
        let frontEnd = frontEnd ?? self.frontEnd
        guard let bytes = bytes(realPath) else { throw ParseFailure(reason: "cannot read \(realPath)") }
        // the language as planned: an edit must not switch the parse to another language
        let language = (diskBytes(realPath) ?? bytes).withUnsafeBytes {
            SourceLanguage.detect(path: realPath, contents: $0)
        }
        // the edited files it may include
        let (included, all) = unsavedNames(realPath, bytes: bytes)
        var retried = false
        let parsed = frontEnd.parse(path: realPath, bytes: bytes, language: language, unsaved: unsaved(included)) {
            [self] read in
            guard !all, overlayFiles.readAnyBut(read, given: included, main: realPath) else { return nil }
            retried = true
            return unsaved(includableOverlay.filter { $0 != realPath })
        }
        let file = try parsed.get()
        if retried { lastRead.retried() }
        lastRead[realPath] = file.inclusions
        lastRead.record(realPath, passed: retried ? includableOverlay.filter { $0 != realPath } : included)
        return file
    }

    /// The front end of parses on the workspace's own thread: the run's flags, models holding the
    /// accesses fix may rewrite (the containers). The prefetch threads have theirs, sharing its
    /// finder and include check (`ClangFrontEnd(sharing:)`).
    private(set) lazy var frontEnd = ClangFrontEnd(
        configuration: configuration, compileArguments: compileArguments,
        specs: configuration.containers)

    private func unsaved(_ names: [String]) -> [ClangParser.UnsavedFile] {
        names.compactMap { name in overlay[name].map { ClangParser.UnsavedFile(path: name, bytes: $0) } }
    }
}

/// The includable overlay files (sorted by path) by identity on disk and by name, with the
/// names their edited contents include.
private struct OverlayFiles {
    let paths: [String]
    let byPath: [String: Int]
    let byKey: [FixFileAnalysis.FileKey: Int]
    let byName: [String: [Int]]
    /// Not on disk, or one file under two paths: always given (a parse cannot be seen to read them apart).
    let notOnDisk: Set<Int>
    let includes: [Set<String>]

    init(paths: [String], contents: [String: [UInt8]]) {
        self.paths = paths
        byPath = Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, $0) })
        var byKey: [FixFileAnalysis.FileKey: Int] = [:]
        var notOnDisk = Set<Int>()
        for (i, path) in paths.enumerated() {
            guard let key = FixFileAnalysis.FileKey(path: path) else { notOnDisk.insert(i); continue }
            // hard links: always given
            if let other = byKey[key] { notOnDisk.formUnion([other, i]) } else { byKey[key] = i }
        }
        self.byKey = byKey
        self.notOnDisk = notOnDisk
        byName = Dictionary(grouping: paths.indices, by: { (paths[$0] as NSString).lastPathComponent })
        includes = paths.map { IncludedFiles.names(in: contents[$0] ?? []) }
    }

    /// Whether a parse that read `read` read an overlay file other than its main file not among `given`.
    func readAnyBut(_ read: Set<FixFileAnalysis.FileKey>, given: [String], main: String) -> Bool {
        let given = Set(given)
        return read.contains { key in byKey[key].map { paths[$0] != main && !given.contains(paths[$0]) } ?? false }
    }
}

/// The files each file's last parse read (device and inode), shared by the prefetch threads.
private final class LastRead: @unchecked Sendable {
    private let lock = NSLock()
    private var read: [String: Set<FixFileAnalysis.FileKey>] = [:]
    private(set) var retries = 0
    private var passedNames: [String: [String]] = [:]

    subscript(path: String) -> Set<FixFileAnalysis.FileKey>? {
        get { lock.lock(); defer { lock.unlock() }; return read[path] }
        set { lock.lock(); read[path] = newValue; lock.unlock() }
    }

    func retried() { lock.lock(); retries += 1; lock.unlock() }
    func record(_ path: String, passed: [String]) { lock.lock(); passedNames[path] = passed; lock.unlock() }
    func passed(_ path: String) -> [String]? { lock.lock(); defer { lock.unlock() }; return passedNames[path] }
}

/// The names of the files a C-family text includes or imports (`#include "a/B.h"`, `#import <M/C.h>`:
/// `B.h`, `C.h`), the directives read as written (a name from a macro is not seen).
enum IncludedFiles {
    static func names(in bytes: [UInt8]) -> Set<String> {
        Set(Includers.directives(in: bytes).map { ($0.name as NSString).lastPathComponent })
    }
}
