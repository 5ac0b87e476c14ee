// The signal monitor: catches fatal signals, writes one dump per process, then hands the
// signal to whoever had it before (the Swift runtime's backtracer, or the default action)
// so the process still dies of the original signal.
#define _GNU_SOURCE
#include "capture_state.h"
#include "../launch_record.h"
#include "dump_file.h"
#include "dump_writer.h"
#include "seam_dump_format.h"
#include "thread_context.h"
#include "thread_stack.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const int k_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGTERM};
#define SIGNAL_COUNT (sizeof k_signals / sizeof k_signals[0])
#define LOSER_WAIT_MS 5000
/// How long a thread that lost the race keeps waiting, after the dump is written, for the
/// owner's chained handler to end the process before it chains the signal itself.
#define LOSER_PARK_MS 20000

static struct sigaction g_previous[SIGNAL_COUNT];
static volatile sig_atomic_t g_hooked[SIGNAL_COUNT];
static _Atomic pid_t g_owner_tid;               // thread writing the dump; 0 before any crash
static volatile sig_atomic_t g_dump_done;
static volatile sig_atomic_t g_handler_active;
static volatile sig_atomic_t g_jump_armed;
static volatile sig_atomic_t g_nested_signal;
static volatile sig_atomic_t g_chaining;         // the owner is inside the previous handler
static sigjmp_buf g_nested_jump;
static seam_dump_writer g_writer;

int seam_capture_handler_active(void) { return g_handler_active; }

static void restore_previous_handlers(void) {
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        if (g_hooked[i]) {
            sigaction(k_signals[i], &g_previous[i], NULL);
            g_hooked[i] = 0;
        }
    }
}

static int signal_index(int signal) {
    for (size_t i = 0; i < SIGNAL_COUNT; i++) if (k_signals[i] == signal) return (int)i;
    return -1;
}

static void on_signal(int signal, siginfo_t *info, void *ucontext);

/// Puts the previous handlers back wherever ours is still installed. A handler installed over
/// ours since stays (the Swift backtracer resets its signals to the default action when it runs).
static void restore_previous_handlers_where_ours(void) {
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction current;
        if (g_hooked[i] && sigaction(k_signals[i], NULL, &current) == 0 &&
            (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_signal) {
            sigaction(k_signals[i], &g_previous[i], NULL);
        }
        g_hooked[i] = 0;
    }
}

static int is_hardware_fault(int signal, const siginfo_t *info) {
    return info->si_code > 0 && (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE);
}

/// The default action for `signal`, then: a hardware fault returns (its instruction runs again
/// and the process dies of it), any other signal is raised again.
static void die_of(int signal, const siginfo_t *info) {
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal, &default_action, NULL);
    if (is_hardware_fault(signal, info)) return;
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    syscall(SYS_tgkill, (long)getpid(), (long)syscall(SYS_gettid), (long)signal);
}

/// Gives the signal to the previous handler by calling it directly with the original siginfo
/// and context, while ours stays installed: a thread that crashes meanwhile parks in ours rather
/// than entering the previous handler a second time (the Swift runtime's backtracer hangs or
/// loses its helper process when a second thread enters it). Then the previous handlers are
/// restored where ours is still installed. A hardware fault returns: the faulting instruction
/// runs again under whatever is installed now (the default action once the Swift backtracer has
/// run; an application handler that fixed the fault lets it continue). Any other signal is
/// raised again with the default action so the process dies of it, except SIGTERM that the
/// application handles: its handler decides whether the process ends.
static void pass_on(int signal, siginfo_t *info, void *ucontext) {
    int i = signal_index(signal);
    if (i < 0) {
        restore_previous_handlers_where_ours();
        return;
    }
    struct sigaction previous = g_previous[i];
    g_chaining = 1;
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) previous.sa_sigaction(signal, info, ucontext);
    } else if (previous.sa_handler == SIG_IGN) {
        restore_previous_handlers_where_ours();
        return;
    } else if (previous.sa_handler != SIG_DFL) {
        previous.sa_handler(signal);
    }
    restore_previous_handlers_where_ours();
    if (is_hardware_fault(signal, info)) return;
    int handled_by_app = (previous.sa_flags & SA_SIGINFO) || previous.sa_handler != SIG_DFL;
    if (signal == SIGTERM && handled_by_app) return;
    die_of(signal, info);
}

static void wait_for_dump(void) {
    struct timespec pause = {0, 1000000};
    for (int i = 0; i < LOSER_WAIT_MS && !g_dump_done; i++) nanosleep(&pause, NULL);
}

/// Only the owner chains to the previous handler. If every crashing thread did, the Swift
/// runtime's backtracer would be entered by several threads in turn, and it stalls or hangs
/// when that happens. A loser stays here (signals unblocked, so a backtracer can pause it)
/// until the owner's chained handler ends the process; it chains itself only if that has not
/// happened after LOSER_PARK_MS, e.g. because the previous handler recovered from the fault.
static void park_while_owner_chains(void) {
    struct timespec pause = {0, 1000000};
    for (int i = 0; i < LOSER_PARK_MS; i++) nanosleep(&pause, NULL);
}

/// Says the launch crashed before anything else can: the flag keeps the exit hook of a thread
/// that runs exit() from now on from recording a clean exit (crash_reporter.c), and the launch
/// record's clean_exit digit is set to 0 in place, in case an exit hook already wrote 1.
static void mark_launch_crashed(void) {
    static const char prefix[] = SEAM_LAUNCH_RECORD_CLEAN_EXIT_KEY;
    g_seam_crash_captured = 1;
    if (g_seam_state.launch_record_path[0] == '\0') return;
    int fd = open(g_seam_state.launch_record_path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    char head[sizeof prefix];
    if (pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head && head[sizeof prefix - 1] == '1') {
        int same = 1;
        for (size_t i = 0; i + 1 < sizeof prefix; i++) same &= head[i] == prefix[i];
        if (same) pwrite(fd, "0", 1, (off_t)(sizeof prefix - 1));
    }
    close(fd);
}

/// After the signal went on and came back: whether the process goes on living. A hardware fault
/// runs its instruction again and dies of it unless a real handler is installed now; any other
/// signal was raised again with the default action, so coming back means it was handled.
static int process_survives(int signal, const siginfo_t *info) {
    if (!is_hardware_fault(signal, info)) return 1;
    struct sigaction current;
    if (sigaction(signal, NULL, &current) != 0) return 0;
    if (current.sa_flags & SA_SIGINFO) return current.sa_sigaction != NULL;
    return current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN;
}

static void write_dump(int signal, siginfo_t *info, void *ucontext) {
    uint64_t entry = seam_monotonic_ns();
    struct timespec real;
    clock_gettime(CLOCK_REALTIME, &real);
    g_handler_active = 1;
    seam_writer_resume(&g_writer, g_seam_state.dump_fd, g_seam_state.prelude_size);
    if (sigsetjmp(g_nested_jump, 1) == 0) {
        g_jump_armed = 1;
        seam_write_crash_sections(&g_writer, signal, info, ucontext, entry, (uint64_t)real.tv_sec,
                                  (uint64_t)real.tv_nsec);
        g_jump_armed = 0;
    } else {
        // A second signal hit this thread while writing: close what was open and say so.
        seam_writer_end_all(&g_writer);
        seam_writer_u64(&g_writer, SEAM_DK_NESTED_SIGNAL, (uint64_t)g_nested_signal);
    }
    seam_writer_flush(&g_writer);   // so the exit time below covers writing the dump
    seam_writer_u64(&g_writer, SEAM_DK_HANDLER_EXIT_MONO_NS, seam_monotonic_ns());
    seam_writer_finish(&g_writer);
    close(g_seam_state.dump_fd);
    g_seam_state.dump_fd = -1;
    g_handler_active = 0;
}

/// A child forked without exec closed the parent's dump (capture_install.c). When it crashes
/// it makes its own, and from then on is the process this capture belongs to.
static int adopt_forked_child(void) {
    static seam_dump_writer prelude;
    size_t reserved = 0;
    int fd = seam_dump_file_create(g_seam_state.dump_directory, g_seam_state.dump_path, sizeof g_seam_state.dump_path,
                                   &prelude, &reserved);
    if (fd < 0) return 0;
    g_seam_state.dump_fd = fd;
    g_seam_state.prelude_size = prelude.written;
    g_seam_state.reserved = reserved;
    g_seam_state.install_pid = getpid();
    atomic_store(&g_owner_tid, 0);
    g_dump_done = 0;
    g_chaining = 0;
    return 1;
}

static void on_signal(int signal, siginfo_t *info, void *ucontext) {
    int saved_errno = errno;
    pid_t self = (pid_t)syscall(SYS_gettid);
    pid_t owner = 0;
    if (getpid() != g_seam_state.install_pid && !adopt_forked_child()) {
        // A forked child that could not make a dump of its own.
    } else if (g_chaining && atomic_load(&g_owner_tid) == self) {
        // A signal inside the handler we chained to: no second round.
        die_of(signal, info);
        errno = saved_errno;
        return;
    } else if (g_seam_state.dump_fd < 0) {
        // The dump is already written; its owner chains the signal, this thread waits.
        pid_t writer = atomic_load(&g_owner_tid);
        if (writer != 0 && writer != self) park_while_owner_chains();
    } else if (atomic_compare_exchange_strong(&g_owner_tid, &owner, self)) {
        mark_launch_crashed();
        write_dump(signal, info, ucontext);
        g_dump_done = 1;
        seam_thread_context_settle();
        pass_on(signal, info, ucontext);
        if (process_survives(signal, info)) {
            // An application's handler dealt with it: the other threads go back to work.
            g_seam_crash_captured = 0;
            seam_thread_context_release();
        }
        errno = saved_errno;
        return;
    } else if (owner == self) {
        if (g_jump_armed) {
            g_jump_armed = 0;
            g_nested_signal = signal;
            siglongjmp(g_nested_jump, 1);
        }
    } else {
        wait_for_dump();   // another thread is writing the one dump this process gets
        if (g_dump_done) park_while_owner_chains();
    }
    pass_on(signal, info, ucontext);
    errno = saved_errno;
}

int seam_signal_monitor_install(int catch_sigterm, char *error, size_t error_size) {
    // Every thread needs its own alternate stack to report its own stack overflow.
    if (seam_thread_stack_prepare() != 0) {
        snprintf(error, error_size, "cannot set up the alternate signal stack: %s", strerror(errno));
        return -1;
    }
    seam_thread_stack_wrap_new_threads(1);
    seam_thread_context_install();   // without a free signal, threads are listed without registers
    atomic_store(&g_owner_tid, 0);
    g_chaining = 0;
    g_dump_done = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        if (k_signals[i] == SIGTERM && !catch_sigterm) continue;
        if (sigaction(k_signals[i], &action, &g_previous[i]) != 0) {
            snprintf(error, error_size, "sigaction(%d) failed: %s", k_signals[i], strerror(errno));
            restore_previous_handlers();
            return -1;
        }
        g_hooked[i] = 1;
        if (k_signals[i] == SIGTERM && g_previous[i].sa_handler == SIG_IGN) {
            sigaction(SIGTERM, &g_previous[i], NULL);   // the process chose to ignore SIGTERM
            g_hooked[i] = 0;
        }
    }
    return 0;
}

void seam_signal_monitor_uninstall(void) {
    // A handler installed over ours since install stays: restoring ours' predecessor would
    // silently remove it. (At crash time the predecessors are restored unconditionally.)
    for (size_t i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction current;
        if (g_hooked[i] && sigaction(k_signals[i], NULL, &current) == 0 &&
            (!(current.sa_flags & SA_SIGINFO) || current.sa_sigaction != on_signal)) {
            g_hooked[i] = 0;
        }
    }
    restore_previous_handlers();
    seam_thread_context_uninstall();
    // Threads keep their alternate stacks (each is released when its thread ends).
    seam_thread_stack_wrap_new_threads(0);
}
