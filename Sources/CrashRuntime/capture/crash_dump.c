// The sections of a crash dump, in the order the handler writes them. The cheap, most
// valuable facts (signal, exception) come first so a dump cut short still names the crash.
#define _GNU_SOURCE
#include "capture_state.h"
#include "cpu_context.h"
#include "dump_writer.h"
#include "fatal_message.h"
#include "module_list.h"
#include "seam_dump_format.h"
#include "thread_context.h"
#include "thread_list.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint64_t seam_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static int has_fault_address(int signal) {
    return signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE || signal == SIGTRAP;
}

static void write_signal(seam_dump_writer *w, int signal, const siginfo_t *info) {
    seam_writer_start_map(w, SEAM_DK_SIGNAL);
    seam_writer_u64(w, SEAM_DK_SIGNAL_NUMBER, (uint64_t)signal);
    seam_writer_u64(w, SEAM_DK_SIGNAL_CODE, (uint64_t)(int64_t)info->si_code);
    if (has_fault_address(signal) && info->si_code > 0) {
        seam_writer_u64(w, SEAM_DK_SIGNAL_ADDRESS, (uint64_t)(uintptr_t)info->si_addr);
    }
    if (info->si_code <= 0) seam_writer_u64(w, SEAM_DK_SIGNAL_SENDER_PID, (uint64_t)info->si_pid);
    seam_writer_end(w);
}

static void write_exception(seam_dump_writer *w) {
    if (g_seam_terminate_called) seam_writer_u64(w, SEAM_DK_TERMINATE_CALLED, 1);
    if (!g_seam_exception_recorded) return;
    seam_writer_start_map(w, SEAM_DK_EXCEPTION);
    seam_writer_string(w, SEAM_DK_EXCEPTION_TYPE, g_seam_exception_type, SEAM_EXCEPTION_TYPE_MAX);
    if (g_seam_exception_recorded > 1) {
        seam_writer_string(w, SEAM_DK_EXCEPTION_WHAT, g_seam_exception_what, SEAM_EXCEPTION_WHAT_MAX);
    }
    seam_writer_end(w);
}

/// OUTER_FRAMES and FRAME_COUNT when the frame-pointer chain was longer than FRAMES holds.
static void write_outer_frames(seam_dump_writer *w, const seam_stack_trace *trace) {
    if (trace->total <= trace->count) return;
    size_t beyond = trace->total - trace->count;
    size_t kept = beyond < SEAM_MAX_OUTER_FRAMES ? beyond : SEAM_MAX_OUTER_FRAMES;
    size_t first = beyond - kept;
    seam_writer_start_array(w, SEAM_DK_OUTER_FRAMES);
    for (size_t i = first; i < beyond; i++) {
        seam_writer_start_map(w, SEAM_DK_NONE);
        seam_writer_u64(w, SEAM_DK_FRAME_ADDRESS, trace->outer[i % SEAM_MAX_OUTER_FRAMES]);
        seam_writer_u64(w, SEAM_DK_FRAME_TRUST, SEAM_FRAME_TRUST_FRAME_POINTER);
        seam_writer_end(w);
    }
    seam_writer_end(w);
    seam_writer_u64(w, SEAM_DK_FRAME_COUNT, trace->total);
}

static void write_crashed_thread(seam_dump_writer *w, const void *ucontext, const seam_module_set *modules) {
    static seam_stack_trace trace;
    char name[64];
    pid_t tid = (pid_t)syscall(SYS_gettid);
    seam_thread_name(tid, name, sizeof name);
    seam_writer_start_map(w, SEAM_DK_CRASHED_THREAD);
    seam_writer_u64(w, SEAM_DK_THREAD_ID, (uint64_t)tid);
    seam_writer_string(w, SEAM_DK_THREAD_NAME, name, sizeof name);
    if (ucontext != NULL) {
        seam_write_registers(w, ucontext);
        seam_walk_stack(ucontext, modules, &trace);
        seam_writer_start_array(w, SEAM_DK_FRAMES);
        for (size_t i = 0; i < trace.count; i++) {
            seam_writer_start_map(w, SEAM_DK_NONE);
            seam_writer_u64(w, SEAM_DK_FRAME_ADDRESS, trace.address[i]);
            seam_writer_u64(w, SEAM_DK_FRAME_TRUST, trace.trust[i]);
            seam_writer_end(w);
        }
        seam_writer_end(w);
        write_outer_frames(w, &trace);
        if (trace.async_count > 0) {
            seam_writer_start_array(w, SEAM_DK_ASYNC_FRAMES);
            for (size_t i = 0; i < trace.async_count; i++) {
                seam_writer_start_map(w, SEAM_DK_NONE);
                seam_writer_u64(w, SEAM_DK_FRAME_ADDRESS, trace.async[i]);
                seam_writer_u64(w, SEAM_DK_FRAME_TRUST, SEAM_FRAME_TRUST_ASYNC);
                seam_writer_end(w);
            }
            seam_writer_end(w);
        }
    }
    seam_writer_end(w);
}

static void write_modules(seam_dump_writer *w, const seam_module_set *modules) {
    seam_writer_start_array(w, SEAM_DK_MODULES);
    for (size_t i = 0; i < modules->count; i++) {
        const seam_module *m = &modules->modules[i];
        seam_writer_start_map(w, SEAM_DK_NONE);
        seam_writer_string(w, SEAM_DK_MODULE_PATH, m->path, SEAM_PATH_MAX);
        seam_writer_u64(w, SEAM_DK_MODULE_BIAS, m->bias);
        seam_writer_u64(w, SEAM_DK_MODULE_START, m->start);
        seam_writer_u64(w, SEAM_DK_MODULE_END, m->end);
        if (m->build_id_length > 0) seam_writer_bytes(w, SEAM_DK_MODULE_BUILD_ID, m->build_id, m->build_id_length);
        seam_writer_u64(w, SEAM_DK_MODULE_SOURCE, m->source);
        seam_writer_end(w);
    }
    seam_writer_end(w);
}

void seam_write_crash_sections(seam_dump_writer *w, int signal, const siginfo_t *info,
                               const void *ucontext, uint64_t entry_mono_ns, uint64_t entry_real_sec,
                               uint64_t entry_real_nsec) {
    static seam_module_set modules;
    seam_writer_u64(w, SEAM_DK_CRASH_TIME_SEC, entry_real_sec);
    seam_writer_u64(w, SEAM_DK_CRASH_TIME_NSEC, entry_real_nsec);
    seam_writer_u64(w, SEAM_DK_HANDLER_ENTRY_MONO_NS, entry_mono_ns);
    write_signal(w, signal, info);
    write_exception(w);
    seam_write_fatal_error_message(w);
    void (*hook)(void) = g_seam_handler_hook;
    if (hook != NULL) hook();
    seam_modules_collect(&modules);
    write_crashed_thread(w, ucontext, &modules);
    write_modules(w, &modules);
    seam_write_thread_contexts(w, (pid_t)syscall(SYS_gettid), ucontext);
}
