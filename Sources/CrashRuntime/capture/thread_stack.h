// Alternate signal stacks for every thread, so a stack overflow on any thread still runs the
// handler: threads created after install get one from the pthread_create wrapper, the
// installing thread and threads already running get one at install, others call
// seam_capture_prepare_thread().
#ifndef SEAM_THREAD_STACK_H
#define SEAM_THREAD_STACK_H

#include <stddef.h>

#define SEAM_ALTSTACK_SIZE (128 * 1024)

/// Computes the stack size (sysconf); call once before any other function here.
void seam_thread_stack_init(void);
/// Gives the calling thread an alternate signal stack unless it has one, released when the
/// thread exits. Not signal-safe. Returns 0, or -1 with errno set.
int seam_thread_stack_prepare(void);
/// The same with system calls only, for the install-time signal that prepares the threads
/// already running; their stacks stay mapped until the process ends.
int seam_thread_stack_prepare_in_signal(void);
/// Turns the pthread_create wrapper on or off (threads created while on get a stack).
void seam_thread_stack_wrap_new_threads(int enabled);

#endif
