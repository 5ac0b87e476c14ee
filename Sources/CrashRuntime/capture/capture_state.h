// State shared by install, the signal monitor and the terminate monitor. Everything the
// handlers read lives here, filled at install; the handlers never allocate or lock.
#ifndef SEAM_CAPTURE_STATE_H
#define SEAM_CAPTURE_STATE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEAM_MAX_ENTRIES 128
#define SEAM_STRING_POOL (64 * 1024)
#define SEAM_PATH_MAX 4096

typedef struct seam_entry { const char *key; const char *value; } seam_entry;

typedef struct seam_capture_state {
    int installed;
    int dump_fd;
    char dump_path[SEAM_PATH_MAX];
    char dump_directory[SEAM_PATH_MAX];
    uint64_t prelude_size;      // bytes of the dump written at install (no crash yet)
    size_t reserved;            // space reserved for the crash sections
    char executable[SEAM_PATH_MAX];
    char launch_record_path[SEAM_PATH_MAX];   // "" when the capture has no launch record
    pid_t install_pid;
    pid_t parent_pid;
    int64_t install_time;
    int catch_sigterm;
    size_t annotation_count, system_info_count;
    seam_entry annotations[SEAM_MAX_ENTRIES];
    seam_entry system_info[SEAM_MAX_ENTRIES];
    size_t pool_used;
    char pool[SEAM_STRING_POOL];
} seam_capture_state;

extern seam_capture_state g_seam_state;

/// Uncaught C++ exception, filled by the terminate monitor before it aborts.
#define SEAM_EXCEPTION_TYPE_MAX 512
#define SEAM_EXCEPTION_WHAT_MAX 2048
extern volatile sig_atomic_t g_seam_exception_recorded;
/// Set by the signal handler on entry, before the dump: this launch is crashing.
extern volatile sig_atomic_t g_seam_crash_captured;
/// Set by the terminate monitor when std::terminate runs.
extern volatile sig_atomic_t g_seam_terminate_called;
extern char g_seam_exception_type[SEAM_EXCEPTION_TYPE_MAX];
extern char g_seam_exception_what[SEAM_EXCEPTION_WHAT_MAX];

/// Test hook run by the handler after the signal section (seam_capture_set_handler_hook_for_testing).
extern void (*volatile g_seam_handler_hook)(void);

/// Installs / removes the signal handlers and the alternate stack. Not signal-safe.
int seam_signal_monitor_install(int catch_sigterm, char *error, size_t error_size);
void seam_signal_monitor_uninstall(void);
/// Installs / removes the std::terminate handler.
void seam_terminate_monitor_install(void);
void seam_terminate_monitor_uninstall(void);

/// Writes the whole dump for a signal to fd (called by the signal handler).
/// `nested_signal` is set when a second signal interrupted the writing and it was resumed.
struct seam_dump_writer;
void seam_write_crash_sections(struct seam_dump_writer *w, int signal, const siginfo_t *info,
                               const void *ucontext, uint64_t entry_mono_ns, uint64_t entry_real_sec,
                               uint64_t entry_real_nsec);
uint64_t seam_monotonic_ns(void);

#ifdef __cplusplus
}
#endif
#endif
