import CLibClang
import Foundation

/// One precompiled header per directory of C++ sources, shared by every source of the directory
/// in the run (`DI_LINT_HEADER_REUSE=1`, `ClangFrontEnd.reusesHeaders`): the headers a source
/// includes are parsed once for the directory, not again in each source.
///
/// The precompiled header holds the union of the leading `#include` lines of the directory's
/// eligible sources, in file-name order. A source is eligible when its text before its last
/// `#include` is only comments, blank lines, `#include` and `#pragma once` lines: then no macro or
/// condition of its own can change what its headers mean, and the precompiled header holds every
/// header it includes. A source that is not eligible, a header, a parse with a compile
/// database's arguments or with edited files (fix) is parsed as before. When the precompiled
/// header cannot be built or read (libclang reports a fatal error about it), the file is parsed
/// as before.
///
/// The precompiled headers live in one directory per run (`DI_LINT_PCH_DIR`, made by the first
/// process that needs it and inherited by its parse workers), built by one process at a time
/// under a lock, and removed when the process that made the directory exits.
enum SharedPrecompiledHeader {
    /// The run's directory, made on first use (and exported to the parse workers started after).
    static func runDirectory() -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let made = directory { return made }
        if let given = ProcessInfo.processInfo.environment[environmentName], !given.isEmpty {
            directory = given
            return given
        }
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

    static let environmentName = "DI_LINT_PCH_DIR"
    private static let lock = NSLock()
    nonisolated(unsafe) private static var directory: String?
    nonisolated(unsafe) private static var madeHere: String?
    /// Per directory and arguments: the precompiled header's path and the includes it holds
    /// (nil: none could be built).
    nonisolated(unsafe) private static var built: [String: Entry?] = [:]

    /// A built precompiled header: its path, the `#include` lines of its umbrella header and the
    /// files it read.
    private struct Entry {
        let path: String
        let includes: Set<String>
        let files: Set<SourceFileKey>
    }

    /// The arguments that make libclang read the shared precompiled header for `path`
    /// (`bytes` its contents; `arguments` as the parse gives them, `commonArguments` included),
    /// building it first when no process of the run has; nil when the file is parsed as before.
    static func arguments(
        path: String, bytes: [UInt8], isHeader: Bool, arguments: [String], maxFileSize: Int, parser: ClangParser
    ) -> [String]? {
        guard let own = leadingIncludes(bytes, header: isHeader) else { return nil }
        let absolute = FileCollector.normalized(
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        let folder = (absolute as NSString).deletingLastPathComponent
        let ownSet = Set(own.map { resolved($0, in: folder) })
        guard !ownSet.isEmpty, let run = runDirectory() else { return nil }
        let key = folder + "\u{0}" + arguments.joined(separator: "\u{0}")
        lock.lock()
        let known = built[key]
        lock.unlock()
        let entry: Entry?
        if let known {
            entry = known
        } else {
            entry = build(
                folder: folder, headers: isHeader, arguments: arguments, maxFileSize: maxFileSize, run: run,
                parser: parser)
            lock.lock()
            built[key] = entry
            lock.unlock()
        }
        guard let entry else { return nil }
        if isHeader {
            // a header the precompiled header holds would be skipped (its guard is defined)
            guard let own = SourceFileKey(path: absolute), !entry.files.contains(own) else { return nil }
        } else {
            guard ownSet.isSubset(of: entry.includes) else { return nil }
        }
        // libclang rejects (`CXError_ASTReadError`) a precompiled header it validates against
        // OpenMW's include paths, one it built itself with the same arguments included; it is the
        // run's own, built from the files as they are
        return arguments + [
            "-include-pch", entry.path, "-Xclang", "-fallow-pch-with-compiler-errors", "-Xclang", "-fno-validate-pch",
        ]
    }

    /// Forgets a precompiled header libclang could not read (built by another process from other
    /// header contents, say): the directory's next files are parsed as before.
    static func discard(path: String, arguments: [String]) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let folder = (FileCollector.normalized(absolute) as NSString).deletingLastPathComponent
        lock.lock()
        built[folder + "\u{0}" + arguments.joined(separator: "\u{0}")] = .some(nil)
        lock.unlock()
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

    /// Builds (or finds, built by another process of the run) the precompiled header of the C++
    /// sources in `folder`, or of its headers (without the headers of `folder` themselves).
    private static func build(
        folder: String, headers: Bool, arguments: [String], maxFileSize: Int, run: String, parser: ClangParser
    ) -> Entry? {
        let extensions = headers ? SourceLanguage.headerExtensions : ["cpp", "cc", "cxx"]
        let names =
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { extensions.contains(($0 as NSString).pathExtension) }.sorted()
        let siblings = Set(names.map { "\"" + folder + "/" + $0 + "\"" })
        var lines: [String] = []
        var includes = Set<String>()
        for name in names {
            guard let bytes = try? InputFile.read(folder + "/" + name, limit: maxFileSize),
                let own = leadingIncludes(bytes, header: headers)
            else { continue }
            for spelling in own {
                let line = resolved(spelling, in: folder)
                if headers && siblings.contains(line) { continue }
                if includes.insert(line).inserted { lines.append(line) }
            }
        }
        guard !lines.isEmpty else { return nil }
        let umbrella = lines.map { "#include \($0)\n" }.joined()
        // the driver's language for a header: `-x c++` becomes `-x c++-header`
        var headerArguments = arguments
        guard let x = headerArguments.firstIndex(of: "-x"), x + 1 < headerArguments.count,
            ["c++", "c++-header"].contains(headerArguments[x + 1])
        else { return nil }
        headerArguments[x + 1] = "c++-header"
        let name = SHA256.hex(
            clang_getClangVersion().consume() + "\u{0}" + headerArguments.joined(separator: "\u{0}") + "\u{0}"
                + umbrella)
        let base = run + "/" + name
        let pch = base + ".pch"
        // one process builds it; the others wait for it on the lock and then read it
        let lockDescriptor = open(base + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lockDescriptor >= 0 else { return nil }
        defer { close(lockDescriptor) }
        guard flock(lockDescriptor, LOCK_EX) == 0 else { return nil }
        defer { flock(lockDescriptor, LOCK_UN) }
        let filesPath = base + ".files"
        if access(pch, R_OK) == 0 {
            // the files it read, as the process that built it wrote them down
            guard let listing = try? String(contentsOfFile: filesPath, encoding: .utf8) else { return nil }
            let files = listing.split(separator: "\n").compactMap { line -> SourceFileKey? in
                let parts = line.split(separator: " ").compactMap { UInt64($0) }
                return parts.count == 2 ? SourceFileKey(device: parts[0], inode: parts[1]) : nil
            }
            return Entry(path: pch, includes: includes, files: Set(files))
        }
        // a process that died building it (killed at its parse deadline) leaves the attempt: no
        // second try, the directory's files are parsed as before
        let attempt = base + ".attempt"
        let marker = open(attempt, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard marker >= 0 else { return nil }
        close(marker)
        let umbrellaPath = base + ".hpp"
        guard FileManager.default.createFile(atPath: umbrellaPath, contents: Data(umbrella.utf8)) else { return nil }
        let options = UInt32(
            CXTranslationUnit_ForSerialization.rawValue | CXTranslationUnit_Incomplete.rawValue
                | CXTranslationUnit_KeepGoing.rawValue)
        guard
            let unit = try? parser.parseUnit(
                path: umbrellaPath, arguments: headerArguments, unsaved: [], options: options)
        else { return nil }
        defer { clang_disposeTranslationUnit(unit) }
        let files = ParsedFile.inclusions(unit)
        let listing = files.map { "\($0.device) \($0.inode)\n" }.joined()
        let temporary = base + ".tmp-pch"
        guard FileManager.default.createFile(atPath: filesPath, contents: Data(listing.utf8)),
            clang_saveTranslationUnit(unit, temporary, 0) == CXSaveError_None.rawValue,
            rename(temporary, pch) == 0
        else {
            unlink(temporary)
            return nil
        }
        return Entry(path: pch, includes: includes, files: files)
    }

    /// An `#include` spelling as the umbrella header writes it: a quoted name found beside the
    /// source by its absolute path (the umbrella lives elsewhere), others as written.
    private static func resolved(_ spelling: String, in folder: String) -> String {
        guard spelling.hasPrefix("\""), spelling.count >= 2 else { return spelling }
        let name = String(spelling.dropFirst().dropLast())
        let beside = FileCollector.normalized(folder + "/" + name)
        return FileManager.default.fileExists(atPath: beside) ? "\"" + beside + "\"" : spelling
    }

    /// The spellings (`<a/b.h>`, `"c.h"`) of a source's leading `#include` lines when every
    /// `#include` of it is among them: before the last, only comments, blank lines and
    /// `#pragma once`, and for a `header` its include guard (`#ifndef G` then `#define G`, first).
    /// Nil when it is not eligible.
    static func leadingIncludes(_ bytes: [UInt8], header: Bool = false) -> [String]? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var includes: [String] = []
        var inComment = false
        var leading = true
        var guardName: String?
        var guardState = header ? 0 : 2 // 0: none yet, 1: after `#ifndef G`, 2: done
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
            let directive = line.hasPrefix("#") ? line.dropFirst().trimmingCharacters(in: .whitespaces) : nil
            let words = directive.map { $0.split(separator: " ").map(String.init) } ?? []
            if guardState == 0, words.count == 2, words[0] == "ifndef" {
                guardName = words[1]
                guardState = 1
                continue
            }
            if guardState == 1 {
                guard words.count == 2, words[0] == "define", words[1] == guardName else { return nil }
                guardState = 2
                continue
            }
            guardState = 2
            if let directive, directive.hasPrefix("include") {
                guard leading else { return nil } // an include after other code
                let rest = directive.dropFirst("include".count).trimmingCharacters(in: .whitespaces)
                let closing = rest.first == "<" ? rest.firstIndex(of: ">") : quoteEnd(rest)
                guard let close = closing else { return nil }
                let spelling = String(rest[...close])
                let after = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
                guard after.isEmpty || after.hasPrefix("//") else { return nil }
                includes.append(spelling)
            } else if leading, words == ["pragma", "once"] {
                continue
            } else {
                leading = false // an `#include` further on (in a condition, after a macro) is caught above
            }
        }
        return includes.isEmpty ? nil : includes
    }

    private static func quoteEnd(_ rest: String) -> String.Index? {
        guard rest.first == "\"" else { return nil }
        return rest.dropFirst().firstIndex(of: "\"")
    }
}
