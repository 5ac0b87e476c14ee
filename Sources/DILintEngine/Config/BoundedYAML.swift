import Foundation
import Yams

/// YAML reading with bounds, for files a pull request can change: the text is at most
/// `maxBytes`, and the document it describes — aliases expanded — at most `maxNodes` nodes.
/// A "billion laughs" file (aliases of aliases, each doubling the document) composes cheaply,
/// since an alias shares its anchor's node, but expands exponentially when turned into values;
/// it is refused after composing, before anything expands it. (libyaml bounds nesting at 1,000.)
enum BoundedYAML {
    static let maxBytes = 1 << 20
    static let maxNodes = 100_000

    /// The bytes of a config file: a regular file within `maxBytes`.
    static func read(path: String) throws -> Data {
        do {
            return Data(try InputFile.read(path, limit: maxBytes))
        } catch let refused as InputFile.Refused {
            throw ConfigError.file(
                path: path,
                problem: refused.problem.replacingOccurrences(of: "(max-file-size)", with: "for a config file"))
        }
    }

    /// `Yams.load`, refusing documents that expand past `maxNodes` nodes.
    static func load(yaml text: String, _ resolver: Resolver) throws -> Any? {
        guard let node = try Yams.compose(yaml: text, resolver) else { return nil }
        var budget = maxNodes
        guard fits(node, &budget) else {
            throw ConfigError.invalid(
                "the document expands to more than \(maxNodes) YAML nodes (aliases of aliases: a 'billion laughs' file?); a di-lint config is far smaller"
            )
        }
        return node.any
    }

    /// Walks the node as expanded, spending one from `budget` per node; false once it runs out.
    private static func fits(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar, .alias: return true
        case let .sequence(sequence): return sequence.allSatisfy { fits($0, &budget) }
        case let .mapping(mapping): return mapping.allSatisfy { fits($0.key, &budget) && fits($0.value, &budget) }
        }
    }
}
