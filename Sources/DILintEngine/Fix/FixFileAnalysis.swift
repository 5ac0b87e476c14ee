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
    /// Every file-rule finding, suppressions not applied; the rules the edits are meant to change
    /// (`Fixer.comparedWithoutRules`) are not run.
    let findings: [Finding]
    /// The files the parse read (device and inode), the file itself included.
    private let included: Set<FileKey>

    /// `rules`: the file rules the verification compares (see `FixContext.comparedRules`).
    init(path: String, file: ParsedFile, frontEnd: ClangFrontEnd, rules: FileRules) {
        self.path = path
        self.file = file
        let tokens = FixTokens(file: file)
        let analyzed = rules.analyze(frontEnd.model(of: file, displayPath: path), diagnostics: file.errorDiagnostics())
        accesses = analyzed.model.accesses.map { a in
            guard a.enclosing == nil, let k = a.tokenIndex, let method = tokens.enclosingMethod(at: k) else { return a }
            var a = a
            a.enclosing = method
            return a
        }
        suppressions = analyzed.suppressions
        errors = analyzed.diagnostics
        findings = analyzed.findings
        self.tokens = tokens
        included = file.inclusions
        file.disposeUnit()
    }

    /// Whether the parse read the file (`#include`d or `#import`ed, at any depth).
    func includes(_ file: FileKey) -> Bool { included.contains(file) }

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
