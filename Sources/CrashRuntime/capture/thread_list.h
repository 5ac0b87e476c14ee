// The process's threads, read from /proc/self/task with raw syscalls (signal-safe).
#ifndef SEAM_THREAD_LIST_H
#define SEAM_THREAD_LIST_H

#include <stddef.h>
#include <sys/types.h>

/// Reads /proc/self/task/<tid>/comm into name (NUL-terminated, "" when unreadable).
void seam_thread_name(pid_t tid, char *name, size_t size);
#define SEAM_MAX_THREADS 4096

/// Fills tids with the process's thread ids from /proc/self/task; returns how many (at most max).
size_t seam_list_threads(pid_t *tids, size_t max);

#endif
