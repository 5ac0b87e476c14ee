import SwiftParser
import SwiftSyntax

/// One Swift file parsed by swift-syntax, with the same byte buffer the C side uses, so that
/// offsets, findings and suppressions work alike.
struct SwiftSourceFile {
    let buffer: SourceBuffer
    let tree: SourceFileSyntax
    /// Why the tree is not the whole file (nil when it is): the file nests or chains past what
    /// swift-syntax's parser takes in bounded time and stack (see `SwiftNesting`). The tree is
    /// then empty, or what the parser read before its nesting limit; the file is a parse failure.
    let problem: String?

    init(bytes: [UInt8]) {
        buffer = SourceBuffer(bytes: bytes)
        if let problem = SwiftNesting(bytes: bytes).problem {
            self.problem = problem
            tree = SourceFileSyntax(statements: [])
            return
        }
        tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0, maximumNestingLevel: SwiftNesting.maxDepth) }
        problem =
            tree.hasMaximumNestingLevelOverflow
            ? "Swift nests past swift-syntax's parser limit of \(SwiftNesting.maxDepth) levels; the rest of the file was not read"
            : nil
    }

    /// The file's `//` and `/* */` comments, as the comment tokens `Suppressions` reads. Doc
    /// comments (`///`, `/** */`) document code and are not directives. A trivia piece's length
    /// is that of its text as a Swift string, longer than its bytes when they are not UTF-8
    /// (each bad byte becomes a 3-byte U+FFFD), so ranges are kept within their trivia.
    var comments: [SourceToken] {
        var result: [SourceToken] = []
        func collect(_ trivia: Trivia, from start: Int, to end: Int) {
            var offset = start
            for piece in trivia {
                let length = piece.sourceLength.utf8Length
                let lower = min(offset, end)
                if piece.isComment {
                    result.append(SourceToken(kind: .comment, range: lower..<min(offset + length, end)))
                }
                offset += length
            }
        }
        for token in tree.tokens(viewMode: .sourceAccurate) {
            collect(
                token.leadingTrivia, from: token.position.utf8Offset,
                to: token.positionAfterSkippingLeadingTrivia.utf8Offset)
            collect(
                token.trailingTrivia, from: token.endPositionBeforeTrailingTrivia.utf8Offset,
                to: token.endPosition.utf8Offset)
        }
        return result
    }
}

import Foundation

extension SyntaxProtocol {
    /// Byte offset of the node's first character (after leading trivia).
    var startOffset: Int { positionAfterSkippingLeadingTrivia.utf8Offset }
    var endOffset: Int { endPositionBeforeTrailingTrivia.utf8Offset }
    var byteRange: Range<Int> { startOffset..<max(startOffset, endOffset) }

    /// Whether any identifier token under this node is spelled as one of `names`.
    func mentions(_ names: Set<String>) -> Bool {
        tokens(viewMode: .sourceAccurate).contains { token in
            if case .identifier = token.tokenKind { return names.contains(token.text) }
            return false
        }
    }

    /// The closest enclosing node of a type.
    func enclosing<T: SyntaxProtocol>(_ type: T.Type) -> T? {
        var node = parent
        while let n = node {
            if let found = n.as(type) { return found }
            node = n.parent
        }
        return nil
    }
}

extension TriviaPiece {
    /// A plain (non-doc) comment.
    var isComment: Bool {
        switch self {
        case .lineComment, .blockComment: return true
        default: return false
        }
    }
}
