import CLibClang
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
    private var diskCache: [String: [UInt8]] = [:]
    private let index: CXIndex
    /// The bounded-input check `lint` runs: includes that are not bounded regular files fail the
    /// file before libclang reads them.
    private let includeCheck: IncludeCheck
    /// Ends the run when a parse (and its analysis) outlives the configuration's `parse-timeout`.
    let deadline: FixParseDeadline

    init(configuration: Configuration, compileArguments: [String: [String]]) {
        self.configuration = configuration
        self.compileArguments = compileArguments
        index = clang_createIndex(0, 0)
        includeCheck = IncludeCheck(limit: configuration.maxFileSize)
        deadline = FixParseDeadline(seconds: configuration.parseTimeout)
    }

    deinit {
        deadline.stop()
        clang_disposeIndex(index)
    }

    /// The real path of a file (symlinks and `..` resolved): the key every edit uses.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return FileCollector.normalized(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The bytes of a file as of this workspace (overlay first), nil when unreadable.
    func bytes(_ realPath: String) -> [UInt8]? {
        if let edited = overlay[realPath] { return edited }
        if let known = diskCache[realPath] { return known }
        let read = readFileBytes(realPath)
        diskCache[realPath] = read
        return read
    }

    /// The bytes as on disk when first read (what the plan was made from).
    func diskBytes(_ realPath: String) -> [UInt8]? {
        if let known = diskCache[realPath] { return known }
        let read = readFileBytes(realPath)
        diskCache[realPath] = read
        return read
    }

    func setOverlay(_ contents: [String: [UInt8]]) {
        overlay = contents
        let implementation: Set<String> = ["c", "m", "mm", "cc", "cpp", "cxx", "swift"]
        includableOverlay = contents.keys.filter { !implementation.contains(($0 as NSString).pathExtension) }.sorted()
    }

    /// Parses a C-family file with libclang as `lint` would, with the overlay as unsaved files.
    func parse(_ realPath: String, index: CXIndex? = nil) throws -> ParsedFile {
        let index = index ?? self.index
        guard let bytes = bytes(realPath) else { throw ParseFailure(reason: "cannot read \(realPath)") }
        // the language as planned: an edit must not switch the parse to another language
        let language = (diskBytes(realPath) ?? bytes).withUnsafeBytes { SourceLanguage.detect(path: realPath, contents: $0) }
        let arguments = ClangParser.commonArguments
            + ClangFrontEnd.arguments(path: realPath, language: language, database: compileArguments[realPath], configuration: configuration)
        // the guards `lint` has before libclang sees a file (see ClangFrontEnd.model)
        let depth = ClangFrontEnd.squareBracketDepth(bytes)
        if depth > ClangFrontEnd.maxSquareBracketDepth {
            throw ParseFailure(reason: "square brackets nest \(depth) deep (di-lint does not parse past \(ClangFrontEnd.maxSquareBracketDepth))")
        }
        if let problem = includeCheck.problem(source: realPath, bytes: bytes, arguments: arguments) { throw ParseFailure(reason: problem) }
        if let error = LibClang.loadError { throw ParseFailure(reason: error) }
        // the main file from memory (the bytes read here), and the edited files it may include
        var names = includableOverlay.filter { $0 != realPath }
        names.append(realPath)
        let contents = names.map { overlay[$0] ?? bytes }
        var unit: CXTranslationUnit?
        let code: CXErrorCode = withCStringArray(names) { cNames in
            contents.withUnsafeBufferPointers { buffers in
                var unsaved = (0..<names.count).map { i in
                    CXUnsavedFile(Filename: cNames[i], Contents: buffers[i], Length: UInt(contents[i].count))
                }
                return withCStrings(arguments) { argv in
                    clang_parseTranslationUnit2(index, realPath, argv, Int32(arguments.count), &unsaved, UInt32(unsaved.count),
                                                ClangParser.parseOptions, &unit)
                }
            }
        }
        guard code == CXError_Success, let unit else { throw ParseFailure(reason: "libclang could not parse \(realPath)") }
        return ParsedFile(path: realPath, language: language, buffer: SourceBuffer(bytes: bytes), unit: unit,
                          trustAllSkippedBlocks: compileArguments[realPath] != nil)
    }

    /// Error diagnostic messages of a parsed file (locations left out, so moved lines compare equal).
    static func errorMessages(_ file: ParsedFile) -> [String] {
        var messages: [String] = []
        for i in 0..<clang_getNumDiagnostics(file.unit) {
            let d = clang_getDiagnostic(file.unit, i)
            if clang_getDiagnosticSeverity(d).rawValue >= CXDiagnostic_Error.rawValue {
                messages.append(clang_getDiagnosticSpelling(d).consume())
            }
            clang_disposeDiagnostic(d)
        }
        return messages
    }
}

private extension Array where Element == [UInt8] {
    /// Calls `body` with a C pointer to each element's bytes (as `CChar`), valid for the call.
    func withUnsafeBufferPointers<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = map { bytes -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: Swift.max(1, bytes.count))
            bytes.withUnsafeBufferPointer { src in
                src.baseAddress.map { UnsafeMutableRawPointer(p).copyMemory(from: $0, byteCount: bytes.count) }
            }
            return p
        }
        defer { copies.forEach { $0.deallocate() } }
        return body(copies.map { UnsafePointer($0) })
    }
}

private func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return body(pointers.map { UnsafePointer($0) })
}

