import CLibClang
import Foundation

/// The headers a run's file-rules-only C++ sources most often begin with, parsed once into one
/// precompiled header that each of those sources reads first (`-include-pch`), as a build's
/// prefix header does (CMake's `target_precompile_headers`, MSVC's `stdafx.h`). Part of the
/// header reuse (`ClangFrontEnd.reusesHeaders`; `DI_LINT_HEADER_REUSE=0` turns it off).
///
/// Only for the cheaper parse (`ClangFrontEnd.parse(systemBodies: false)`): a file whose facts
/// no project rule reads, so only its own file rules' findings come of the parse. Such a source
/// sees the prefix's declarations before its own lines, some of which it may not include
/// itself; code that compiles either way means the same to the file rules. A parse that reads
/// the prefix and may read differently for it (`mayDiffer`: an error clang gives for a name
/// declared twice or ambiguous) is not kept: the source is parsed as before.
///
/// The run plans the prefix when it hands out the sources held back for the cheaper parse, or,
/// with no project rule on (every C++ source then gets the cheaper parse), when the first of
/// them is parsed (`RunPlan`), over all the run's C++ sources.
///
/// Which headers: the run (`plan`) reads the `#include` lines each of the sources begins with
/// (`SharedPrecompiledHeader.leadingIncludes`), resolved as the preprocessor would look in the
/// project (beside the source for a quoted name, then each `-iquote`/`-I` directory; a name found
/// in none keeps its spelling), and keeps those at least `minimumShare` of the sources sharing
/// its arguments begin with (at least two sources, among `minimumSources` or more), in the order
/// they tend to come in. The prefix is written to the run's directory
/// (`SharedPrecompiledHeader.runDirectory`) as `prefix-<digest of the arguments>.hpp`; the
/// first parse that needs it builds `.pch` beside it under the lock, or marks it `.bad` when the
/// prefix alone does not parse without an error or reaches an include the include check
/// refuses. A source that begins with none of the prefix's headers reads no prefix. `DI_LINT_PCH_TRACE` lines: `prefix-built PREFIX`,
/// `prefix-unusable PREFIX`, `prefix-read SOURCE`, `prefix-errors SOURCE` (parsed again without it).
enum SharedPrefixHeader {
    /// The share of a run's sources that must begin with a header for it to join the prefix.
    static let minimumShare = 0.2
    /// Fewer sources than this (with the same arguments) get no prefix: one parse of it would
    /// not pay for itself.
    static let minimumSources = 8

    // MARK: the run's side

    /// Writes the prefix of each set of arguments that enough of `sources` share (`arguments`:
    /// a source's whole libclang arguments, as its parse gives them). Once per run, before the
    /// sources' parses; nothing when the header reuse is off or no directory can be made.
    static func plan(sources: [String], arguments: (String) -> [String], maxFileSize: Int) {
        // an earlier run of this process left its prefixes (a library user's second lint): not this run's
        if let run = SharedPrecompiledHeader.existingRunDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: run)
        {
            for name in names where name.hasPrefix("prefix-") { unlink(run + "/" + name) }
        }
        guard ClangFrontEnd.headerReuseRequested, sources.count >= minimumSources,
            let run = SharedPrecompiledHeader.runDirectory()
        else { return }
        var groups: [[String]: [String]] = [:]
        for source in sources { groups[arguments(source), default: []].append(source) }
        for (plain, members) in groups where members.count >= minimumSources {
            let directories = projectDirectories(plain)
            var count: [String: Int] = [:]
            var position: [String: Double] = [:]
            for source in members {
                guard let bytes = try? InputFile.read(source, limit: maxFileSize) else { continue }
                let keys = uniqueKeys(source: source, bytes: bytes, directories: directories)
                for (i, key) in keys.enumerated() {
                    count[key, default: 0] += 1
                    position[key, default: 0] += Double(i) / Double(keys.count)
                }
            }
            let needed = max(2, Int((minimumShare * Double(members.count)).rounded(.up)))
            let kept = count.filter { $0.value >= needed }.keys.sorted {
                (position[$0]! / Double(count[$0]!), $0) < (position[$1]! / Double(count[$1]!), $1)
            }
            guard !kept.isEmpty else { continue }
            let text = kept.map { "#include " + ($0.hasPrefix("/") ? "\"\($0)\"" : $0) + "\n" }.joined()
            let path = prefixPath(run: run, arguments: plain)
            let temporary = path + ".tmp"
            if FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) {
                if rename(temporary, path) != 0 { unlink(temporary) }
            }
        }
    }

    /// `plan` for C++ sources without a compile-database entry, with the arguments their parse gives them.
    static func plan(sources: [String], configuration: Configuration) {
        plan(
            sources: sources,
            arguments: { path in
                ClangParser.commonArguments
                    + ClangFrontEnd.arguments(path: path, language: .cxx, database: nil, configuration: configuration)
            }, maxFileSize: configuration.maxFileSize)
    }

    /// A run's `plan`, made once, by the first parse that needs it (on any parse thread).
    final class RunPlan: @unchecked Sendable {
        private let lock = NSLock()
        private var made = false
        private let body: () -> Void

        init(_ body: @escaping () -> Void) { self.body = body }

        func make() {
            lock.lock()
            defer { lock.unlock() }
            guard !made else { return }
            made = true
            body()
        }
    }

    // MARK: the source's side

    /// For a source's cheaper parse (`arguments` its whole libclang arguments): the arguments
    /// that read the run's prefix first, building it on first use; nil when there is none for
    /// these arguments, the source begins with none of its headers, or it cannot be built.
    /// `unsafe` is the parse's include check (`IncludeCheck.problem`), run on the prefix before
    /// its first parse: the prefix's headers are other sources' too, and one of those sources
    /// may have been refused for them. A build that started and never ended (its parse worker
    /// was stopped at its deadline or memory limit) leaves `.started` behind: no other is tried.
    static func readingArguments(
        source path: String, bytes: [UInt8], arguments plain: [String], parser: ClangParser,
        unsafe: (_ prefix: String, _ bytes: [UInt8]) -> String?
    ) -> [String]? {
        guard ClangFrontEnd.headerReuseRequested,
            let run = SharedPrecompiledHeader.existingRunDirectory
        else { return nil }
        let prefix = prefixPath(run: run, arguments: plain)
        guard let text = try? String(contentsOfFile: prefix, encoding: .utf8) else { return nil }
        let headers = Set(
            text.split(separator: "\n").map { line in
                let spelling = line.dropFirst("#include ".count)
                return spelling.hasPrefix("\"/") ? String(spelling.dropFirst().dropLast()) : String(spelling)
            })
        let source = SharedPrecompiledHeader.absolute(path)
        guard
            uniqueKeys(source: source, bytes: bytes, directories: projectDirectories(plain)).contains(where: {
                headers.contains($0)
            }),
            let held = SharedPrecompiledHeader.locked(prefix)
        else { return nil }
        defer { held.release() }
        let pch = prefix + ".pch"
        if access(pch, R_OK) != 0 {
            guard access(prefix + ".bad", F_OK) != 0, access(prefix + ".started", F_OK) != 0 else { return nil }
            SharedPrecompiledHeader.mark(prefix + ".started")
            guard unsafe(prefix, Array(text.utf8)) == nil, build(prefix: prefix, arguments: plain, parser: parser)
            else {
                SharedPrecompiledHeader.mark(prefix + ".bad")
                SharedPrecompiledHeader.trace("prefix-unusable", prefix)
                return nil
            }
        }
        return plain + ["-include-pch", pch] + SharedPrecompiledHeader.readingArguments
    }

    /// Whether a unit parsed with `readingArguments` may read differently for the prefix (it is
    /// then parsed without it): an error that more declarations in scope can cause (a name
    /// ambiguous, defined again or in conflict), in the source or a header. Other errors are the
    /// source's own (an API the installed library lacks: the plain parse has them too) and are
    /// read as the plain parse reads them.
    static func mayDiffer(_ unit: CXTranslationUnit) -> Bool {
        hasError(unit) { text in clashes.contains { text.contains($0) } }
    }

    /// What clang says of a name declared more than once or in more ways than one.
    static let clashes = ["ambiguous", "redefinition", "conflicting", "redeclar", "previous"]

    /// Whether a unit has an error (whose text `matching` accepts).
    static func hasError(_ unit: CXTranslationUnit, matching: (String) -> Bool = { _ in true }) -> Bool {
        (0..<clang_getNumDiagnostics(unit)).contains { i in
            let diagnostic = clang_getDiagnostic(unit, i)
            defer { clang_disposeDiagnostic(diagnostic) }
            return clang_getDiagnosticSeverity(diagnostic).rawValue >= CXDiagnostic_Error.rawValue
                && matching(clang_getDiagnosticSpelling(diagnostic).consume())
        }
    }

    /// Parses the prefix as a header and saves it (`.pch`); false when the parse fails or has
    /// an error. Called holding the prefix's lock.
    private static func build(prefix: String, arguments plain: [String], parser: ClangParser) -> Bool {
        let arguments = SharedPrecompiledHeader.headerArguments(plain) ?? plain
        let unit = try? parser.parseUnit(
            path: prefix, arguments: arguments, unsaved: [],
            options: ClangParser.parseOptions | CXTranslationUnit_ForSerialization.rawValue)
        defer { unit.map { clang_disposeTranslationUnit($0) } }
        let temporary = prefix + ".pch.tmp"
        guard let unit, !hasError(unit), clang_saveTranslationUnit(unit, temporary, 0) == CXSaveError_None.rawValue,
            rename(temporary, prefix + ".pch") == 0
        else {
            unlink(temporary)
            return false
        }
        SharedPrecompiledHeader.trace("prefix-built", prefix)
        return true
    }

    // MARK: resolving

    private static func prefixPath(run: String, arguments: [String]) -> String {
        run + "/prefix-" + SHA256.hex(arguments.joined(separator: "\u{0}")) + ".hpp"
    }

    /// The directories a project header is looked up in: `-iquote` (quoted names only), then `-I`.
    private static func projectDirectories(_ arguments: [String]) -> (quoted: [String], angled: [String]) {
        let angled = IncludeCheck.searchPaths(arguments, directoryFlags: ["-I", "--include-directory"]).directories
        return (IncludeCheck.searchPaths(arguments, directoryFlags: ["-iquote"]).directories + angled, angled)
    }

    /// The headers a source begins with, each once, in order: a project header by its absolute
    /// path, any other by its spelling.
    private static func uniqueKeys(source: String, bytes: [UInt8], directories: (quoted: [String], angled: [String]))
        -> [String]
    {
        var seen = Set<String>()
        return SharedPrecompiledHeader.leadingIncludes(bytes).map {
            key(spelling: $0, source: source, directories: directories)
        }
        .filter { seen.insert($0).inserted }
    }

    private static func key(spelling: String, source: String, directories: (quoted: [String], angled: [String]))
        -> String
    {
        let name = String(spelling.dropFirst().dropLast())
        let quoted = spelling.hasPrefix("\"")
        if name.hasPrefix("/") { return FileCollector.normalized(name) }
        let here = (SharedPrecompiledHeader.absolute(source) as NSString).deletingLastPathComponent
        for directory in quoted ? [here] + directories.quoted : directories.angled {
            let candidate = SharedPrecompiledHeader.absolute(directory + "/" + name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        return spelling
    }
}
