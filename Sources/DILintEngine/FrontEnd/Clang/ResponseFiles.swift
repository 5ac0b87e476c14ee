import Foundation

/// The response files (`@file` arguments) of a compile database, checked before libclang reads
/// them. libclang expands them in di-lint's own process when it hands out the commands, each
/// read whole, nested ones too: `@/dev/zero` ran it out of memory, a FIFO would hang it. Every
/// `@` argument that names an existing path must be a regular file, and the text all of a
/// database's expansions pull in is bounded (`maxBytes`). A path that does not exist is left
/// alone, as libclang leaves it.
///
/// The arguments are split as libclang splits them: a `command` string by the compile
/// database's own rules, a response file's text as a GNU command line (LLVM 14's
/// `CommandLineArgumentParser` and `TokenizeGNUCommandLine`). A relative name is checked against
/// both places libclang may look it up in (the command's directory, the including file's).
struct ResponseFiles {
    /// The most bytes of response-file text all the commands of a database may expand to.
    static let maxBytes = 256 << 20

    /// The database file, for messages.
    let database: String
    /// Expanded size of each file checked, by path; files being expanded (a cycle libclang leaves alone).
    private var sizes: [String: Int] = [:]
    private var expanding: Set<String> = []
    private var total = 0

    init(database: String) { self.database = database }

    /// Checks the `@` arguments of one command run in `directory`.
    mutating func check(arguments: [String], directory: String) throws {
        for argument in arguments where argument.hasPrefix("@") {
            let size = try expandedSize(String(argument.dropFirst()), bases: [directory], from: nil)
            total = Self.saturating(total, size)
            if total > Self.maxBytes {
                throw refusal("its commands' response files expand to more than \(Self.maxBytes) bytes")
            }
        }
    }

    /// The bytes `@name` expands to (its text and that of the files it names), or 0 when libclang
    /// would leave it alone (no such file, or one being expanded).
    private mutating func expandedSize(_ name: String, bases: [String], from: String?) throws -> Int {
        let candidates =
            name.hasPrefix("/") ? [name] : bases.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }
        var size = 0
        for path in candidates {
            if expanding.contains(path) { continue }
            if let known = sizes[path] { size = Self.saturating(size, known); continue }
            var st = stat()
            guard stat(path, &st) == 0 else { continue } // libclang cannot open it either: the argument stays
            let named =
                "a command's response file \(Excerpt.quoted("@" + name, limit: 4096))"
                + (from.map { ", named in \(Excerpt.quoted($0, limit: 4096))" } ?? "")
                + (path == name ? "" : " (\(Excerpt.quoted(path, limit: 4096)))")
            if let problem = InputFile.problem(st, limit: Self.maxBytes) {
                throw refusal(
                    "\(named): \(problem.replacingOccurrences(of: "(max-file-size)", with: "for response files"))")
            }
            let bytes: [UInt8]
            do { bytes = try InputFile.read(path, limit: Self.maxBytes) } catch let refused as InputFile.Refused {
                throw refusal("\(named): \(refused.problem)")
            }
            expanding.insert(path)
            var expanded = bytes.count
            for token in Self.gnuTokens(bytes) where token.first == UInt8(ascii: "@") {
                guard let nested = String(validating: token.dropFirst(), as: UTF8.self) else {
                    throw refusal(
                        "the response file \(Excerpt.quoted(path, limit: 4096)) names a response file whose name is not UTF-8"
                    )
                }
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                expanded = Self.saturating(expanded, try expandedSize(nested, bases: bases + [directory], from: path))
                if expanded > Self.maxBytes { break }
            }
            expanding.remove(path)
            sizes[path] = expanded
            if expanded > Self.maxBytes { throw refusal("\(named) expands to more than \(Self.maxBytes) bytes") }
            size = Self.saturating(size, expanded)
        }
        return size
    }

    private func refusal(_ problem: String) -> ConfigError {
        .file(path: database, problem: "cannot use the compile database: \(problem)")
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// A compile database's `command` split as LLVM's JSON compilation database splits it on
    /// Unix: arguments between spaces, `"…"` and `'…'` quoted, `\` escaping the next character
    /// outside single quotes.
    static func commandTokens(_ command: String) -> [String] {
        let input = Array(command.utf8)
        var tokens: [String] = []
        var i = -1
        func next() -> Bool { i += 1; return i < input.count }
        func skipEscape() -> Bool { input[i] == UInt8(ascii: "\\") ? next() : true }
        while true {
            // the next non-space character
            repeat { guard next() else { return tokens } } while input[i] == UInt8(ascii: " ")
            var token: [UInt8] = []
            var more = true
            parse: repeat {
                switch input[i] {
                case UInt8(ascii: "\""):
                    guard next() else { more = false; break parse }
                    while input[i] != UInt8(ascii: "\"") {
                        guard skipEscape() else { more = false; break parse }
                        token.append(input[i])
                        guard next() else { more = false; break parse }
                    }
                    guard next() else { more = false; break parse }
                case UInt8(ascii: "'"):
                    guard next() else { more = false; break parse }
                    while input[i] != UInt8(ascii: "'") {
                        token.append(input[i])
                        guard next() else { more = false; break parse }
                    }
                    guard next() else { more = false; break parse }
                default:
                    repeat {
                        guard skipEscape() else { more = false; break parse }
                        token.append(input[i])
                        guard next() else { more = false; break parse }
                    } while input[i] != UInt8(ascii: " ") && input[i] != UInt8(ascii: "\"")
                        && input[i] != UInt8(ascii: "'")
                }
            } while input[i] != UInt8(ascii: " ")
            tokens.append(String(decoding: token, as: UTF8.self))
            if !more { return tokens }
        }
    }

    /// A response file's text split as a GNU command line (LLVM's `TokenizeGNUCommandLine`):
    /// arguments between white space, `"…"` and `'…'` quoted, `\` escaping the next character.
    static func gnuTokens(_ text: [UInt8]) -> [[UInt8]] {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }
        var tokens: [[UInt8]] = []
        var token: [UInt8] = []
        var i = 0
        while i < text.count {
            if token.isEmpty {
                while i < text.count, isSpace(text[i]) { i += 1 }
                if i == text.count { break }
            }
            let c = text[i]
            if c == UInt8(ascii: "\\"), i + 1 < text.count {
                i += 1
                token.append(text[i])
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < text.count, text[i] != c {
                    if text[i] == UInt8(ascii: "\\"), i + 1 < text.count { i += 1 }
                    token.append(text[i])
                    i += 1
                }
                if i == text.count { break }
            } else if isSpace(c) {
                if !token.isEmpty { tokens.append(token) }
                token = []
            } else {
                token.append(c)
            }
            i += 1
        }
        if !token.isEmpty { tokens.append(token) }
        return tokens
    }
}
