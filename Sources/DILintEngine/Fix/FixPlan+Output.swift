import Foundation

extension FixPlan {
    /// The dry-run diff of every accepted edit, paths relative to `root` (the directory `git apply` runs in).
    public func unifiedDiff(root: String = FileManager.default.currentDirectoryPath) -> [UInt8] {
        let base = FixWorkspace.realPath(root)
        var out: [UInt8] = []
        let created = createdFiles
        // the titles of the unsafe groups by the files they edit (found once, not once per file)
        var unsafeTitles: [String: [String]] = [:]
        for group in accepted where group.safety == .unsafe {
            for path in Set(group.edits.map(\.path)) { unsafeTitles[path, default: []].append(group.title) }
        }
        // each file's part on its own core, joined in path order
        let parts = editsByFile.sorted(by: { $0.key < $1.key }).concurrentMap { (path, edits) -> [UInt8] in
            if created.contains(path) {
                return UnifiedDiff.creation(
                    path: FileCollector.relative(path, to: base), contents: EditApplication.apply(edits, to: []))
            }
            // unchanged since planning: the bytes hashed then (hashed again only when not kept)
            guard let old = readFileBytes(path),
                digested[path].map({ $0 == old }) ?? (SHA256.hex(old) == digests[path])
            else { return [] }
            // the tier of an unsafe file's groups on a line of its own before its diff (git apply passes over it)
            var part: [UInt8] = []
            let unsafe = unsafeTitles[path] ?? []
            if !unsafe.isEmpty {
                part += Array("# di-lint fix: unsafe (behaviour may change): \(unsafe.joined(separator: "; "))\n".utf8)
            }
            part += UnifiedDiff.diff(path: FileCollector.relative(path, to: base), old: old, edits: edits)
            return part
        }
        for part in parts { out += part }
        return out
    }

    /// The plan as JSON: phase, groups (with their edits and targets, refused ones with why), manual items, checks.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One line per refused group and manual item, for standard error.
    public var details: [String] {
        refusedGroups.map { "di-lint fix: refused \($0.title): \($0.refused ?? "")" }
            + withheldGroups.map {
                "di-lint fix: withheld (unsafe; --unsafe writes it) \($0.title): \($0.targets.map { "\($0.path):\($0.line):\($0.column) → \($0.reads ?? "")" }.joined(separator: ", "))"
            }
            + acceptedCallers.map { caller in
                "\(caller.place): caller: \(caller.call) now passes \(caller.explicitDefault ? "the bridge built from the container" : "'\(caller.argument)'")"
                    + (caller.explicitDefault
                        ? (caller.movedOutsideRoot
                            ? " (the container read moves here, outside the composition root: \(caller.reads) new direct access\(caller.reads == 1 ? "" : "es"))"
                            : " (the container read moves here, into the composition root)") : "")
            }
            + accepted.flatMap { $0.notes ?? [] }
            + manual.map {
                "\($0.path):\($0.line):\($0.column): manual: \($0.expression): \($0.reason.rawValue)\($0.detail.map { " (\($0))" } ?? "")"
            }
            + (secondRunEmpty
                ? []
                : [
                    "di-lint fix: a second run over the edited files still plans edits (not idempotent); please report it"
                ])
    }
}
