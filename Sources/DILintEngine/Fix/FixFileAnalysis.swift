import Foundation

/// One C-family file as the fix sees it: lint's analysis of it (`AnalyzedFile`: the model from
/// the same front end, its suppressions, its error diagnostics and the file rules' findings, for
/// the before/after comparison), its classified accesses, its tokens, and the files it includes.
/// libclang's translation unit is freed once these are read (the tokens stay): a fix holds two
/// parses of every file it edits, and the ASTs were most of its memory and, through the allocator
/// and page faults, a good part of its time.
struct FixFileAnalysis {
    let path: String
    let file: ParsedFile
    let tokens: FixTokens
    let accesses: [LocatedAccess]
    let suppressions: Suppressions
    let errors: [ParseDiagnostic]
    /// The statements libclang dropped from the AST that hold one of `errors`, in the functions
    /// and methods that read the container (see `ParsedFile.droppedStatements(holding:)`): what
    /// the verdict tells exposed errors by (`ExposedError`). Empty for a parse with edits.
    let dropped: [Range<Int>]
    /// The file rules' findings, each rule run when first asked for (see `RuleFindings`).
    private let ruleFindings: RuleFindings
    /// The files the parse read (device and inode), the file itself included.
    private let included: Set<FileKey>

    /// `rules`: the file rules the verification compares (see `FixContext.comparedRules`).
    /// `findingsNow`: run them all now (the edited files' analyses, whose findings the
    /// verification always compares: on the parse threads, not one after another when checked);
    /// otherwise each rule runs when its findings are first asked for.
    /// `asOnDisk`: the file is parsed as on disk, not with edits (only such a parse's `dropped`
    /// is read: an edited file's is left empty).
    init(
        path: String, file: ParsedFile, frontEnd: ClangFrontEnd, rules: FileRules, findingsNow: Bool = true,
        asOnDisk: Bool = true
    ) {
        self.path = path
        self.file = file
        let tokens = FixTokens(file: file)
        let model = frontEnd.model(of: file, displayPath: path)
        accesses = model.accesses.map { a in
            guard a.enclosing == nil, let k = a.tokenIndex, let method = tokens.enclosingMethod(at: k) else { return a }
            var a = a
            a.enclosing = method
            return a
        }
        suppressions = Suppressions(comments: model.comments, buffer: model.buffer)
        errors = file.errorDiagnostics()
        // only in the definitions that read the container: where an edit can make a receiver resolve
        // (the AST visit goes no further than the statements holding these errors)
        let reading = asOnDisk ? accesses.compactMap { $0.enclosing?.range } : []
        dropped = file.droppedStatements(
            holding: reading.isEmpty
                ? [] : errors.compactMap(\.offset).filter { o in reading.contains { $0.contains(o) } })
        // what the rules read through libclang's translation unit, read before it is freed
        // (the rest is tokens): the scopes, file-scope variables, the blocks around accesses in initializers
        _ = model.prepareForRulesBesideFacts()
        _ = model.constructionAccesses
        ruleFindings = RuleFindings(model: model, rules: rules)
        if findingsNow { _ = ruleFindings.findings(of: nil) }
        self.tokens = tokens
        included = file.inclusions
        file.disposeUnit()
    }

    /// Every file-rule finding (suppressions not applied), in rule order; the rules the edits
    /// are meant to change (`Fixer.comparedWithoutRules`) are not run.
    var findings: [Finding] { ruleFindings.findings(of: nil) }

    /// The findings of the rules named, in rule order (the others are not run).
    func findings(ofRules ids: Set<String>) -> [Finding] { ruleFindings.findings(of: ids) }

    /// Whether the parse read the file (`#include`d or `#import`ed, at any depth).
    func includes(_ file: FileKey) -> Bool { included.contains(file) }

    /// The files the parse read, the file itself included.
    var inclusions: Set<FileKey> { included }

    /// A file on disk as libclang tells files apart (device and inode).
    typealias FileKey = SourceFileKey

    /// Whether a `di-lint:` directive suppresses container findings on the access's line.
    func isSuppressed(_ access: LocatedAccess) -> Bool {
        suppressions.suppressContainerFindings(line: file.buffer.lineColumn(of: access.offset).line)
    }

    func lineColumn(_ offset: Int) -> (line: Int, column: Int) { file.buffer.lineColumn(of: offset) }
}

extension Suppressions {
    /// Whether a directive suppresses container findings (`container-access`, `container-fallback`) on `line`.
    func suppressContainerFindings(line: Int) -> Bool {
        var copy = self
        return copy.suppresses(rule: ContainerAccessRule.id, line: line)
            || copy.suppresses(rule: ContainerFallbackRule.id, line: line)
    }
}

/// One file's file-rule findings, each rule run over the model when its findings are first asked
/// for, then kept. The verification compares a file's findings after its edits with those before,
/// rule by rule: a rule that finds nothing after the edits need not run over the file as planned
/// (on a tree where the edits bring no finding, no rule runs over the planned files at all), and
/// files the plan does not edit are never compared. The model's parts that read libclang's
/// translation unit are read before it is freed (`FixFileAnalysis.init`); the rules read the rest
/// from the tokens. Read by one thread at a time (the parse thread that made it, then the verification's).
final class RuleFindings: @unchecked Sendable {
    private let model: FileModel
    private let rules: FileRules
    private var byRule: [String: [Finding]] = [:]

    init(model: FileModel, rules: FileRules) {
        self.model = model
        self.rules = rules
    }

    /// The findings of the rules in `ids` (all when nil), in rule order.
    func findings(of ids: Set<String>?) -> [Finding] {
        var result: [Finding] = []
        for id in rules.ids where ids?.contains(id) ?? true {
            if let known = byRule[id] {
                result += known
            } else {
                let found = rules.findings(model, rule: id)
                byRule[id] = found
                result += found
            }
        }
        return result
    }
}
