// The signal monitor: catches fatal signals, writes one dump per process, then hands the
// signal to whoever had it before (the Swift runtime's backtracer, or the default action)
// so the process still dies of the original signal.
#define _GNU_SOURCE
#include "capture_state.h"
#include "dump_writer.h"
#include "seam_dump_format.h"

#include <errno.h>
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
#define ALTSTACK_SIZE (128 * 1024)

static struct sigaction g_previous[SIGNAL_COUNT];
static volatile sig_atomic_t g_hooked[SIGNAL_COUNT];
static _Atomic pid_t g_owner_tid;               // thread writing the dump; 0 before any crash
static volatile sig_atomic_t g_dump_done;
static volatile sig_atomic_t g_handler_active;
static volatile sig_atomic_t g_jump_armed;
static volatile sig_atomic_t g_nested_signal;
static sigjmp_buf g_nested_jump;
static seam_dump_writer g_writer;
static void *g_altstack;                         // our mapping, guard page first
static void *g_altstack_base;                    // ss_sp we installed
static size_t g_altstack_mapping;

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

/// Called with the previous handlers back in place. A hardware fault simply returns: the
/// faulting instruction runs again and the previous handler sees a genuine signal. Any other
/// signal (abort, int3, kill) is given to the previous handler directly with the original
/// siginfo and context; if it returns (the Swift backtracer does), the default action is
/// restored and the signal raised again so the process dies of it. SIGTERM is the exception:
/// an application's own SIGTERM handler decides whether the process ends.
static void pass_on(int signal, siginfo_t *info, void *ucontext) {
    int refaults = info->si_code > 0 &&
        (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE);
    int i = signal_index(signal);
    if (refaults || i < 0) return;
    struct sigaction previous = g_previous[i];
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) previous.sa_sigaction(signal, info, ucontext);
    } else if (previous.sa_handler == SIG_IGN) {
        return;
    } else if (previous.sa_handler != SIG_DFL) {
        previous.sa_handler(signal);
    }
    int handled_by_app = (previous.sa_flags & SA_SIGINFO) || previous.sa_handler != SIG_DFL;
    if (signal == SIGTERM && handled_by_app) return;
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal, &default_action, NULL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    syscall(SYS_tgkill, (long)getpid(), (long)syscall(SYS_gettid), (long)signal);
}

static void wait_for_dump(void) {
    struct timespec pause = {0, 1000000};
    for (int i = 0; i < LOSER_WAIT_MS && !g_dump_done; i++) nanosleep(&pause, NULL);
}

static void write_dump(int signal, siginfo_t *info, void *ucontext) {
    uint64_t entry = seam_monotonic_ns();
    struct timespec real;
    clock_gettime(CLOCK_REALTIME, &real);
    g_handler_active = 1;
    seam_writer_begin(&g_writer, g_seam_state.dump_fd);
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

static void on_signal(int signal, siginfo_t *info, void *ucontext) {
    int saved_errno = errno;
    pid_t self = (pid_t)syscall(SYS_gettid);
    pid_t owner = 0;
    if (getpid() != g_seam_state.install_pid || g_seam_state.dump_fd < 0) {
        // A forked child, or the dump is already written: not ours to capture.
    } else if (atomic_compare_exchange_strong(&g_owner_tid, &owner, self)) {
        write_dump(signal, info, ucontext);
        g_dump_done = 1;
    } else if (owner == self) {
        if (g_jump_armed) {
            g_jump_armed = 0;
            g_nested_signal = signal;
            siglongjmp(g_nested_jump, 1);
        }
    } else {
        wait_for_dump();   // another thread is writing the one dump this process gets
    }
    restore_previous_handlers();
    pass_on(signal, info, ucontext);
    errno = saved_errno;
}

static int ensure_alternate_stack(char *error, size_t error_size) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return 0;
    long page = sysconf(_SC_PAGESIZE);
    size_t size = ALTSTACK_SIZE;
    long minimum = sysconf(_SC_SIGSTKSZ);
    if (minimum > 0 && (size_t)minimum * 4 > size) size = (size_t)minimum * 4;
    g_altstack_mapping = size + (size_t)page;
    char *memory = mmap(NULL, g_altstack_mapping, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        snprintf(error, error_size, "cannot map the alternate signal stack: %s", strerror(errno));
        return -1;
    }
    mprotect(memory, (size_t)page, PROT_NONE);   // guard page below the stack
    stack_t stack = {.ss_sp = memory + page, .ss_size = size, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) {
        snprintf(error, error_size, "sigaltstack failed: %s", strerror(errno));
        munmap(memory, g_altstack_mapping);
        return -1;
    }
    g_altstack = memory;
    g_altstack_base = stack.ss_sp;
    return 0;
}

int seam_signal_monitor_install(int catch_sigterm, char *error, size_t error_size) {
    if (ensure_alternate_stack(error, error_size) != 0) return -1;
    atomic_store(&g_owner_tid, 0);
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
    if (g_altstack == NULL) return;
    // Only the installing thread has our stack; leave it if someone replaced it since.
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || current.ss_sp != g_altstack_base) return;
    stack_t disable = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    if (sigaltstack(&disable, NULL) == 0) {
        munmap(g_altstack, g_altstack_mapping);
        g_altstack = NULL;
    }
}
