import SwiftSyntax

/// One Swift file as the fix sees it: its swift-syntax tree, its classified accesses, its
/// suppressions, its syntax errors and the findings of the file rules (for the before/after check).
struct SwiftFixFile {
    let path: String
    let source: SwiftSourceFile
    let model: SwiftFileModel
    let suppressions: Suppressions
    /// SwiftParser's complaints (missing and unexpected syntax), locations left out.
    var errors: [String] { diagnostics.map(\.message) }
    let diagnostics: [ParseDiagnostic]
    /// Every file-rule finding, suppressions not applied.
    let findings: [Finding]

    /// `rules`: the file rules of the run (`FixContext.swiftRules`), run over the model as lint
    /// runs them (`FileRules.analyze`). The container reads in a bridge parameter's default are
    /// the transition form, which the rules themselves leave to container-fallback (`TypeModel.bridgeDefaults`).
    /// The model comes from lint's Swift front end (`SwiftFrontEnd`): a file it refuses (nesting
    /// or chains past what the parser takes) throws its `ParseFailure`, with lint's message.
    init(path: String, display: String, bytes: [UInt8], configuration: Configuration, rules: FileRules) throws {
        self.path = path
        let model = try SwiftFrontEnd.swiftModel(displayPath: display, bytes: bytes, configuration: configuration)
            .get()
        source = model.file
        self.model = model
        let analyzed = rules.analyze(
            model, diagnostics: SyntaxErrors.messages(in: source.tree).map { ParseDiagnostic(message: $0, offset: nil) }
        )
        suppressions = analyzed.suppressions
        diagnostics = analyzed.diagnostics
        findings = analyzed.findings
    }

    var bytes: [UInt8] { source.buffer.bytes }
    var accesses: [LocatedAccess] { model.accesses }

    /// The line ending the file uses (`\r\n` when its first line ends so).
    var newline: String {
        guard let lf = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return "\n" }
        return lf > 0 && bytes[lf - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n"
    }

    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// The syntax node spanning exactly `range` (the access as the finder recorded it).
    func node(spanning range: Range<Int>) -> Syntax? {
        guard let token = source.tree.token(at: AbsolutePosition(utf8Offset: range.lowerBound)) else { return nil }
        var node = Syntax(token)
        while node.byteRange != range, let parent = node.parent, parent.startOffset == range.lowerBound {
            node = parent
        }
        return node.byteRange == range ? node : nil
    }

    /// Whether a `di-lint:` directive suppresses container findings on the offset's line.
    func isSuppressed(_ offset: Int) -> Bool {
        suppressions.suppressContainerFindings(line: source.buffer.lineColumn(of: offset).line)
    }

    /// The whitespace that starts the line holding `offset`.
    func indentation(at offset: Int) -> String { source.buffer.indentation(offset) }
}

/// SwiftParser's syntax errors as messages: each missing token or node, each stretch of unexpected text.
enum SyntaxErrors {
    static func messages(in tree: SourceFileSyntax) -> [String] {
        guard tree.hasError else { return [] }
        final class Collector: SyntaxVisitor {
            var messages: [String] = []
            init() { super.init(viewMode: .all) }
            override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
                messages.append("unexpected code '\(node.trimmedDescription)'")
                return .skipChildren
            }
            override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
                if token.presence == .missing {
                    messages.append("missing '\(token.text)' in \(token.parent.map { "\($0.kind)" } ?? "file")")
                }
                return .skipChildren
            }
        }
        let collector = Collector()
        collector.walk(tree)
        return collector.messages
    }
}
