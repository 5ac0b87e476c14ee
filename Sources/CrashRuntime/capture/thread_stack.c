// Alternate signal stacks for every thread. Without one, a thread that overflows its stack
// cannot run any signal handler and dies without a dump. Like Crashpad's client, this file
// defines pthread_create: the executable's definition comes first in symbol lookup, so every
// thread (pthreads, Foundation.Thread, Dispatch and Swift concurrency workers) starts through
// start_with_signal_stack, which maps a stack and releases it when the thread exits. The wrapper
// is on from the program's start, not from install: install sends no signal to the threads
// already running (a signal cuts a sleep short with EINTR, whatever SA_RESTART says), so a
// thread created before install has its stack from its creation, even one blocked in the kernel
// while install runs.
#define _GNU_SOURCE
#include "thread_stack.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

typedef struct start_params {
    void *(*start)(void *);
    void *argument;
} start_params;

/// A mapping we made: guard page, then the stack.
typedef struct owned_stack {
    void *mapping;
    size_t length;
    void *base;
} owned_stack;

static _Atomic int g_wrap_new_threads;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_key;
static int g_key_ready;

/// Thread exit: disables the stack if it is still ours, then unmaps it.
static void release_stack(void *value) {
    owned_stack *owned = value;
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && current.ss_sp == owned->base) {
        stack_t disable = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
        if (sigaltstack(&disable, NULL) != 0) return;   // still in use: leave it mapped
    }
    munmap(owned->mapping, owned->length);
    free(owned);
}

static void make_key(void) { g_key_ready = pthread_key_create(&g_key, release_stack) == 0; }

static size_t g_page, g_size;   // sizes computed outside any signal handler

static void compute_sizes(void) {
    long page = sysconf(_SC_PAGESIZE);
    long minimum = sysconf(_SC_SIGSTKSZ);
    g_page = page > 0 ? (size_t)page : 4096;
    g_size = SEAM_ALTSTACK_SIZE;
    if (minimum > 0 && (size_t)minimum * 4 > g_size) g_size = (size_t)minimum * 4;
}

void seam_thread_stack_init(void) {
    if (g_size == 0) compute_sizes();
}

/// Maps a stack (guard page first) and makes it the calling thread's alternate signal stack,
/// unless the thread has one. Returns the mapping, or NULL (with errno) when the thread had one
/// already or it failed.
static char *map_signal_stack(void) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return NULL;
    size_t length = g_size + g_page;
    char *memory = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return NULL;
    mprotect(memory, g_page, PROT_NONE);   // guard page below the stack
    stack_t stack = {.ss_sp = memory + g_page, .ss_size = g_size, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) {
        int saved = errno;
        munmap(memory, length);
        errno = saved;
        return NULL;
    }
    return memory;
}

int seam_thread_stack_prepare(void) {
    seam_thread_stack_init();
    errno = 0;
    char *memory = map_signal_stack();
    if (memory == NULL) return errno == 0 ? 0 : -1;
    size_t length = g_size + g_page;
    stack_t stack = {.ss_sp = memory + g_page};
    pthread_once(&g_key_once, make_key);
    owned_stack *owned = g_key_ready ? malloc(sizeof *owned) : NULL;
    if (owned != NULL) {
        owned->mapping = memory;
        owned->length = length;
        owned->base = stack.ss_sp;
        if (pthread_setspecific(g_key, owned) != 0) free(owned);
    }
    return 0;
}

void seam_thread_stack_wrap_new_threads(int enabled) { atomic_store(&g_wrap_new_threads, enabled); }

/// Turns the wrapper on when the program starts (before main), so every thread the program
/// creates has an alternate stack by the time capture is installed.
__attribute__((constructor)) static void wrap_from_program_start(void) {
    seam_thread_stack_init();
    atomic_store(&g_wrap_new_threads, 1);
}

static void *start_with_signal_stack(void *value) {
    start_params params = *(start_params *)value;
    free(value);
    seam_thread_stack_prepare();
    return params.start(params.argument);
}

static pthread_create_fn next_pthread_create(void) {
    static _Atomic(pthread_create_fn) next;
    pthread_create_fn found = atomic_load(&next);
    if (found == NULL) {
        found = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
        atomic_store(&next, found);
    }
    return found;
}

__attribute__((visibility("default"))) int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                                          void *(*start)(void *), void *argument) {
    pthread_create_fn next = next_pthread_create();
    if (next == NULL) return EAGAIN;
    start_params *params = atomic_load(&g_wrap_new_threads) ? malloc(sizeof *params) : NULL;
    if (params == NULL) return next(thread, attr, start, argument);
    params->start = start;
    params->argument = argument;
    int result = next(thread, attr, start_with_signal_stack, params);
    if (result != 0) free(params);
    return result;
}
