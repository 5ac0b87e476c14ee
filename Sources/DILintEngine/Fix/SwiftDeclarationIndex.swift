import Foundation
import SwiftSyntax

/// The Swift files of the project outside the run (`fix --types-from DIR`), read only for
/// declarations: the protocols a type conforms to, the container's members and their types.
/// They are never edited, verified or analysed. Each file is read once for the names it
/// declares (the word after `protocol`, `class`, `struct`, `enum`, `actor`, `extension` or
/// `typealias`); only a file that declares a name asked for is parsed, once.
final class SwiftDeclarationIndex {
    /// The most files read under the roots; past it the rest are not read (`note` says so).
    static let fileLimit = 100_000

    private let files: [String]
    private var byName: [String: [String]]?
    private var trees: [String: SourceFileSyntax?] = [:]
    private let deadline: FixParseDeadline
    /// Why the index is not the whole of the roots (nil when it is).
    private(set) var note: String?

    /// The `.swift` files under `roots` (real paths, hidden folders skipped, symbolic links not
    /// followed), those in `excluding` (the run's own) left out, in path order.
    init(roots: [String], excluding: Set<String>, deadline: FixParseDeadline) {
        self.deadline = deadline
        var found = Set<String>()
        var truncated = false
        for root in roots {
            let url = URL(fileURLWithPath: FixWorkspace.realPath(root))
            guard
                let walk = FileManager.default.enumerator(
                    at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else { continue }
            for case let file as URL in walk where file.pathExtension == "swift" {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                if found.count >= Self.fileLimit { truncated = true; break }
                let path = FixWorkspace.realPath(file.path)
                if !excluding.contains(path) { found.insert(path) }
            }
        }
        files = found.sorted()
        if truncated { note = "--types-from: read the first \(Self.fileLimit) Swift files only" }
    }

    var count: Int { files.count }

    /// The files that declare or extend `name` (its last component for `A.B`), in path order.
    func files(declaring name: String) -> [String] {
        if byName == nil {
            var index: [String: [String]] = [:]
            for path in files {
                guard let bytes = readFileBytes(path) else { continue }
                for declared in Self.declaredNames(in: bytes) { index[declared, default: []].append(path) }
            }
            byName = index
        }
        return byName![SwiftRunType.simpleName(name)] ?? []
    }

    /// The file's tree, parsed once, under the run's parse deadline and the bounds lint's Swift
    /// parse has (`SwiftSourceFile`); nil when it cannot be read or parsed whole.
    func tree(_ path: String) -> SourceFileSyntax? {
        if let known = trees[path] { return known }
        let parsed: SourceFileSyntax? = readFileBytes(path).flatMap { bytes in
            try? deadline.parsing(path) {
                FixContext.onParseStack {
                    let source = SwiftSourceFile(bytes: bytes)
                    return source.problem == nil ? source.tree : nil
                }
            }
        }
        trees[path] = parsed
        return parsed
    }

    /// The names after the declaring keywords in a file's text (a word, or the first component
    /// of `extension A.B`). Comments and strings are not told apart: a name too many only costs
    /// a parse.
    static func declaredNames(in bytes: [UInt8]) -> Set<String> {
        let keywords: Set<String> = ["protocol", "class", "struct", "enum", "actor", "extension", "typealias"]
        func isWord(_ b: UInt8) -> Bool {
            b == UInt8(ascii: "_") || b >= 0x80 || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
        }
        var names = Set<String>()
        var previous: String?
        var i = 0
        while i < bytes.count {
            guard isWord(bytes[i]) else {
                // a name follows its keyword after blanks only
                if ![UInt8(ascii: " "), UInt8(ascii: "\t")].contains(bytes[i]) { previous = nil }
                i += 1
                continue
            }
            var end = i
            while end < bytes.count, isWord(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[i..<end], as: UTF8.self)
            if let previous, keywords.contains(previous) { names.insert(word) }
            previous = word
            i = end
        }
        return names
    }
}

extension FixContext {
    /// The trees to read declarations of `name` from: the run's Swift files whose text mentions
    /// `text`, then the project's others that declare `name` and mention `text` (`--types-from`).
    func declarationTrees(of name: String, mentioning text: String) -> [SourceFileSyntax] {
        var trees = swiftFilesMentioning(text).compactMap { swiftFile($0)?.source.tree }
        guard let declarations else { return trees }
        for path in declarations.files(declaring: name) {
            guard readFileBytes(path)?.withUnsafeBytes({ $0.containsASCII(text) }) == true,
                let tree = declarations.tree(path)
            else { continue }
            trees.append(tree)
        }
        return trees
    }
}
