import CLibClang
import Foundation

/// Parses one C, C++ or Objective-C file with libclang and builds its `FileModel`. One per worker
/// thread (it holds a libclang index).
final class ClangFrontEnd {
    let configuration: Configuration
    /// Per-file compile arguments from a compilation database, by absolute normalized path.
    let compileArguments: [String: [String]]
    private let finder: ContainerAccessFinder
    /// Includes that are not bounded regular files fail the file before libclang reads them.
    private let includeCheck: IncludeCheck
    private var parser: ClangParser?

    /// `specs`: the accesses the model finds (lint: the containers, helper types and ambient
    /// properties; fix: the containers it may rewrite).
    init(configuration: Configuration, compileArguments: [String: [String]], specs: [ContainerSpec]? = nil) {
        self.configuration = configuration
        self.compileArguments = compileArguments
        finder = ContainerAccessFinder(specs: specs ?? configuration.accessSpecs)
        includeCheck = IncludeCheck(limit: configuration.maxFileSize)
    }

    /// Another front end (for another thread: each holds its own libclang index) sharing this
    /// one's finder and include check (the headers it has read).
    init(sharing other: ClangFrontEnd) {
        configuration = other.configuration
        compileArguments = other.compileArguments
        finder = other.finder
        includeCheck = other.includeCheck
    }

    /// Clang's `-fbracket-depth` guard covers parentheses and braces but not Objective-C message brackets.
    static let maxSquareBracketDepth = 1000

    /// The deepest `[` nesting in the raw bytes (comments and strings included: an over-estimate is harmless).
    static func squareBracketDepth(_ bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        for b in bytes {
            if b == UInt8(ascii: "[") {
                depth += 1; deepest = max(deepest, depth)
            } else if b == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            }
        }
        return deepest
    }

    /// The arguments libclang gets for a file (before `ClangParser.commonArguments`): the
    /// language's flags or the compile database's entry, then `clang-flags`, then the header map
    /// last, so that every flag wins over it. `di-lint fix` parses with the same.
    static func arguments(path: String, language: SourceLanguage, database: [String]?, configuration: Configuration)
        -> [String]
    {
        let isHeader = SourceLanguage.headerExtensions.contains((path as NSString).pathExtension)
        let base = database.map { $0 + language.objcRuntimeArguments } ?? language.clangArguments(isHeader: isHeader)
        let given = base + configuration.clangFlags
        return given + (configuration.headerMapFile?.arguments(after: given) ?? [])
    }

    /// Whether a C++ source may read the saved parse of the header it begins with, and that
    /// header's parse is saved for it (`SharedPrecompiledHeader`): by default;
    /// `DI_LINT_HEADER_REUSE=0` turns it off (`scripts/bench-cpp` compares both).
    static func reusesHeaders(_ language: SourceLanguage) -> Bool {
        language == .cxx && headerReuseRequested
    }

    static let headerReuseRequested = ProcessInfo.processInfo.environment["DI_LINT_HEADER_REUSE"] != "0"

    /// `DI_LINT_PARSE_TRACE`: appends `what path` to the file (a parse worker's parses too).
    static func traceParse(_ what: String, _ path: String) { appendTrace(what, path, to: parseTraceFile) }

    /// Appends the line `what path` to a trace file (one `write`, so that the lines of parse
    /// workers writing at once do not mix); nothing without a file.
    static func appendTrace(_ what: String, _ path: String, to file: String?) {
        guard let file else { return }
        let descriptor = open(file, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let line = Array((what + " " + path + "\n").utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    private static let parseTraceFile = ProcessInfo.processInfo.environment["DI_LINT_PARSE_TRACE"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The file's model, or why it cannot be linted. `systemBodies: false`: the bodies of
    /// functions in system headers may be left unparsed (`ClangParser.unitWithoutSystemBodies`), for a file
    /// only the file rules read.
    func model(path: String, displayPath: String, bytes: [UInt8], language: SourceLanguage, systemBodies: Bool = true)
        -> Result<FileModel, ParseFailure>
    {
        parse(path: path, bytes: bytes, language: language, systemBodies: systemBodies).map { parsed in
            ClangFileModel(parsed: parsed, displayPath: displayPath, configuration: configuration, finder: finder)
        }
    }

    /// The model of a file already parsed by `parse`.
    func model(of parsed: ParsedFile, displayPath: String) -> ClangFileModel {
        ClangFileModel(parsed: parsed, displayPath: displayPath, configuration: configuration, finder: finder)
    }

    /// The compile database's arguments for a file, by its absolute normalized path.
    func databaseArguments(_ path: String) -> [String]? {
        compileArguments[
            FileCollector.normalized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        ]
    }

    /// The one way di-lint parses a C-family file (lint, its parse workers, fix and fix's
    /// verification): the guards first (Objective-C bracket depth, bounded includes, libclang
    /// loaded), then libclang with `bytes` as the file's contents and `unsaved` as other files'
    /// contents (fix's edited headers). `reparse` is shown the files the parse read and may ask
    /// for one more parse with other unsaved files (fix's check that the parse read no edited
    /// file it was not given); nil keeps it. `systemBodies: false` skips system headers' function
    /// bodies (`ClangParser.unitWithoutSystemBodies`) when the file is C++ (whose system headers
    /// hold the template and inline bodies worth skipping; a headerless C or Objective-C file's
    /// missing include makes the attempt fall back to the full parse, a second parse for
    /// nothing), has no compile-database entry,
    /// no unsaved files, no `reparse` and neither saves nor reads a header's saved parse, and
    /// libclang could parse it so; otherwise the parse is the full one.
    /// `DI_LINT_PARSE_TRACE=FILE` appends `bodies-skipped PATH` or `full PATH` per parse.
    func parse(
        path: String, bytes: [UInt8], language: SourceLanguage, unsaved: [ClangParser.UnsavedFile] = [],
        reparse: ((Set<SourceFileKey>) -> [ClangParser.UnsavedFile]?)? = nil, systemBodies: Bool = true
    ) -> Result<ParsedFile, ParseFailure> {
        let depth = Self.squareBracketDepth(bytes)
        if depth > Self.maxSquareBracketDepth {
            return .failure(
                ParseFailure(
                    reason:
                        "square brackets nest \(depth) deep; libclang 14 overflows its stack on Objective-C messages nested past a few thousand, so di-lint does not parse files beyond \(Self.maxSquareBracketDepth)"
                ))
        }
        let database = databaseArguments(path)
        // a database's command carries `-working-directory=`, against which libclang resolves a
        // relative path: the file is parsed by its absolute path then
        let path =
            database == nil || path.hasPrefix("/")
            ? path : FileCollector.normalized(FileManager.default.currentDirectoryPath + "/" + path)
        let arguments = Self.arguments(path: path, language: language, database: database, configuration: configuration)
        if let problem = includeCheck.problem(source: path, bytes: bytes, arguments: arguments) {
            return .failure(ParseFailure(reason: problem))
        }
        if parser == nil {
            if let error = LibClang.loadError { return .failure(ParseFailure(reason: error)) }
            parser = ClangParser()
        }
        do {
            let main = ClangParser.UnsavedFile(path: path, bytes: bytes)
            let options = ClangParser.parseOptions
            let plain = ClangParser.commonArguments + arguments
            let isHeader = SourceLanguage.headerExtensions.contains((path as NSString).pathExtension)
            let reuse = Self.reusesHeaders(language) && database == nil && unsaved.isEmpty && reparse == nil
            var unit: CXTranslationUnit
            var savedParseInclusions: [String] = []
            var skipped = false
            if reuse, isHeader,
                let held = SharedPrecompiledHeader.headerToSave(
                    header: path, arguments: plain, maxFileSize: configuration.maxFileSize)
            {
                // the header's own parse, saved for the source that begins with it
                do {
                    unit = try parser!.parseUnit(
                        path: path, arguments: plain, unsaved: [main],
                        options: options | CXTranslationUnit_ForSerialization.rawValue)
                } catch {
                    held.release()
                    throw error
                }
                SharedPrecompiledHeader.save(unit, header: path, holding: held)
            } else if reuse, !isHeader,
                let shared = SharedPrecompiledHeader.sourceArguments(source: path, bytes: bytes, arguments: plain)
            {
                defer { shared.remove() } // its one reader has read it
                // the header as its own parse read it, from memory: libclang matches the saved
                // parse's include guard to the file by its size and time, and a file it read from
                // disk would not match a header parsed from memory (the `#include` would enter it again)
                if let header = try? InputFile.read(shared.header, limit: configuration.maxFileSize),
                    let read = try? parser!.parseUnit(
                        path: path, arguments: shared.arguments,
                        unsaved: [ClangParser.UnsavedFile(path: shared.header, bytes: header), main], options: options),
                    !SharedPrecompiledHeader.failedToRead(read, disposing: true)
                {
                    if SharedPrecompiledHeader.parsedAgain(read, header: shared.header) {
                        // the header's declarations twice, the plain parse's once
                        SharedPrecompiledHeader.trace("parsed-again", path)
                        clang_disposeTranslationUnit(read)
                        unit = try parser!.parseUnit(path: path, arguments: plain, unsaved: [main], options: options)
                    } else {
                        SharedPrecompiledHeader.trace("read", path)
                        unit = read
                        savedParseInclusions = shared.inclusions()
                    }
                } else {
                    // libclang failed or named the precompiled header in a fatal error
                    SharedPrecompiledHeader.trace("unreadable", path)
                    unit = try parser!.parseUnit(path: path, arguments: plain, unsaved: [main], options: options)
                }
            } else {
                let cheap = !systemBodies && language == .cxx && database == nil && unsaved.isEmpty && reparse == nil
                if cheap, let prefixed = prefixedUnit(path: path, arguments: plain, bytes: bytes) {
                    unit = prefixed
                    skipped = true
                } else if cheap,
                    let cheaper = parser!.unitWithoutSystemBodies(path: path, arguments: plain, bytes: bytes)
                {
                    unit = cheaper
                    skipped = true
                } else {
                    unit = try parser!.parseUnit(
                        path: path, arguments: plain, unsaved: unsaved + [main], options: options)
                }
                Self.traceParse(skipped ? "bodies-skipped" : "full", path)
            }
            if let reparse, let again = reparse(ParsedFile.inclusions(unit)) {
                clang_disposeTranslationUnit(unit)
                unit = try parser!.parseUnit(
                    path: path, arguments: ClangParser.commonArguments + arguments, unsaved: again + [main],
                    options: options)
            }
            return .success(
                ParsedFile(
                    path: path, language: language, buffer: SourceBuffer(bytes: bytes), unit: unit,
                    trustAllSkippedBlocks: database != nil, savedParseInclusions: savedParseInclusions,
                    systemBodiesSkipped: skipped))
        } catch let failure as ParseFailure {
            return .failure(failure)
        } catch {
            return .failure(ParseFailure(reason: "\(error)"))
        }
    }

    /// The cheaper parse of a C++ source after the run's prefix header (`SharedPrefixHeader`),
    /// nil when there is none for it or the parse with it may read differently (`mayDiffer`).
    private func prefixedUnit(path: String, arguments plain: [String], bytes: [UInt8]) -> CXTranslationUnit? {
        guard
            let arguments = SharedPrefixHeader.readingArguments(
                source: path, bytes: bytes, arguments: plain, parser: parser!,
                unsafe: { prefix, text in self.includeCheck.problem(source: prefix, bytes: text, arguments: plain) }),
            let unit = parser!.unitWithoutSystemBodies(path: path, arguments: arguments, bytes: bytes)
        else { return nil }
        guard !SharedPrefixHeader.mayDiffer(unit) else {
            clang_disposeTranslationUnit(unit)
            SharedPrecompiledHeader.trace("prefix-errors", path)
            return nil
        }
        SharedPrecompiledHeader.trace("prefix-read", path)
        return unit
    }
}
