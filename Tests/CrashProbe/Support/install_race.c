// CrashProbe modes for what install does to threads that already run:
//  - install-race: threads that sleep, poll, select and wait on epoll in tight loops (with a
//    little work between calls, so install often finds them running) while the main thread
//    installs and uninstalls capture many times. No call may return EINTR: without capture none
//    would, since nothing else signals these threads.
//  - overflow-preexisting-thread: a thread started before install, blocked in read() while
//    install runs, overflows its stack afterwards; it must still be reported.
#define _GNU_SOURCE
#include "crash_probe_support.h"
#include "seam_capture.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

enum { KIND_NANOSLEEP, KIND_CLOCK_NANOSLEEP, KIND_POLL, KIND_SELECT, KIND_EPOLL, KIND_COUNT };
static const char *const k_kind_names[KIND_COUNT] = {"nanosleep", "clock_nanosleep", "poll", "select", "epoll_wait"};

static _Atomic int g_stop;
static _Atomic long g_calls[KIND_COUNT];
static _Atomic long g_interrupted[KIND_COUNT];
static int g_idle_pipe[2];   // never written: poll, select and epoll wait on it until their timeout
static int g_epoll = -1;

/// A few microseconds of work, so the thread is often running its own code when install looks.
static void spin(void) {
    volatile unsigned long sink = 0;
    for (unsigned long i = 0; i < 2000; i++) sink += i;
}

static int blocking_call(int kind) {
    switch (kind) {
    case KIND_NANOSLEEP: {
        struct timespec pause = {0, 20000};
        return nanosleep(&pause, NULL);
    }
    case KIND_CLOCK_NANOSLEEP: {
        struct timespec pause = {0, 20000};
        int error = clock_nanosleep(CLOCK_MONOTONIC, 0, &pause, NULL);
        if (error != 0) errno = error;
        return error == 0 ? 0 : -1;
    }
    case KIND_POLL: {
        struct pollfd idle = {.fd = g_idle_pipe[0], .events = POLLIN};
        return poll(&idle, 1, 1);
    }
    case KIND_SELECT: {
        fd_set readable;
        FD_ZERO(&readable);
        FD_SET(g_idle_pipe[0], &readable);
        struct timeval timeout = {0, 50};
        return select(g_idle_pipe[0] + 1, &readable, NULL, NULL, &timeout);
    }
    default: {
        struct epoll_event event;
        return epoll_wait(g_epoll, &event, 1, 1);
    }
    }
}

static void *call_in_a_loop(void *value) {
    int kind = (int)(long)value;
    while (!atomic_load(&g_stop)) {
        spin();
        errno = 0;
        int result = blocking_call(kind);
        atomic_fetch_add(&g_calls[kind], 1);
        if (result < 0 && errno == EINTR) atomic_fetch_add(&g_interrupted[kind], 1);
    }
    return NULL;
}

long crash_probe_install_race(const char *directory, int installs) {
    if (pipe(g_idle_pipe) != 0) return -1;
    g_epoll = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event watch = {.events = EPOLLIN};
    if (g_epoll < 0 || epoll_ctl(g_epoll, EPOLL_CTL_ADD, g_idle_pipe[0], &watch) != 0) return -1;
    pthread_t threads[KIND_COUNT * 2];
    for (int i = 0; i < KIND_COUNT * 2; i++) {
        if (pthread_create(&threads[i], NULL, call_in_a_loop, (void *)(long)(i % KIND_COUNT)) != 0) return -1;
    }
    usleep(20000);   // every thread is in its loop
    char error[512];
    seam_capture_config config;
    memset(&config, 0, sizeof config);
    config.dump_directory = directory;
    int installed = 0;
    for (int i = 0; i < installs; i++) {
        if (seam_capture_install(&config, error, sizeof error) != 0) {
            fprintf(stderr, "CrashProbe: install %d failed: %s\n", i + 1, error);
            break;
        }
        installed++;
        seam_capture_uninstall();
    }
    usleep(20000);   // a signal sent by the last install has arrived
    atomic_store(&g_stop, 1);
    for (int i = 0; i < KIND_COUNT * 2; i++) pthread_join(threads[i], NULL);
    long calls = 0, interrupted = 0;
    for (int kind = 0; kind < KIND_COUNT; kind++) {
        calls += atomic_load(&g_calls[kind]);
        interrupted += atomic_load(&g_interrupted[kind]);
    }
    printf("install-race: %d installs, %ld calls, %ld interrupted (EINTR)", installed, calls, interrupted);
    for (int kind = 0; kind < KIND_COUNT; kind++) {
        printf("; %s %ld/%ld", k_kind_names[kind], atomic_load(&g_interrupted[kind]), atomic_load(&g_calls[kind]));
    }
    printf("\n");
    fflush(stdout);
    return installed == installs ? interrupted : -1;
}

static int g_go[2] = {-1, -1};
static pthread_t g_overflower;

static void *overflow_when_told(void *unused) {
    (void)unused;
    char byte;
    while (read(g_go[0], &byte, 1) < 0 && errno == EINTR) {}
    printf("%d\n", crash_probe_overflow(0));
    return NULL;
}

int crash_probe_start_thread_waiting_to_overflow(void) {
    if (pipe(g_go) != 0 || pthread_create(&g_overflower, NULL, overflow_when_told, NULL) != 0) return -1;
    usleep(50000);   // it is blocked in read()
    return 0;
}

void crash_probe_tell_thread_to_overflow(void) {
    if (write(g_go[1], "x", 1) == 1) pthread_join(g_overflower, NULL);
}
