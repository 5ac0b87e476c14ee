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
///
/// The same walk counts the header entries the preprocessor would make (`IncludeGraph`): a
/// header without an include guard or `#pragma once` is entered again, with all it includes, at
/// each `#include` of it, so headers that include such a header twice, each in turn, double the
/// count per level (2^40 entries from 41 headers of 44 bytes). clang's time grows faster than
/// the count (measured on a loaded 2-core machine: `clang -fsyntax-only` 1.8 s at 4,096
/// entries, 4.9 s at 8,192, 16 s at 16,384), so past `maxReentries` entries of a header
/// entered before the file fails at once, naming the headers, instead of parsing to the deadline.
final class IncludeCheck: @unchecked Sendable {
    let limit: Int
    /// Include directives of headers already read, by path (a header is read once per run).
    private var known: [String: Includers.Header] = [:]
    private let lock = NSLock()
    /// Headers followed from one source at most (bounds the work on a huge include graph).
    static let maxHeaders = 20_000
    /// Entries of headers entered before that one source's includes may make: headers that are
    /// each entered once (guarded) make none, a header of X-macros included again and again a
    /// few hundred at most; past it clang takes seconds, and four times as long at twice as many.
    static let maxReentries = 1 << 13

    init(limit: Int) {
        self.limit = limit
    }

    /// Why the file cannot be parsed safely, naming the include and the path it resolves to; nil when it can.
    func problem(source path: String, bytes: [UInt8], arguments: [String]) -> String? {
        let (directories, forced) = Self.searchPaths(arguments)
        for file in forced {
            if let problem = InputFile.problem(path: file, limit: limit) {
                return "its flags include '\(file)': \(problem)"
            }
        }
        let source = Includers.header(bytes)
        var pending: [(file: String, header: Includers.Header)] = [(path, source)]
        var graph = IncludeGraph(root: path, rootIncludedOnce: source.includedOnce)
        while let (includer, header) = pending.popLast() {
            let here = (includer as NSString).deletingLastPathComponent
            for (name, quoted, imported) in header.includes {
                let candidates =
                    name.hasPrefix("/")
                    ? [name]
                    : (quoted ? [here.isEmpty ? name : here + "/" + name] : [])
                        + directories.compactMap { directory in
                            // a header map (clang reads one from any search-path flag naming a file) names the file itself
                            if let map = headerMap(directory) { return map.lookup(name) }
                            return directory + "/" + name
                        }
                var entered = false
                for candidate in candidates {
                    var st = stat()
                    guard stat(candidate, &st) == 0 else { continue }
                    if let problem = InputFile.problem(st, limit: limit) {
                        let via = includer == path ? "" : " (through \(includer))"
                        return "it includes '\(name)'\(via), which is \(candidate): \(problem)"
                    }
                    // the preprocessor enters the first file found
                    if !entered { graph.include(candidate, from: includer, imported: imported) }
                    entered = true
                    guard graph.files.count < Self.maxHeaders, graph.files.insert(candidate).inserted else { continue }
                    let read = self.header(candidate)
                    if read.includedOnce { graph.includedOnce.insert(candidate) }
                    pending.append((candidate, read))
                }
            }
        }
        let entries = graph.entries()
        if entries.again > Self.maxReentries {
            let chain = entries.heaviest.map {
                "\(($0.file as NSString).lastPathComponent) includes "
                    + "\(($0.included as NSString).lastPathComponent) \($0.times == 1 ? "once" : $0.times == 2 ? "twice" : "\($0.times) times")"
            }
            let shown =
                chain.prefix(4).joined(separator: ", ") + (chain.count > 4 ? ", … (\(chain.count) headers deep)" : "")
            return
                "its includes would enter headers again \(entries.again >= IncludeGraph.saturated ? "more than 2^60" : String(entries.again)) times "
                + "(\(shown)): headers without an include guard or #pragma once, each included more than once by the one before; "
                + "di-lint does not parse a file whose includes enter headers again more than \(Self.maxReentries) times"
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
    private func header(_ path: String) -> Includers.Header {
        lock.lock()
        let cached = known[path]
        lock.unlock()
        if let cached { return cached }
        let header = (try? InputFile.read(path, limit: limit)).map(Includers.header) ?? Includers.Header()
        lock.lock()
        known[path] = header
        lock.unlock()
        return header
    }

    /// Include directories and forced includes (`-include`, `-imacros`) named by compile arguments.
    /// `directoryFlags`: the flags whose directories are wanted (default: every search directory).
    static func searchPaths(
        _ arguments: [String],
        directoryFlags: [String] = [
            "-I", "-iquote", "-isystem", "-idirafter", "-F", "-iframework", "--include-directory",
        ]
    ) -> (directories: [String], forced: [String]) {
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

/// The files one source's includes reach (as `IncludeCheck` resolves them) and how often each
/// includes which, for counting the header entries the preprocessor makes.
struct IncludeGraph {
    let root: String
    /// Every file reached, the root too.
    var files: Set<String>
    /// Files a second inclusion of which enters nothing: guarded, `#pragma once`, or `#import`ed.
    var includedOnce: Set<String> = []
    /// Each file's includes of files that are entered again each time, in order (`#include` of
    /// the same file twice: twice).
    private var edges: [String: [String]] = [:]
    /// The files an include enters, the root too.
    private var entered: Set<String>

    /// Counts saturate here.
    static let saturated = 1 << 60

    init(root: String, rootIncludedOnce: Bool) {
        self.root = root
        files = [root]
        entered = [root]
        if rootIncludedOnce { includedOnce.insert(root) }
    }

    mutating func include(_ file: String, from includer: String, imported: Bool) {
        if imported { includedOnce.insert(file) }
        edges[includer, default: []].append(file)
        entered.insert(file)
    }

    /// The header entries of one parse of the root, those of a file entered before (`again`:
    /// the entries past one per file), and the chain of includes that makes the most of them
    /// (each file, the file it includes most, and how often).
    /// A file included once counts once, with what it includes; any other file counts at each
    /// inclusion, with what it includes (an inclusion of a file being entered already, a cycle,
    /// counts one: clang stops a cycle at its include depth limit with a fatal error).
    func entries() -> (count: Int, again: Int, heaviest: [(file: String, included: String, times: Int)]) {
        // entries(f) = 1 + the entries of each inclusion of a file entered again each time, in
        // post-order without recursion (a chain can be `IncludeCheck.maxHeaders` deep)
        var memo: [String: Int] = [:]
        func add(_ a: Int, _ b: Int) -> Int { a > Self.saturated - b ? Self.saturated : a + b }
        func again(_ file: String) -> Bool { !includedOnce.contains(file) }
        func entries(_ start: String) -> Int {
            if let known = memo[start] { return known }
            var stack: [(file: String, next: Int, sum: Int)] = [(start, 0, 1)]
            var open: Set<String> = [start]
            while !stack.isEmpty {
                let top = stack.count - 1
                let children = edges[stack[top].file] ?? []
                if stack[top].next < children.count {
                    let child = children[stack[top].next]
                    stack[top].next += 1
                    guard again(child) else { continue }
                    if let known = memo[child] { stack[top].sum = add(stack[top].sum, known); continue }
                    if open.contains(child) { stack[top].sum = add(stack[top].sum, 1); continue }
                    open.insert(child)
                    stack.append((child, 0, 1))
                } else {
                    let done = stack.removeLast()
                    open.remove(done.file)
                    memo[done.file] = done.sum
                    if !stack.isEmpty { stack[stack.count - 1].sum = add(stack[stack.count - 1].sum, done.sum) }
                }
            }
            return memo[start]!
        }
        var count = entries(root)
        for file in includedOnce where file != root && files.contains(file) { count = add(count, entries(file)) }
        // the chain: from the root, the file entered again whose inclusions weigh most, and so on
        var heaviest: [(file: String, included: String, times: Int)] = []
        var file = root
        var seen: Set<String> = [root]
        while let children = edges[file] {
            let times = Dictionary(children.filter(again).map { ($0, 1) }, uniquingKeysWith: +)
            func weight(_ included: (key: String, value: Int)) -> Int {
                let (product, overflow) = (memo[included.key] ?? 1).multipliedReportingOverflow(by: included.value)
                return overflow ? Self.saturated : min(product, Self.saturated)
            }
            guard let (next, count) = times.max(by: { weight($0) < weight($1) }), seen.insert(next).inserted else {
                break
            }
            heaviest.append((file, next, count))
            file = next
        }
        return (count, count >= Self.saturated ? count : max(0, count - entered.count), heaviest)
    }
}
