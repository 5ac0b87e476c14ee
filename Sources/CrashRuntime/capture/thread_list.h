// The process's threads, read from /proc/self/task with raw syscalls (signal-safe).
#ifndef SEAM_THREAD_LIST_H
#define SEAM_THREAD_LIST_H

#include "dump_writer.h"
#include <sys/types.h>

/// Reads /proc/self/task/<tid>/comm into name (NUL-terminated, "" when unreadable).
void seam_thread_name(pid_t tid, char *name, size_t size);
/// Writes the THREADS array: one map per thread, the crashed one flagged.
void seam_write_threads(seam_dump_writer *w, pid_t crashed_tid);

#endif
