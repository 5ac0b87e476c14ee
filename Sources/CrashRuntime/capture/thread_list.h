// The process's threads, read from /proc/self/task with raw syscalls (signal-safe).
#ifndef SEAM_THREAD_LIST_H
#define SEAM_THREAD_LIST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// Reads /proc/self/task/<tid>/<leaf> into buffer (NUL-terminated); returns the bytes read, or
/// -1 when unreadable. Only open/read/close: safe in a signal handler.
ssize_t seam_task_file_read(pid_t tid, const char *leaf, char *buffer, size_t size);
/// The user stack pointer and program counter the kernel shows for a thread stopped in it
/// (/proc/self/task/<tid>/syscall: a blocking system call, a page fault). Returns 1 with both
/// set, 0 when the thread is running (nothing to read), -1 when unreadable. Signal-safe.
int seam_task_syscall_pointers(pid_t tid, uintptr_t *sp, uintptr_t *pc);

/// Reads /proc/self/task/<tid>/comm into name (NUL-terminated, "" when unreadable).
void seam_thread_name(pid_t tid, char *name, size_t size);
#define SEAM_MAX_THREADS 4096

/// Fills tids with the process's thread ids from /proc/self/task; returns how many (at most max).
size_t seam_list_threads(pid_t *tids, size_t max);

#endif
