/// Which preprocessor-skipped blocks di-lint may trust.
///
/// Without the project's headers and flags, `#if SOME_FEATURE` is false only because the macro
/// is unknown, and the block it guards is real code in some build. So a skipped block is honoured
/// only when its conditional chain is decided by constants alone (`#if 0`, `#if 1 … #else`), or
/// when a compilation database (`-p`) gave the real flags.
struct ConditionalDirectives {
    /// 1-based lines of `#if`/`#elif`/`#else` directives whose whole chain up to them is constant.
    private(set) var constantLines: Set<Int> = []

    init(buffer: SourceBuffer) {
        // a stack of "every condition in this chain so far was a constant"
        var chains: [Bool] = []
        var line = 1
        var i = 0
        let bytes = buffer.bytes
        while i < bytes.count {
            var j = i
            while j < bytes.count && (bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t")) { j += 1 }
            var end = j
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var continued = 0
            // join backslash-continued lines
            while end > j && end < bytes.count && bytes[end - 1] == UInt8(ascii: "\\") {
                end += 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                continued += 1
            }
            if j < bytes.count && bytes[j] == UInt8(ascii: "#") {
                let text = String(decoding: bytes[(j + 1)..<end], as: UTF8.self)
                let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" }).map(String.init)
                let directive = words.first ?? ""
                let condition = text.drop(while: { $0 == " " || $0 == "\t" }).dropFirst(directive.count)
                switch directive {
                case "if":
                    let constant = Self.isConstant(String(condition))
                    chains.append(constant)
                    if constant { constantLines.insert(line) }
                case "ifdef", "ifndef":
                    let constant = Self.standardMacros[condition.trimmingCharacters(in: .whitespaces)] != nil
                    chains.append(constant)
                    if constant { constantLines.insert(line) }
                case "elif", "elifdef", "elifndef":
                    if !chains.isEmpty {
                        chains[chains.count - 1] =
                            chains[chains.count - 1] && directive == "elif" && Self.isConstant(String(condition))
                        if chains[chains.count - 1] { constantLines.insert(line) }
                    }
                case "else":
                    if chains.last == true { constantLines.insert(line) }
                case "endif":
                    if !chains.isEmpty { chains.removeLast() }
                default:
                    break
                }
            }
            line += 1 + continued
            i = end + 1
        }
    }

    /// Macros every C compiler defines, with their values: `#if defined(__STDC__)` decides a
    /// block in every build (its `#else` is pre-standard C, never compiled).
    static let standardMacros = ["__STDC__": "1", "__STDC_VERSION__": "201710"]

    /// An `#if` condition made of integer literals, operators and standard macros only (comments allowed).
    static func isConstant(_ condition: String) -> Bool {
        var text = condition
        for (name, value) in standardMacros {
            for form in ["defined(\(name))", "defined (\(name))", "defined \(name)"] {
                text = text.replacingOccurrences(of: form, with: "1")
            }
            text = text.replacingOccurrences(of: name, with: value)
        }
        if let c = text.range(of: "//") { text = String(text[..<c.lowerBound]) }
        while let open = text.range(of: "/*"), let close = text.range(of: "*/", range: open.upperBound..<text.endIndex)
        {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return false }
        return trimmed.unicodeScalars.allSatisfy { "0123456789xXuUlL()!&|<>=+-*/%~^? \t:".unicodeScalars.contains($0) }
    }
}

import Foundation
