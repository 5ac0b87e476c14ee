import Foundation

/// Mounts a tmpfs of `size` (mount(8)'s `size=`: `64k`, `64m`) at `url`, mode 0700, for a test of
/// a full or small file system; false when it cannot be mounted (not root, no mount(8)).
public func mountTmpfs(at url: URL, size: String) -> Bool {
    (try? runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", url.path]))?.status == 0
}

/// Unmounts what `mountTmpfs` mounted at `url` (lazily: a file still open does not stop it).
public func unmountTmpfs(at url: URL) {
    _ = try? runProcess("/bin/umount", ["-l", url.path])
}
