// Alternate signal stacks for every thread, so a stack overflow on any thread still runs the
// handler: threads created with pthread_create from the program's start until uninstall get one
// from the pthread_create wrapper, the installing thread gets one at install, and a thread
// started any other way calls seam_capture_prepare_thread(). Install signals no thread.
#ifndef SEAM_THREAD_STACK_H
#define SEAM_THREAD_STACK_H

#include <stddef.h>

#define SEAM_ALTSTACK_SIZE (128 * 1024)

/// Computes the stack size (sysconf); call once before any other function here.
void seam_thread_stack_init(void);
/// Gives the calling thread an alternate signal stack unless it has one, released when the
/// thread exits. Not signal-safe. Returns 0, or -1 with errno set.
int seam_thread_stack_prepare(void);
/// Turns the pthread_create wrapper on or off (threads created while on get a stack); it is on
/// from the program's start.
void seam_thread_stack_wrap_new_threads(int enabled);

#endif
