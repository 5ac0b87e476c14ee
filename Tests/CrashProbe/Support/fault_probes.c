// CrashProbe modes for the fault conditions a server meets: a disk that fills after install,
// a child forked without exec, a thread whose alternate stack comes from
// seam_capture_prepare_thread().
#define _GNU_SOURCE
#include "crash_probe_support.h"
#include "seam_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int crash_probe_fill_disk(const char *directory) {
    char path[4096];
    snprintf(path, sizeof path, "%s/filler", directory);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    static char block[4096];
    memset(block, 0x5a, sizeof block);
    long total = 0;
    for (;;) {
        ssize_t n = write(fd, block, sizeof block);
        if (n <= 0) break;
        total += n;
    }
    int full = errno == ENOSPC;
    // A single byte at a time, so not even a partial block is left free.
    while (write(fd, block, 1) == 1) total++;
    close(fd);
    printf("filled %ld bytes\n", total);
    fflush(stdout);
    return full ? 0 : -1;
}

void crash_probe_fork_child_waits_parent_crashes(void) {
    pid_t child = fork();
    if (child == 0) {
        int null = open("/dev/null", O_WRONLY);   // let the test's pipes close with the parent
        dup2(null, 1);
        dup2(null, 2);
        // Foundation's Process learns that the probe ended when a socket closes: the child
        // must not keep it open. A descriptor of the dump is kept if it is still open: whether
        // the library let go of it in the child is what is being tested.
        for (int fd = 3; fd < 1024; fd++) {
            char link[64], target[4096];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t n = readlink(link, target, sizeof target - 1);
            if (n < 0 || fd == null) continue;
            target[n] = '\0';
            // The dump was opened under its hidden creation name (since unlinked).
            if (strstr(target, ".seamdump") == NULL && strstr(target, ".creating") == NULL) close(fd);
        }
        sleep(30);   // a worker that never execs; the test kills it
        _exit(0);
    }
    printf("child %d\n", (int)child);
    fflush(stdout);
    crash_probe_segv();
}

int crash_probe_fork_child_crashes(void) {
    pid_t child = fork();
    if (child == 0) crash_probe_segv();
    int status = 0;
    waitpid(child, &status, 0);
    printf("child %d died of %d\n", (int)child, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    fflush(stdout);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}
