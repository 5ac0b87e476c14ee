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
                // its own includers too
                dirty.append(FileCollector.normalized(file.hasPrefix("/") ? file : cwd + "/" + file))
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
        header(bytes).includes.map { ($0.name, $0.quoted) }
    }

    /// What a header's directives say about including it: the files it includes, and whether
    /// a second inclusion of it enters nothing (`#pragma once`, or an include guard: `#ifndef X`
    /// or `#if !defined(X)` with `#define X` as the next directive).
    struct Header {
        /// Each `#include`/`#import`/`#include_next`, in order; `imported` for `#import` (which
        /// enters a file once per translation unit).
        var includes: [(name: String, quoted: Bool, imported: Bool)] = []
        var includedOnce = false
    }

    /// The file's include directives and whether it is included once, read line by line
    /// (comments and conditionals are not interpreted).
    static func header(_ bytes: [UInt8]) -> Header {
        var result = Header()
        var i = 0
        let n = bytes.count
        /// The macro an `#ifndef X` / `#if !defined(X)` just tested (an include guard when `#define X` follows).
        var guardName: ArraySlice<UInt8>?
        func skipBlanks() { while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        func isWord(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_")
        }
        func word() -> ArraySlice<UInt8> {
            let start = i
            while i < n, isWord(bytes[i]) { i += 1 }
            return bytes[start..<i]
        }
        while i < n {
            // at a line start
            skipBlanks()
            if i < n, bytes[i] == UInt8(ascii: "#") {
                i += 1
                skipBlanks()
                let directive = word()
                let tested = guardName
                guardName = nil
                skipBlanks()
                if directive.elementsEqual("include".utf8) || directive.elementsEqual("import".utf8)
                    || directive.elementsEqual("include_next".utf8)
                {
                    if i < n, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "<") {
                        let close = bytes[i] == UInt8(ascii: "\"") ? UInt8(ascii: "\"") : UInt8(ascii: ">")
                        let start = i + 1
                        var end = start
                        while end < n, bytes[end] != close, bytes[end] != 0x0a { end += 1 }
                        if end < n, bytes[end] == close, end > start {
                            result.includes.append(
                                (
                                    String(decoding: bytes[start..<end], as: UTF8.self), close == UInt8(ascii: "\""),
                                    directive.elementsEqual("import".utf8)
                                ))
                        }
                        i = end
                    }
                } else if directive.elementsEqual("pragma".utf8) {
                    if word().elementsEqual("once".utf8) { result.includedOnce = true }
                } else if directive.elementsEqual("ifndef".utf8) {
                    guardName = word()
                } else if directive.elementsEqual("if".utf8), i < n, bytes[i] == UInt8(ascii: "!") {
                    i += 1
                    skipBlanks()
                    if word().elementsEqual("defined".utf8) {
                        skipBlanks()
                        let parenthesized = i < n && bytes[i] == UInt8(ascii: "(")
                        if parenthesized { i += 1; skipBlanks() }
                        guardName = word()
                    }
                } else if directive.elementsEqual("define".utf8), let tested, !tested.isEmpty,
                    word().elementsEqual(tested)
                {
                    result.includedOnce = true
                }
            }
            while i < n, bytes[i] != 0x0a { i += 1 }
            i += 1
        }
        return result
    }
}
