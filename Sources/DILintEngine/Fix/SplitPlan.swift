import Foundation

/// How `di-lint fix --split` cuts a run's edits into patches.
public enum SplitMode: String, Codable, Sendable, CaseIterable {
    /// One patch per service (a group that moves several services' accesses joins their units).
    case service
    /// One patch per directory of the file whose accesses a group rewrites.
    case directory
    /// One patch per owner set (`CODEOWNERS`) of the file whose accesses a group rewrites.
    case owners
}

/// One reviewable change of a split run: the groups of one unit, as a git patch that applies to
/// the tree the patches before it leave.
public struct SplitPatch: Codable, Sendable {
    /// 1-based: the order in which the patches must land.
    public var number: Int
    /// Its file name in the patch directory (`0001-service-tabs.patch`).
    public var file: String
    /// The unit (a service, a directory, an owner set; units that must land together joined by ` + `).
    public var unit: String
    /// The files it edits, relative to the directory fix runs in.
    public var files: [String]
    /// The accesses its groups rewrite.
    public var accesses: Int
    /// The manual items of its unit (left for a person).
    public var manual: Int
    /// The owners (`CODEOWNERS`) of the files it edits; empty when none.
    public var owners: [String]
    /// The fix groups it holds (their titles).
    public var groups: [String]
    /// Patches it must land after because a file it edits names a type one of them migrates.
    public var after: [Int]
    /// Why units were joined into this patch.
    public var merged: [String]
    /// Whether the tree after this patch and the ones before it passed fix's verification.
    public var verified: Bool
    /// The verification's reason when it did not.
    public var failure: String?
    /// The patch text (not in the JSON summary).
    public var text: [UInt8] = []

    private enum CodingKeys: String, CodingKey {
        case number, file, unit, files, accesses, manual, owners, groups, after, merged, verified, failure
    }
}

/// `di-lint fix --split`: the accepted groups of a plan as numbered patches, in landing order.
public struct SplitPlan: Codable, Sendable {
    public var phase: FixPhase
    public var mode: SplitMode
    public var patches: [SplitPatch] = []
    /// Manual items in no patch's unit.
    public var manualElsewhere: Int = 0
    /// Whether the patches together equal the one-run diff byte for byte: the diff of the tree
    /// every patch applied in order leaves is the diff one run makes, against the same tree.
    public var sameAsOneRun: Bool = true
    /// The size of the one-run diff (as `git diff` writes it, without headers) that was compared.
    public var oneRunDiffBytes: Int = 0
    /// The CODEOWNERS file read (owners mode, or the owner column), if any.
    public var codeOwners: String?
    /// What the reader should know (CODEOWNERS lines skipped, a unit that could not be verified).
    public var notes: [String] = []

    /// Whether every patch verified and their sum is the one run.
    public var isSound: Bool { sameAsOneRun && patches.allSatisfy(\.verified) }
}

extension Fixer {
    /// Splits the plan's accepted groups (withheld and refused groups are not in any patch) into
    /// patches by `mode`, orders them (new files first, then a unit before the units whose edits
    /// name its types: leaves before the types that build them; units that name each other are
    /// one patch), and verifies the tree after each prefix of patches with the checks `plan` ran
    /// (re-parse, re-lint, targets classified). A prefix that fails is joined with the next unit
    /// until it passes. `root`: the directory patch paths are relative to; `repositoryRoot`: where
    /// `CODEOWNERS` is looked for. Call after `plan(files:phase:)`, on its plan.
    public func split(_ plan: FixPlan, mode: SplitMode, root: String, repositoryRoot: String) -> SplitPlan {
        var result = SplitPlan(phase: plan.phase, mode: mode)
        let groups = plan.accepted
        guard let context = lastContext, !groups.isEmpty else { return result }
        FixTrace.mark("split: start")
        let workspace = context.workspace
        let base = FixWorkspace.realPath(root)
        let repository = FixWorkspace.realPath(repositoryRoot)
        let owners = CodeOwners(repositoryRoot: repository)
        result.codeOwners = owners.path.map { FileCollector.relative($0, to: base) }
        result.notes += owners.skipped
        func relative(_ real: String) -> String { FileCollector.relative(real, to: base) }
        func ownersOf(_ real: String) -> [String] { owners.owners(of: FileCollector.relative(real, to: repository)) }
        func isSwift(_ path: String) -> Bool { (path as NSString).pathExtension == "swift" }

        // the services each group moves (service mode), read from the files as they are on disk
        let touched = Set(groups.flatMap { $0.edits.map(\.path) })
        var services: [[String]] = []
        if mode == .service {
            workspace.setOverlay([:])
            context.forget()
            context.prefetch(touched.filter { !isSwift($0) })
            for group in groups {
                var found = Set<String>()
                for (path, targets) in Self.targetsByPath([group]) {
                    let accesses: [LocatedAccess]
                    if isSwift(path) {
                        // the parse each check of the file's edits compares with
                        accesses = context.swiftFileOnDisk(path)?.accesses ?? []
                    } else {
                        guard let analysis = context.analysis(path) else { continue }
                        accesses = analysis.accesses
                    }
                    for target in targets {
                        for a in accesses where target.range.contains(a.offset) {
                            if let service = SwiftServiceRead.service(of: a.access, configuration) {
                                found.insert(service)
                            }
                        }
                    }
                }
                services.append(found.sorted())
            }
        }
        // what each prefix is compared against: the C-family files as they are on disk, as the
        // plan's verification parsed them (parsed here only when it did not)
        var before: [String: BeforeEdits] = [:]
        let clangTouched = touched.filter { !isSwift($0) }
        if clangTouched.allSatisfy({ lastBefore[$0] != nil }) {
            before = lastBefore
        } else {
            workspace.setOverlay([:])
            context.forget()
            context.prefetch(Array(clangTouched))
            for path in clangTouched { before[path] = context.analysis(path).map(BeforeEdits.init) }
        }
        FixTrace.mark("split: the files as they are, parsed")

        // each group's unit keys; a group is never cut (its edits succeed or fail together)
        let primary: [String] = groups.map { g in
            Self.targetsByPath([g]).keys.sorted().first ?? g.edits.map(\.path).sorted().first ?? ""
        }
        let created = touched.filter { workspace.diskBytes($0) == nil }
        var keys: [[String]] = []
        for (i, group) in groups.enumerated() {
            if group.edits.contains(where: { created.contains($0.path) }) {
                keys.append(["new files"])
                continue
            }
            switch mode {
            case .service: keys.append(services[i].isEmpty ? [group.title] : services[i])
            case .directory:
                let dir = (relative(primary[i]) as NSString).deletingLastPathComponent
                keys.append([dir.isEmpty ? "." : dir])
            case .owners:
                let o = ownersOf(primary[i])
                keys.append([o.isEmpty ? "(no owner)" : o.joined(separator: " ")])
            }
        }
        // units: keys joined by the groups that span several
        var units = UnitSet()
        for (i, k) in keys.enumerated() {
            units.add(k, reason: "'\(groups[i].title)' moves \(k.joined(separator: ", ")) together")
        }
        // the one-run tree of every touched file
        let edited = Self.editedLines(groups) { workspace.diskBytes($0) ?? [] }
        var oneRun: [String: [UInt8]] = [:]
        for (path, edits) in plan.editsByFile {
            oneRun[path] = EditApplication.apply(edits, to: workspace.diskBytes(path) ?? [])
        }
        var order = Self.landingOrder(
            groups: groups, keys: keys, units: &units, created: created, edited: edited)

        // each prefix verified on the tree the patches before it leave; a prefix that fails
        // takes the next unit in
        var previous: [String: [UInt8]] = [:]
        // a Swift file is checked on its own (its contents, edits and targets): once it passed
        // with these contents and the same groups, it passes. The plan's verification passed each
        // with the contents `verifiedSwift` holds and all the groups that edit it.
        var passed: [String: [UInt8]] = [:]
        var editors: [String: Set<Int>] = [:]
        for (i, group) in groups.enumerated() { for edit in group.edits { editors[edit.path, default: []].insert(i) } }
        func verify(_ indices: [Int]) -> String? {
            let prefix = indices.map { groups[$0] }
            let inPrefix = Set(indices)
            var sub = FixPlan(phase: plan.phase)
            sub.groups = prefix
            let byFile = sub.editsByFile
            var overlay: [String: [UInt8]] = [:]
            for (path, edits) in byFile {
                overlay[path] = EditApplication.apply(edits, to: workspace.diskBytes(path) ?? [])
            }
            workspace.setOverlay(overlay)
            context.forget(changed: Set(overlay.keys).union(previous.keys).filter { overlay[$0] != previous[$0] })
            previous = overlay
            context.prefetch(byFile.keys.filter { !isSwift($0) })
            let targets = Self.targetsByPath(prefix)
            for (path, edits) in byFile.sorted(by: { $0.key < $1.key }) {
                if isSwift(path) && passed[path] == overlay[path] { continue }
                if isSwift(path), verifiedSwift[path] == overlay[path], (editors[path] ?? []).isSubset(of: inPrefix) {
                    continue
                }
                if let why = check(
                    path, edits: edits, targets: targets[path] ?? [], plan: &sub, before: before[path],
                    context: context, declared: byFile)
                {
                    return why
                }
                if isSwift(path) { passed[path] = overlay[path] }
            }
            return nil
        }
        func members(_ unit: String) -> [Int] { keys.indices.filter { units.root(keys[$0][0]) == unit } }
        var verdicts: [String: String?] = [:]
        var k = 0
        while k < order.count {
            let failure = verify(order[0...k].flatMap(members).sorted())
            if let failure, k + 1 < order.count {
                let next = order[k + 1]
                units.join(
                    order[k], next, "\(units.name(order[k])) did not verify without \(units.name(next)) (\(failure))")
                order.remove(at: k + 1)
                order[k] = units.root(next)
                continue
            }
            verdicts[order[k]] = .some(failure)
            FixTrace.mark("split: prefix \(k + 1) of \(order.count) verified")
            k += 1
        }
        workspace.setOverlay([:])
        context.forget()
        FixTrace.mark("split: every prefix verified")

        // the patches: each file's diff from the tree before the patch to the tree after it
        var state: [String: [UInt8]] = [:]
        var applied: [Int] = []
        var numberOfUnit: [String: Int] = [:]
        let deps = Self.dependencies(groups: groups, keys: keys, units: units, created: created, edited: edited)
        for (index, unit) in order.enumerated() {
            let mine = members(unit)
            applied += mine
            var sub = FixPlan(phase: plan.phase)
            sub.groups = applied.sorted().map { groups[$0] }
            var text: [UInt8] = []
            var files: [String] = []
            for (path, edits) in sub.editsByFile.sorted(by: { $0.key < $1.key }) {
                let disk = workspace.diskBytes(path)
                let old = state[path] ?? disk ?? []
                let new = EditApplication.apply(edits, to: disk ?? [])
                guard new != old else { continue }
                state[path] = new
                files.append(relative(path))
                text += Self.gitDiff(path: relative(path), old: old, new: new, created: disk == nil)
            }
            numberOfUnit[unit] = index + 1
            let unitGroups = mine.map { groups[$0] }
            let fileOwners = Set(unitGroups.flatMap { $0.edits.map(\.path) }.flatMap(ownersOf)).sorted()
            let failure = verdicts[unit] ?? nil
            var patch = SplitPatch(
                number: index + 1, file: "", unit: units.name(unit), files: files,
                accesses: unitGroups.reduce(0) { $0 + $1.targets.count }, manual: 0, owners: fileOwners,
                groups: unitGroups.map(\.title),
                after: (deps[unit] ?? []).compactMap { numberOfUnit[$0] }.sorted(),
                merged: units.why(unit), verified: failure == nil, failure: failure)
            patch.file = String(format: "%04d-", index + 1) + Self.slug(patch.unit) + ".patch"
            patch.text = text
            result.patches.append(patch)
        }
        // the one-run diff against the tree the patches start from, and the same diff of the tree
        // the patches leave: the patches together are the one run when the two are equal, byte for byte
        var oneRunDiff: [UInt8] = [], together: [UInt8] = []
        for path in Set(oneRun.keys).union(state.keys).sorted() {
            let disk = workspace.diskBytes(path)
            let original = disk ?? []
            oneRunDiff += Self.gitDiff(
                path: relative(path), old: original, new: oneRun[path] ?? original, created: disk == nil)
            together += Self.gitDiff(
                path: relative(path), old: original, new: state[path] ?? original, created: disk == nil)
        }
        result.sameAsOneRun = oneRunDiff == together
        result.oneRunDiffBytes = oneRunDiff.count
        if !result.sameAsOneRun {
            result.notes.append("the patches applied in order do not give the one-run diff; please report it")
        }

        // manual items go to the patch of their unit
        let unitOfKey: (String) -> String? = { key in
            units.contains(key) ? units.root(key) : nil
        }
        for item in plan.manual {
            let real = FixWorkspace.realPath(item.path)
            var key: String?
            switch mode {
            case .service:
                key = units.keys.filter { Self.mentions(item.expression, $0) }.max { $0.count < $1.count }
            case .directory:
                let dir = (relative(real) as NSString).deletingLastPathComponent
                key = dir.isEmpty ? "." : dir
            case .owners:
                let o = ownersOf(real)
                key = o.isEmpty ? "(no owner)" : o.joined(separator: " ")
            }
            if let key, let unit = unitOfKey(key), let n = numberOfUnit[unit] {
                result.patches[n - 1].manual += 1
            } else {
                result.manualElsewhere += 1
            }
        }
        for patch in result.patches {
            result.patches[patch.number - 1].text =
                Self.header(patch, of: result.patches.count, phase: plan.phase, mode: mode) + patch.text
        }
        return result
    }

    /// The units in landing order: new files first; a unit after those whose types its edits
    /// name (see `dependencies`); units that name each other joined (with why).
    private static func landingOrder(
        groups: [FixGroup], keys: [[String]], units: inout UnitSet, created: Set<String>, edited: [[String: String]]
    ) -> [String] {
        // join the units of each cycle, until there is none
        while true {
            let deps = dependencies(groups: groups, keys: keys, units: units, created: created, edited: edited)
            let all = Set(keys.map { units.root($0[0]) })
            guard let cycle = Self.cycle(in: all, deps: deps) else { break }
            let names = cycle.map { units.name($0) }
            let reason =
                "\(names.joined(separator: " and ")) name each other's types (each builds or uses the other): one patch"
            for u in cycle.dropFirst() { units.join(cycle[0], u, reason) }
        }
        let deps = dependencies(groups: groups, keys: keys, units: units, created: created, edited: edited)
        var remaining = Set(keys.map { units.root($0[0]) })
        var order: [String] = []
        while !remaining.isEmpty {
            let ready = remaining.filter { (deps[$0] ?? []).allSatisfy { !remaining.contains($0) } }
            let next =
                ready.min {
                    (units.name($0) == "new files" ? 0 : 1, units.name($0)) < (
                        units.name($1) == "new files" ? 0 : 1, units.name($1)
                    )
                }
                ?? remaining.min()!
            order.append(next)
            remaining.remove(next)
        }
        return order
    }

    /// For each unit, the units it must land after: those whose groups migrate a type (or C
    /// function) that its edits name, as a whole word, on the lines they touch of a file those
    /// units do not edit (a call of the type's initializer that an edit changes); and the unit of
    /// new files.
    private static func dependencies(
        groups: [FixGroup], keys: [[String]], units: UnitSet, created: Set<String>, edited: [[String: String]]
    ) -> [String: Set<String>] {
        var files: [String: Set<String>] = [:]
        var names: [String: Set<String>] = [:]
        var texts: [String: [String: String]] = [:] // unit → path → the lines its edits touch, and what they write
        for (i, g) in groups.enumerated() {
            let u = units.root(keys[i][0])
            files[u, default: []].formUnion(g.edits.map(\.path))
            if let name = typeName(g.title) { names[u, default: []].insert(name) }
            for (path, text) in edited[i] { texts[u, default: [:]][path, default: ""] += text }
        }
        var deps: [String: Set<String>] = [:]
        for (u, mine) in files {
            for (v, theirs) in files where v != u {
                if theirs.contains(where: created.contains) && !mine.contains(where: created.contains) {
                    deps[u, default: []].insert(v)
                    continue
                }
                let named = names[v] ?? []
                let naming = mine.subtracting(theirs).contains { path in
                    named.contains { mentions(texts[u]?[path] ?? "", $0) }
                }
                if naming { deps[u, default: []].insert(v) }
            }
        }
        return deps
    }

    /// For each group, by file, the lines its edits touch (as they are) and what the edits write:
    /// where a caller's edit names the type whose initializer it calls.
    static func editedLines(_ groups: [FixGroup], disk: (String) -> [UInt8]) -> [[String: String]] {
        groups.map { group in
            var result: [String: String] = [:]
            for edit in group.edits {
                let bytes = disk(edit.path)
                var lo = min(edit.range.lowerBound, bytes.count), hi = min(edit.range.upperBound, bytes.count)
                while lo > 0 && bytes[lo - 1] != UInt8(ascii: "\n") { lo -= 1 }
                while hi < bytes.count && bytes[hi] != UInt8(ascii: "\n") { hi += 1 }
                result[edit.path, default: ""] +=
                    String(decoding: bytes[lo..<hi], as: UTF8.self) + "\n" + edit.replacement + "\n"
            }
            return result
        }
    }

    /// A cycle among the units (Tarjan's strongly connected components), or nil.
    private static func cycle(in nodes: Set<String>, deps: [String: Set<String>]) -> [String]? {
        var index: [String: Int] = [:], low: [String: Int] = [:], stack: [String] = [], onStack = Set<String>()
        var counter = 0
        var found: [String]?
        func visit(_ v: String) {
            index[v] = counter; low[v] = counter; counter += 1
            stack.append(v); onStack.insert(v)
            for w in (deps[v] ?? []).sorted() where nodes.contains(w) {
                if index[w] == nil {
                    visit(w); low[v] = min(low[v]!, low[w]!)
                } else if onStack.contains(w) {
                    low[v] = min(low[v]!, index[w]!)
                }
            }
            if low[v] == index[v] {
                var component: [String] = []
                while let w = stack.popLast() {
                    onStack.remove(w); component.append(w)
                    if w == v { break }
                }
                if component.count > 1 && found == nil { found = component.sorted() }
            }
        }
        for v in nodes.sorted() where index[v] == nil { visit(v) }
        return found
    }

    /// The type or function a group migrates, from its title (`Objective-C class Reporter`,
    /// `Swift type Outer.Inner: service tabs`, `C function report reads r`): its last name.
    static func typeName(_ title: String) -> String? {
        guard
            let r = title.range(
                of: #"\b(class|type|function) [A-Za-z_][A-Za-z0-9_.]*"#, options: .regularExpression)
        else { return nil }
        let words = title[r].split(separator: " ")
        return words.last.flatMap { $0.split(separator: ".").last }.map(String.init)
    }

    /// Whether the text names the identifier as a whole word.
    static func mentions(_ text: String, _ name: String) -> Bool {
        let pattern = #"(?<![A-Za-z0-9_])"# + NSRegularExpression.escapedPattern(for: name) + #"(?![A-Za-z0-9_])"#
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    /// A file name part for a unit: lower case, runs of other characters one `-`, at most 60.
    static func slug(_ unit: String) -> String {
        var out = ""
        for c in unit.lowercased() {
            if c.isASCII && (c.isLetter || c.isNumber) { out.append(c) } else if out.last != "-" { out.append("-") }
        }
        let trimmed = out.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.isEmpty ? "root" : String(trimmed.prefix(60))
    }

    /// One file's change as git writes it (`diff --git`, a new file from `/dev/null`).
    static func gitDiff(path: String, old: [UInt8], new: [UInt8], created: Bool) -> [UInt8] {
        let a = UnifiedDiff.quoted("a/" + path), b = UnifiedDiff.quoted("b/" + path)
        var body = UnifiedDiff.diff(path: path, old: old, edits: lineEdits(path: path, old: old, new: new))
        guard !body.isEmpty else { return [] }
        var head = "diff --git \(a) \(b)\n"
        if created {
            head += "new file mode 100644\n"
            // the first line (`--- a/PATH`) names no file before
            if let end = body.firstIndex(of: UInt8(ascii: "\n")) {
                body.replaceSubrange(0...end, with: Array("--- /dev/null\n".utf8))
            }
        }
        return Array(head.utf8) + body
    }

    /// Line-level edits that turn `old` into `new` (the standard library's difference of their lines).
    static func lineEdits(path: String, old: [UInt8], new: [UInt8]) -> [TextEdit] {
        let oldLines = UnifiedDiff.lines(old), newLines = UnifiedDiff.lines(new)
        let difference = newLines.difference(from: oldLines)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var starts: [Int] = []
        var offset = 0
        for line in oldLines { starts.append(offset); offset += line.count }
        starts.append(offset)
        var edits: [TextEdit] = []
        var i = 0, j = 0
        while i < oldLines.count || j < newLines.count {
            if i < oldLines.count, j < newLines.count, !removed.contains(i), !inserted.contains(j) {
                i += 1; j += 1; continue
            }
            let si = i, sj = j
            while i < oldLines.count && removed.contains(i) { i += 1 }
            while j < newLines.count && inserted.contains(j) { j += 1 }
            if si == i && sj == j { break }
            edits.append(
                TextEdit(
                    path: path, range: starts[si]..<starts[i],
                    replacement: String(decoding: newLines[sj..<j].joined(), as: UTF8.self)))
        }
        // bytes that are not UTF-8 do not survive a String: the whole file then, as bytes cannot be
        // told apart line by line
        if EditApplication.apply(edits, to: old) != new {
            return [TextEdit(path: path, range: 0..<old.count, replacement: String(decoding: new, as: UTF8.self))]
        }
        return edits
    }

    /// A patch's header, as `git format-patch` writes one (`git apply` reads past it).
    static func header(_ patch: SplitPatch, of count: Int, phase: FixPhase, mode: SplitMode) -> [UInt8] {
        var lines = [
            "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001",
            "From: di-lint fix <di-lint-fix@localhost>",
            "Subject: [PATCH \(patch.number)/\(count)] di-lint fix --phase \(phase.rawValue), \(mode.rawValue) \(patch.unit)",
            "",
            "Unit (\(mode.rawValue)): \(patch.unit)",
            "Accesses: \(patch.accesses) in \(patch.files.count) file\(patch.files.count == 1 ? "" : "s"); manual items: \(patch.manual); owner: \(patch.owners.isEmpty ? "-" : patch.owners.joined(separator: " "))",
            "Groups: \(patch.groups.joined(separator: "; "))",
        ]
        if !patch.after.isEmpty {
            lines.append(
                "Lands after: \(patch.after.map(String.init).joined(separator: ", ")) (its files name the types they migrate)"
            )
        }
        for m in patch.merged { lines.append("Joined: \(m)") }
        lines.append(
            patch.verified
                ? "Verified on the tree patches 1-\(patch.number) leave: re-parse and re-lint pass."
                : "NOT verified on the tree patches 1-\(patch.number) leave: \(patch.failure ?? "")")
        lines.append("---")
        lines.append("")
        return Array(lines.joined(separator: "\n").utf8)
    }
}

/// Unit keys joined into units (union-find), each unit with why its keys were joined; a unit is
/// named by its keys, sorted, joined by ` + `.
struct UnitSet {
    private var parent: [String: String] = [:]
    private(set) var keys: [String] = []
    /// Why the keys of a unit were joined, by the unit's root.
    private var reasons: [String: [String]] = [:]

    func contains(_ key: String) -> Bool { parent[key] != nil }

    /// Adds the keys of one group, joined when there are several (`reason`).
    mutating func add(_ group: [String], reason: String) {
        for k in group where parent[k] == nil { parent[k] = k; keys.append(k) }
        for k in group.dropFirst() { join(group[0], k, reason) }
    }

    func root(_ key: String) -> String {
        var k = key
        while let p = parent[k], p != k { k = p }
        return k
    }

    mutating func join(_ a: String, _ b: String, _ reason: String) {
        let ra = root(a), rb = root(b)
        guard ra != rb else { return }
        let (keep, drop) = ra < rb ? (ra, rb) : (rb, ra)
        parent[drop] = keep
        reasons[keep] = (reasons[keep] ?? []) + (reasons[drop] ?? []) + [reason]
        reasons[drop] = nil
    }

    func name(_ unit: String) -> String {
        let r = root(unit)
        return keys.filter { root($0) == r }.sorted().joined(separator: " + ")
    }

    func why(_ unit: String) -> [String] {
        var seen = Set<String>()
        return (reasons[root(unit)] ?? []).filter { seen.insert($0).inserted }
    }
}
