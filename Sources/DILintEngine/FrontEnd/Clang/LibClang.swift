import CLibClang
import Foundation

/// libclang is opened at run time, on first use (see `CLibClang.h`): runs whose files all come
/// from the cache, and commands that parse nothing, never load it.
public enum LibClang {
    /// Starts loading libclang on a background thread, so a run that will parse finds it ready;
    /// call at start-up, before reading configuration and walking the tree.
    public static func preload() { seam_libclang_preload() }

    /// nil once libclang is loaded; else why it could not be (the library tried, dlerror's text).
    /// Loads it if needed.
    public static var loadError: String? { seam_libclang_load_error().map { String(cString: $0) } }

    /// Whether a `preload` is under way (not finished), without waiting or loading.
    static var isLoading: Bool { seam_libclang_is_loading() != 0 }

    /// The library that is or will be loaded, found without loading it.
    public static var libraryPath: String { String(cString: seam_libclang_path()) }

    /// Identifies the libclang a run uses without loading it: the library's resolved path, size
    /// and modification time (a different or updated libclang may parse differently).
    static let identity: String = {
        let path = libraryPath
        guard let resolved = realpath(path, nil) else { return "libclang:" + path }
        defer { free(resolved) }
        var st = stat()
        guard stat(resolved, &st) == 0 else { return "libclang:" + path }
        return "libclang:\(String(cString: resolved)):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }()
}
