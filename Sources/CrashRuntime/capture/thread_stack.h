// Alternate signal stacks for every thread, so a stack overflow on any thread still runs the
// handler: threads created after install get one from the pthread_create wrapper, the
// installing thread and threads already running get one at install, others call
// seam_capture_prepare_thread().
#ifndef SEAM_THREAD_STACK_H
#define SEAM_THREAD_STACK_H

#include <stddef.h>

#define SEAM_ALTSTACK_SIZE (128 * 1024)

/// Gives the calling thread an alternate signal stack unless it has one. Not signal-safe in
/// general (pthread_setspecific); `from_signal` skips the release-at-exit registration so it
/// can run inside the install-time signal that prepares running threads.
/// Returns 0, or -1 with errno set.
int seam_thread_stack_prepare(int from_signal);
/// Turns the pthread_create wrapper on or off (threads created while on get a stack).
void seam_thread_stack_wrap_new_threads(int enabled);

#endif
