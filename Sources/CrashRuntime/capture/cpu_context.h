// Registers and the crashing thread's call stack, taken from the signal's ucontext.
#ifndef SEAM_CPU_CONTEXT_H
#define SEAM_CPU_CONTEXT_H

#include "dump_writer.h"
#include "module_list.h"

#include <stddef.h>
#include <stdint.h>

#define SEAM_MAX_FRAMES 128
/// Outermost frames kept of a frame-pointer chain longer than SEAM_MAX_FRAMES.
#define SEAM_MAX_OUTER_FRAMES 64
/// Swift async frames followed through async contexts at most.
#define SEAM_MAX_ASYNC_FRAMES 64

typedef struct seam_stack_trace {
    size_t count;
    uintptr_t address[SEAM_MAX_FRAMES];
    uint8_t trust[SEAM_MAX_FRAMES];   // seam_dump_frame_trust
    /// Frames the whole walk found; when above count, the last ones are in `outer` (a ring).
    size_t total;
    uintptr_t outer[SEAM_MAX_OUTER_FRAMES];
    /// Swift async callers of the innermost async frame: resume functions from its task's
    /// async contexts (parent chain), innermost first.
    size_t async_count;
    uintptr_t async[SEAM_MAX_ASYNC_FRAMES];
} seam_stack_trace;

/// The stack pointer of an interrupted context.
uintptr_t seam_context_sp(const void *ucontext);
/// The frame pointer of an interrupted context (rbp, x29).
uintptr_t seam_context_fp(const void *ucontext);
/// Writes ARCHITECTURE and a REGISTERS array holding only the stack pointer and program
/// counter (a thread known only from what the kernel shows of it).
void seam_write_stack_registers(seam_dump_writer *w, uintptr_t sp, uintptr_t pc);
/// Writes the floating-point state (FP_REGISTERS) of a context whose fpregs pointer is valid.
void seam_write_fp_registers(seam_dump_writer *w, const void *fp_state);
/// The fpregs pointer of a context (x86_64), or NULL.
const void *seam_context_fp_state(const void *ucontext);
/// Size of the state seam_context_fp_state points to.
#define SEAM_FP_STATE_SIZE 512

/// Writes ARCHITECTURE and the REGISTERS array for the interrupted context.
void seam_write_registers(seam_dump_writer *w, const void *ucontext);
/// Walks the stack of the interrupted context: the program counter, return addresses found
/// by scanning the words below the first frame pointer, then the frame-pointer chain.
/// Every stack and code read goes through seam_safe_read.
void seam_walk_stack(const void *ucontext, const seam_module_set *modules, seam_stack_trace *out);

#endif
