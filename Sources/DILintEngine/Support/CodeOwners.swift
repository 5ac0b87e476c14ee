import Foundation

/// A repository's `CODEOWNERS` as GitHub reads it: the first of `.github/CODEOWNERS`,
/// `CODEOWNERS` and `docs/CODEOWNERS` that exists; one `pattern owner…` rule a line (`#` starts a
/// comment, `\#` is a literal `#`); the last rule whose pattern matches a path gives its owners
/// (a rule with no owners leaves the path without one). Patterns follow gitignore: a pattern
/// with a `/` at its start or in its middle is anchored at the root, else it matches at any
/// depth; a trailing `/` matches a directory's contents; `*` and `?` stop at `/`, `**` does not;
/// `dir/*` matches the files directly in `dir` only. GitHub does not support `!` and `[…]`:
/// such a line is skipped and named in `skipped`.
public struct CodeOwners: Sendable {
    /// The file read, as a path (nil: the repository has none).
    public let path: String?
    /// Lines GitHub would not use, as `file:line: why`.
    public let skipped: [String]
    private let rules: [(pattern: NSRegularExpression, owners: [String])]

    /// Where GitHub looks, in its order.
    public static let locations = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]

    /// Reads the repository's CODEOWNERS (none: every path has no owner).
    public init(repositoryRoot root: String) {
        for location in Self.locations {
            let candidate = (root as NSString).appendingPathComponent(location)
            var st = stat()
            guard stat(candidate, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let bytes = readFileBytes(candidate)
            else { continue }
            self.init(text: String(decoding: bytes, as: UTF8.self), path: candidate)
            return
        }
        self.init(text: "", path: nil)
    }

    /// Parses the text of a CODEOWNERS file (`path` names it in `skipped`).
    public init(text: String, path: String?) {
        self.path = path
        var rules: [(NSRegularExpression, [String])] = []
        var skipped: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = Self.fields(String(raw))
            guard let pattern = fields.first else { continue }
            let place = "\(path ?? "CODEOWNERS"):\(index + 1)"
            if pattern.hasPrefix("!") {
                skipped.append("\(place): negation ('!') is not supported by GitHub; line skipped")
                continue
            }
            if pattern.contains("[") || pattern.contains("]") {
                skipped.append("\(place): character ranges ('[…]') are not supported by GitHub; line skipped")
                continue
            }
            guard let regex = Self.regex(for: pattern) else {
                skipped.append("\(place): pattern '\(pattern)' cannot be read; line skipped")
                continue
            }
            rules.append((regex, Array(fields.dropFirst())))
        }
        self.rules = rules
        self.skipped = skipped
    }

    /// The owners of a path relative to the repository root (empty: none).
    public func owners(of relativePath: String) -> [String] {
        let path = relativePath.hasPrefix("./") ? String(relativePath.dropFirst(2)) : relativePath
        let range = NSRange(path.startIndex..., in: path)
        for rule in rules.reversed() where rule.pattern.firstMatch(in: path, range: range) != nil {
            return rule.owners
        }
        return []
    }

    /// A line's blank-separated fields, the comment cut off (`\#` is a `#`, `\ ` a blank of a pattern).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for c in line {
            if escaped {
                current.append(c); escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "#" {
                break
            } else if c == " " || c == "\t" || c == "\r" {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { fields.append(current) }
        return fields
    }

    /// The pattern as a regular expression over a path relative to the root.
    static func regex(for pattern: String) -> NSRegularExpression? {
        var body = pattern
        let directoryOnly = body.hasSuffix("/")
        while body.hasSuffix("/") { body.removeLast() }
        let anchored = body.contains("/")
        while body.hasPrefix("/") { body.removeFirst() }
        if body.isEmpty { return nil }
        // `dir/*`: the files directly in dir, not deeper (GitHub's documented difference from gitignore)
        let shallow = body.hasSuffix("/*") && !body.hasSuffix("/**/*") && !directoryOnly
        var out = ""
        let chars = Array(body)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "*" && i + 1 < chars.count && chars[i + 1] == "*" {
                let slashAfter = i + 2 < chars.count && chars[i + 2] == "/"
                if slashAfter {
                    out += "(?:.*/)?"; i += 3
                } else {
                    out += ".*"; i += 2
                }
                continue
            }
            switch c {
            case "*": out += "[^/]*"
            case "?": out += "[^/]"
            default: out += NSRegularExpression.escapedPattern(for: String(c))
            }
            i += 1
        }
        let prefix = anchored || body.hasPrefix("**") ? "^" : "^(?:.*/)?"
        let suffix = directoryOnly ? "/.*$" : shallow ? "$" : "(?:/.*)?$"
        return try? NSRegularExpression(pattern: prefix + out + suffix)
    }
}
