// Every thread's context at crash time: see thread_context.h. The request signal is handled on
// the thread's own stack (no SA_ONSTACK), so the context it records is the interrupted one and
// its handler frame lies below the stack window that is copied.
#define _GNU_SOURCE
#include "thread_context.h"
#include "capture_state.h"
#include "cpu_context.h"
#include "safe_memory.h"
#include "seam_dump_format.h"
#include "thread_list.h"
#include "thread_stack.h"

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { SLOT_FREE, SLOT_ASKED, SLOT_DONE, SLOT_BLOCKED };
enum { MODE_NONE, MODE_CAPTURE };

typedef struct context_slot {
    _Atomic pid_t tid;
    _Atomic int state;
    ucontext_t context;
    uint8_t fp_state[SEAM_FP_STATE_SIZE];
    int has_fp_state;
    int via_sigprof;   // asked with SIGPROF: the thread blocks the reserved signal
} context_slot;

static int g_signal = -1;
static struct sigaction g_previous;
static _Atomic int g_mode;
static _Atomic int g_dump_written;             // asked threads may unblock their signals
static _Atomic int g_release;                  // parked threads may return: the process survived
static _Atomic int g_parked;                   // threads inside on_request's park
static _Atomic int g_unblocked;                // of those, the ones parked with their own signal mask
static struct sigaction g_sigprof_previous;    // SIGPROF's action before a crash borrowed it
static int g_sigprof_borrowed;
static context_slot g_slots[SEAM_MAX_CONTEXT_THREADS];
static size_t g_slot_count;

static int hex_digit(char c);

static void copy_bytes(void *to, const void *from, size_t length) {
    uint8_t *out = to;
    const uint8_t *in = from;
    for (size_t i = 0; i < length; i++) out[i] = in[i];
}

static void sleep_briefly(long nanoseconds) {
    struct timespec pause = {0, nanoseconds};
    nanosleep(&pause, NULL);
}

static void on_request(int signal, siginfo_t *info, void *ucontext) {
    (void)signal;
    if (info->si_code != SI_TKILL || info->si_pid != getpid()) return;   // not from this process
    if (atomic_load(&g_mode) != MODE_CAPTURE) return;
    pid_t self = (pid_t)syscall(SYS_gettid);
    context_slot *slot = NULL;
    for (size_t i = 0; i < g_slot_count; i++) if (atomic_load(&g_slots[i].tid) == self) slot = &g_slots[i];
    if (slot == NULL || atomic_load(&slot->state) != SLOT_ASKED) return;
    copy_bytes(&slot->context, ucontext, sizeof slot->context);
    const void *fp = seam_context_fp_state(ucontext);
    slot->has_fp_state = fp != NULL && seam_safe_read(fp, slot->fp_state, sizeof slot->fp_state) == 0;
    atomic_fetch_add(&g_parked, 1);
    atomic_store(&slot->state, SLOT_DONE);
    // Parked with every signal blocked until the dump is written, so the stack the crashing
    // thread copies stays as it was; bounded, in case the crashing thread itself dies first.
    for (int i = 0; i < 100000 && !atomic_load(&g_dump_written); i++) sleep_briefly(100000);
    // Then parked with the thread's own signal mask until the process dies: the handler chained
    // to next (the Swift runtime's backtracer) can pause and read this thread, and the program
    // does not run on while the process is crashing (a sleep cut short by this signal, an exit
    // recorded as clean). Released only when the process survives the signal
    // (seam_thread_context_release), or after SEAM_PARK_LIMIT_MS.
    sigprocmask(SIG_SETMASK, &((const ucontext_t *)ucontext)->uc_sigmask, NULL);
    atomic_fetch_add(&g_unblocked, 1);
    for (long i = 0; i < SEAM_PARK_LIMIT_MS && !atomic_load(&g_release); i++) sleep_briefly(1000000);
    atomic_fetch_sub(&g_unblocked, 1);
    atomic_fetch_sub(&g_parked, 1);
}

/// The thread's blocked-signal mask from /proc (bit n-1 for signal n; 0 when unreadable):
/// asking a thread that blocks the signal would only run into the deadline.
static uint64_t blocked_signals(pid_t tid) {
    static char status[4096];
    ssize_t length = seam_task_file_read(tid, "status", status, sizeof status);
    if (length <= 0) return 0;
    for (ssize_t i = 0; i + 8 < length; i++) {
        if (status[i] != 'S' || status[i + 1] != 'i' || status[i + 2] != 'g' || status[i + 3] != 'B' ||
            status[i + 4] != 'l' || status[i + 5] != 'k' || status[i + 6] != ':') continue;
        uint64_t mask = 0;
        for (ssize_t j = i + 7; j < length && status[j] != '\n'; j++) {
            int digit = hex_digit(status[j]);
            if (digit >= 0) mask = mask << 4 | (uint64_t)digit;
        }
        return mask;
    }
    return 0;
}

static int blocks(uint64_t mask, int signal) { return (int)((mask >> (signal - 1)) & 1); }

/// Puts on_request on SIGPROF for this capture (once); 0 when sigaction refused.
static int borrow_sigprof(void) {
    if (g_sigprof_borrowed) return 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_request;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&action.sa_mask);
    if (sigaction(SIGPROF, &action, &g_sigprof_previous) != 0) return 0;
    g_sigprof_borrowed = 1;
    return 1;
}

/// Gives SIGPROF back once every thread asked with it has answered. One that has not may still
/// receive it: on_request then stays, and ignores it (no capture is asking), where the
/// previous action (often the default: terminate) would end the process before the chained
/// handler has run.
static void return_sigprof(void) {
    if (!g_sigprof_borrowed) return;
    for (size_t i = 0; i < g_slot_count; i++) {
        if (g_slots[i].via_sigprof && atomic_load(&g_slots[i].state) == SLOT_ASKED) return;
    }
    sigaction(SIGPROF, &g_sigprof_previous, NULL);
    g_sigprof_borrowed = 0;
}

/// Asks every other thread (up to the slot count); returns how many were asked.
static size_t ask_threads(int mode, pid_t self) {
    static pid_t tids[SEAM_MAX_CONTEXT_THREADS + 1];
    size_t found = seam_list_threads(tids, SEAM_MAX_CONTEXT_THREADS + 1);
    size_t count = 0;
    g_slot_count = 0;
    atomic_store(&g_mode, mode);
    for (size_t i = 0; i < found && count < SEAM_MAX_CONTEXT_THREADS; i++) {
        if (tids[i] == self) continue;
        atomic_store(&g_slots[count].state, SLOT_ASKED);
        atomic_store(&g_slots[count].tid, tids[i]);
        count++;
    }
    g_slot_count = count;
    for (size_t i = 0; i < count; i++) {
        int signal = g_signal;
        g_slots[i].via_sigprof = 0;
        uint64_t mask = blocked_signals(g_slots[i].tid);
        if (blocks(mask, g_signal)) {
            // Dispatch's workers (Swift concurrency's pool too) block every signal but the
            // synchronous faults, SIGPIPE and SIGPROF: at crash time they are asked with SIGPROF,
            // borrowed for the capture as the Swift runtime's backtracer borrows it to pause them.
            if (blocks(mask, SIGPROF) || !borrow_sigprof()) {
                atomic_store(&g_slots[i].state, SLOT_BLOCKED);
                continue;
            }
            signal = SIGPROF;
            g_slots[i].via_sigprof = 1;
        }
        if (syscall(SYS_tgkill, (long)getpid(), (long)g_slots[i].tid, (long)signal) != 0) {
            atomic_store(&g_slots[i].state, SLOT_FREE);
        }
    }
    return count;
}

/// Waits until every asked thread answered or the deadline passed.
static void wait_for_answers(uint64_t deadline_ns) {
    uint64_t until = seam_monotonic_ns() + deadline_ns;
    for (;;) {
        int pending = 0;
        for (size_t i = 0; i < g_slot_count; i++) pending |= atomic_load(&g_slots[i].state) == SLOT_ASKED;
        if (!pending || seam_monotonic_ns() >= until) return;
        sleep_briefly(20000);
    }
}

int seam_thread_context_install(void) {
    if (g_signal > 0) return g_signal;
    for (int candidate = SIGRTMAX - 1; candidate > SIGRTMIN + 3; candidate--) {
        struct sigaction current;
        if (sigaction(candidate, NULL, &current) != 0) continue;
        if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_request;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigfillset(&action.sa_mask);
        if (sigaction(candidate, &action, &g_previous) != 0) continue;
        // No thread is signalled now: a thread in nanosleep, poll, select or epoll_wait would
        // return EINTR (they are never restarted after a handler). Threads have their alternate
        // stacks from the pthread_create wrapper (thread_stack.c).
        g_signal = candidate;
        return g_signal;
    }
    return -1;
}

void seam_thread_context_uninstall(void) {
    if (g_signal <= 0) return;
    atomic_store(&g_mode, MODE_NONE);
    sigaction(g_signal, &g_previous, NULL);
    g_signal = -1;
}

// MARK: - Stack memory

typedef struct mapping { uintptr_t start, end; } mapping;
#define SEAM_MAX_MAPPINGS 4096
static mapping g_mappings[SEAM_MAX_MAPPINGS];
static size_t g_mapping_count;

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/// Reads the start-end of every readable and writable mapping from /proc/self/maps.
static void read_mappings(void) {
    static char buffer[4096];
    g_mapping_count = 0;
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    uintptr_t fields[2] = {0, 0};
    int field = 0, column = 0;   // column: 0 range, 1 permissions, 2 rest of line
    char perms[2] = {0, 0};
    int perm_at = 0;
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; i++) {
            char c = buffer[i];
            if (c == '\n') {
                if (perms[0] == 'r' && perms[1] == 'w' && g_mapping_count < SEAM_MAX_MAPPINGS) {
                    g_mappings[g_mapping_count].start = fields[0];
                    g_mappings[g_mapping_count].end = fields[1];
                    g_mapping_count++;
                }
                fields[0] = fields[1] = 0;
                field = column = perm_at = 0;
                perms[0] = perms[1] = 0;
            } else if (column == 0) {
                if (c == '-') field = 1;
                else if (c == ' ') column = 1;
                else if (hex_digit(c) >= 0) fields[field] = fields[field] * 16 + (uintptr_t)hex_digit(c);
            } else if (column == 1) {
                if (c == ' ') column = 2;
                else if (perm_at < 2) perms[perm_at++] = c;
            }
        }
    }
    close(fd);
}

/// The lowest readable-writable mapping that ends above address (the stack holding it, or just
/// above a stack pointer that overflowed into the guard page).
static const mapping *stack_mapping(uintptr_t address) {
    const mapping *best = NULL;
    for (size_t i = 0; i < g_mapping_count; i++) {
        if (g_mappings[i].end > address && (best == NULL || g_mappings[i].start < best->start)) best = &g_mappings[i];
    }
    return best;
}

/// Writes `length` bytes from `start` as one property; unreadable pages become zeros.
static void write_memory(seam_dump_writer *w, uint16_t key, uintptr_t start, size_t length) {
    static uint8_t page[4096];
    uint8_t header[7] = {SEAM_DUMP_PROPERTY, (uint8_t)key, (uint8_t)(key >> 8), (uint8_t)length,
                         (uint8_t)(length >> 8), (uint8_t)(length >> 16), (uint8_t)(length >> 24)};
    seam_writer_raw(w, header, sizeof header);
    for (size_t at = 0; at < length; at += sizeof page) {
        size_t chunk = length - at < sizeof page ? length - at : sizeof page;
        if (seam_safe_read((const void *)(start + at), page, chunk) != 0) {
            for (size_t i = 0; i < chunk; i++) page[i] = 0;
        }
        seam_writer_raw(w, page, chunk);
    }
}

/// Bytes kept free of stack memory for everything written after it (other threads' registers
/// and names, the exit time, END_DOCUMENT).
#define SEAM_TAIL_MARGIN (16u * 1024)

/// `want`, cut down so the dump stays inside the space reserved at install: when the disk has
/// filled since, memory beyond it would fail to write and leave the dump unfinished.
static size_t fit_reservation(const seam_dump_writer *w, size_t want) {
    if (g_seam_state.reserved == 0) return want;   // nothing reserved (file system without fallocate)
    uint64_t limit = g_seam_state.prelude_size + g_seam_state.reserved;
    uint64_t used = w->written + w->used + SEAM_TAIL_MARGIN;
    if (used >= limit) return 0;
    return limit - used < want ? (size_t)(limit - used) : want;
}

/// How far below its stack mapping a stack pointer may be and still be the thread's (one that
/// overflowed into the guard page, or the main thread's guard gap).
#define SEAM_STACK_GUARD_SLACK (2u * 1024 * 1024)
/// Bytes kept below the frame pointer when the window starts there.
#define SEAM_BELOW_FRAME_POINTER 4096u

/// STACK_START, STACK_BYTES, STACK_END, and for the crashed thread the outermost bytes too.
/// When the stack pointer is unusable (in no writable mapping, nor just below one) the window
/// starts a little below the frame pointer, so the frame-pointer chain is still in the dump.
static void write_stack(seam_dump_writer *w, uintptr_t sp, uintptr_t fp, size_t window, int keep_outer) {
    const mapping *stack = stack_mapping(sp);
    if (stack == NULL || (sp < stack->start && stack->start - sp > SEAM_STACK_GUARD_SLACK)) {
        stack = fp != 0 ? stack_mapping(fp) : NULL;
        if (stack == NULL || fp < stack->start) return;
        sp = fp - stack->start > SEAM_BELOW_FRAME_POINTER ? fp - SEAM_BELOW_FRAME_POINTER : stack->start;
    }
    uintptr_t start = sp > stack->start ? sp : stack->start;
    size_t length = fit_reservation(w, stack->end - start < window ? stack->end - start : window);
    seam_writer_u64(w, SEAM_DK_STACK_END, stack->end);
    seam_writer_u64(w, SEAM_DK_STACK_START, start);
    write_memory(w, SEAM_DK_STACK_BYTES, start, length);
    uintptr_t outer = stack->end - SEAM_OUTER_STACK_WINDOW;
    if (!keep_outer || stack->end - stack->start < SEAM_OUTER_STACK_WINDOW || outer < start + length ||
        fit_reservation(w, SEAM_OUTER_STACK_WINDOW) < SEAM_OUTER_STACK_WINDOW) return;
    seam_writer_start_array(w, SEAM_DK_MEMORY);
    seam_writer_start_map(w, SEAM_DK_NONE);
    seam_writer_u64(w, SEAM_DK_MEMORY_START, outer);
    write_memory(w, SEAM_DK_MEMORY_BYTES, outer, SEAM_OUTER_STACK_WINDOW);
    seam_writer_end(w);
    seam_writer_end(w);
}

static void write_thread(seam_dump_writer *w, pid_t tid, int crashed, int status, const void *context,
                         const void *fp_state) {
    char name[64];
    seam_thread_name(tid, name, sizeof name);
    seam_writer_start_map(w, SEAM_DK_NONE);
    seam_writer_u64(w, SEAM_DK_THREAD_ID, (uint64_t)tid);
    seam_writer_string(w, SEAM_DK_THREAD_NAME, name, sizeof name);
    seam_writer_u64(w, SEAM_DK_THREAD_CRASHED, crashed ? 1 : 0);
    seam_writer_u64(w, SEAM_DK_CONTEXT_STATUS, (uint64_t)status);
    if (context != NULL) {
        seam_write_registers(w, context);
        seam_write_fp_registers(w, fp_state);
        write_stack(w, seam_context_sp(context), seam_context_fp(context),
                    crashed ? SEAM_CRASHED_STACK_WINDOW : SEAM_STACK_WINDOW, crashed);
    } else if (!crashed) {
        // No context from the thread itself (it blocks every signal we could ask with, or did
        // not answer): what the kernel shows of a thread stopped in it, its stack pointer and
        // program counter, and the stack window above that stack pointer.
        uintptr_t sp, pc;
        if (seam_task_syscall_pointers(tid, &sp, &pc) == 1) {
            seam_write_stack_registers(w, sp, pc);
            write_stack(w, sp, 0, SEAM_STACK_WINDOW, 0);
        }
    }
    seam_writer_end(w);
}

void seam_write_thread_contexts(seam_dump_writer *w, pid_t crashed_tid, const void *crash_context) {
    static pid_t others[SEAM_MAX_THREADS];
    atomic_store(&g_dump_written, 0);
    atomic_store(&g_release, 0);
    size_t asked = g_signal > 0 ? ask_threads(MODE_CAPTURE, crashed_tid) : 0;
    read_mappings();
    if (asked > 0) wait_for_answers(SEAM_CONTEXT_DEADLINE_NS);
    seam_writer_start_array(w, SEAM_DK_THREADS);
    write_thread(w, crashed_tid, 1, SEAM_CONTEXT_CRASHED, crash_context,
                 crash_context != NULL ? seam_context_fp_state(crash_context) : NULL);
    for (size_t i = 0; i < asked; i++) {
        context_slot *slot = &g_slots[i];
        int done = atomic_load(&slot->state) == SLOT_DONE;
        int state = atomic_load(&slot->state);
        int status = done ? SEAM_CONTEXT_CAPTURED
                   : state == SLOT_ASKED ? SEAM_CONTEXT_NO_ANSWER
                   : state == SLOT_BLOCKED ? SEAM_CONTEXT_SIGNAL_BLOCKED : SEAM_CONTEXT_NOT_ASKED;
        write_thread(w, atomic_load(&slot->tid), 0, status, done ? &slot->context : NULL,
                     done && slot->has_fp_state ? slot->fp_state : NULL);
    }
    // Threads beyond the slots (or all of them when no signal could be reserved): names only.
    size_t found = seam_list_threads(others, SEAM_MAX_THREADS);
    for (size_t i = 0; i < found; i++) {
        int listed = others[i] == crashed_tid;
        for (size_t j = 0; j < asked && !listed; j++) listed = atomic_load(&g_slots[j].tid) == others[i];
        if (!listed) write_thread(w, others[i], 0, SEAM_CONTEXT_NOT_ASKED, NULL, NULL);
    }
    seam_writer_end(w);
    atomic_store(&g_mode, MODE_NONE);
    atomic_store(&g_dump_written, 1);
}

void seam_thread_context_settle(void) {
    for (int i = 0; i < 2000 && atomic_load(&g_unblocked) < atomic_load(&g_parked); i++) sleep_briefly(100000);
    return_sigprof();
}

void seam_thread_context_release(void) { atomic_store(&g_release, 1); }
