// libclang's C API (headers from Debian's libclang-dev, under /usr/lib/llvm-N/include; Package.swift
// locates them, LIBCLANG_PREFIX overrides), loaded lazily: di-lint does not link libclang.
// Loading libclang (and the LLVM it links) costs about 20 ms of relocations, more than a whole
// re-run whose files all come from the cache; so the library is opened on first use, or ahead
// of it on a background thread (seam_libclang_preload), and each clang_* function used is a
// small trampoline that resolves the real one once (lazy_libclang.c).
#ifndef SEAM_CLIBCLANG_H
#define SEAM_CLIBCLANG_H

#include <clang-c/Index.h>
#include <clang-c/CXCompilationDatabase.h>

/// Starts loading libclang on a background thread and returns at once.
void seam_libclang_preload(void);

/// Loads libclang if it is not loaded yet (waiting for a preload under way). NULL once loaded;
/// else why it could not be, naming the library tried (static storage).
const char *seam_libclang_load_error(void);

/// 1 while a preload is under way (started, not finished), else 0; never waits or loads.
int seam_libclang_is_loading(void);

/// The library file that is or will be loaded: $DI_LINT_LIBCLANG, else the first of the build's
/// libclang directory's libclang.so.1 and libclang.so that exists, else the bare soname. Found
/// without loading anything.
const char *seam_libclang_path(void);

#endif
