import Foundation

/// The per-file stage of a lint: the cache, the checks before a parse, the parse (here or in
/// the thread's parse worker), the analysis (`AnalyzedFile`) and the project rules' facts.
extension Linter {
    func failure(_ path: String, _ reason: String) -> FileOutcome {
        guard let severity = configuration.severity(of: ParseFailureRule.id) else { return FileOutcome(failed: true) }
        return FileOutcome(
            findings: [
                ParseFailureRule().finding(path: FileCollector.displayPath(path), reason: reason, severity: severity)
            ], failed: true)
    }

    enum Lookup {
        /// The outcome needs no parse: from the cache, or the file cannot be linted.
        case done(FileOutcome)
        /// The file's bytes, to be linted.
        case miss([UInt8])
    }

    func cachedOutcome(for path: String) -> Lookup {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return .done(failure(path, "cannot read it (\(String(cString: strerror(errno))))"))
        }
        if let problem = InputFile.problem(st, limit: configuration.maxFileSize) {
            return .done(failure(path, problem))
        }
        var content: [UInt8]?
        func read() -> [UInt8]? {
            if content == nil { content = readFileBytes(path, limit: configuration.maxFileSize) }
            return content
        }
        if var cached = cache?.outcome(path: path, status: st, content: read) {
            cached.fromCache = true
            return .done(cached)
        }
        guard let bytes = read() else {
            return .done(failure(path, "cannot read it (\(String(cString: strerror(errno))))"))
        }
        return .miss(bytes)
    }

    /// Lints a file the cache did not have, here or in the thread's worker process, and stores the outcome.
    /// `systemBodies: false`: a file only the file rules read (`FileOutcome.systemBodiesSkipped`).
    func parse(
        _ path: String, bytes: [UInt8], frontEnd: inout ClangFrontEnd?, worker: inout WorkerProcess?,
        handshake: [UInt8]?, budget: RunBudget? = nil, systemBodies: Bool = true
    ) -> FileOutcome {
        let result: FileOutcome
        switch prepare(path: path, bytes: bytes) {
        case let .done(outcome):
            result = outcome
        case .parse where budget?.isSpent == true:
            return failure(path, budget!.spentBefore)
        case .parse where isolation != nil:
            if worker == nil { worker = WorkerProcess(isolation!, handshake: handshake!) }
            switch worker!.outcome(path: path, bytes: bytes, budget: budget, systemBodies: systemBodies) {
            case let .outcome(outcome): result = outcome
            case let .failed(reason): result = failure(path, reason)
            }
        case let .parse(language):
            var parsed: FileModel?
            result = model(
                path: path, bytes: bytes, language: language, frontEnd: &frontEnd, keeping: &parsed,
                systemBodies: systemBodies)
        }
        if !result.failed { cache?.store(result, path: path, content: bytes) }
        return result
    }

    /// What a parse worker sends back for a file (`ParseWorker`): what the in-process path
    /// computes once `prepare` (run by the parent) said `.parse`; the language is detected again
    /// from the same path and bytes.
    /// `model` is the parsed file the outcome came from, for the worker to release after it
    /// replied: freeing a large file's AST and tokens is no part of the parent's wait.
    /// `whileFactsRun` is handed the outcome without its facts while a second thread collects
    /// them (a large file's; see `outcome(of:)`).
    func isolatedOutcome(
        path: String, bytes: [UInt8], frontEnd: inout ClangFrontEnd?, systemBodies: Bool = true,
        whileFactsRun: ((FileOutcome) -> Void)? = nil
    ) -> (outcome: FileOutcome, model: AnyObject?) {
        let language = bytes.withUnsafeBytes { SourceLanguage.detect(path: path, contents: $0) }
        var parsed: FileModel?
        let outcome = model(
            path: path, bytes: bytes, language: language, frontEnd: &frontEnd, keeping: &parsed,
            systemBodies: systemBodies, whileFactsRun: whileFactsRun)
        return (outcome, parsed)
    }

    /// Whether every file must be parsed: project rules need every function, not only the files naming a container.
    private var needsEveryFile: Bool { parseEveryFile || !activeProjectRules.isEmpty }

    private enum Preparation {
        /// Linted without a parse (binary, blank, no container named).
        case done(FileOutcome)
        /// To be parsed as this language.
        case parse(SourceLanguage)
    }

    /// The checks before a parse, which cost a pass over the bytes (run where the cache is).
    private func prepare(path: String, bytes: [UInt8]) -> Preparation {
        if let nul = bytes.firstIndex(of: 0) { return .done(failure(path, "binary file (NUL byte at offset \(nul))")) }
        if BlankSource.isBlank(bytes) { return .done(FileOutcome()) }
        let (language, mentions) = bytes.withUnsafeBytes { raw -> (SourceLanguage, Bool) in
            let language = SourceLanguage.detect(path: path, contents: raw)
            return (language, needsParse(raw, language))
        }
        if !mentions && !needsEveryFile { return .done(FileOutcome()) }
        return .parse(language)
    }

    /// Whether the file rules need the file parsed: its text may hold a container access or a
    /// `di-lint:` or bridge anchor, or a report counts its service-style injected reads (which
    /// name no container).
    /// The language is looked at only for that count (a header's is sniffed from its text).
    private func needsParse(_ raw: UnsafeRawBufferPointer, _ language: @autoclosure () -> SourceLanguage) -> Bool {
        let anchors = ["di-lint:"] + configuration.bridgeNames.flatMap { [$0, $0.capitalizedFirst] }
        return prefilter.mayContainAccess(raw) || anchors.contains { raw.containsASCII($0) }
            || (configuration.countServiceInjection && [.swift, .objectiveC, .objectiveCxx].contains(language()))
    }

    /// Whether a demand-driven run may hold the file back until a project rule needs it: text
    /// (not binary) the file rules need no parse for. A blank file may be held back: `prepare`
    /// finds it blank if it is needed after all, and its outcome is the same either way.
    func deferrable(path: String, bytes: [UInt8]) -> Bool {
        guard bytes.firstIndex(of: 0) == nil else { return false }
        return bytes.withUnsafeBytes { raw in !needsParse(raw, SourceLanguage.detect(path: path, contents: raw)) }
    }

    /// Parses the file (libclang or swift-syntax) and runs the file rules over its model, handing
    /// the parsed file to the caller (`kept`) rather than releasing it.
    private func model(
        path: String, bytes: [UInt8], language: SourceLanguage, frontEnd: inout ClangFrontEnd?,
        keeping kept: inout FileModel?, systemBodies: Bool = true, whileFactsRun: ((FileOutcome) -> Void)? = nil
    ) -> FileOutcome {
        let model: FileModel
        if language == .swift {
            switch SwiftFrontEnd.model(
                displayPath: FileCollector.displayPath(path), bytes: bytes, configuration: configuration)
            {
            case let .success(parsed): model = parsed
            case let .failure(failure): return self.failure(path, failure.reason)
            }
        } else {
            if frontEnd == nil {
                frontEnd = ClangFrontEnd(configuration: configuration, compileArguments: compileArguments)
            }
            switch frontEnd!.model(
                path: path, displayPath: FileCollector.displayPath(path), bytes: bytes, language: language,
                systemBodies: systemBodies)
            {
            case let .success(parsed): model = parsed
            case let .failure(failure): return self.failure(path, failure.reason)
            }
        }
        kept = model
        var outcome = outcome(of: model, whileFactsRun: whileFactsRun)
        if (model as? ClangFileModel)?.parsed.systemBodiesSkipped == true { outcome.systemBodiesSkipped = true }
        return outcome
    }

    /// The file rules' findings, every access, the project rules' facts and the suppressions of one file.
    private func outcome(of model: FileModel, whileFactsRun: ((FileOutcome) -> Void)? = nil) -> FileOutcome {
        // A large file's project-rule facts (the call graph, read from libclang's AST) are
        // collected on a second thread while the accesses are classified and the file rules run
        // on this one.
        let facts = FactsCollection(rules: activeProjectRules.map(\.rule), model: model)
        let beside =
            !activeProjectRules.isEmpty && model.buffer.bytes.count >= factsBesideRulesSize
            && model.prepareForRulesBesideFacts()
        let collected = DispatchSemaphore(value: 0)
        if beside {
            ParseThreads.start {
                facts.run(); collected.signal()
            }
        }
        var outcome = FileOutcome(parsed: true)
        outcome.accesses = model.accesses.map { a in
            let (line, column) = model.buffer.lineColumn(of: a.offset)
            return AccessRecord(path: model.displayPath, line: line, column: column, access: a.access)
        }
        let analyzed = fileRules.analyze(model)
        outcome.findings = analyzed.findings
        model.attachScopes(to: &outcome.findings)
        outcome.suppressions = analyzed.suppressions
        if beside {
            whileFactsRun?(outcome)
            collected.wait()
        } else {
            facts.run()
        }
        outcome.facts = facts.collected
        if configuration.countServiceInjection {
            if let swift = model as? SwiftFileModel {
                outcome.facts[ServiceInjectionFacts.key] = SwiftServiceReads.facts(of: swift).encoded()
            } else if let clang = model as? ClangFileModel, [.objectiveC, .objectiveCxx].contains(model.language) {
                outcome.facts[ServiceInjectionFacts.key] =
                    ClangServiceReads.facts(
                        tokens: clang.tokens, displayPath: clang.displayPath, configuration: configuration
                    ).encoded()
            }
        }
        return outcome
    }
}

/// The project rules' facts of one file, collected on whichever thread runs `run`; read
/// `collected` after that thread is done.
private final class FactsCollection: @unchecked Sendable {
    let rules: [any ProjectRule]
    /// Dropped once collected: the thread that collected must not be the one that frees the
    /// model (libclang's translation unit) while its owner parses the next file.
    private var model: FileModel?
    private(set) var collected: [String: Data] = [:]

    init(rules: [any ProjectRule], model: FileModel) {
        self.rules = rules
        self.model = model
    }

    func run() {
        if let model {
            for rule in rules {
                if let facts = rule.collect(model) { collected[rule.id] = facts }
            }
        }
        model = nil
    }
}
