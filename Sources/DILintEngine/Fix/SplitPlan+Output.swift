import Foundation

/// A patch directory `di-lint fix --split` cannot use, named with the problem.
public struct SplitOutputError: Error, CustomStringConvertible {
    public let description: String
}

extension SplitPlan {
    /// The summary table: one row per patch (number, file, unit, files, accesses, manual items, owner).
    public var table: String {
        let header = ["#", "patch", "unit", "files", "accesses", "manual", "owner"]
        let rows =
            [header]
            + patches.map {
                [
                    "\($0.number)", $0.file, $0.unit, "\($0.files.count)", "\($0.accesses)", "\($0.manual)",
                    $0.owners.isEmpty ? "-" : $0.owners.joined(separator: " "),
                ]
            }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        let numeric: Set<Int> = [0, 3, 4, 5]
        var out =
            "di-lint fix --phase \(phase.rawValue) --split \(mode.rawValue): \(patches.count) patch\(patches.count == 1 ? "" : "es")"
            + (codeOwners.map { " (owners from \($0))" } ?? "") + "\n"
        for row in rows {
            let cells = row.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - row[c].count)
                return numeric.contains(c) ? pad + row[c] : row[c] + pad
            }
            out +=
                cells.joined(separator: "  ").replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
                + "\n"
        }
        for patch in patches {
            if !patch.after.isEmpty {
                out += "\(patch.number): lands after \(patch.after.map(String.init).joined(separator: ", "))\n"
            }
            for m in patch.merged { out += "\(patch.number): joined: \(m)\n" }
            if !patch.verified { out += "\(patch.number): NOT verified: \(patch.failure ?? "")\n" }
        }
        if manualElsewhere > 0 { out += "manual items in no patch's unit: \(manualElsewhere)\n" }
        for note in notes { out += "note: \(note)\n" }
        out +=
            "together, the patches equal the one-run diff byte for byte (\(oneRunDiffBytes) bytes): \(sameAsOneRun ? "yes" : "NO")\n"
        return out
    }

    /// The summary as JSON (the patches without their text).
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The names `write` uses, which `--force` replaces: `NNNN-….patch`, `summary.txt`, `summary.json`.
    static func isOurs(_ name: String) -> Bool {
        name == "summary.txt" || name == "summary.json"
            || name.range(of: #"^[0-9]{4}-.*\.patch$"#, options: .regularExpression) != nil
    }

    /// Checks, before anything is planned, that `dir` can take the patches: a writable directory
    /// that is empty (or, with `force`, holds anything); a missing one is created (not its parents).
    public static func checkDirectory(_ dir: String, force: Bool) throws {
        var st = stat()
        if stat(dir, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else {
                throw SplitOutputError(description: "--patch-dir \(dir): is a file, not a directory")
            }
            guard access(dir, W_OK | X_OK) == 0 else {
                throw SplitOutputError(
                    description: "--patch-dir \(dir): not writable (\(String(cString: strerror(errno))))")
            }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            if !entries.isEmpty && !force {
                throw SplitOutputError(
                    description:
                        "--patch-dir \(dir): not empty (\(entries.count) entr\(entries.count == 1 ? "y" : "ies")); --force writes into it, replacing only its NNNN-*.patch and summary files"
                )
            }
            return
        }
        // made now, so that a directory that cannot be made is said before anything is planned
        guard mkdir(dir, 0o777) == 0 else {
            throw SplitOutputError(
                description: "--patch-dir \(dir): cannot create it (\(String(cString: strerror(errno))))")
        }
    }

    /// Writes the patches and the summary (`summary.txt`, `summary.json`) into `dir`, and nothing
    /// outside it: creates `dir` when missing; with `force`, first removes the files of an earlier
    /// split there (only those names). Each file is written to a temporary beside it, then renamed.
    public func write(to dir: String, force: Bool) throws {
        try Self.checkDirectory(dir, force: force)
        if force {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where Self.isOurs(name) {
                let path = (dir as NSString).appendingPathComponent(name)
                guard unlink(path) == 0 else {
                    throw SplitOutputError(
                        description: "\(path): cannot remove it (\(String(cString: strerror(errno))))")
                }
            }
        }
        let files: [(String, Data)] =
            patches.map { ($0.file, Data($0.text)) } + [
                ("summary.txt", Data(table.utf8)), ("summary.json", Data(json().utf8)),
            ]
        for (name, data) in files {
            try OutputFile.write(data, to: (dir as NSString).appendingPathComponent(name))
        }
    }
}
