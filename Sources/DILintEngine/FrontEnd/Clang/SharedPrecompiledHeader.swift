import CLibClang
import Foundation

/// A header's own parse, reused by the C++ source that begins with it (by default;
/// `DI_LINT_HEADER_REUSE=0` turns it off; `ClangFrontEnd.reusesHeaders`): a run lints `foo.hpp`
/// as its own translation unit anyway, so that parse is saved as a precompiled header, and
/// `foo.cpp`, whose first line of code is `#include "foo.hpp"`, reads it instead of parsing
/// `foo.hpp` and everything it includes again.
/// The rest of the source, its other `#include`s with it, is parsed as before.
///
/// One header, one source: the pair shares a directory and a file name stem, the source's first
/// line of code (after comments and blank lines only) includes the header, and nothing comes
/// before it that could change what the header means. The header's parse is saved only when
/// such a source exists; the source removes the precompiled header once it has read it. Under
/// one lock per pair: the header's parse holds it while it parses and saves, the source takes
/// it to look, so a source never reads a half-written file and waits for a header being parsed;
/// a source that comes first marks the pair, and the header's parse then saves nothing. A
/// source whose header is not parsed in the run (cached, left out, parsed after it), a parse
/// with a compile database's arguments or with edited files (fix), and a precompiled header
/// libclang cannot read (a fatal error naming it) all mean a plain parse.
///
/// The precompiled headers live in one directory per run (made by the run's process when it
/// first needs it, exported to its parse workers as `DI_LINT_PCH_DIR`), removed when the
/// process that made it exits. `DI_LINT_PCH_TRACE=FILE` appends one line per decision to FILE (`built
/// HEADER`, `read SOURCE`, `plain SOURCE`, `unreadable SOURCE`, `parsed-again SOURCE`: read
/// without a fatal error, yet the unit lists the header among the files it included, and is
/// parsed plainly instead), for tests and measurements.
///
/// The source's unit is walked as a plain parse's: its top level lists the saved parse's
/// declarations, then its own (`ClangParser` has one index, not one of local declarations), and
/// the walks keep what lies in the main file as they always do. What the unit does not list,
/// the files the saved parse read, travels beside it (`.includes`,
/// `ParsedFile.savedParseInclusions`).
enum SharedPrecompiledHeader {
    /// The run's directory, made on first use (and exported to the parse workers started after).
    /// A process that is not a parse worker makes its own: one inherited from a process that
    /// ran di-lint before (a test runner, a script) would mix two runs' files.
    static func runDirectory() -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let made = directory { return made }
        var template = Array((NSTemporaryDirectory() + "/di-lint-pch-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let path = String(cString: made)
        directory = path
        setenv(environmentName, path, 1)
        atexit {
            if let path = SharedPrecompiledHeader.madeHere { try? FileManager.default.removeItem(atPath: path) }
        }
        madeHere = path
        return path
    }

    /// A parse worker's: the directory its run made (`environmentName`), if any. Nil in any other
    /// process until `runDirectory` makes one.
    static var existingRunDirectory: String? {
        lock.lock()
        defer { lock.unlock() }
        return directory
    }

    /// Called by a parse worker first: its run's directory is the one its parent exported.
    static func inheritRunDirectory() {
        lock.lock()
        defer { lock.unlock() }
        if let given = ProcessInfo.processInfo.environment[environmentName], !given.isEmpty { directory = given }
    }

    static let environmentName = "DI_LINT_PCH_DIR"
    private static let lock = NSLock()
    nonisolated(unsafe) private static var directory: String?
    nonisolated(unsafe) private static var madeHere: String?

    static let sourceExtensions = ["cpp", "cc", "cxx"]

    /// The flags that make libclang read a precompiled header it built from the run's own files
    /// (libclang rejects one it validates against OpenMW's include paths, even one it built
    /// itself with the same arguments; a header with errors is one too).
    static let readingArguments = [
        "-Xclang", "-fallow-pch-with-compiler-errors", "-Xclang", "-fno-validate-pch",
    ]

    // MARK: pairs

    /// The header a C++ source begins with (absolute path): its first line of code is
    /// `#include "stem.ext"` naming a header beside it with the source's own stem. Nil otherwise.
    static func ownHeader(source absolute: String, bytes: [UInt8]) -> String? {
        let name = (absolute as NSString).lastPathComponent
        guard sourceExtensions.contains((name as NSString).pathExtension),
            let spelling = firstInclude(bytes), spelling.hasPrefix("\""), spelling.count > 2
        else { return nil }
        let included = String(spelling.dropFirst().dropLast())
        guard !included.contains("/"), SourceLanguage.headerExtensions.contains((included as NSString).pathExtension),
            (included as NSString).deletingPathExtension == (name as NSString).deletingPathExtension
        else { return nil }
        let header = (absolute as NSString).deletingLastPathComponent + "/" + included
        return FileManager.default.fileExists(atPath: header) ? header : nil
    }

    /// The C++ source beside a header (absolute path) that begins with it, if any.
    static func source(beginningWith header: String, maxFileSize: Int) -> String? {
        let stem = (header as NSString).deletingPathExtension
        for ext in sourceExtensions {
            let source = stem + "." + ext
            guard let bytes = try? InputFile.read(source, limit: maxFileSize) else { continue }
            if ownHeader(source: source, bytes: bytes) == header { return source }
        }
        return nil
    }

    /// The spelling (`"a.hpp"`, `<a>`) of the first line of code when it is an `#include`;
    /// only comments and blank lines may come before it.
    static func firstInclude(_ bytes: [UInt8]) -> String? {
        leadingIncludes(bytes).first
    }

    /// The spellings (`"a.hpp"`, `<a>`) of the `#include` lines a file begins with: those before
    /// its first line that is neither an `#include`, a comment nor blank.
    static func leadingIncludes(_ bytes: [UInt8]) -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else { return [] }
        var inComment = false
        var found: [String] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(raw.trimmingCharacters(in: .whitespaces))
            if inComment {
                guard let end = line.range(of: "*/") else { continue }
                line = Substring(line[end.upperBound...].trimmingCharacters(in: .whitespaces))
                inComment = false
            }
            while line.hasPrefix("/*") {
                guard let end = line.range(of: "*/") else {
                    inComment = true
                    line = ""
                    break
                }
                line = Substring(line[end.upperBound...].trimmingCharacters(in: .whitespaces))
            }
            if line.isEmpty || line.hasPrefix("//") { continue }
            guard line.hasPrefix("#"), !line.hasSuffix("\\") else { return found }
            let directive = line.dropFirst().trimmingCharacters(in: .whitespaces)
            guard directive.hasPrefix("include") else { return found }
            let rest = directive.dropFirst("include".count).trimmingCharacters(in: .whitespaces)
            let closing = rest.first == "<" ? rest.firstIndex(of: ">") : quoteEnd(rest)
            guard let close = closing else { return found }
            let after = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
            guard after.isEmpty || after.hasPrefix("//") else { return found }
            found.append(String(rest[...close]))
        }
        return found
    }

    private static func quoteEnd(_ rest: String) -> String.Index? {
        guard rest.first == "\"" else { return nil }
        return rest.dropFirst().firstIndex(of: "\"")
    }

    /// The order a run hands its files out in: each header that a source of the run begins with
    /// (by name: same directory and stem) moved `ahead` places before that source, so that its
    /// parse is under way or done when the source's parse looks for it. Indices into `files`.
    static func order(_ files: [String], ahead: Int) -> [Int] {
        var headerAt: [String: Int] = [:]
        for (i, f) in files.enumerated() where SourceLanguage.headerExtensions.contains((f as NSString).pathExtension) {
            headerAt[(f as NSString).deletingPathExtension, default: i] = i
        }
        var moved: [Int: Int] = [:] // header index -> its source's index
        for (i, f) in files.enumerated() where sourceExtensions.contains((f as NSString).pathExtension) {
            if let h = headerAt[(f as NSString).deletingPathExtension], moved[h] == nil { moved[h] = i }
        }
        guard !moved.isEmpty else { return Array(files.indices) }
        var rest: [Int] = []
        var position: [Int: Int] = [:]
        for i in files.indices where moved[i] == nil {
            position[i] = rest.count
            rest.append(i)
        }
        // a key per file: its place among the others, a moved header `ahead` places before its
        // source's (ties: the header first, then by its index)
        let keyed =
            rest.map { (key: Double(position[$0]!), index: $0) }
            + moved.map { header, source in (key: Double(position[source]! - ahead) - 0.5, index: header) }
        return keyed.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map(\.index)
    }

    // MARK: the header's side

    /// A lock held while a header's parse is saved, or while a source looks for it.
    struct PairLock {
        fileprivate let base: String
        fileprivate let descriptor: Int32

        func release() {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// The pair's files: `<run>/<digest of clang, header, arguments>` plus `.pch`, `.lock`,
    /// `.taken` (a source looked and found none). `arguments` are the header's, as its own parse
    /// gives them (a source's have `-x c++` where the header's have `-x c++-header`).
    private static func base(header: String, arguments: [String]) -> String? {
        guard let run = runDirectory() else { return nil }
        return run + "/"
            + SHA256.hex(
                clang_getClangVersion().consume() + "\u{0}" + header + "\u{0}" + arguments.joined(separator: "\u{0}"))
    }

    static func locked(_ base: String) -> PairLock? {
        let descriptor = open(base + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            return nil
        }
        return PairLock(base: base, descriptor: descriptor)
    }

    /// For a header's own parse: the lock to hold while it parses and saves, when a source
    /// beside it begins with it and has not looked yet. Nil: parse as before, save nothing.
    static func headerToSave(header path: String, arguments: [String], maxFileSize: Int) -> PairLock? {
        let header = absolute(path)
        guard source(beginningWith: header, maxFileSize: maxFileSize) != nil,
            let base = base(header: header, arguments: arguments), let held = locked(base)
        else { return nil }
        if access(base + ".taken", F_OK) == 0 || access(base + ".pch", F_OK) == 0 {
            held.release()
            return nil
        }
        return held
    }

    /// Saves a header's parse (`unit`, parsed with `CXTranslationUnit_ForSerialization`) for
    /// its source, whole or not at all, and releases the lock. Saved with it: the paths of the
    /// files the parse read (`.includes`), which the source's unit does not list. A header
    /// without an include guard or `#pragma once` is not saved: its source's `#include` would
    /// parse it again after reading it.
    static func save(_ unit: CXTranslationUnit, header path: String, holding held: PairLock) {
        defer { held.release() }
        guard let file = clang_getFile(unit, path), clang_isFileMultipleIncludeGuarded(unit, file) != 0 else { return }
        let included = ParsedFile.inclusionPaths(unit, minimumDepth: 0).joined(separator: "\n")
        let temporary = held.base + ".tmp"
        if FileManager.default.createFile(atPath: temporary, contents: Data(included.utf8)),
            rename(temporary, held.base + ".includes") == 0,
            clang_saveTranslationUnit(unit, temporary, 0) == CXSaveError_None.rawValue,
            rename(temporary, held.base + ".pch") == 0
        {
            trace("built", path)
        } else {
            unlink(temporary)
            unlink(held.base + ".includes")
        }
    }

    // MARK: the source's side

    /// A source's way to its header's saved parse (`sourceArguments`).
    struct SavedParse {
        /// The source's arguments with those that read the saved parse.
        let arguments: [String]
        /// The header (absolute path).
        let header: String
        fileprivate let base: String

        /// The paths of the files the header's parse read, the header first.
        func inclusions() -> [String] {
            guard let text = try? String(contentsOfFile: base + ".includes", encoding: .utf8) else { return [] }
            return text.split(separator: "\n").map(String.init)
        }

        /// Removes the saved parse: its one reader has read it.
        func remove() {
            unlink(base + ".pch")
            unlink(base + ".includes")
        }
    }

    /// For a source's parse (`arguments` its own): the arguments that read its header's saved
    /// parse, or nil (parse as before; the pair is marked so that a header parsed later saves
    /// nothing).
    static func sourceArguments(source path: String, bytes: [UInt8], arguments: [String]) -> SavedParse? {
        guard let header = ownHeader(source: absolute(path), bytes: bytes) else { return nil }
        guard let asHeader = headerArguments(arguments), let base = base(header: header, arguments: asHeader),
            let held = locked(base)
        else {
            return nil
        }
        defer { held.release() }
        let pch = base + ".pch"
        guard access(pch, R_OK) == 0 else {
            mark(base + ".taken")
            trace("plain", path)
            return nil
        }
        return SavedParse(
            arguments: arguments + ["-include-pch", pch] + readingArguments, header: header, base: base)
    }

    /// Whether a source's unit entered its header again after reading the saved parse: the unit
    /// lists the header among the files it included itself (a unit lists the files it read, not
    /// those of the saved parse). The include guard or `#pragma once` the saved parse recorded
    /// keeps the `#include` out when libclang matches it to the file (same name, size and time:
    /// the source is given the header from memory as the header's parse was); a header without
    /// one is not saved (`save`). Entered again, a `#pragma once` header is declared twice: the
    /// source is then parsed plainly.
    static func parsedAgain(_ unit: CXTranslationUnit, header: String) -> Bool {
        guard let key = SourceFileKey(path: header) else { return false }
        return ParsedFile.inclusions(unit).contains(key)
    }

    /// Whether libclang failed to read the precompiled header: a fatal error that names it. The
    /// unit is disposed of when it did and `disposing` is set.
    static func failedToRead(_ unit: CXTranslationUnit, disposing: Bool) -> Bool {
        for i in 0..<clang_getNumDiagnostics(unit) {
            let diagnostic = clang_getDiagnostic(unit, i)
            defer { clang_disposeDiagnostic(diagnostic) }
            guard clang_getDiagnosticSeverity(diagnostic) == CXDiagnostic_Fatal else { continue }
            let text = clang_getDiagnosticSpelling(diagnostic).consume()
            if text.contains("PCH") || text.contains("precompiled header") || text.contains("AST file") {
                if disposing { clang_disposeTranslationUnit(unit) }
                return true
            }
        }
        return false
    }

    /// Appends `what path` to `DI_LINT_PCH_TRACE`'s file, when set (one write: lines of
    /// processes writing at once do not mix).
    static func trace(_ what: String, _ path: String) { ClangFrontEnd.appendTrace(what, path, to: traceFile) }

    private static let traceFile: String? = ProcessInfo.processInfo.environment["DI_LINT_PCH_TRACE"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// A C++ source's arguments for parsing a header (`-x c++` made `-x c++-header`); nil without `-x c++`.
    static func headerArguments(_ arguments: [String]) -> [String]? {
        guard let x = arguments.firstIndex(of: "-x"), x + 1 < arguments.count, arguments[x + 1] == "c++" else {
            return nil
        }
        var header = arguments
        header[x + 1] = "c++-header"
        return header
    }

    /// Leaves an empty marker file at `path` (`.taken`, `.started`, `.bad`).
    static func mark(_ path: String) {
        close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600))
    }

    static func absolute(_ path: String) -> String {
        FileCollector.normalized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }
}
