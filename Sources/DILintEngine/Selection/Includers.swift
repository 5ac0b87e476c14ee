import Foundation

/// The files that include a given header, directly or through other headers, found by reading
/// their `#include`/`#import` lines (no preprocessing, no include paths). A name matches every
/// header whose path ends with it (`"Net/Client.h"` matches `…/Net/Client.h`), so the selection
/// may hold a few files too many and never misses one an include path would have resolved.
/// `--changed-since` uses it: a changed header changes what the files including it expand to.
public enum Includers {
    /// `files` that include one of `headers` (absolute paths) or include a file of `files` that does, transitively.
    public static func of(_ headers: Set<String>, among files: [String]) -> [String] {
        guard !headers.isEmpty else { return [] }
        let cwd = FileManager.default.currentDirectoryPath
        let candidates = files.filter { !$0.hasSuffix(".swift") }
        // Included names by their last component, so each header is checked against the few
        // files naming a file like it, not against every file.
        var byBaseName: [Substring: [(file: Int, name: String)]] = [:]
        for (i, file) in candidates.enumerated() {
            for name in readFileBytes(file).map(names) ?? [] {
                byBaseName[name.split(separator: "/").last ?? "", default: []].append((i, name))
            }
        }

        var dirty = Array(headers)
        var selected = Set<Int>()
        var next = 0
        while next < dirty.count {
            let header = dirty[next]
            next += 1
            for (i, name) in byBaseName[header.split(separator: "/").last ?? ""] ?? [] where !selected.contains(i) {
                guard header == "/" + name || header.hasSuffix("/" + name) else { continue }
                selected.insert(i)
                let file = candidates[i]
                dirty.append(FileCollector.normalized(file.hasPrefix("/") ? file : cwd + "/" + file)) // its own includers too
            }
        }
        return selected.sorted().map { candidates[$0] }
    }

    /// The names in a file's `#include "…"`, `#include <…>`, `#import` and `#include_next` lines,
    /// with leading `./` and `../` dropped. Comments and conditionals are not interpreted.
    static func names(in bytes: [UInt8]) -> [String] {
        directives(in: bytes).compactMap { directive in
            var name = directive.name
            while name.hasPrefix("./") || name.hasPrefix("../") { name = String(name.drop { $0 == "." }.dropFirst()) }
            return name.isEmpty ? nil : name
        }
    }

    /// The include directives of a file as written: the name between the quotes or angle
    /// brackets, and whether it was quoted.
    static func directives(in bytes: [UInt8]) -> [(name: String, quoted: Bool)] {
        var result: [(name: String, quoted: Bool)] = []
        var i = 0
        let n = bytes.count
        func skipBlanks() { while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        while i < n {
            // at a line start
            skipBlanks()
            if i < n, bytes[i] == UInt8(ascii: "#") {
                i += 1
                skipBlanks()
                let wordStart = i
                while i < n, (bytes[i] >= 0x61 && bytes[i] <= 0x7a) || bytes[i] == UInt8(ascii: "_") { i += 1 }
                let word = bytes[wordStart..<i]
                if word.elementsEqual("include".utf8) || word.elementsEqual("import".utf8) || word.elementsEqual("include_next".utf8) {
                    skipBlanks()
                    if i < n, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "<") {
                        let close = bytes[i] == UInt8(ascii: "\"") ? UInt8(ascii: "\"") : UInt8(ascii: ">")
                        let start = i + 1
                        var end = start
                        while end < n, bytes[end] != close, bytes[end] != 0x0a { end += 1 }
                        if end < n, bytes[end] == close, end > start {
                            result.append((String(decoding: bytes[start..<end], as: UTF8.self), close == UInt8(ascii: "\"")))
                        }
                        i = end
                    }
                }
            }
            while i < n, bytes[i] != 0x0a { i += 1 }
            i += 1
        }
        return result
    }
}
