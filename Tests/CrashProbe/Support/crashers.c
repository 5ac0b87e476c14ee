// Real crashes, one function per signal; kept out of line so each appears as its own frame.
#define _GNU_SOURCE
#include "crash_probe_support.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, optnone))

NOINLINE void crash_probe_segv(void) {
    *(volatile int *)(uintptr_t)0x10 = 1;
}

NOINLINE void crash_probe_bus(void) {
    int fd = memfd_create("crash-probe-bus", 0);     // empty file: touching its page is SIGBUS
    volatile char *page = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    (void)page[0];
}

NOINLINE void crash_probe_ill(void) {
    __builtin_trap();
}

NOINLINE void crash_probe_fpe(void) {
    volatile int zero = 0;
    volatile int result = 1 / zero;
    (void)result;
}

NOINLINE void crash_probe_abort(void) {
    abort();
}

NOINLINE void crash_probe_trap(void) {
    __builtin_debugtrap();
}

NOINLINE void crash_probe_term(void) {
    kill(getpid(), SIGTERM);
    for (;;) pause();
}

NOINLINE int crash_probe_overflow(int depth) {
    volatile char pad[256];
    pad[0] = (char)depth;
    return crash_probe_overflow(depth + 1) + pad[0];
}

NOINLINE void crash_probe_hook_fault(void) {
    *(volatile int *)(uintptr_t)0x20 = 2;
}

NOINLINE void crash_probe_hook_allocate(void) {
    void *volatile memory = malloc(64);
    free(memory);
}

static pthread_barrier_t g_start;

static void *crash_together(void *unused) {
    (void)unused;
    pthread_barrier_wait(&g_start);
    crash_probe_segv();
    return NULL;
}

void crash_probe_threads(int count) {
    pthread_barrier_init(&g_start, NULL, (unsigned)count);
    for (int i = 0; i < count; i++) {
        pthread_t thread;
        pthread_create(&thread, NULL, crash_together, NULL);
    }
    for (;;) pause();
}
