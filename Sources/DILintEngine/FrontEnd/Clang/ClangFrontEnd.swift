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

    init(configuration: Configuration, compileArguments: [String: [String]]) {
        self.configuration = configuration
        self.compileArguments = compileArguments
        finder = ContainerAccessFinder(specs: configuration.accessSpecs)
        includeCheck = IncludeCheck(limit: configuration.maxFileSize)
    }

    /// Clang's `-fbracket-depth` guard covers parentheses and braces but not Objective-C message brackets.
    static let maxSquareBracketDepth = 1000

    /// The deepest `[` nesting in the raw bytes (comments and strings included: an over-estimate is harmless).
    static func squareBracketDepth(_ bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        for b in bytes {
            if b == UInt8(ascii: "[") { depth += 1; deepest = max(deepest, depth) } else if b == UInt8(ascii: "]") { depth = max(0, depth - 1) }
        }
        return deepest
    }

    /// The arguments libclang gets for a file (before `ClangParser.commonArguments`): the
    /// language's flags or the compile database's entry, then `clang-flags`, then the header map
    /// last, so that every flag wins over it. `di-lint fix` parses with the same.
    static func arguments(path: String, language: SourceLanguage, database: [String]?, configuration: Configuration) -> [String] {
        let isHeader = SourceLanguage.headerExtensions.contains((path as NSString).pathExtension)
        let base = database.map { $0 + language.objcRuntimeArguments } ?? language.clangArguments(isHeader: isHeader)
        return base + configuration.clangFlags + (configuration.headerMapFile?.arguments ?? [])
    }

    /// The file's model, or why it cannot be linted.
    func model(path: String, displayPath: String, bytes: [UInt8], language: SourceLanguage) -> Result<FileModel, ParseFailure> {
        let depth = Self.squareBracketDepth(bytes)
        if depth > Self.maxSquareBracketDepth {
            return .failure(ParseFailure(reason: "square brackets nest \(depth) deep; libclang 14 overflows its stack on Objective-C messages nested past a few thousand, so di-lint does not parse files beyond \(Self.maxSquareBracketDepth)"))
        }
        let absolute = FileCollector.normalized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        let database = compileArguments[absolute]
        // a database's command carries `-working-directory=`, against which libclang resolves a
        // relative path: the file is parsed by its absolute path then
        let path = database == nil ? path : absolute
        let arguments = Self.arguments(path: path, language: language, database: database, configuration: configuration)
        if let problem = includeCheck.problem(source: path, bytes: bytes, arguments: arguments) {
            return .failure(ParseFailure(reason: problem))
        }
        if parser == nil {
            if let error = LibClang.loadError { return .failure(ParseFailure(reason: error)) }
            parser = ClangParser()
        }
        do {
            let parsed = try parser!.parse(path: path, buffer: SourceBuffer(bytes: bytes), language: language, arguments: arguments,
                                           trustAllSkippedBlocks: database != nil)
            return .success(ClangFileModel(parsed: parsed, displayPath: displayPath, configuration: configuration, finder: finder))
        } catch let failure as ParseFailure {
            return .failure(failure)
        } catch {
            return .failure(ParseFailure(reason: "\(error)"))
        }
    }
}
