// seam_capture_install / uninstall: copies the configuration into static storage, opens the
// pending dump file, records the modules and installs the monitors.
#define _GNU_SOURCE
#include "seam_capture.h"
#include "capture_state.h"
#include "dump_file.h"
#include "dump_writer.h"
#include "fatal_message.h"
#include "thread_stack.h"
#include "module_list.h"
#include "safe_memory.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

seam_capture_state g_seam_state = {.dump_fd = -1};
volatile sig_atomic_t g_seam_exception_recorded;
volatile sig_atomic_t g_seam_terminate_called;
volatile sig_atomic_t g_seam_crash_captured;
char g_seam_exception_type[SEAM_EXCEPTION_TYPE_MAX];
char g_seam_exception_what[SEAM_EXCEPTION_WHAT_MAX];
void (*volatile g_seam_handler_hook)(void);

static int fail(char *error, size_t size, const char *format, ...) {
    if (error != NULL && size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, size, format, args);
        va_end(args);
    }
    return -1;
}

static const char *pool_copy(const char *text) {
    size_t length = strlen(text);
    if (length + 1 > SEAM_STRING_POOL - g_seam_state.pool_used) return NULL;
    char *slot = g_seam_state.pool + g_seam_state.pool_used;
    memcpy(slot, text, length + 1);
    g_seam_state.pool_used += length + 1;
    return slot;
}

static int copy_entries(const char *what, const char *const *keys, const char *const *values,
                        size_t count, seam_entry *out, size_t *out_count, char *error, size_t error_size) {
    if (count > SEAM_MAX_ENTRIES) {
        return fail(error, error_size, "too many %s entries: %zu (at most %d)", what, count, SEAM_MAX_ENTRIES);
    }
    if (count > 0 && (keys == NULL || values == NULL)) {
        return fail(error, error_size, "%s: %zu entries but a NULL key or value array", what, count);
    }
    for (size_t i = 0; i < count; i++) {
        if (keys[i] == NULL || values[i] == NULL) {
            return fail(error, error_size, "%s entry %zu has a NULL key or value", what, i);
        }
        out[i].key = pool_copy(keys[i]);
        out[i].value = pool_copy(values[i]);
        if (out[i].key == NULL || out[i].value == NULL) {
            return fail(error, error_size, "%s: strings exceed %d bytes in total", what, SEAM_STRING_POOL);
        }
    }
    *out_count = count;
    return 0;
}

/// mkdir -p with mode 0700 for every directory it creates.
static int make_directories(const char *path, char *error, size_t error_size) {
    char partial[SEAM_PATH_MAX];
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof partial) return fail(error, error_size, "dump directory path is empty or too long");
    memcpy(partial, path, length + 1);
    for (size_t i = 1; i <= length; i++) {
        if (partial[i] != '/' && partial[i] != '\0') continue;
        char saved = partial[i];
        partial[i] = '\0';
        if (mkdir(partial, 0700) != 0 && errno != EEXIST) {
            return fail(error, error_size, "cannot create dump directory %s: %s", partial, strerror(errno));
        }
        partial[i] = saved;
    }
    struct stat info;
    if (stat(path, &info) != 0 || !S_ISDIR(info.st_mode)) {
        return fail(error, error_size, "dump directory %s is not a directory", path);
    }
    return 0;
}

/// Creates the pending dump (see dump_file.h) and remembers what it holds.
static int open_dump_file(const char *directory, char *error, size_t error_size) {
    static seam_dump_writer writer;
    int fd = seam_dump_file_create(directory, g_seam_state.dump_path, sizeof g_seam_state.dump_path, &writer,
                                   &g_seam_state.reserved);
    if (fd < 0) return fail(error, error_size, "cannot create a dump file in %s: %s", directory, strerror(errno));
    g_seam_state.prelude_size = writer.written;
    return fd;
}

/// Removes the dump if no crash was written into it: this process is ending or stopping capture
/// normally. A dump left behind means the process died without a clean exit.
static void discard_unused_dump(void) {
    int fd = g_seam_state.dump_fd;
    if (fd < 0 || getpid() != g_seam_state.install_pid || g_seam_crash_captured) return;
    struct stat info;
    if (fstat(fd, &info) == 0 && (uint64_t)info.st_size <= g_seam_state.prelude_size) {
        unlink(g_seam_state.dump_path);
        g_seam_state.dump_fd = -1;
        close(fd);
    }
}

/// exit() and a return from main end the process cleanly (crashes never run atexit handlers).
static void on_exit_discard_dump(void) {
    if (g_seam_state.installed) discard_unused_dump();
}

/// A child forked without exec shares the dump's open file and so its lock: it lets go of
/// both, so the parent's crash is processed without waiting for the child. If the child
/// crashes, its handler creates a dump of its own (signal_monitor.c).
static void on_fork_child(void) {
    if (!g_seam_state.installed || g_seam_state.dump_fd < 0) return;
    close(g_seam_state.dump_fd);
    g_seam_state.dump_fd = -1;
}

/// Runs the crash-time writer once against /dev/null so every function it calls is bound by
/// the dynamic linker now, not lazily inside the signal handler.
static void rehearse(void) {
    static seam_dump_writer writer;
    static ucontext_t context;
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    info.si_signo = SIGSEGV;
    getcontext(&context);
    void (*hook)(void) = g_seam_handler_hook;
    g_seam_handler_hook = NULL;
    seam_writer_begin(&writer, fd);
    seam_write_prelude(&writer);
    seam_write_crash_sections(&writer, SIGSEGV, &info, &context, seam_monotonic_ns(), 0, 0);
    seam_writer_finish(&writer);
    g_seam_handler_hook = hook;
    struct timespec none = {0, 0};
    nanosleep(&none, NULL);
    close(fd);
}

int seam_capture_install(const seam_capture_config *config, char *error, size_t error_size) {
    if (error != NULL && error_size > 0) error[0] = '\0';
    if (g_seam_state.installed) return fail(error, error_size, "crash capture is already installed");
    if (config == NULL || config->dump_directory == NULL || config->dump_directory[0] == '\0') {
        return fail(error, error_size, "no dump directory configured");
    }
    g_seam_state.pool_used = 0;
    g_seam_state.annotation_count = g_seam_state.system_info_count = 0;
    if (copy_entries("annotation", config->annotation_keys, config->annotation_values, config->annotation_count,
                     g_seam_state.annotations, &g_seam_state.annotation_count, error, error_size) != 0 ||
        copy_entries("system info", config->system_info_keys, config->system_info_values, config->system_info_count,
                     g_seam_state.system_info, &g_seam_state.system_info_count, error, error_size) != 0 ||
        make_directories(config->dump_directory, error, error_size) != 0) {
        return -1;
    }
    ssize_t n = readlink("/proc/self/exe", g_seam_state.executable, sizeof g_seam_state.executable - 1);
    g_seam_state.executable[n > 0 ? n : 0] = '\0';
    g_seam_state.install_pid = getpid();
    g_seam_state.parent_pid = getppid();
    g_seam_state.install_time = (int64_t)time(NULL);
    g_seam_state.catch_sigterm = config->catch_sigterm != 0;
    g_seam_state.launch_record_path[0] = '\0';
    if (config->launch_record_path != NULL) {
        size_t record_length = strlen(config->launch_record_path);
        if (record_length >= sizeof g_seam_state.launch_record_path) return fail(error, error_size, "launch record path too long");
        memcpy(g_seam_state.launch_record_path, config->launch_record_path, record_length + 1);
    }
    g_seam_crash_captured = 0;
    g_seam_exception_recorded = 0;
    g_seam_terminate_called = 0;
    seam_fatal_message_prepare();
    if (seam_safe_memory_prepare() != 0) return fail(error, error_size, "no fault-free way to read memory");
    seam_modules_refresh(g_seam_state.executable);
    rehearse();

    size_t directory_length = strlen(config->dump_directory);
    if (directory_length >= sizeof g_seam_state.dump_directory) return fail(error, error_size, "dump directory path too long");
    memcpy(g_seam_state.dump_directory, config->dump_directory, directory_length + 1);
    int fd = open_dump_file(config->dump_directory, error, error_size);
    if (fd < 0) return -1;
    static int hooks_registered;
    if (!hooks_registered) {
        hooks_registered = 1;
        atexit(on_exit_discard_dump);
        pthread_atfork(NULL, NULL, on_fork_child);
    }
    g_seam_state.dump_fd = fd;
    if (seam_signal_monitor_install(g_seam_state.catch_sigterm, error, error_size) != 0) {
        close(fd);
        unlink(g_seam_state.dump_path);
        g_seam_state.dump_fd = -1;
        return -1;
    }
    seam_terminate_monitor_install();
    g_seam_state.installed = 1;
    return 0;
}

void seam_capture_uninstall(void) {
    if (!g_seam_state.installed) return;
    seam_signal_monitor_uninstall();
    seam_terminate_monitor_uninstall();
    discard_unused_dump();
    if (g_seam_state.dump_fd >= 0) close(g_seam_state.dump_fd);
    g_seam_state.dump_fd = -1;
    g_seam_state.installed = 0;
    g_seam_state.dump_path[0] = '\0';
}

int seam_capture_is_installed(void) { return g_seam_state.installed; }

int seam_capture_crash_in_progress(void) { return g_seam_crash_captured; }

const char *seam_capture_dump_path(void) { return g_seam_state.installed ? g_seam_state.dump_path : ""; }

size_t seam_capture_refresh_modules(void) { return seam_modules_refresh(NULL); }

int seam_capture_prepare_thread(void) { return seam_thread_stack_prepare(); }

/// Test-only, declared only in the CrashProbe test support header (not part of the public API).
void seam_capture_set_handler_hook_for_testing(void (*hook)(void));
void seam_capture_set_handler_hook_for_testing(void (*hook)(void)) { g_seam_handler_hook = hook; }
