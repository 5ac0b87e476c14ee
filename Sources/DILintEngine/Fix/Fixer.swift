import Foundation

/// What a rule's `fix` plans from: the run's shared context, its analysed C-family files and its
/// Swift files (real paths).
struct FixRun {
    let context: FixContext
    let clang: [FixFileAnalysis]
    let swift: [String]
}

/// `di-lint fix`: plans the migration's edits for a set of files (through each rule's `fix`) and verifies them in memory
/// before anything is written — every edited file analysed again as lint analyses it, with the
/// overlay as unsaved files (its error diagnostics, compared as a multiset by message and mapped
/// location, must gain none: `ParseVerdict`), re-linted (every target classifies as
/// `fallback` after `inject` or `injected` after `finish`, no rule finds anything new), and
/// planned again (nothing more to do). A group failing a check is dropped whole, with the reason.
public final class Fixer {
    public let configuration: Configuration
    /// Per-file compile arguments from a compilation database, by absolute path.
    public var compileArguments: [String: [String]] = [:]
    /// `--service`: migrate only these services (all when empty).
    public var services: Set<String> = []
    /// Files never to parse (real path → why), each a manual item naming why: those that ended
    /// a supervised run before (see `FixSupervisor`).
    public var leftOut: [String: String] = [:]
    /// Set in the process `FixSupervisor` started: each parse is reported to it.
    public var supervision: FixSupervision?
    /// The tree the fix may write (`di-lint fix`): a file of the run it may not rewrite (see
    /// `FixTree.problem`) is a manual item naming why, and never planned; a group with an edit
    /// of such a file is refused. Nil: no such check (an engine caller's own files).
    public var tree: FixTree?
    /// The run's budget (`--run-timeout`): once spent, a file still to be parsed is not (a
    /// manual item, or its group refused in the verification).
    public var runBudget: RunBudget?
    /// Directories whose Swift files are read for declarations (protocols, the container's
    /// members, their types), never edited (`--types-from`).
    public var declarationRoots: [String] = []
    /// Rounds of verification after which groups still failing are refused without another try.
    static let maxRounds = 6
    /// The last `plan`'s context (its files and parses), for `split` (see SplitPlan.swift).
    var lastContext: FixContext?
    /// The last verification's analyses of the edited C-family files as they are on disk, for `split`.
    var lastBefore: [String: BeforeEdits] = [:]
    /// The Swift files the last verification passed, with the contents they passed with: `split`
    /// checks such a file again only when a prefix leaves it with other contents.
    var verifiedSwift: [String: [UInt8]] = [:]

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Plans (and verifies) the phase over the files; writes nothing.
    public func plan(files: [String], phase: FixPhase) -> FixPlan { plan(files: files, phase: phase, verifyIf: nil) }

    /// `verifyIf`: verify only a plan it accepts (an unverified plan is returned as planned: the
    /// inject's look at a facade it will not write).
    private func plan(files: [String], phase: FixPhase, verifyIf: ((FixPlan) -> Bool)?) -> FixPlan {
        var seen = Set<String>()
        var pairs = files.compactMap { path -> (real: String, display: String)? in
            let real = FixWorkspace.realPath(path)
            return seen.insert(real).inserted ? (real, FileCollector.displayPath(path)) : nil
        }
        var plan = FixPlan(phase: phase)
        // the files whose text may hold an access (lint's pre-filter: the access's shape, not
        // its words anywhere), and for finish those naming the bridge
        let prefilter = ContainerPrefilter(specs: configuration.containers)
        let bridgeNames = phase == .finish ? configuration.bridgeNames : []
        if let tree {
            // a file fix may not rewrite is left out (not parsed), a manual item when it may hold an access
            pairs = pairs.filter { pair in
                guard let why = tree.problem(writing: pair.real, shownAs: pair.display) else { return true }
                let candidate =
                    readFileBytes(pair.real).map { bytes in
                        bytes.withUnsafeBytes { raw in
                            prefilter.mayContainAccess(raw) || bridgeNames.contains { raw.containsASCII($0) }
                        }
                    } ?? true
                if candidate {
                    plan.manual.append(
                        ManualItem(
                            path: pair.display, line: 1, column: 1, expression: "", reason: .notWritable, detail: why))
                }
                return false
            }
        }
        FixTrace.mark("pairs + tree problems")
        let workspace = FixWorkspace(configuration: configuration, compileArguments: compileArguments)
        workspace.deadline.supervision = supervision
        workspace.deadline.leftOut = leftOut
        workspace.deadline.budget = runBudget
        workspace.deadline.parsedBefore = supervision?.parsedBefore ?? []
        let context = FixContext(configuration: configuration, workspace: workspace, services: services, files: pairs)
        if !declarationRoots.isEmpty {
            context.declarations = SwiftDeclarationIndex(
                roots: declarationRoots, excluding: Set(context.runFiles), deadline: workspace.deadline)
            if let note = context.declarations?.note {
                FileHandle.standardError.write(Data("di-lint fix: warning: \(note)\n".utf8))
            }
        }
        // inject in the bridge style with no bridge in the run: the bridge is planned first, and
        // the inject sees its files (planned, not written) and is merged with it
        var bridgePlan: FixPlan?
        if phase == .inject, configuration.bridgeTypeIsConfigured,
            configuration.injectionStyle(forService: "") == .bridge, !BridgeWriter.runDeclaresBridge(context)
        {
            // only a whole facade: one that leaves a service out (its type unknown) would refuse
            // the groups that read it; then inject runs as without it, and `--phase bridge` says why
            let whole = { (plan: FixPlan) in
                plan.manual.allSatisfy({ $0.reason == .bridgeHeaderForSwift }) && !plan.groups.isEmpty
            }
            // verified only when whole: a partial facade is not written, and not checked
            let planned = self.plan(files: files, phase: .bridge, verifyIf: whole)
            var created: [String: [UInt8]] = [:]
            if whole(planned) && planned.refusedGroups.isEmpty {
                created = BridgeWriter.createdContents(planned)
                workspace.setBase(created)
                context.forget() // what was read before the facade's files were there
                bridgePlan = planned
            }
            // the bridge phase's parses of the files as they are: the same here without the
            // facade, or when its files are all implementation files (no parse is given them)
            if let bridgeContext = lastContext, !created.keys.contains(where: FixWorkspace.isIncludable) {
                context.adopt(bridgeContext)
            }
        }
        FixTrace.mark("context + bridge check")
        // wire edits the places that build the migrated types, which need not name the container
        let candidates =
            phase == .wire
            ? context.runFiles
            : context.runFiles.filter { path in
                workspace.bytes(path)?.withUnsafeBytes { raw in
                    prefilter.mayContainAccess(raw) || bridgeNames.contains { raw.containsASCII($0) }
                } == true
            }
        let clangFiles = candidates.filter { ($0 as NSString).pathExtension != "swift" }
        FixTrace.mark("read \(candidates.count) candidates")
        context.prefetch(clangFiles)
        FixTrace.mark("plan parse")
        let analyses = clangFiles.compactMap(context.analysis)
        context.analysesOnDisk = Dictionary(analyses.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        for path in clangFiles where context.failures[path] != nil {
            plan.manual.append(
                ManualItem(
                    path: context.display(path), line: 1, column: 1, expression: "",
                    reason: .notParsed, detail: context.failures[path]))
        }
        for (path, why) in leftOut.sorted(by: { $0.key < $1.key }) where !clangFiles.contains(path) {
            plan.manual.append(
                ManualItem(
                    path: context.display(path), line: 1, column: 1, expression: "", reason: .notParsed, detail: why))
        }
        // a Swift file lint's Swift front end refuses (nesting or chains past what the parser
        // takes, see SwiftNesting) is lint's parse-failure: listed with lint's reason, never
        // planned; one left out of the run (its parse crashed, ran out of memory or outlived the
        // deadline) is listed above
        let swift = candidates.filter { ($0 as NSString).pathExtension == "swift" && leftOut[$0] == nil }.filter {
            path in
            guard context.swiftFile(path) == nil else { return true }
            plan.manual.append(
                ManualItem(
                    path: context.display(path), line: 1, column: 1, expression: "",
                    reason: .notParsed, detail: context.failures[path] ?? "cannot read it"))
            return false
        }
        Self.planPhase(phase, FixRun(context: context, clang: analyses, swift: swift), into: &plan)
        FixTrace.mark("planPhase")
        if verifyIf?(plan) ?? true {
            verify(&plan, context: context, planned: analyses)
            FixTrace.mark("verify done")
        }
        lastContext = context
        // the bridge goes with the accesses that read it (none accepted: nothing is written)
        if let bridgePlan, plan.accepted.contains(where: { !$0.edits.isEmpty }) { plan.merge(before: bridgePlan) }
        return plan
    }

    /// Plans a phase through the rules whose `fix` performs it (`container-access` for inject,
    /// `container-fallback` for finish).
    static func planPhase(_ phase: FixPhase, _ run: FixRun, into plan: inout FixPlan) {
        if phase == .bridge { return BridgeWriter(context: run.context).plan(run, into: &plan) }
        if phase == .wire { return CompositionWiring(context: run.context).plan(run, into: &plan) }
        for rule in RuleRegistry.fileRules where type(of: rule).fixPhase == phase { rule.fix(run, into: &plan) }
    }

    // MARK: Verification

    /// `planned`: the analyses the plan was made from (the second run reads the files it did not
    /// edit from them). Analyses hold no libclang translation unit (see `FixFileAnalysis`), so
    /// keeping them costs little memory.
    private func verify(_ plan: inout FixPlan, context: FixContext, planned: [FixFileAnalysis]) {
        let workspace = context.workspace
        let touched = Set(plan.groups.flatMap { $0.edits.map(\.path) })
        let created = Set(plan.groups.flatMap { $0.creates ?? [] })
        let bridgeFiles = Set(plan.groups.filter { $0.title.hasPrefix("bridge ") }.flatMap { $0.edits.map(\.path) })
        if let tree {
            for path in touched.sorted() {
                if let why = created.contains(path)
                    ? BridgeWriter.creationProblem(path, tree: tree) : tree.problem(writing: path, shownAs: path)
                {
                    refuse(&plan, touching: path, "\(context.display(path)): \(why)")
                }
            }
        }
        var before: [String: BeforeEdits] = [:]
        context.prefetch(touched.filter { ($0 as NSString).pathExtension != "swift" && !created.contains($0) })
        let touchedPaths = Array(touched)
        let onDisk = touchedPaths.map { workspace.diskBytes($0) } // the workspace's cache, filled on this thread
        let digests = onDisk.concurrentMap { $0.map { SHA256.hex($0) } ?? "" }
        for (i, path) in touchedPaths.enumerated() {
            plan.digests[path] = digests[i]
            plan.digested[path] = onDisk[i]
            if (path as NSString).pathExtension != "swift" && !bridgeFiles.contains(path) {
                before[path] = context.analysis(path).map(BeforeEdits.init)
            }
        }
        FixTrace.mark("before: prefetch + digests + summaries")
        lastBefore = before
        verifiedSwift = [:]
        var round = 0
        var previous: [String: [UInt8]] = [:] // the overlay the cached parses were made with
        while true {
            round += 1
            refuseOverlaps(&plan, context: context)
            let byFile = plan.editsByFile
            var overlay: [String: [UInt8]] = [:]
            var unreadable = false
            for (path, edits) in byFile {
                guard let bytes = workspace.diskBytes(path) ?? (created.contains(path) ? [] : nil),
                    edits.allSatisfy({ $0.range.upperBound <= bytes.count })
                else {
                    refuse(&plan, touching: path, "\(context.display(path)) could not be read as planned")
                    unreadable = true
                    continue
                }
                overlay[path] = EditApplication.apply(edits, to: bytes)
            }
            if unreadable { continue }
            workspace.setOverlay(overlay)
            // a round after refusals parses again only what the refused edits touched
            context.forget(changed: Set(overlay.keys).union(previous.keys).filter { overlay[$0] != previous[$0] })
            previous = overlay
            FixTrace.mark("overlay")
            context.prefetch(byFile.keys.filter { ($0 as NSString).pathExtension != "swift" })
            FixTrace.mark("round \(round) parse")
            var failures: [String: String] = [:] // path → why its groups are refused
            plan.diagnostics = [:]
            let targets = Self.targetsByPath(plan.accepted)
            // the C-family files' checks on every core (each reads its own analyses), used in path order below
            let clangPaths = byFile.keys.filter {
                !bridgeFiles.contains($0) && ($0 as NSString).pathExtension != "swift"
            }
            let phase = plan.phase
            let clangChecks = Dictionary(
                uniqueKeysWithValues: zip(
                    clangPaths,
                    clangPaths.concurrentMap { path in
                        self.checkClang(
                            path, edits: byFile[path] ?? [], targets: targets[path] ?? [], phase: phase,
                            before: before[path], context: context, declared: byFile)
                    }))
            for (path, edits) in byFile.sorted(by: { $0.key < $1.key }) {
                if bridgeFiles.contains(path) {
                    if let why = BridgeWriter(context: context).check(path) { failures[path] = why }
                    continue
                }
                let checked = clangChecks[path]
                if let counts = checked?.counts { plan.diagnostics[context.display(path)] = counts }
                if let why = checked.map({ $0.why })
                    ?? check(
                        path, edits: edits, targets: targets[path] ?? [], plan: &plan, before: before[path],
                        context: context, declared: byFile)
                {
                    failures[path] = why
                    verifiedSwift[path] = nil
                } else if (path as NSString).pathExtension == "swift" {
                    verifiedSwift[path] = overlay[path]
                }
            }
            FixTrace.mark("round \(round) checks")
            if failures.isEmpty || round >= Self.maxRounds {
                for (path, why) in failures { refuse(&plan, touching: path, why) }
                break
            }
            for (path, why) in failures { refuse(&plan, touching: path, why) }
        }
        // Idempotence: plan again over the edited contents (the other files as planned, since a
        // service's blockers may be anywhere); only refused groups may come back.
        let edited = Set(plan.editsByFile.keys)
        context.refusedTitles = Set(plan.refusedGroups.map(\.title))
        let second = planned.map { edited.contains($0.path) ? context.analysis($0.path) : $0 }.compactMap { $0 }
        var again = FixPlan(phase: plan.phase)
        let swift = plan.editsByFile.keys.filter { ($0 as NSString).pathExtension == "swift" }.sorted()
        Self.planPhase(plan.phase, FixRun(context: context, clang: second, swift: swift), into: &again)
        FixTrace.mark("second run")
        let refusedTitles = Set(plan.refusedGroups.map(\.title))
        plan.secondRunEmpty = again.groups.allSatisfy { $0.edits.isEmpty || refusedTitles.contains($0.title) }
        workspace.setOverlay([:])
        context.forget()
    }

    /// The targets of the accepted groups by the real path of the file whose edit rewrites them
    /// (an edit of the group with the target's range), in group order: found once per round, not
    /// once per file (which was quadratic in a tree where every file is edited).
    static func targetsByPath(_ groups: [FixGroup]) -> [String: [FixTarget]] {
        var result: [String: [FixTarget]] = [:]
        for group in groups {
            var pathsByRange: [Range<Int>: [String]] = [:]
            for edit in group.edits where !(pathsByRange[edit.range]?.contains(edit.path) ?? false) {
                pathsByRange[edit.range, default: []].append(edit.path)
            }
            for target in group.targets {
                for path in pathsByRange[target.range] ?? [] { result[path, default: []].append(target) }
            }
        }
        return result
    }

    /// The reason a file's edits fail verification, or nil when they pass. `targets`: the
    /// accepted groups' targets that the file's edits rewrite; `declared`: the round's edits by
    /// file (`plan.editsByFile`, computed once per round: no check refuses a group while the
    /// round's checks run, and building it per file was quadratic in a tree where every file is edited).
    func check(
        _ path: String, edits: [TextEdit], targets: [FixTarget], plan: inout FixPlan, before: BeforeEdits?,
        context: FixContext, declared: [String: [TextEdit]]
    ) -> String? {
        if (path as NSString).pathExtension == "swift" {
            return SwiftFixPlanner(context: context).check(path, edits: edits, plan: &plan)
        }
        let checked = checkClang(
            path, edits: edits, targets: targets, phase: plan.phase, before: before, context: context,
            declared: declared)
        if let counts = checked.counts { plan.diagnostics[context.display(path)] = counts }
        return checked.why
    }

    /// A C-family file's check (see `check`): why its edits fail, nil when they pass, and its
    /// error counts once it was re-parsed. Several files' checks may run at once: each reads the
    /// analyses of its own file (and, through the context's lock, of the headers it includes).
    func checkClang(
        _ path: String, edits: [TextEdit], targets: [FixTarget], phase: FixPhase, before: BeforeEdits?,
        context: FixContext, declared: [String: [TextEdit]]
    ) -> (why: String?, counts: DiagnosticCounts?) {
        guard let before else { return ("could not be parsed before the edits", nil) }
        guard let after = context.analysis(path) else {
            return ("could not be re-parsed after the edits" + (context.failure(path).map { " (\($0))" } ?? ""), nil)
        }
        let errors = ParseVerdict.newErrors(
            before: before.errors, beforeBuffer: before.buffer, after: after.errors, afterBuffer: after.file.buffer,
            edits: edits, bridgeType: configuration.bridgeType, names: before.names
        )
        .filter { !Self.hiddenFromHeaderlessParse($0.message, file: after, edits: declared) }
        .filter {
            !HeaderlessCascade.explains(
                $0, path: path, edits: declared, afterErrors: after.errors, before: before.errors,
                beforeBytes: before.buffer.bytes, afterBytes: after.file.buffer.bytes)
        }
        .filter { !BridgeWriter.isSDKError(inBridgeHeader: $0, configuration) }
        .filter { !Self.headerHasItAlone($0, context: context, edits: declared) }
        .filter {
            !(after.unresolvedIncludes.contains { $0.hasSuffix("Foundation.h") }
                && BridgeWriter.isUnavailableBridgeSelector($0, afterBytes: after.file.buffer.bytes, configuration))
        }
        // errors the edits exposed in a statement the parse before them dropped: listed, not new
        let isExposed = errors.map { ExposedError.isExposed($0, edits: edits, declared: declared, before: before) }
        let new = zip(errors, isExposed).filter { !$0.1 }.map(\.0)
        let exposed = zip(errors, isExposed).filter(\.1).map { $0.0.description }
        let counts = DiagnosticCounts(
            before: before.errors.count, after: after.errors.count,
            new: Array(Set(new.map(\.message))).sorted(), exposed: exposed.isEmpty ? nil : exposed)
        if let first = new.first {
            return ("re-parse of \(context.display(path)): new error: \(first.description)", counts)
        }
        // before the edits, only the rules that find something after them run (see `RuleFindings`)
        let found = after.findings
        if let finding = Self.newFinding(before: before.findings(ofRules: Set(found.map(\.rule))), after: found) {
            return ("re-lint of \(context.display(path)): new finding '\(finding)'", counts)
        }
        // wiring moves no access: a bridge it builds reads the container in the composition root only
        if phase == .wire {
            for kind in [AccessKind.direct, .fallback]
            where after.accesses.filter({ $0.access.kind == kind }).count > before.count(kind) {
                return (
                    "re-lint of \(context.display(path)): the wiring adds a \(kind.rawValue) container access", counts
                )
            }
        }
        let wanted: AccessKind = phase == .inject ? .fallback : .injected
        for target in targets {
            guard let range = EditApplication.newRange(of: target.range, through: edits) else { continue }
            let inside = after.accesses.filter { range.contains($0.offset) }
            let containerKinds = inside.filter { $0.access.kind != .injected }.map(\.access.kind)
            // the service style reads the service itself: no container access is left there
            let ok =
                target.reads != nil
                ? containerKinds.isEmpty
                : phase == .inject
                    ? !containerKinds.isEmpty && containerKinds.allSatisfy { $0 == .fallback }
                    : containerKinds.isEmpty // `b ?: C` and `b || C` keep the bridge alone, with no service to classify
            if !ok {
                return (
                    "re-lint: \(target.path):\(target.line):\(target.column) does not classify as \(target.reads.map { "a read of \($0)" } ?? wanted.rawValue) after the edit",
                    counts
                )
            }
        }
        return (nil, counts)
    }

    /// Whether `error` lies in an included header the edits leave as it is, and that header's
    /// own parse reports it too (the same message on the same line): the header's error, which a
    /// header an edit newly imports brings along in a headerless parse (`unknown type name 'BOOL'`
    /// in a container header read without the SDK), not one the edit made.
    static func headerHasItAlone(_ error: ParseVerdict.NewError, context: FixContext, edits: [String: [TextEdit]])
        -> Bool
    {
        guard let other = error.elsewherePath, let place = error.elsewhere,
            let line = place.split(separator: ":").last.flatMap({ Int($0) })
        else { return false }
        let real = FixWorkspace.realPath(other)
        guard edits[real] == nil, let alone = context.analysis(real) else { return false }
        return alone.errors.contains {
            $0.elsewherePath == nil && $0.message == error.message
                && $0.offset.map { alone.file.buffer.lineColumn(of: $0).line } == line
        }
    }

    /// The rules whose findings the edits are meant to change: left out of the comparison (and
    /// not run for it, see `FixFileAnalysis.findings`).
    static let comparedWithoutRules: Set<String> = ["container-access", "container-fallback"]

    /// The first finding after the edits that was not there before (counted, so a second copy of
    /// one is new), as `rule: message`; the container findings, which the edits are meant to
    /// change, left out. Findings compare by rule and message, a `line N` in the message blanked.
    static func newFinding(before: [Finding], after: [Finding]) -> String? {
        let ignored = comparedWithoutRules
        var remaining: [FindingKey: Int] = [:]
        for f in before where !ignored.contains(f.rule) { remaining[FindingKey(f), default: 0] += 1 }
        for f in after where !ignored.contains(f.rule) {
            let key = FindingKey(f)
            if let n = remaining[key], n > 0 { remaining[key] = n - 1 } else { return "\(f.rule): \(f.message)" }
        }
        return nil
    }

    /// What makes two findings of one file the same finding before and after the edits: the rule
    /// and the message, a `line N` in it blanked (a finding that names a line elsewhere in the
    /// file, "… at line 55", is the same when an edit above that line moved it).
    private struct FindingKey: Hashable {
        let rule: String
        let message: String
        init(_ finding: Finding) {
            rule = finding.rule
            message = Fixer.withoutLineNumbers(finding.message)
        }
    }

    /// A message with its `line N` references blanked.
    static func withoutLineNumbers(_ message: String) -> String {
        message.replacingOccurrences(of: #"\bline \d+"#, with: "line _", options: .regularExpression)
    }

    private func refuse(_ plan: inout FixPlan, touching path: String, _ why: String) {
        for i in plan.groups.indices
        where plan.groups[i].refused == nil && plan.groups[i].edits.contains(where: { $0.path == path }) {
            plan.groups[i].refused = why
        }
    }

    /// Overlapping edits of different groups drop both groups, named with the place they meet.
    private func refuseOverlaps(_ plan: inout FixPlan, context: FixContext) {
        for (path, edits) in plan.editsByFile {
            for (a, b) in EditApplication.overlaps(edits) {
                let owners = plan.groups.indices.filter {
                    plan.groups[$0].refused == nil
                        && (plan.groups[$0].edits.contains(a) || plan.groups[$0].edits.contains(b))
                }
                let bytes = context.workspace.diskBytes(path) ?? []
                let (line, column) = SourceBuffer(bytes: bytes).lineColumn(of: b.range.lowerBound)
                let place = "\(context.display(path)):\(line):\(column)"
                for i in owners {
                    let others = owners.filter { $0 != i }.map { plan.groups[$0].title }
                    plan.groups[i].refused =
                        "overlapping edits at \(place)"
                        + (others.isEmpty ? "" : " with \(others.joined(separator: ", "))")
                }
            }
        }
    }
}

/// What the checks compare a file's edits against, kept instead of its analysis: its error
/// diagnostics, its findings and its tokens (libclang's translation unit is gone by then).
struct BeforeEdits {
    let errors: [ParseDiagnostic]
    /// The statements the parse dropped that hold an error (`FixFileAnalysis.dropped`).
    let dropped: [Range<Int>]
    private let ruleFindings: (Set<String>) -> [Finding]
    /// The findings of the rules named (`FixFileAnalysis.findings(ofRules:)`: each rule runs when first asked for).
    func findings(ofRules ids: Set<String>) -> [Finding] { ruleFindings(ids) }
    private let tokens: FixTokens
    private let kinds: [AccessKind]
    /// The file's accesses of this kind.
    func count(_ kind: AccessKind) -> Int { kinds.filter { $0 == kind }.count }
    var buffer: SourceBuffer { tokens.file.buffer }

    init(_ analysis: FixFileAnalysis) {
        errors = analysis.errors
        dropped = analysis.dropped
        ruleFindings = analysis.findings(ofRules:)
        tokens = analysis.tokens
        kinds = analysis.accesses.map(\.access.kind)
    }

    /// The byte ranges of the block literals' bodies inside `range` (`TokenCursor.blockBodies`).
    func blockBodies(in range: Range<Int>) -> [Range<Int>] { TokenCursor(file: tokens.file).blockBodies(in: range) }

    /// The tokens' texts from the start of the statement holding `offset` (after the last `;`,
    /// `{` or `}` before it) up to `offset`.
    func statementWords(before offset: Int) -> [String] {
        var i = tokens.file.tokenIndex(atOrAfter: offset) - 1
        var words: [String] = []
        while i >= 0, ![";", "{", "}"].contains(tokens.text(i)) {
            words.append(tokens.text(i))
            i -= 1
        }
        return words
    }

    /// The identifiers of the tokens that start in `range`.
    func identifiers(in range: Range<Int>) -> Set<String> {
        var i = tokens.file.tokenIndex(atOrAfter: range.lowerBound)
        var names: Set<String> = []
        while i < tokens.count, tokens.start(i) < range.upperBound {
            if tokens.isIdentifier(i) { names.insert(tokens.text(i)) }
            i += 1
        }
        return names
    }

    /// The identifiers the file uses (built only when an error message needs them).
    func names() -> Set<String> { Set((0..<tokens.count).filter(tokens.isIdentifier).map(tokens.text)) }
}

public enum FixTrace {
    static let on = getenv("DI_LINT_FIX_TRACE") != nil
    nonisolated(unsafe) static var last = Date()
    nonisolated(unsafe) static var lastCPU = 0.0
    static func cpu() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
    public static func mark(_ label: String) {
        guard on else { return }
        let now = Date(), c = cpu()
        FileHandle.standardError.write(
            Data(
                String(format: "trace %7.3f s wall %7.3f s cpu  %@\n", now.timeIntervalSince(last), c - lastCPU, label)
                    .utf8))
        last = now
        lastCPU = c
    }
}
