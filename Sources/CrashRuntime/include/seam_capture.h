// In-process crash capture: signal and C++ terminate monitors that write an intermediate dump.
// Everything the handlers use is copied into static C storage by seam_capture_install();
// at crash time they touch neither the bridge nor the container, and never allocate or lock.
#ifndef SEAM_CAPTURE_H
#define SEAM_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the capture layer needs, prepared by the reporter at install time. Strings are copied.
typedef struct seam_capture_config {
    /// Directory for pending intermediate dumps; created 0700 when missing.
    const char *dump_directory;
    /// Annotations the bridge provides (key/value pairs), copied at install.
    const char *const *annotation_keys;
    const char *const *annotation_values;
    size_t annotation_count;
    /// System and process info from the bridge (key/value pairs), copied at install.
    const char *const *system_info_keys;
    const char *const *system_info_values;
    size_t system_info_count;
    /// Non-zero to also catch SIGTERM (opt-in).
    int catch_sigterm;
    /// The reporter's launch record (launch_record.h), or NULL: when a crash begins the handler
    /// marks it as not cleanly exited, before any other thread could record a clean exit.
    const char *launch_record_path;
} seam_capture_config;

/// Installs the monitors. Returns 0, or -1 with a NUL-terminated reason in `error`.
/// Install and uninstall are not thread-safe against each other; call them from one thread.
int seam_capture_install(const seam_capture_config *config, char *error, size_t error_size);
/// Restores the previous handlers (unless another handler has replaced ours since) and closes
/// the pending dump file, deleting it when no crash was written.
void seam_capture_uninstall(void);
/// Non-zero while installed.
int seam_capture_is_installed(void);
/// Non-zero once the signal handler has begun capturing a crash in this process (until the
/// process survives it, when an application's handler dealt with the signal). An exit hook
/// must not record a clean exit then.
int seam_capture_crash_in_progress(void);

/// The std::terminate handler the terminate monitor installed (NULL when not installed);
/// the reporter stores it in the bridge's terminate-handler slot.
typedef void (*seam_terminate_handler_fn)(void);
seam_terminate_handler_fn seam_capture_terminate_handler(void);

/// Path of the pending dump file opened at install ("" when not installed). The file stays
/// empty unless a crash is captured, and is flock()ed by this process while it lives.
const char *seam_capture_dump_path(void);
/// Re-reads the loaded modules (call after dlopen; not async-signal-safe). Modules loaded
/// later are still found at crash time through the dynamic linker's r_debug list.
/// Returns the number of modules recorded.
size_t seam_capture_refresh_modules(void);
/// Non-zero while the signal handler is writing a dump (used by the no-allocation probe).
int seam_capture_handler_active(void);
/// Gives the calling thread an alternate signal stack, so a stack overflow on it still runs
/// the handler and is reported. Threads created with pthread_create (Foundation.Thread,
/// Dispatch and Swift concurrency workers included) from the program's start get one
/// automatically, before and after install (install signals no thread: a signal would cut a
/// sleep short); call this first thing on a thread started any other way (a raw clone, a runtime
/// that bypasses pthread_create, a thread a shared library's constructor started).
/// Idempotent. Returns 0, or -1 with errno set (the thread then has no alternate stack).
int seam_capture_prepare_thread(void);

#ifdef __cplusplus
}
#endif
#endif
