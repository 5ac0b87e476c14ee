import Foundation

/// Writes a verified plan, all or nothing. Bytes outside the edits are kept exactly: line
/// endings, comments, indentation. With a tree (`di-lint fix --apply`), under the tree's lock
/// and with a journal (`FixJournal`):
/// 1. every file is read and checked against its planned digest and `FixTree.problem` (inside
///    the repository, a regular file, an owner it can keep), then its new contents are written
///    to a temporary beside it (`.NAME.di-lint-fix.XXXXXX`, the original's owner, group and mode,
///    `fsync`ed) — a failure here (no space, no permission) removes the temporaries: nothing
///    changed;
/// 2. every file is read again and checked against its digest;
/// 3. each temporary is exchanged with its file (`renameat2(RENAME_EXCHANGE)`: the file's name
///    holds the new contents, the temporary's the original, in one step; where the file system
///    cannot exchange, a hard link keeps the original before the temporary is renamed over it);
/// 4. every original is checked once more (the inode read in 1, the planned digest: an edit by
///    another program in the meantime is found) — a failure in 3 or 4 exchanges every file back:
///    the tree is as before;
/// 5. the journal records the commit, and the originals are removed.
/// A file that cannot be put back (the rollback failed) is named with where its original is,
/// and the journal is kept for the next run to finish. `SIGTERM`, `SIGINT` and `SIGHUP` during
/// the apply are held (a handler only records them): during 1 they stop it (the temporaries
/// removed, nothing changed), later the apply ends first; then the signal ends the process.
/// `SIGKILL` and a power loss leave the journal: the next run (`recoverInterrupted`) puts the
/// files back as they were.
public enum FixApplier {
    public struct Failure: Error, CustomStringConvertible {
        /// Whether the tree is as before the apply (else some files are written: `details` says which).
        public let unchanged: Bool
        public let description: String
        /// One line per file that was not written or not put back, with why and where its original is.
        public let details: [String]
    }

    /// The name of a file's temporary: `.NAME.di-lint-fix.` then `mkstemp`'s six characters.
    static let temporaryInfix = ".di-lint-fix."
    /// The suffix of the hard link that keeps an original where the file system cannot exchange.
    static let originalSuffix = "~"

    static func temporaryDirectory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    static func isTemporaryName(_ name: String, of file: String) -> Bool {
        let prefix = "." + file + temporaryInfix
        return name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6
    }

    /// Called after each file is replaced (tests: to make putting it back fail at that moment).
    nonisolated(unsafe) static var afterReplacing: ((String) -> Void)?

    /// How long `apply` waits for another run that holds the tree's lock.
    public static let lockWait = 60.0

    /// Writes the plan's edits; returns the real paths written. `tree` nil: no lock, journal or
    /// tree check (an engine caller's own files). `held`: the tree's lock, taken by the caller
    /// before it planned (so that no other apply writes between the plan and the write).
    /// `note`: lines for standard error (waiting for the lock, files put back after an
    /// interrupted run).
    @discardableResult
    public static func apply(
        _ plan: FixPlan, tree: FixTree? = nil, held: FixTree.Lock? = nil, lockWait: Double = lockWait,
        note: (String) -> Void = { _ in }
    ) throws -> [String] {
        let created = plan.createdFiles
        let files = plan.editsByFile.filter { !created.contains($0.key) }.sorted { $0.key < $1.key }
        let new = plan.editsByFile.filter { created.contains($0.key) }.sorted { $0.key < $1.key }
        guard !files.isEmpty || !new.isEmpty else { return [] }
        var lock: FixTree.Lock?
        if let tree, held == nil {
            do {
                lock = try tree.lock(wait: lockWait) {
                    note("di-lint fix: waiting for another di-lint fix that is writing this tree (\(tree.lockPath))")
                }
            } catch {
                throw Failure(unchanged: true, description: "\(error); nothing written", details: [])
            }
            recoverInterrupted(tree, note: note)
        }
        defer { lock?.release() }
        // new files first (`--phase bridge`): each made whole under a name that did not exist
        let made = try NewFiles.create(new.map { ($0.key, EditApplication.apply($0.value, to: [])) })
        guard !files.isEmpty else { return made }
        let signals = HeldSignals()
        var transaction = Transaction(tree: tree)
        do {
            try transaction.stage(files, plan: plan, signals: signals)
            try transaction.checkUnchanged(plan)
            try transaction.replaceAll()
        } catch {
            let failure =
                error as? Failure ?? Failure(unchanged: true, description: "\(error); nothing written", details: [])
            transaction.discard()
            if failure.unchanged { NewFiles.remove(made) }
            signals.end(note: note) { _ in
                (["di-lint fix: error: \(failure)"] + failure.details.map { "di-lint fix: \($0)" }).joined(
                    separator: "\n")
            }
            throw failure
        }
        let written = made + transaction.finish()
        signals.end(note: note) {
            "di-lint fix: wrote \(written.count) file\(written.count == 1 ? "" : "s") before ending on \($0)"
        }
        return written
    }

    /// Finishes the work of an apply that ended without finishing (killed, or its rollback
    /// failed): the tree's lock must be held. Lines for standard error say what was done.
    public static func recoverInterrupted(_ tree: FixTree, note: (String) -> Void) {
        guard let recovery = FixJournal.recover(tree.journalPath, tree: tree) else { return }
        let count = recovery.restored.count
        if recovery.committed {
            note(
                "di-lint fix: an earlier fix --apply ended after writing every file; removed what it left (its journal"
                    + (recovery.removed == 0
                        ? ")" : " and \(recovery.removed) original\(recovery.removed == 1 ? "" : "s"))"))
        } else {
            note(
                "di-lint fix: an earlier fix --apply ended before writing every file; put back \(count) file\(count == 1 ? "" : "s") as before it, removed \(recovery.removed) temporar\(recovery.removed == 1 ? "y" : "ies")"
            )
        }
        for file in recovery.restored { note("di-lint fix: put back \(file)") }
        for problem in recovery.problems { note("di-lint fix: warning: \(problem)") }
    }

    /// One apply's files: staged, replaced, put back or committed.
    private struct Transaction {
        struct File {
            let path: String
            let temporary: String
            /// The original's identity and digest (checked in 2 and 4).
            let device: dev_t, inode: ino_t
            let old: String
            /// The new file's identity (the temporary's).
            var newDevice: dev_t = 0, newInode: ino_t = 0
            /// Replaced: the name holds the new contents; the original is at `original`.
            var replaced = false
            /// Where the original is once replaced: the temporary's name, or its link (the fallback).
            var original: String

            /// Whether `path` names the original file, unchanged (identity and digest).
            func holdsOriginal(at path: String) -> Bool {
                var st = stat()
                guard let bytes = readFileBytes(path, status: &st) else { return false }
                return st.st_dev == device && st.st_ino == inode && SHA256.hex(bytes) == old
            }
        }

        let tree: FixTree?
        var files: [File] = []
        var journal: FixJournal?

        init(tree: FixTree?) { self.tree = tree }

        /// 1: checks every file and writes its temporary.
        mutating func stage(_ edits: [(key: String, value: [TextEdit])], plan: FixPlan, signals: HeldSignals) throws {
            if let tree { journal = try FixJournal.create(at: tree.journalPath) }
            for (path, fileEdits) in edits {
                if let signal = signals.caught {
                    throw Failure(
                        unchanged: true,
                        description:
                            "ended by \(ChildProcess.signalDescription(signal)) before writing; nothing written",
                        details: [])
                }
                func refuse(_ why: String) -> Failure {
                    Failure(unchanged: true, description: "\(path): \(why); nothing written", details: [])
                }
                if let tree {
                    guard FixWorkspace.realPath(path) == path else {
                        throw refuse("its path has changed to another file since planning (a symbolic link)")
                    }
                    if let why = tree.problem(writing: path, shownAs: path) { throw refuse(why) }
                }
                var st = stat()
                guard let bytes = readFileBytes(path, status: &st) else {
                    throw refuse(
                        errno == 0 ? "it is not a regular file" : "cannot read it (\(String(cString: strerror(errno))))"
                    )
                }
                guard let planned = plan.digests[path], SHA256.hex(bytes) == planned else {
                    throw refuse("changed since the fix was planned (run fix again)")
                }
                // the file is named before its temporary is made, so that a run killed between the
                // two leaves a temporary the next run finds (beside a file the journal names)
                try journal?.append(FixJournal.Line(path: path))
                let directory = FixApplier.temporaryDirectory(of: path)
                var template = Array(
                    "\(directory)/.\((path as NSString).lastPathComponent)\(FixApplier.temporaryInfix)XXXXXX"
                        .utf8CString)
                let out = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard out >= 0 else {
                    throw refuse("cannot create a temporary file beside it (\(String(cString: strerror(errno))))")
                }
                let temporary = String(cString: template)
                var file = File(
                    path: path, temporary: temporary, device: st.st_dev, inode: st.st_ino, old: planned,
                    original: temporary)
                let contents = EditApplication.apply(fileEdits, to: bytes)
                files.append(file)
                do {
                    try journal?.append(
                        FixJournal.Line(path: path, temporary: temporary, old: planned, new: SHA256.hex(contents)))
                } catch {
                    close(out)
                    throw error
                }
                // the owner first (a change of owner clears set-user-ID bits), then the mode
                var ok = fchown(out, st.st_uid, st.st_gid) == 0
                var why = ok ? "" : "cannot give the rewritten file its owner \(st.st_uid):\(st.st_gid)"
                if ok && fchmod(out, st.st_mode & 0o7777) != 0 {
                    ok = false; why = "cannot give the rewritten file its mode"
                }
                if ok && !writeAll(out, contents) { ok = false; why = "cannot write a temporary file beside it" }
                if ok && fsync(out) != 0 { ok = false; why = "cannot write a temporary file beside it" }
                let error = errno
                var written = stat()
                if ok && fstat(out, &written) == 0 {
                    file.newDevice = written.st_dev
                    file.newInode = written.st_ino
                    files[files.count - 1] = file
                }
                close(out)
                guard ok else { throw refuse("\(why) (\(String(cString: strerror(error))))") }
            }
            try journal?.sync()
            syncDirectories()
        }

        /// 2: every file still holds what was planned from.
        func checkUnchanged(_ plan: FixPlan) throws {
            for file in files {
                guard file.holdsOriginal(at: file.path) else {
                    throw Failure(
                        unchanged: true,
                        description:
                            "\(file.path): changed while the fix was being written (by another program?); nothing written (run fix again)",
                        details: [])
                }
            }
        }

        /// 3 and 4: replaces every file, then checks every original; on a failure puts every file back.
        mutating func replaceAll() throws {
            var failure: String?
            for i in files.indices {
                if let why = replace(i) { failure = "\(files[i].path): cannot replace it (\(why))"; break }
                FixApplier.afterReplacing?(files[i].path)
            }
            if failure == nil {
                // 4: the originals are the files read in 1, unchanged (an edit in place in the meantime lands in them)
                for file in files {
                    guard file.holdsOriginal(at: file.original) else {
                        failure = "\(file.path): changed while the fix was being written (by another program?)"
                        break
                    }
                    var now = stat()
                    guard lstat(file.path, &now) == 0, now.st_dev == file.newDevice, now.st_ino == file.newInode else {
                        failure = "\(file.path): replaced by another program while the fix was being written"
                        break
                    }
                }
            }
            guard let failure else {
                syncDirectories()
                do { try journal?.commit() } catch {
                    try rollBack(after: "\(error)")
                }
                return
            }
            try rollBack(after: failure)
        }

        /// Replaces file `i` by its temporary, keeping the original; nil, or why it failed.
        private mutating func replace(_ i: Int) -> String? {
            let file = files[i]
            if FixApplier.exchange(file.temporary, file.path) {
                files[i].replaced = true
                return nil
            }
            guard [EINVAL, ENOSYS, EOPNOTSUPP, ENOTSUP].contains(errno) else { return String(cString: strerror(errno)) }
            // the file system cannot exchange: a hard link keeps the original, then the temporary is renamed over it
            let original = file.temporary + FixApplier.originalSuffix
            guard link(file.path, original) == 0 else {
                return "cannot keep its original: \(String(cString: strerror(errno)))"
            }
            guard rename(file.temporary, file.path) == 0 else {
                let why = String(cString: strerror(errno))
                unlink(original)
                return why
            }
            files[i].original = original
            files[i].replaced = true
            return nil
        }

        /// Puts back every replaced file; throws the failure (the tree as before), or the files
        /// that could not be put back.
        private mutating func rollBack(after failure: String) throws {
            var left: [String] = []
            for i in files.indices.reversed() where files[i].replaced {
                let file = files[i]
                var now = stat()
                guard lstat(file.path, &now) == 0, now.st_dev == file.newDevice, now.st_ino == file.newInode else {
                    // another program replaced it: its file stays, the original goes
                    unlink(file.original)
                    files[i].replaced = false
                    continue
                }
                if rename(file.original, file.path) == 0 {
                    files[i].replaced = false
                } else {
                    left.append(
                        "\(file.path): left as planned, its original is in \(file.original) (\(String(cString: strerror(errno))))"
                    )
                }
            }
            guard left.isEmpty else {
                // the journal stays: the next run puts the files back (see FixJournal.recover)
                journal = nil
                for file in files where !file.replaced {
                    unlink(file.temporary); unlink(file.temporary + FixApplier.originalSuffix)
                }
                files = []
                throw Failure(
                    unchanged: false,
                    description: "\(failure); putting the files back failed for \(left.count) of them", details: left)
            }
            throw Failure(
                unchanged: true, description: "\(failure); every file put back as it was: nothing written", details: [])
        }

        /// After a failure (the tree is as before, or the files left are named): removes the
        /// temporaries and the journal.
        mutating func discard() {
            for file in files where !file.replaced {
                unlink(file.temporary)
                unlink(file.temporary + FixApplier.originalSuffix)
            }
            journal?.remove()
            journal = nil
        }

        /// Flushes the directories of the files' temporaries (their new names).
        private func syncDirectories() {
            for directory in Set(files.map { FixApplier.temporaryDirectory(of: $0.path) }) {
                FixJournal.syncDirectory(of: directory + "/.")
            }
        }

        /// 5: the originals removed, then the journal; the paths written.
        mutating func finish() -> [String] {
            for file in files { unlink(file.original) }
            syncDirectories()
            journal?.remove()
            return files.map(\.path)
        }
    }

    /// `renameat2(from, to, RENAME_EXCHANGE)`: the two names swap their files in one step.
    /// glibc has it (2.28 on), but Swift's Glibc module does not declare it: looked up by name.
    static func exchange(_ from: String, _ to: String) -> Bool {
        guard let renameat2 = renameat2Function else { errno = ENOSYS; return false }
        return renameat2(AT_FDCWD, from, AT_FDCWD, to, 2 /* RENAME_EXCHANGE */) == 0
    }

    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameat2Function: RenameAt2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2")
        .map { unsafeBitCast($0, to: RenameAt2.self) }
}

/// `SIGTERM`, `SIGINT` and `SIGHUP` held: a handler records the signal and passes it on to the
/// child `forward(to:)` names, if any (nothing else: it is all an asynchronous handler may safely
/// do). An apply holds them while it writes, with `SIGPIPE` ignored (a closed standard error must
/// not end the process midway); the fix supervisor holds them while its child, the process that
/// writes, runs. `end` restores the dispositions and ends the process by the signal recorded, as
/// it would have ended. A signal the process was started with ignored (`nohup`, a background
/// job's `SIGINT`) stays ignored.
final class HeldSignals {
    nonisolated(unsafe) private static var recorded: Int32 = 0
    nonisolated(unsafe) private static var child: pid_t = 0
    private var previous: [(Int32, __sighandler_t?)] = []

    init(ignoringPipe: Bool = true) {
        Self.recorded = 0
        Self.child = 0
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let handler: __sighandler_t = { received in
                HeldSignals.recorded = received
                if HeldSignals.child > 0 { kill(HeldSignals.child, received) }
            }
            previous.append((signal, installUnlessIgnored(signal, handler)))
        }
        if ignoringPipe { previous.append((SIGPIPE, installUnlessIgnored(SIGPIPE, SIG_IGN))) }
    }

    /// The signal recorded so far, if any.
    var caught: Int32? { Self.recorded == 0 ? nil : Self.recorded }

    /// The child signals are passed on to (0: none); one that came before it started is passed on now.
    func forward(to pid: pid_t) {
        Self.child = pid
        if pid > 0, let caught { kill(pid, caught) }
    }

    /// Restores the dispositions as they were.
    func restore() {
        for (signal, handler) in previous { Glibc.signal(signal, handler) }
        previous = []
    }

    /// Restores the dispositions; ends the process by the signal recorded (after the line `said` gives).
    func end(note: (String) -> Void, said: ((String) -> String)? = nil) {
        restore()
        guard let signal = caught else { return }
        if let said { note(said(ChildProcess.signalDescription(signal))) }
        Self.end(signal)
    }

    /// Ends the process by `signal`, as its default action does.
    static func end(_ signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
        _exit(128 + signal)
    }
}

/// Sets `handler` for `signal` unless the signal is ignored; the disposition before.
func installUnlessIgnored(_ signal: Int32, _ handler: __sighandler_t?) -> __sighandler_t? {
    let previous = Glibc.signal(signal, handler)
    if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
        Glibc.signal(signal, SIG_IGN)
    }
    return previous
}
