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

    /// Whether a parse of `language` may read its directory's shared precompiled header
    /// (`SharedPrecompiledHeader`): C++ sources and headers, only with `DI_LINT_HEADER_REUSE=1`
    /// (`scripts/bench-cpp` compares both). Off by default: on OpenMW's mwgui the directory's
    /// precompiled header (its 82 sources' includes, 140 MB) made `tooltips.cpp` 15% faster and
    /// `alchemywindow.cpp` 1.7x slower (lookups in the large header), and building it costs
    /// about 15 s of CPU per directory.
    static func reusesHeaders(_ language: SourceLanguage) -> Bool {
        language == .cxx && headerReuseRequested
    }

    static let headerReuseRequested = ProcessInfo.processInfo.environment["DI_LINT_HEADER_REUSE"] == "1"

    /// The file's model, or why it cannot be linted.
    func model(path: String, displayPath: String, bytes: [UInt8], language: SourceLanguage) -> Result<
        FileModel, ParseFailure
    > {
        parse(path: path, bytes: bytes, language: language).map { parsed in
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

    /// `arguments` plus the directory's shared precompiled header (`SharedPrecompiledHeader`)
    /// when the file may read it: C++ with header reuse on, no compile database entry, no
    /// edited files; `arguments` otherwise.
    private func sharedHeaderArguments(
        path: String, bytes: [UInt8], language: SourceLanguage, database: [String]?, arguments: [String], edited: Bool
    ) -> [String] {
        guard Self.reusesHeaders(language), database == nil, !edited,
            let shared = SharedPrecompiledHeader.arguments(
                path: path, bytes: bytes,
                isHeader: SourceLanguage.headerExtensions.contains((path as NSString).pathExtension),
                arguments: arguments, maxFileSize: configuration.maxFileSize, parser: parser!)
        else { return arguments }
        return shared
    }

    /// The one way di-lint parses a C-family file (lint, its parse workers, fix and fix's
    /// verification): the guards first (Objective-C bracket depth, bounded includes, libclang
    /// loaded), then libclang with `bytes` as the file's contents and `unsaved` as other files'
    /// contents (fix's edited headers). `reparse` is shown the files the parse read and may ask
    /// for one more parse with other unsaved files (fix's check that the parse read no edited
    /// file it was not given); nil keeps it.
    func parse(
        path: String, bytes: [UInt8], language: SourceLanguage, unsaved: [ClangParser.UnsavedFile] = [],
        reparse: ((Set<SourceFileKey>) -> [ClangParser.UnsavedFile]?)? = nil
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
            let given = sharedHeaderArguments(
                path: path, bytes: bytes, language: language, database: database, arguments: plain,
                edited: !unsaved.isEmpty || reparse != nil)
            var unit: CXTranslationUnit
            if given == plain {
                unit = try parser!.parseUnit(path: path, arguments: plain, unsaved: unsaved + [main], options: options)
            } else if let read = try? parser!.parseUnit(
                path: path, arguments: given, unsaved: unsaved + [main], options: options, localDeclarationsOnly: true),
                !SharedPrecompiledHeader.failedToRead(read, disposing: true)
            {
                unit = read
            } else {
                // the shared precompiled header is unreadable (libclang failed or named it in a
                // fatal error): this file and its directory's next are parsed as before
                SharedPrecompiledHeader.discard(path: path, arguments: plain)
                unit = try parser!.parseUnit(path: path, arguments: plain, unsaved: unsaved + [main], options: options)
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
                    trustAllSkippedBlocks: database != nil))
        } catch let failure as ParseFailure {
            return .failure(failure)
        } catch {
            return .failure(ParseFailure(reason: "\(error)"))
        }
    }
}
