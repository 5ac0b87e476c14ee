import Foundation

/// Checks, before libclang opens them, the files a source's `#include`/`#import` lines can reach.
/// libclang reads whatever an include names — `#include "/dev/zero"` reads without end, an
/// include of a FIFO waits forever — and has no hook to stop it, so each include is resolved
/// here the way the preprocessor would look for it (absolute; beside the including file for
/// quoted names; each `-I`, `-iquote`, `-isystem`, `-idirafter` directory, or the file a header map
/// there maps the name to) and every existing
/// candidate must be a regular file within `max-file-size`. Regular headers found are read
/// (bounded) and checked in turn. `-include`/`-imacros` files of the arguments are checked too.
/// Names computed by macros (`#include HEADER`) are not resolved.
final class IncludeCheck: @unchecked Sendable {
    let limit: Int
    /// Include directives of headers already read, by path (a header is read once per run).
    private var known: [String: [(name: String, quoted: Bool)]] = [:]
    private let lock = NSLock()
    /// Headers followed from one source at most (bounds the work on a huge include graph).
    static let maxHeaders = 20_000

    init(limit: Int) {
        self.limit = limit
    }

    /// Why the file cannot be parsed safely, naming the include and the path it resolves to; nil when it can.
    func problem(source path: String, bytes: [UInt8], arguments: [String]) -> String? {
        let (directories, forced) = Self.searchPaths(arguments)
        for file in forced {
            if let problem = InputFile.problem(path: file, limit: limit) { return "its flags include '\(file)': \(problem)" }
        }
        var pending: [(file: String, directives: [(name: String, quoted: Bool)])] = [(path, Includers.directives(in: bytes))]
        var visited: Set<String> = [path]
        while let (includer, directives) = pending.popLast() {
            let here = (includer as NSString).deletingLastPathComponent
            for (name, quoted) in directives {
                let candidates = name.hasPrefix("/") ? [name]
                    : (quoted ? [here.isEmpty ? name : here + "/" + name] : []) + directories.compactMap { directory in
                        // a header map (clang reads one from any search-path flag naming a file) names the file itself
                        if let map = headerMap(directory) { return map.lookup(name) }
                        return directory + "/" + name
                    }
                for candidate in candidates {
                    var st = stat()
                    guard stat(candidate, &st) == 0 else { continue }
                    if let problem = InputFile.problem(st, limit: limit) {
                        let via = includer == path ? "" : " (through \(includer))"
                        return "it includes '\(name)'\(via), which is \(candidate): \(problem)"
                    }
                    guard visited.count < Self.maxHeaders, visited.insert(candidate).inserted else { continue }
                    pending.append((candidate, header(candidate)))
                }
            }
        }
        return nil
    }

    /// Search-path arguments that are header maps, read once (nil: a directory, or not a map).
    private var maps: [String: HeaderMap.Table?] = [:]

    /// The header map a search-path argument names, nil when it is no regular file holding one.
    private func headerMap(_ path: String) -> HeaderMap.Table? {
        lock.lock()
        let cached = maps[path]
        lock.unlock()
        if let cached { return cached }
        var st = stat()
        var table: HeaderMap.Table?
        if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, let bytes = try? InputFile.read(path, limit: limit) {
            table = HeaderMap.Table(bytes: bytes)
        }
        lock.lock()
        maps[path] = .some(table)
        lock.unlock()
        return table
    }

    /// The include directives of a header, read once.
    private func header(_ path: String) -> [(name: String, quoted: Bool)] {
        lock.lock()
        let cached = known[path]
        lock.unlock()
        if let cached { return cached }
        let directives = (try? InputFile.read(path, limit: limit)).map(Includers.directives) ?? []
        lock.lock()
        known[path] = directives
        lock.unlock()
        return directives
    }

    /// Include directories and forced includes (`-include`, `-imacros`) named by compile arguments.
    static func searchPaths(_ arguments: [String]) -> (directories: [String], forced: [String]) {
        let directoryFlags = ["-I", "-iquote", "-isystem", "-idirafter", "-F", "-iframework", "--include-directory"]
        let fileFlags = ["-include", "-imacros", "--include"]
        var directories: [String] = [], forced: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if let flag = directoryFlags.first(where: { a == $0 }) ?? fileFlags.first(where: { a == $0 }) {
                guard i < arguments.count else { break }
                if fileFlags.contains(flag) { forced.append(arguments[i]) } else { directories.append(arguments[i]) }
                i += 1
            } else if let flag = directoryFlags.first(where: { a.hasPrefix($0) && a.count > $0.count }) {
                var value = String(a.dropFirst(flag.count))
                if value.hasPrefix("=") { value.removeFirst() }
                directories.append(value)
            } else if let flag = fileFlags.first(where: { a.hasPrefix($0) && a.count > $0.count }) {
                var value = String(a.dropFirst(flag.count))
                if value.hasPrefix("=") { value.removeFirst() }
                forced.append(value)
            }
        }
        return (directories, forced)
    }
}
