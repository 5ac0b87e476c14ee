import Foundation

/// Which config file a run reads, and what it tells about it on standard error: a config can
/// turn the gate off (`exclude: ["**"]`), so one that the repository's owner may not have
/// written is named, and one that anybody could have written is not used.
public struct ConfigurationChoice: Equatable, Sendable {
    /// The config to read; nil for none.
    public var path: String?
    /// Lines for standard error (`di-lint: note: …`, `di-lint: warning: …`).
    public var notes: [String] = []
}

public enum ConfigurationDiscovery {
    /// The `.di-lint.yml` found from `directory` upward (`Configuration.discover`), judged:
    /// - named (a note) when it lies above the repository holding `directory` (the nearest
    ///   directory holding `.git`), or when another user owns it;
    /// - not used (a warning naming it) when the directory it is in, or that of the file it
    ///   links to, is writable by every user (`/tmp`: anyone could have put it there), or when
    ///   another user owns it and every user may write it. `--config` names it to use it anyway.
    /// The search does not go on above such a file: a config further up would be further from the tree.
    public static func discover(from directory: String, user: uid_t = geteuid()) -> ConfigurationChoice {
        guard let found = Configuration.discover(from: directory) else { return ConfigurationChoice() }
        var st = stat()
        guard stat(found, &st) == 0 else { return ConfigurationChoice(path: found) } // reading it names the problem
        let foundIn = URL(fileURLWithPath: found).deletingLastPathComponent().path
        let resolvedIn = RepositoryRoot.realPath(found).map(RepositoryRoot.parent(of:))
        if let open = [foundIn, resolvedIn].compactMap({ $0 }).first(where: worldWritable) {
            return ConfigurationChoice(
                path: nil,
                notes: [
                    "di-lint: warning: ignoring the config \(found): its directory \(open) is writable by every user, so anyone may have put it there; pass --config \(found) to use it"
                ])
        }
        if st.st_uid != user && st.st_mode & S_IWOTH != 0 {
            return ConfigurationChoice(
                path: nil,
                notes: [
                    "di-lint: warning: ignoring the config \(found): it is owned by \(owner(st.st_uid)) and writable by every user (mode \(mode(st))); pass --config \(found) to use it"
                ])
        }
        var notes: [String] = []
        if let repository = RepositoryRoot.enclosing(directory), let configDirectory = RepositoryRoot.realPath(foundIn),
            configDirectory != repository, RepositoryRoot.contains(configDirectory, repository)
        {
            notes.append(
                "di-lint: note: using the config \(found), found above the repository \(repository) (the directory holding .git)"
            )
        }
        if st.st_uid != user {
            notes.append(
                "di-lint: note: using the config \(found), owned by \(owner(st.st_uid)), not by the user running di-lint"
            )
        }
        return ConfigurationChoice(path: found, notes: notes)
    }

    /// A config named with `--config` is used: the user chose it. A warning when another user
    /// owns it and others than that owner may write it (group or every user): naming a file is
    /// no proof of having read what is in it now.
    public static func explicit(_ path: String, user: uid_t = geteuid()) -> ConfigurationChoice {
        var st = stat()
        guard stat(path, &st) == 0, st.st_uid != user, st.st_mode & (S_IWGRP | S_IWOTH) != 0 else {
            return ConfigurationChoice(path: path)
        }
        let who = st.st_mode & S_IWOTH != 0 ? "every user" : "its group"
        return ConfigurationChoice(
            path: path,
            notes: [
                "di-lint: warning: the config \(path) is owned by \(owner(st.st_uid)) and writable by \(who) (mode \(mode(st)))"
            ])
    }

    static func worldWritable(_ directory: String) -> Bool {
        var st = stat()
        return stat(directory, &st) == 0 && st.st_mode & S_IWOTH != 0
    }

    /// `user 'nobody' (uid 65534)`, or `uid 1234` for a uid with no name.
    static func owner(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "user '\(String(cString: name))' (uid \(uid))"
    }

    static func mode(_ st: stat) -> String {
        String(format: "%04o", Int(st.st_mode & 0o7777))
    }
}
