// Unwinding probes: a crash with a corrupt stack pointer under an intact frame-pointer chain,
// and a thread that blocks every signal, stopped in a system call while another thread crashes.
#define _GNU_SOURCE
#include "crash_probe_support.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, optnone))

/// Zeroes the stack pointer, then stores through it: SIGSEGV at address 0 with rsp/sp 0, the
/// frame pointer still naming this function's frame record.
NOINLINE void crash_probe_zero_stack_pointer(void) {
#if defined(__x86_64__)
    __asm__ volatile("xorl %%esp, %%esp\n\tmovq $0, (%%rsp)" ::: "memory");
#elif defined(__aarch64__)
    __asm__ volatile("mov x9, #0\n\tmov sp, x9\n\tstr xzr, [sp]" ::: "x9", "memory");
#endif
}

NOINLINE void crash_probe_bad_sp_middle(void) {
    crash_probe_zero_stack_pointer();
}

NOINLINE void crash_probe_bad_stack_pointer(void) {
    crash_probe_bad_sp_middle();
}

static volatile int g_blocked_ready;

/// Where the thread that blocks every signal sits: one long sleep.
NOINLINE void crash_probe_blocked_sleeper(void) {
    g_blocked_ready = 1;
    struct timespec forever = {600, 0};
    nanosleep(&forever, NULL);
}

static void *blocked_thread(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, NULL);
    pthread_setname_np(pthread_self(), "probe-blocked");
    crash_probe_blocked_sleeper();
    return NULL;
}

void crash_probe_blocked_thread_then_segv(void) {
    pthread_t thread;
    pthread_create(&thread, NULL, blocked_thread, NULL);
    while (!g_blocked_ready) usleep(1000);
    usleep(50000);   // into its nanosleep
    crash_probe_segv();
}
