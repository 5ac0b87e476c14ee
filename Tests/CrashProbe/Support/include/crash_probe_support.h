// Ways for the CrashProbe test executable to die, and its allocation tripwire.
#ifndef CRASH_PROBE_SUPPORT_H
#define CRASH_PROBE_SUPPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/// Exit status the malloc interposer uses when anything allocates during crash handling.
#define CRASH_PROBE_ALLOCATED_IN_HANDLER 97

void crash_probe_segv(void);
void crash_probe_bus(void);
void crash_probe_ill(void);
void crash_probe_fpe(void);
void crash_probe_abort(void);
void crash_probe_trap(void);
void crash_probe_term(void);
void crash_probe_throw_cxx(void);
void crash_probe_throw_int(void);
/// SIGSEGV inside the C++ method probe::Crasher::crash(int).
void crash_probe_segv_in_cxx(void);
/// Unbounded recursion: overflows the main thread's stack (the handler runs on the alternate stack).
int crash_probe_overflow(int depth);
/// Starts `count` threads that all dereference NULL at the same moment.
void crash_probe_threads(int count);
/// SIGSEGV with the stack pointer zeroed, two callers up an intact frame-pointer chain
/// (crash_probe_bad_stack_pointer -> crash_probe_bad_sp_middle -> crash_probe_zero_stack_pointer).
void crash_probe_bad_stack_pointer(void);
/// Starts a thread named "probe-blocked" that blocks every signal and sleeps in
/// crash_probe_blocked_sleeper, then dereferences an unmapped address on this thread.
void crash_probe_blocked_thread_then_segv(void);
/// Fills the file system holding `directory` with a file until writes fail with ENOSPC (0).
int crash_probe_fill_disk(const char *directory);
/// Forks a child that sleeps without exec, then the parent dereferences NULL.
void crash_probe_fork_child_waits_parent_crashes(void);
/// Forks a child that dereferences NULL; returns the signal it died of.
int crash_probe_fork_child_crashes(void);
/// Starts threads calling nanosleep, clock_nanosleep, poll, select and epoll_wait in tight
/// loops, installs and uninstalls capture (dump directory `directory`) `installs` times, prints
/// the counts and returns how many calls returned EINTR (-1 when setting up or an install failed).
long crash_probe_install_race(const char *directory, int installs);
/// Starts a thread that blocks in read() until told, then overflows its stack (0, or -1).
int crash_probe_start_thread_waiting_to_overflow(void);
/// Tells that thread to overflow its stack and waits for it.
void crash_probe_tell_thread_to_overflow(void);
/// Test-only entry point of the capture layer, deliberately absent from its public headers:
/// a function the signal handler calls after writing the signal section, used to prove that a
/// crash inside the handler neither hangs nor loses the original signal.
void seam_capture_set_handler_hook_for_testing(void (*hook)(void));
/// Handler hooks (seam_capture_set_handler_hook_for_testing).
void crash_probe_hook_fault(void);
void crash_probe_hook_allocate(void);
/// Turns the tripwire off: it fails on any thread's allocation while the handler runs, and the
/// Swift concurrency runtime's own threads (which block the context request) may allocate then.
void crash_probe_tripwire_disable(void);
/// Number of allocator calls seen by the interposer (proves it is live).
unsigned long crash_probe_allocation_count(void);

#ifdef __cplusplus
}
#endif
#endif
