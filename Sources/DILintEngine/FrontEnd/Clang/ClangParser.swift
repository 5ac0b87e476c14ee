import CLibClang
import Foundation

/// Why a file could not be linted.
public struct ParseFailure: Error, CustomStringConvertible, Sendable {
    public let reason: String
    public var description: String { reason }
}

/// One parsed file: libclang's translation unit plus the token stream di-lint matches on.
final class ParsedFile {
    let path: String
    let language: SourceLanguage
    let buffer: SourceBuffer
    let unit: CXTranslationUnit
    let file: CXFile?
    /// Code tokens outside comments and outside `#if 0`-style skipped blocks.
    let tokens: [SourceToken]
    /// Comment tokens (suppression directives live here).
    let comments: [SourceToken]
    /// Function, method and constructor definitions (`codeScopes()`), built once on first use: the
    /// accesses' enclosing definitions and the model's scopes are the same list.
    private(set) lazy var scopes: [CodeScope] = codeScopes()
    /// Definitions the AST lost, found in the tokens outside `scopes` (`tokenDefinitions(holders:)`).
    private(set) lazy var lostDefinitions: [CodeScope] = tokenDefinitions(holders: scopes.map(\.range))
    /// The code tokens' brackets, paired in one pass (`TokenCursor`, the access classifier).
    private(set) lazy var brackets = BracketTable(tokens: tokens, bytes: buffer.bytes)
    /// The paths of the files read through a header's saved parse (`SharedPrecompiledHeader`):
    /// that header and what it includes, which the unit itself does not list. Empty otherwise.
    let savedParseInclusions: [String]
    /// Whether the parse left the bodies of system headers' functions unparsed
    /// (`ClangParser.unitWithoutSystemBodies`).
    let systemBodiesSkipped: Bool
    /// The files the parse read, the file itself included (built once, before `disposeUnit()`).
    private(set) lazy var inclusions: Set<SourceFileKey> = {
        precondition(!unitDisposed, "the inclusions of \(path) were asked for after its translation unit was freed")
        return Self.inclusions(unit)
    }()

    /// `trustAllSkippedBlocks`: the parse had the project's real flags (`-p`), so every block the
    /// preprocessor skipped is really dead; otherwise only constant conditionals are.
    init(
        path: String, language: SourceLanguage, buffer: SourceBuffer, unit: CXTranslationUnit,
        trustAllSkippedBlocks: Bool, savedParseInclusions: [String] = [], systemBodiesSkipped: Bool = false
    ) {
        self.path = path
        self.savedParseInclusions = savedParseInclusions
        self.systemBodiesSkipped = systemBodiesSkipped
        self.language = language
        self.buffer = buffer
        self.unit = unit
        file = clang_getFile(unit, path)
        var code: [SourceToken] = []
        var comments: [SourceToken] = []
        if let file {
            var skipped = ParsedFile.skippedRanges(unit, file)
            if !trustAllSkippedBlocks {
                let constant = ConditionalDirectives(buffer: buffer)
                skipped = skipped.filter { constant.constantLines.contains(buffer.lineColumn(of: $0.lowerBound).line) }
            }
            // The translation unit's extent is the main file, start to end. Asking for a location
            // by offset instead maps it through macro arguments, and libclang's table for that
            // costs far more than the parse on nested macro arguments (`M(M(…))` 1,600 deep: minutes).
            let whole = clang_getCursorExtent(clang_getTranslationUnitCursor(unit))
            var raw: UnsafeMutablePointer<CXToken>?
            var count: UInt32 = 0
            clang_tokenize(unit, whole, &raw, &count)
            if let raw {
                code.reserveCapacity(Int(count))
                let direct = ParsedFile.directTokenOffsets(unit, raw, Int(count))
                var s = 0
                for i in 0..<Int(count) {
                    let (lo, hi) =
                        direct.map { ParsedFile.directRange(raw[i], base: $0) } ?? ParsedFile.tokenRange(unit, raw[i])
                    while s < skipped.count && skipped[s].upperBound <= lo { s += 1 }
                    if s < skipped.count && skipped[s].contains(lo) { continue }
                    let kind: SourceToken.Kind
                    switch clang_getTokenKind(raw[i]) {
                    case CXToken_Punctuation: kind = .punctuation
                    case CXToken_Keyword: kind = .keyword
                    case CXToken_Identifier: kind = .identifier
                    case CXToken_Comment: kind = .comment
                    default: kind = .literal
                    }
                    let token = SourceToken(kind: kind, range: lo..<max(lo, hi))
                    if kind == .comment { comments.append(token) } else { code.append(token) }
                }
                clang_disposeTokens(unit, raw, count)
            }
        }
        tokens = code
        self.comments = comments
    }

    /// A token's byte range, as libclang gives it.
    static func tokenRange(_ unit: CXTranslationUnit, _ token: CXToken) -> (Int, Int) {
        let extent = clang_getTokenExtent(unit, token)
        return (offset(clang_getRangeStart(extent)), offset(clang_getRangeEnd(extent)))
    }

    /// A token's byte range read from the token itself: its location's raw encoding (`base` plus
    /// the offset, for a location in the tokenized file) and its length.
    static func directRange(_ token: CXToken, base: Int) -> (Int, Int) {
        let lo = Int(token.int_data.1) - base
        return (lo, lo + Int(token.int_data.2))
    }

    /// The `base` of `directRange` for the tokens of one `clang_tokenize`, when the direct ranges
    /// agree with libclang's (`tokenRange`) on the first and last token and every 64th between;
    /// nil otherwise, and libclang is asked for every token. Asking it for each of a 10 MB file's
    /// 1.6 million tokens cost a tenth of the file's run.
    static func directTokenOffsets(_ unit: CXTranslationUnit, _ tokens: UnsafeMutablePointer<CXToken>, _ count: Int)
        -> Int?
    {
        guard count > 0, tokens[0].int_data.1 & 0x8000_0000 == 0 else { return nil } // a file location, not a macro's
        let base = Int(tokens[0].int_data.1) - tokenRange(unit, tokens[0]).0
        for i in Array(stride(from: 0, to: count, by: 64)) + [count - 1] {
            guard tokens[i].int_data.1 & 0x8000_0000 == 0,
                directRange(tokens[i], base: base) == tokenRange(unit, tokens[i])
            else { return nil }
        }
        return base
    }

    /// Set by `disposeUnit()`: `unit` and `file` may not be used any more.
    private(set) var unitDisposed = false

    /// Frees libclang's translation unit before the file itself: `di-lint fix` keeps many files'
    /// tokens but needs their ASTs only while it analyses them. The scopes are built first;
    /// nothing may read `unit` or `file` after.
    func disposeUnit() {
        guard !unitDisposed else { return }
        _ = scopes
        clang_disposeTranslationUnit(unit)
        unitDisposed = true
    }

    deinit { if !unitDisposed { clang_disposeTranslationUnit(unit) } }

    /// Index of the code token starting at `offset`, if any.
    func tokenIndex(at offset: Int) -> Int? {
        var lo = 0, hi = tokens.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let start = tokens[mid].range.lowerBound
            if start == offset { return mid }
            if start < offset { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }

    static func offset(_ location: CXSourceLocation) -> Int {
        var offset: UInt32 = 0
        clang_getFileLocation(location, nil, nil, nil, &offset)
        return Int(offset)
    }

    /// Byte ranges the preprocessor skipped (`#if 0`, false `#ifdef` branches), sorted.
    static func skippedRanges(_ unit: CXTranslationUnit, _ file: CXFile) -> [Range<Int>] {
        guard let list = clang_getSkippedRanges(unit, file) else { return [] }
        defer { clang_disposeSourceRangeList(list) }
        var result: [Range<Int>] = []
        for i in 0..<Int(list.pointee.count) {
            let r = list.pointee.ranges[i]
            let lo = offset(clang_getRangeStart(r)), hi = offset(clang_getRangeEnd(r))
            if hi > lo { result.append(lo..<hi) }
        }
        return result.sorted { $0.lowerBound < $1.lowerBound }
    }
}

/// Parses files with libclang. Not thread-safe: use one per worker thread.
final class ClangParser {
    /// One index for every parse, a source that reads its header's saved parse
    /// (`SharedPrecompiledHeader`) included: its translation unit lists the header's
    /// declarations as the plain parse does. An index of local declarations only
    /// (`clang_createIndex(1, …)`) lists instead every declaration the unit's own parse handed
    /// on, template instantiations among them, and the walks then read an instantiated body
    /// once more per instantiation.
    private let index: CXIndex

    init() {
        index = clang_createIndex(0, 0)
    }

    deinit {
        clang_disposeIndex(index)
    }

    static let parseOptions = UInt32(
        CXTranslationUnit_DetailedPreprocessingRecord.rawValue
            | CXTranslationUnit_KeepGoing.rawValue)

    /// Flags common to every parse: no warnings, no error limit, no typo correction
    /// (a headerless file has many unresolved names, and correcting them is slow and misleading).
    static let commonArguments = ["-w", "-ferror-limit=0", "-fno-spell-checking"]

    func parse(
        path: String, buffer: SourceBuffer, language: SourceLanguage, arguments: [String],
        trustAllSkippedBlocks: Bool = false
    ) throws -> ParsedFile {
        let unit = try parseUnit(path: path, arguments: Self.commonArguments + arguments, unsaved: [])
        return ParsedFile(
            path: path, language: language, buffer: buffer, unit: unit, trustAllSkippedBlocks: trustAllSkippedBlocks)
    }

    /// A file's contents given to libclang instead of what is on disk (the file being parsed, or
    /// an edited file it includes).
    struct UnsavedFile {
        let path: String
        let bytes: [UInt8]
    }

    /// One libclang parse of `path` with `arguments` as given (`commonArguments` included by the
    /// caller), the `unsaved` files read from memory. The only call of libclang's parse in di-lint.
    func parseUnit(
        path: String, arguments args: [String], unsaved: [UnsavedFile], options: UInt32 = parseOptions
    ) throws -> CXTranslationUnit {
        // libclang puts the file's name among the arguments: a name starting with '-' (`-x.m`)
        // would be read as an option (libclang 14 takes no file after `--`), `./-x.m` is a file.
        let name = path.hasPrefix("-") ? "./" + path : path
        let names = unsaved.map { $0.path == path ? name : $0.path }
        var unit: CXTranslationUnit?
        let code: CXErrorCode = withCStringArray(names) { cNames in
            unsaved.map(\.bytes).withUnsafeBufferPointers { buffers in
                var files = (0..<names.count).map { i in
                    CXUnsavedFile(Filename: cNames[i], Contents: buffers[i], Length: UInt(unsaved[i].bytes.count))
                }
                return withCStrings(args) { argv in
                    files.withUnsafeMutableBufferPointer { files in
                        clang_parseTranslationUnit2(
                            index, name, argv, Int32(args.count), files.baseAddress, UInt32(files.count),
                            options, &unit)
                    }
                }
            }
        }
        guard code == CXError_Success, let unit else {
            let reason: String
            switch code {
            case CXError_Crashed: reason = "libclang crashed while parsing it"
            case CXError_InvalidArguments: reason = "libclang rejected the arguments: \(args.joined(separator: " "))"
            case CXError_ASTReadError: reason = "libclang could not read the AST"
            default: reason = "libclang could not parse it"
            }
            throw ParseFailure(reason: reason)
        }
        return unit
    }
}

extension ClangParser {
    /// A parse that leaves the bodies of functions in system headers (`-isystem`, the
    /// toolchain's and `/usr/include`'s) unparsed, or nil (the caller then parses in full). It
    /// runs as libclang's indexer with `CXIndexOpt_SkipParsedBodiesInSession`, in a session of its
    /// own, which skips those bodies and no others (never the file's own, never a project
    /// header's). Declarations, types, and the bodies clang needs to deduce a type or evaluate a
    /// `constexpr` are still read, so the file's own cursors are those of the full parse. On
    /// OpenMW's `mwgui` sources (osg, boost, MyGUI and the standard library as system headers)
    /// it costs about 0.75 of the full parse. The call graph reads the definitions of
    /// system-header functions (`trait(of:)`), so only a file whose call-graph facts no finding
    /// reads may be parsed so (`Linter`).
    ///
    /// nil when the indexer failed, read other bytes than `bytes`, or met a fatal error. The
    /// indexer is given no file from memory: libclang 14 frees such a file's buffer when the
    /// indexing returns while the unit it hands back still points to it (disposing the unit then
    /// crashes); it reads the file from disk, and the unit is kept only when that is `bytes`. Nor
    /// does libclang 14's indexer honour `CXTranslationUnit_KeepGoing`: after a fatal error (an
    /// include not found) clang instantiates no template, and the file's expressions that need
    /// one lose their types and callees.
    func unitWithoutSystemBodies(path: String, arguments args: [String], bytes: [UInt8], options: UInt32 = parseOptions)
        -> CXTranslationUnit?
    {
        let name = path.hasPrefix("-") ? "./" + path : path // as `parseUnit` names it
        var unit: CXTranslationUnit?
        let action = clang_IndexAction_create(index)
        defer { clang_IndexAction_dispose(action) }
        // an include not found (a fatal error, below) stops the indexing at the next declaration:
        // the full parse follows, and the time spent here is lost
        var callbacks = IndexerCallbacks()
        callbacks.ppIncludedFile = { flag, info in
            if info?.pointee.file == nil { flag?.assumingMemoryBound(to: Int32.self).pointee = 1 }
            return nil
        }
        callbacks.abortQuery = { flag, _ in flag?.assumingMemoryBound(to: Int32.self).pointee ?? 0 }
        var notFound: Int32 = 0
        // the indexer takes a whole command line: a program name first
        let status = withCStrings(["clang"] + args) { argv in
            withUnsafeMutablePointer(to: &notFound) { flag in
                clang_indexSourceFileFullArgv(
                    action, flag, &callbacks, UInt32(MemoryLayout<IndexerCallbacks>.size),
                    CXIndexOpt_SkipParsedBodiesInSession.rawValue, name, argv, Int32(args.count + 1), nil, 0, &unit,
                    options)
            }
        }
        guard let made = unit else { return nil }
        if notFound != 0 {
            clang_disposeTranslationUnit(made)
            return nil
        }
        var size = 0
        if status == 0, let read = clang_getFile(made, name).flatMap({ clang_getFileContents(made, $0, &size) }),
            bytes.count == size, bytes.withUnsafeBytes({ size == 0 || memcmp($0.baseAddress!, read, size) == 0 }),
            !(0..<clang_getNumDiagnostics(made)).contains(where: { i in
                let diagnostic = clang_getDiagnostic(made, i)
                defer { clang_disposeDiagnostic(diagnostic) }
                return clang_getDiagnosticSeverity(diagnostic) == CXDiagnostic_Fatal
            })
        {
            return made
        }
        clang_disposeTranslationUnit(made)
        return nil
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

func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    let constant = pointers.map { UnsafePointer<CChar>($0) }
    return constant.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension CXString {
    /// Copies and disposes the libclang string.
    func consume() -> String {
        defer { clang_disposeString(self) }
        guard let c = clang_getCString(self) else { return "" }
        return String(cString: c)
    }
}
