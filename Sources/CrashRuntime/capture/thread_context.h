// Every thread's registers and stack memory at crash time. Each other thread is sent a reserved
// real-time signal; its handler copies its own interrupted context into a slot and stays in
// the handler, so its stack does not change, until the crashing thread has written the dump
// (or a deadline passes). A thread that does not answer in time is listed without registers.
#ifndef SEAM_THREAD_CONTEXT_H
#define SEAM_THREAD_CONTEXT_H

#include "dump_writer.h"

#include <sys/types.h>

/// Threads asked for their context at most; the rest are listed by id and name only.
#define SEAM_MAX_CONTEXT_THREADS 128
/// How long the crashing thread waits for all answers, in total.
#define SEAM_CONTEXT_DEADLINE_NS (200u * 1000 * 1000)
/// Stack bytes kept per thread, from its stack pointer upward; the crashed thread also keeps
/// the outermost bytes of its stack.
#define SEAM_STACK_WINDOW (64u * 1024)
#define SEAM_CRASHED_STACK_WINDOW (256u * 1024)
#define SEAM_OUTER_STACK_WINDOW (32u * 1024)

/// Picks an unused real-time signal and installs its handler; signals no thread. Returns the
/// signal, or -1 when none is free.
int seam_thread_context_install(void);
void seam_thread_context_uninstall(void);
/// Writes the THREADS array: every thread's id and name, and for each its registers and stack
/// window (the crashed thread's from `crash_context`). Releases the parked threads after.
void seam_write_thread_contexts(seam_dump_writer *w, pid_t crashed_tid, const void *crash_context);
/// After the dump, before the signal goes on: waits (at most 200 ms) until every parked thread
/// has put back its own signal mask, then gives back SIGPROF if a capture borrowed it. The
/// threads stay parked in the handler until the process dies: the handler chained to next (the
/// Swift runtime's backtracer) pauses the other threads with a signal, which they now take.
void seam_thread_context_settle(void);
/// Lets the parked threads return into the program: the process survived the signal (an
/// application's handler dealt with it).
void seam_thread_context_release(void);
/// How long a parked thread waits for the process to die before it returns anyway.
#define SEAM_PARK_LIMIT_MS (600L * 1000)

#endif
